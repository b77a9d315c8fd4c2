package dev.roofline.cuda;

import dev.roofline.bindings.cudart.cudart_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The checked layer over {@code cudart_h}: each method makes one runtime call and turns a non-success status into a
 * {@link CudaException}. The status is checked after the generated call returns, never inside its try/catch.
 * Out-parameters live in short confined arenas.
 */
final class Cudart {
    private static final int SUCCESS = cudart_h.cudaSuccess();

    private Cudart() {}

    static void check(String function, int status) {
        if (status != SUCCESS) {
            throw CudaErrors.exception(function, status);
        }
    }

    /** cudaGetDevice into a caller-owned int segment (the allocation-free form the overhead benchmark measures). */
    static int getDevice(MemorySegment out) {
        check("cudaGetDevice", cudart_h.cudaGetDevice(out));
        return out.get(ValueLayout.JAVA_INT, 0);
    }

    static int getDevice() {
        try (Arena arena = Arena.ofConfined()) {
            return getDevice(arena.allocate(ValueLayout.JAVA_INT));
        }
    }

    static void setDevice(int ordinal) {
        check("cudaSetDevice", cudart_h.cudaSetDevice(ordinal));
    }

    static int deviceCount() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment n = arena.allocate(ValueLayout.JAVA_INT);
            check("cudaGetDeviceCount", cudart_h.cudaGetDeviceCount(n));
            return n.get(ValueLayout.JAVA_INT, 0);
        }
    }

    static int attribute(int attr, int ordinal) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(ValueLayout.JAVA_INT);
            check("cudaDeviceGetAttribute", cudart_h.cudaDeviceGetAttribute(v, attr, ordinal));
            return v.get(ValueLayout.JAVA_INT, 0);
        }
    }

    static void deviceSynchronize() {
        check("cudaDeviceSynchronize", cudart_h.cudaDeviceSynchronize());
    }

    static int runtimeVersion() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(ValueLayout.JAVA_INT);
            check("cudaRuntimeGetVersion", cudart_h.cudaRuntimeGetVersion(v));
            return v.get(ValueLayout.JAVA_INT, 0);
        }
    }

    static int driverVersion() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(ValueLayout.JAVA_INT);
            check("cudaDriverGetVersion", cudart_h.cudaDriverGetVersion(v));
            return v.get(ValueLayout.JAVA_INT, 0);
        }
    }

    /** {free, total} device memory in bytes. */
    static long[] memoryInfo() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment free = arena.allocate(ValueLayout.JAVA_LONG);
            MemorySegment total = arena.allocate(ValueLayout.JAVA_LONG);
            check("cudaMemGetInfo", cudart_h.cudaMemGetInfo(free, total));
            return new long[] {free.get(ValueLayout.JAVA_LONG, 0), total.get(ValueLayout.JAVA_LONG, 0)};
        }
    }

    static MemorySegment malloc(long bytes) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = arena.allocate(ValueLayout.ADDRESS);
            check("cudaMalloc", cudart_h.cudaMalloc(p, bytes));
            return p.get(ValueLayout.ADDRESS, 0);
        }
    }

    static void free(MemorySegment devicePointer) {
        check("cudaFree", cudart_h.cudaFree(devicePointer));
    }

    static void memcpy(MemorySegment dst, MemorySegment src, long bytes, int kind) {
        check("cudaMemcpy", cudart_h.cudaMemcpy(dst, src, bytes, kind));
    }

    static void memcpyAsync(MemorySegment dst, MemorySegment src, long bytes, int kind, MemorySegment stream) {
        check("cudaMemcpyAsync", cudart_h.cudaMemcpyAsync(dst, src, bytes, kind, stream));
    }

    static void memset(MemorySegment dst, int value, long bytes) {
        check("cudaMemset", cudart_h.cudaMemset(dst, value, bytes));
    }

    /** Creates a handle through a pointer-sized out-parameter: {@code cudaStreamCreate(&s)}-style calls. */
    static MemorySegment create(String function, java.util.function.ToIntFunction<MemorySegment> call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = arena.allocate(ValueLayout.ADDRESS);
            check(function, call.applyAsInt(p));
            return p.get(ValueLayout.ADDRESS, 0);
        }
    }

    static float elapsedMillis(MemorySegment start, MemorySegment end) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ms = arena.allocate(ValueLayout.JAVA_FLOAT);
            check("cudaEventElapsedTime", cudart_h.cudaEventElapsedTime(ms, start, end));
            return ms.get(ValueLayout.JAVA_FLOAT, 0);
        }
    }
}
