package dev.roofline.cuda;

import dev.roofline.bindings.loader.LibraryNotFoundException;
import dev.roofline.bindings.loader.NativeAccessDeniedException;
import dev.roofline.bindings.loader.NativeLibrary;

import java.util.function.IntSupplier;

/**
 * Whether CUDA can be used, and if not, why: the library is missing or is not the CUDA runtime (it lacks functions
 * the bindings call), native access is denied, or the driver has no device. Probed once per JVM by {@link Cuda}; pure here so each outcome can be tested without a GPU.
 */
record Availability(boolean available, int deviceCount, String reason) {

    static Availability probe(Runnable loadLibrary, IntSupplier deviceCount) {
        try {
            loadLibrary.run();
        } catch (LibraryNotFoundException e) {
            return unavailable("no CUDA runtime: " + e.getMessage());
        } catch (NativeAccessDeniedException e) {
            return unavailable(e.getMessage());
        } catch (IllegalCallerException e) {
            return unavailable(
                    new NativeAccessDeniedException(NativeLibrary.CUDART, "loading the CUDA runtime", e).getMessage());
        }
        int n;
        try {
            n = deviceCount.getAsInt();
        } catch (CudaException e) {
            return unavailable("no CUDA device: " + e.getMessage());
        } catch (IllegalCallerException e) {
            return unavailable(new NativeAccessDeniedException(NativeLibrary.CUDART, "calling cudaGetDeviceCount", e)
                    .getMessage());
        }
        if (n <= 0) {
            return unavailable("no CUDA device: cudaGetDeviceCount reported " + n + " devices");
        }
        return new Availability(true, n, "");
    }

    private static Availability unavailable(String reason) {
        return new Availability(false, 0, reason);
    }
}
