package dev.roofline.cuda.internal;

import dev.roofline.bindings.cudart.cudaLaunchAttribute;
import dev.roofline.bindings.cudart.cudaLaunchAttributeValue;
import dev.roofline.bindings.cudart.cudaLaunchConfig_t;
import dev.roofline.bindings.cudart.cudart_h;
import dev.roofline.bindings.cudart.dim3;
import dev.roofline.bindings.loader.NativeLibraries;
import dev.roofline.bindings.loader.NativeLibrary;
import dev.roofline.bindings.loader.OwnedHandle;
import dev.roofline.cuda.CudaException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.ToIntFunction;

/**
 * The checked layer over {@code cudart_h}: each method makes one runtime call and turns a non-success status into a
 * {@link CudaException}. The status is checked after the generated call returns, never inside its try/catch.
 * Out-parameters live in short confined arenas. roofline-cuda's exported classes reach the runtime only through here.
 */
public final class Cudart {
    private static final int SUCCESS = cudart_h.cudaSuccess();

    private Cudart() {}

    /** Loads {@code libcudart.so.13} (see {@link NativeLibraries#load}). */
    public static void load() {
        NativeLibraries.load(NativeLibrary.CUDART);
    }

    /** Throws the {@link CudaException} for {@code status} unless it is {@code cudaSuccess}. */
    public static void check(String function, int status) {
        if (status != SUCCESS) {
            throw CudaErrors.exception(function, status);
        }
    }

    /** cudaGetDevice into a caller-owned int segment (the allocation-free form the overhead benchmark measures). */
    public static int getDevice(MemorySegment out) {
        check("cudaGetDevice", cudart_h.cudaGetDevice(out));
        return out.get(ValueLayout.JAVA_INT, 0);
    }

    public static int getDevice() {
        try (Arena arena = Arena.ofConfined()) {
            return getDevice(arena.allocate(ValueLayout.JAVA_INT));
        }
    }

    public static void setDevice(int ordinal) {
        check("cudaSetDevice", cudart_h.cudaSetDevice(ordinal));
    }

    public static int deviceCount() {
        return intOut("cudaGetDeviceCount", cudart_h::cudaGetDeviceCount);
    }

    static int attribute(int attr, int ordinal) {
        return intOut("cudaDeviceGetAttribute", v -> cudart_h.cudaDeviceGetAttribute(v, attr, ordinal));
    }

    /** Shared memory one SM of device {@code ordinal} offers its blocks at most, in bytes. */
    public static int sharedMemoryPerSm(int ordinal) {
        return attribute(cudart_h.cudaDevAttrMaxSharedMemoryPerMultiprocessor(), ordinal);
    }

    public static int threadsPerSm(int ordinal) {
        return attribute(cudart_h.cudaDevAttrMaxThreadsPerMultiProcessor(), ordinal);
    }

    public static void deviceSynchronize() {
        check("cudaDeviceSynchronize", cudart_h.cudaDeviceSynchronize());
    }

    public static int runtimeVersion() {
        return intOut("cudaRuntimeGetVersion", cudart_h::cudaRuntimeGetVersion);
    }

    public static int driverVersion() {
        return intOut("cudaDriverGetVersion", cudart_h::cudaDriverGetVersion);
    }

    /** Free device memory in bytes on the current device (cudaMemGetInfo). */
    public static long freeMemoryBytes() {
        return memoryInfo()[0];
    }

    /** Free and total device memory in bytes on the current device, as cudaMemGetInfo reports them. */
    public static long[] memoryInfo() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment free = arena.allocate(ValueLayout.JAVA_LONG);
            MemorySegment total = arena.allocate(ValueLayout.JAVA_LONG);
            check("cudaMemGetInfo", cudart_h.cudaMemGetInfo(free, total));
            return new long[] {free.get(ValueLayout.JAVA_LONG, 0), total.get(ValueLayout.JAVA_LONG, 0)};
        }
    }

    /** cudaDevAttrIntegrated of {@code ordinal}: 1 where the GPU shares the host's memory (GB10, Jetson). */
    public static boolean integrated(int ordinal) {
        return attribute(cudart_h.cudaDevAttrIntegrated(), ordinal) != 0;
    }

    /** cudaDevAttrPageableMemoryAccess of {@code ordinal}: 1 where kernels may read pageable host memory directly. */
    public static boolean pageableMemoryAccess(int ordinal) {
        return attribute(cudart_h.cudaDevAttrPageableMemoryAccess(), ordinal) != 0;
    }

    /** {@code bytes} of device memory, freed (cudaFree) when the handle closes. */
    public static OwnedHandle malloc(long bytes) {
        MemorySegment p = create("cudaMalloc", out -> cudart_h.cudaMalloc(out, bytes));
        return Handles.own(p, bytes, "buffer", h -> check("cudaFree", cudart_h.cudaFree(h)));
    }

    public static void copyHostToDevice(MemorySegment device, MemorySegment host, long bytes) {
        memcpy(device, host, bytes, cudart_h.cudaMemcpyHostToDevice());
    }

    public static void copyDeviceToHost(MemorySegment host, MemorySegment device, long bytes) {
        memcpy(host, device, bytes, cudart_h.cudaMemcpyDeviceToHost());
    }

    public static void copyDeviceToDevice(MemorySegment dst, MemorySegment src, long bytes) {
        memcpy(dst, src, bytes, cudart_h.cudaMemcpyDeviceToDevice());
    }

    public static void copyDeviceToDeviceAsync(MemorySegment dst, MemorySegment src, long bytes, MemorySegment stream) {
        check(
                "cudaMemcpyAsync",
                cudart_h.cudaMemcpyAsync(dst, src, bytes, cudart_h.cudaMemcpyDeviceToDevice(), stream));
    }

    private static void memcpy(MemorySegment dst, MemorySegment src, long bytes, int kind) {
        check("cudaMemcpy", cudart_h.cudaMemcpy(dst, src, bytes, kind));
    }

    public static void memset(MemorySegment dst, int value, long bytes) {
        check("cudaMemset", cudart_h.cudaMemset(dst, value, bytes));
    }

    /** A non-blocking stream, destroyed when the handle closes. */
    public static OwnedHandle createStream() {
        MemorySegment s = create(
                "cudaStreamCreateWithFlags",
                p -> cudart_h.cudaStreamCreateWithFlags(p, cudart_h.cudaStreamNonBlocking()));
        return Handles.own(s, 0, "stream", h -> check("cudaStreamDestroy", cudart_h.cudaStreamDestroy(h)));
    }

    public static void streamSynchronize(MemorySegment stream) {
        check("cudaStreamSynchronize", cudart_h.cudaStreamSynchronize(stream));
    }

    /** Starts capturing {@code stream}'s work into a graph, in thread-local capture mode. */
    public static void beginCapture(MemorySegment stream) {
        check(
                "cudaStreamBeginCapture",
                cudart_h.cudaStreamBeginCapture(stream, cudart_h.cudaStreamCaptureModeThreadLocal()));
    }

    /** Ends the capture; returns the raw graph, which the caller instantiates or {@link #destroyGraph destroys}. */
    public static MemorySegment endCapture(MemorySegment stream) {
        return create("cudaStreamEndCapture", p -> cudart_h.cudaStreamEndCapture(stream, p));
    }

    public static void destroyGraph(MemorySegment graph) {
        check("cudaGraphDestroy", cudart_h.cudaGraphDestroy(graph));
    }

    /** Takes ownership of a captured graph: destroyed when the handle closes. */
    public static OwnedHandle ownGraph(MemorySegment graph) {
        return Handles.own(graph, 0, "graph", Cudart::destroyGraph);
    }

    /** An executable instance of {@code graph}, destroyed when the handle closes. */
    public static OwnedHandle instantiateGraph(MemorySegment graph) {
        MemorySegment e = create("cudaGraphInstantiate", p -> cudart_h.cudaGraphInstantiate(p, graph, 0L));
        return Handles.own(e, 0, "graph", h -> check("cudaGraphExecDestroy", cudart_h.cudaGraphExecDestroy(h)));
    }

    public static void launchGraph(MemorySegment exec, MemorySegment stream) {
        check("cudaGraphLaunch", cudart_h.cudaGraphLaunch(exec, stream));
    }

    /** An event with default flags (timing enabled), destroyed when the handle closes. */
    public static OwnedHandle createEvent() {
        MemorySegment e = create(
                "cudaEventCreateWithFlags", p -> cudart_h.cudaEventCreateWithFlags(p, cudart_h.cudaEventDefault()));
        return Handles.own(e, 0, "event", h -> check("cudaEventDestroy", cudart_h.cudaEventDestroy(h)));
    }

    public static void recordEvent(MemorySegment event, MemorySegment stream) {
        check("cudaEventRecord", cudart_h.cudaEventRecord(event, stream));
    }

    public static void eventSynchronize(MemorySegment event) {
        check("cudaEventSynchronize", cudart_h.cudaEventSynchronize(event));
    }

    public static float elapsedMillis(MemorySegment start, MemorySegment end) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment ms = arena.allocate(ValueLayout.JAVA_FLOAT);
            check("cudaEventElapsedTime", cudart_h.cudaEventElapsedTime(ms, start, end));
            return ms.get(ValueLayout.JAVA_FLOAT, 0);
        }
    }

    /**
     * Loads a fatbin image into the current context (cudaLibraryLoadData); {@code what} names it in "... already
     * closed". The image must stay alive while the library is loaded.
     */
    public static OwnedHandle loadLibrary(MemorySegment image, String what) {
        MemorySegment lib = create(
                "cudaLibraryLoadData",
                p -> cudart_h.cudaLibraryLoadData(
                        p,
                        image,
                        MemorySegment.NULL,
                        MemorySegment.NULL,
                        0,
                        MemorySegment.NULL,
                        MemorySegment.NULL,
                        0));
        return Handles.own(lib, 0, what, h -> check("cudaLibraryUnload", cudart_h.cudaLibraryUnload(h)));
    }

    /** The kernel {@code name} in a loaded library. */
    public static MemorySegment kernel(MemorySegment library, String name) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = arena.allocate(ValueLayout.ADDRESS);
            check(
                    "cudaLibraryGetKernel(" + name + ")",
                    cudart_h.cudaLibraryGetKernel(p, library, arena.allocateFrom(name)));
            return p.get(ValueLayout.ADDRESS, 0);
        }
    }

    /**
     * Enqueues {@code kernel} on a one-dimensional grid of one-dimensional blocks.
     *
     * @param arena the caller's launch arena, which also holds {@code args} (one arena per launch keeps the host's
     *              share of a short kernel small)
     * @param args  the kernel's argument array: one pointer per parameter, to that parameter's value
     */
    public static void launchKernel(
            Arena arena, MemorySegment kernel, int gridX, int blockX, MemorySegment args, MemorySegment stream) {
        check(
                "cudaLaunchKernel",
                cudart_h.cudaLaunchKernel(kernel, dim3OfX(arena, gridX), dim3OfX(arena, blockX), args, 0, stream));
    }

    /**
     * Enqueues {@code kernel} like {@link #launchKernel}, through cudaLaunchKernelExC, optionally with programmatic
     * dependent launch: with {@code programmaticSerialization} the launch carries the attribute
     * cudaLaunchAttributeProgrammaticStreamSerialization (value 1), so it may begin before the previous kernel in
     * {@code stream} has finished; it must then call cudaGridDependencySynchronize before reading that kernel's output.
     * Without it the config has no attributes and the launch is ordered like {@link #launchKernel}'s.
     *
     * @param arena  the caller's launch arena; it holds the launch config (and its attribute) besides {@code args}
     * @param kernel a cudaKernel_t from {@link #kernel}, passed where cudaLaunchKernelExC takes {@code const void*
     *               func}
     * @param args   the kernel's argument array: one pointer per parameter, to that parameter's value
     */
    public static void launchKernelEx(
            Arena arena,
            MemorySegment kernel,
            int gridX,
            int blockX,
            MemorySegment args,
            MemorySegment stream,
            boolean programmaticSerialization) {
        MemorySegment config = cudaLaunchConfig_t.allocate(arena);
        setDim3OfX(cudaLaunchConfig_t.gridDim(config), gridX);
        setDim3OfX(cudaLaunchConfig_t.blockDim(config), blockX);
        cudaLaunchConfig_t.dynamicSmemBytes(config, 0);
        cudaLaunchConfig_t.stream(config, stream);
        if (programmaticSerialization) {
            MemorySegment attr = cudaLaunchAttribute.allocate(arena);
            attr.fill((byte) 0);
            cudaLaunchAttribute.id(attr, cudart_h.cudaLaunchAttributeProgrammaticStreamSerialization());
            cudaLaunchAttributeValue.programmaticStreamSerializationAllowed(cudaLaunchAttribute.val(attr), 1);
            cudaLaunchConfig_t.attrs(config, attr);
            cudaLaunchConfig_t.numAttrs(config, 1);
        } else {
            cudaLaunchConfig_t.attrs(config, MemorySegment.NULL);
            cudaLaunchConfig_t.numAttrs(config, 0);
        }
        check("cudaLaunchKernelExC", cudart_h.cudaLaunchKernelExC(config, kernel, args));
    }

    private static MemorySegment dim3OfX(Arena arena, int x) {
        MemorySegment d = dim3.allocate(arena);
        setDim3OfX(d, x);
        return d;
    }

    private static void setDim3OfX(MemorySegment d, int x) {
        dim3.x(d, x);
        dim3.y(d, 1);
        dim3.z(d, 1);
    }

    /** Creates a handle through a pointer-sized out-parameter: {@code cudaStreamCreate(&s)}-style calls. */
    private static MemorySegment create(String function, ToIntFunction<MemorySegment> call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = arena.allocate(ValueLayout.ADDRESS);
            check(function, call.applyAsInt(p));
            return p.get(ValueLayout.ADDRESS, 0);
        }
    }

    private static int intOut(String function, ToIntFunction<MemorySegment> call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(ValueLayout.JAVA_INT);
            check(function, call.applyAsInt(v));
            return v.get(ValueLayout.JAVA_INT, 0);
        }
    }
}
