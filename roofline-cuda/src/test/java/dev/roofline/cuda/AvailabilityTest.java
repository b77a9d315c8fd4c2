package dev.roofline.cuda;

import dev.roofline.bindings.loader.LibraryNotFoundException;
import dev.roofline.bindings.loader.NativeLibrary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AvailabilityTest {

    @Test
    void missingLibraryIsReportedWithWhatWasTried() {
        Availability a = Availability.probe(
                () -> {
                    throw new LibraryNotFoundException(NativeLibrary.CUDART, List.of("/usr/lib64/libcudart.so.13"));
                },
                () -> 1);
        assertThat(a.available()).isFalse();
        assertThat(a.reason()).startsWith("no CUDA runtime: libcudart.so.13").contains("/usr/lib64/libcudart.so.13");
    }

    @Test
    void driverErrorMeansNoDevice() {
        Availability a = Availability.probe(() -> {}, () -> {
            throw new CudaException(
                    "cudaGetDeviceCount",
                    35,
                    "cudaErrorInsufficientDriver",
                    "CUDA driver version is insufficient for CUDA runtime version");
        });
        assertThat(a.reason())
                .isEqualTo("no CUDA device: cudaGetDeviceCount failed: cudaErrorInsufficientDriver (35): "
                        + "CUDA driver version is insufficient for CUDA runtime version");
    }

    @Test
    void zeroDevicesMeansNoDevice() {
        assertThat(Availability.probe(() -> {}, () -> 0).reason())
                .isEqualTo("no CUDA device: cudaGetDeviceCount reported 0 devices");
    }

    @Test
    void deniedNativeAccessNamesTheFlag() {
        Availability a = Availability.probe(
                () -> {
                    throw new IllegalCallerException("Illegal native access from: module dev.roofline.cuda");
                },
                () -> 1);
        assertThat(a.available()).isFalse();
        assertThat(a.reason())
                .contains("--enable-native-access=dev.roofline.bindings,dev.roofline.cuda")
                .contains("ALL-UNNAMED");
    }

    @Test
    void oneDeviceIsAvailable() {
        Availability a = Availability.probe(() -> {}, () -> 2);
        assertThat(a.available()).isTrue();
        assertThat(a.deviceCount()).isEqualTo(2);
    }

    @Test
    void withoutGpuTheRealProbeGivesAReasonAndApiCallsSayIt() {
        if (Cuda.isAvailable()) {
            return; // this test is about machines without a GPU
        }
        String reason = Cuda.unavailableReason().orElseThrow();
        assertThat(reason).matches("(?s)(no CUDA runtime|no CUDA device|native access denied).*");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DeviceBuffer.allocate(16))
                .isInstanceOf(CudaUnavailableException.class)
                .hasMessage(reason);
    }
}
