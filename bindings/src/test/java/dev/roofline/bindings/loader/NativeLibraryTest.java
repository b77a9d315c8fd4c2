package dev.roofline.bindings.loader;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The native-access flag names the module that calls the library being loaded, for NVML as for CUDA. */
class NativeLibraryTest {

    @Test
    void nvmlsFlagNamesRooflineNvmlNotRooflineCuda() {
        assertThat(NativeLibrary.NVML.nativeAccessFlag())
                .isEqualTo("--enable-native-access=dev.roofline.bindings,dev.roofline.nvml");
        assertThat(new NativeAccessDeniedException(NativeLibrary.NVML, "loading /x/libnvidia-ml.so.1", null))
                .hasMessage("native access denied while loading /x/libnvidia-ml.so.1: start the JVM with "
                        + "--enable-native-access=dev.roofline.bindings,dev.roofline.nvml"
                        + " (or --enable-native-access=ALL-UNNAMED on the class path)");
    }

    @Test
    void theCudaLibrariesFlagNamesRooflineCuda() {
        assertThat(NativeLibrary.CUDART.nativeAccessFlag())
                .isEqualTo("--enable-native-access=dev.roofline.bindings,dev.roofline.cuda");
        assertThat(NativeLibrary.CUBLASLT.nativeAccessFlag()).isEqualTo(NativeLibrary.CUDART.nativeAccessFlag());
    }
}
