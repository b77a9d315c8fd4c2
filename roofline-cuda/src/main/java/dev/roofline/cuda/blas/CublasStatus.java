package dev.roofline.cuda.blas;

import dev.roofline.bindings.cublaslt.cublaslt_h;
import dev.roofline.cuda.library.NativeLibraries;
import dev.roofline.cuda.library.NativeLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;
import java.util.function.ToIntFunction;

/** The checked layer over {@code cublaslt_h}: a status other than success becomes a {@link CublasException}. */
final class CublasStatus {
    private static final int SUCCESS = cublaslt_h.CUBLAS_STATUS_SUCCESS();
    private static final Map<Integer, String> NAMES = constantNames();

    private CublasStatus() {}

    static void check(String function, int status) {
        if (status != SUCCESS) {
            boolean loaded = NativeLibraries.isLoaded(NativeLibrary.CUBLASLT);
            throw new CublasException(function, status, name(status, loaded), message(status, loaded));
        }
    }

    static String name(int status, boolean libraryLoaded) {
        return libraryLoaded ? cublaslt_h.cublasLtGetStatusName(status).reinterpret(256).getString(0)
                : NAMES.getOrDefault(status, "cublasStatus " + status);
    }

    static String message(int status, boolean libraryLoaded) {
        return libraryLoaded ? cublaslt_h.cublasLtGetStatusString(status).reinterpret(1024).getString(0)
                : "(no message: " + NativeLibrary.CUBLASLT.soname() + " not loaded)";
    }

    /** Creates an opaque cuBLASLt object through a pointer out-parameter. */
    static MemorySegment create(String function, ToIntFunction<MemorySegment> call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = arena.allocate(ValueLayout.ADDRESS);
            check(function, call.applyAsInt(p));
            return p.get(ValueLayout.ADDRESS, 0);
        }
    }

    private static Map<Integer, String> constantNames() {
        Map<Integer, String> names = new HashMap<>();
        for (Method m : cublaslt_h.class.getMethods()) {
            if (m.getName().startsWith("CUBLAS_STATUS_") && m.getParameterCount() == 0
                    && m.getReturnType() == int.class && Modifier.isStatic(m.getModifiers())) {
                try {
                    names.putIfAbsent((Integer) m.invoke(null), m.getName());
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("cannot read generated constant " + m.getName(), e);
                }
            }
        }
        return Map.copyOf(names);
    }
}
