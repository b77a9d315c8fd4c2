package dev.roofline.bindings.loader;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real library that is not the one named (the C math library standing in for each) is refused with the path and
 * the missing functions, and refused again on every later try: no generated class ever initializes against it.
 */
class NativeLibrariesTest {

    /** The C math library: real, loadable, and defining none of the CUDA or NVML functions. */
    static Path libm() {
        Path found = LIBM_CANDIDATES.stream()
                .filter(Files::isRegularFile)
                .findFirst()
                .orElse(null);
        assumeTrue(found != null, "no libm.so.6 at " + LIBM_CANDIDATES);
        return found;
    }

    private static final List<Path> LIBM_CANDIDATES = List.of(
            Path.of("/lib/x86_64-linux-gnu/libm.so.6"),
            Path.of("/usr/lib/x86_64-linux-gnu/libm.so.6"),
            Path.of("/lib/aarch64-linux-gnu/libm.so.6"),
            Path.of("/usr/lib64/libm.so.6"),
            Path.of("/lib64/libm.so.6"));

    private static LibraryLocator overridden(NativeLibrary library, Path file) {
        return LibraryLocator.of(Map.of(library.environmentVariable(), file.toString()), Files::isRegularFile, "");
    }

    @Test
    void theMathLibraryAsTheCudaRuntimeIsRefusedNamingThePathAndTheFirstMissingFunction() {
        Path libm = libm();
        // cudart.args lists cudaGetDeviceCount, cudaGetDevice, cudaSetDevice first; libm defines none of its 39
        assertThatThrownBy(() -> NativeLibraries.load(NativeLibrary.CUDART, overridden(NativeLibrary.CUDART, libm)))
                .isInstanceOf(LibraryNotFoundException.class)
                .hasMessageContaining(libm + " (loaded, but it lacks cudaGetDeviceCount, cudaGetDevice, cudaSetDevice"
                        + " and 37 more of the 40 functions the bindings call: not a copy of libcudart.so.13)")
                .hasMessageContaining("set ROOFLINE_CUDART");
        assertThat(NativeLibraries.isLoaded(NativeLibrary.CUDART)).isFalse();
    }

    @Test
    void aRefusedLibraryIsRefusedAgainOnTheNextTry() {
        Path libm = libm();
        LibraryLocator locator = overridden(NativeLibrary.NVML, libm);
        String first = messageOf(() -> NativeLibraries.load(NativeLibrary.NVML, locator));
        String second = messageOf(() -> NativeLibraries.load(NativeLibrary.NVML, locator));
        // nvml.args lists nvmlInit_v2, nvmlInitWithFlags, nvmlShutdown first, 19 functions in all
        assertThat(first)
                .contains(libm + " (loaded, but it lacks nvmlInit_v2, nvmlInitWithFlags, nvmlShutdown and 16 more")
                .isEqualTo(second);
        assertThat(NativeLibraries.isLoaded(NativeLibrary.NVML)).isFalse();
    }

    @Test
    void theMathLibraryAsCublasLtIsRefusedToo() {
        Path libm = libm();
        assertThatThrownBy(() -> NativeLibraries.load(NativeLibrary.CUBLASLT, overridden(NativeLibrary.CUBLASLT, libm)))
                .hasMessageContaining(
                        libm + " (loaded, but it lacks cublasLtCreate, cublasLtDestroy, cublasLtGetVersion"
                                + " and 13 more of the 16 functions the bindings call: not a copy of libcublasLt.so.13)");
    }

    private static String messageOf(Runnable r) {
        try {
            r.run();
        } catch (LibraryNotFoundException e) {
            return e.getMessage();
        }
        throw new AssertionError("no LibraryNotFoundException");
    }
}
