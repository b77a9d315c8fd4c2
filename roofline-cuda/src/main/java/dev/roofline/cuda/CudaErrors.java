package dev.roofline.cuda;

import dev.roofline.bindings.cudart.cudart_h;
import dev.roofline.cuda.library.NativeLibraries;
import dev.roofline.cuda.library.NativeLibrary;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;

/** Names and messages of {@code cudaError_t} codes; without the library, the name comes from the generated constants. */
final class CudaErrors {
    private static final Map<Integer, String> NAMES = constantNames();

    private CudaErrors() {}

    static CudaException exception(String function, int code) {
        boolean loaded = NativeLibraries.isLoaded(NativeLibrary.CUDART);
        return new CudaException(function, code, name(code, loaded), message(code, loaded));
    }

    static String name(int code, boolean libraryLoaded) {
        if (libraryLoaded) {
            return cudart_h.cudaGetErrorName(code).reinterpret(256).getString(0);
        }
        return NAMES.getOrDefault(code, "cudaError " + code);
    }

    static String message(int code, boolean libraryLoaded) {
        return libraryLoaded ? cudart_h.cudaGetErrorString(code).reinterpret(1024).getString(0)
                : "(no message: " + NativeLibrary.CUDART.soname() + " not loaded)";
    }

    /** cudaSuccess, cudaErrorInvalidValue, ...: every generated {@code int cudaXxx()} constant whose name says error. */
    private static Map<Integer, String> constantNames() {
        Map<Integer, String> names = new HashMap<>();
        for (Method m : cudart_h.class.getMethods()) {
            String n = m.getName();
            if ((n.startsWith("cudaError") || n.equals("cudaSuccess")) && m.getParameterCount() == 0
                    && m.getReturnType() == int.class && Modifier.isStatic(m.getModifiers())) {
                try {
                    names.putIfAbsent((Integer) m.invoke(null), n);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot read generated constant " + n, e);
                }
            }
        }
        return Map.copyOf(names);
    }
}
