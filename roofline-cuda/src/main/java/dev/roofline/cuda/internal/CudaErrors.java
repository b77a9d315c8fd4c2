package dev.roofline.cuda.internal;

import dev.roofline.bindings.cudart.cudart_h;
import dev.roofline.bindings.loader.NativeLibraries;
import dev.roofline.bindings.loader.NativeLibrary;
import dev.roofline.bindings.loader.StatusNames;
import dev.roofline.cuda.CudaException;

/**
 * The one {@code cudaError_t} table: names and messages from the runtime when it is loaded, else the name from the
 * generated constants. The only place a {@link CudaException} is made from a status.
 */
public final class CudaErrors {
    private static final StatusNames NAMES =
            StatusNames.of(cudart_h.class, n -> n.startsWith("cudaError") || n.equals("cudaSuccess"), "cudaError ");

    private CudaErrors() {}

    /** The exception for {@code code} returned by {@code function}, named and described by the runtime when loaded. */
    public static CudaException exception(String function, int code) {
        boolean loaded = NativeLibraries.isLoaded(NativeLibrary.CUDART);
        return new CudaException(function, code, name(code, loaded), message(code, loaded));
    }

    static String name(int code, boolean libraryLoaded) {
        if (libraryLoaded) {
            return cudart_h.cudaGetErrorName(code).reinterpret(256).getString(0);
        }
        return NAMES.name(code);
    }

    static String message(int code, boolean libraryLoaded) {
        return libraryLoaded
                ? cudart_h.cudaGetErrorString(code).reinterpret(1024).getString(0)
                : "(no message: " + NativeLibrary.CUDART.soname() + " not loaded)";
    }
}
