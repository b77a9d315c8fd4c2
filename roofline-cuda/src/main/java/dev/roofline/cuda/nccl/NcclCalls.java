package dev.roofline.cuda.nccl;

import dev.roofline.bindings.loader.NativeLibraries;
import dev.roofline.bindings.loader.NativeLibrary;
import dev.roofline.bindings.loader.StatusNames;
import dev.roofline.bindings.nccl.nccl_h;
import dev.roofline.cuda.Cuda;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Set;

/**
 * The checked layer over the NCCL bindings: loads the library, turns every {@code ncclResult_t} other than success
 * into an {@link NcclException}, and is the only class here that calls {@code nccl_h}'s functions.
 */
final class NcclCalls {
    private static final int SUCCESS = nccl_h.ncclSuccess();
    private static final Set<String> RESULTS = Set.of(
            "ncclSuccess",
            "ncclUnhandledCudaError",
            "ncclSystemError",
            "ncclInternalError",
            "ncclInvalidArgument",
            "ncclInvalidUsage",
            "ncclRemoteError",
            "ncclInProgress");
    private static final StatusNames NAMES = StatusNames.of(nccl_h.class, RESULTS::contains, "ncclResult ");

    private NcclCalls() {}

    /** Loads CUDA and NCCL, or throws why not (CudaUnavailableException, LibraryNotFoundException); the file loaded. */
    static java.nio.file.Path load() {
        Cuda.requireAvailable();
        return NativeLibraries.load(NativeLibrary.NCCL);
    }

    /** Throws the {@link NcclException} for {@code result} unless it is {@code ncclSuccess}. */
    static void check(String function, int result, MemorySegment comm) {
        if (result != SUCCESS) {
            throw exception(function, result, comm);
        }
    }

    static NcclException exception(String function, int result, MemorySegment comm) {
        if (!NativeLibraries.isLoaded(NativeLibrary.NCCL)) {
            return new NcclException(
                    function,
                    result,
                    NAMES.name(result),
                    "(no message: " + NativeLibrary.NCCL.soname() + " not loaded)");
        }
        String message = nccl_h.ncclGetErrorString(result).reinterpret(1024).getString(0);
        String last = nccl_h.ncclGetLastError(comm).reinterpret(4096).getString(0);
        return new NcclException(
                function, result, NAMES.name(result), last.isBlank() ? message : message + "; " + last.strip());
    }

    /** Whether {@code result} is an error: neither success nor {@code ncclInProgress} (a non-blocking call running). */
    static boolean failed(int result) {
        return result != SUCCESS && result != nccl_h.ncclInProgress();
    }

    /** The name of {@code result}, e.g. {@code ncclInvalidUsage}. */
    static String name(int result) {
        return NAMES.name(result);
    }

    /** {@code ncclGetVersion}: major × 10000 + minor × 100 + patch (for NCCL 2.9 and later). */
    static int version() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(ValueLayout.JAVA_INT);
            check("ncclGetVersion", nccl_h.ncclGetVersion(v), MemorySegment.NULL);
            return v.get(ValueLayout.JAVA_INT, 0);
        }
    }

    /** {@code ncclCommInitAll}: one communicator per device of {@code devices}, rank i on {@code devices[i]}. */
    static MemorySegment[] initAll(int[] devices) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment comms = arena.allocate(ValueLayout.ADDRESS, devices.length);
            MemorySegment list = arena.allocateFrom(ValueLayout.JAVA_INT, devices);
            check("ncclCommInitAll", nccl_h.ncclCommInitAll(comms, devices.length, list), MemorySegment.NULL);
            MemorySegment[] out = new MemorySegment[devices.length];
            for (int i = 0; i < devices.length; i++) {
                out[i] = comms.getAtIndex(ValueLayout.ADDRESS, i);
            }
            return out;
        }
    }

    static void destroy(MemorySegment comm) {
        check("ncclCommDestroy", nccl_h.ncclCommDestroy(comm), MemorySegment.NULL);
    }

    /** {@code ncclCommAbort}: frees the communicator and stops whatever it still runs on the device. */
    static void abort(MemorySegment comm) {
        check("ncclCommAbort", nccl_h.ncclCommAbort(comm), MemorySegment.NULL);
    }

    /** {@code ncclCommGetAsyncError}: the result of the communicator's asynchronous work so far. */
    static int asyncError(MemorySegment comm) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment r = arena.allocate(ValueLayout.JAVA_INT);
            check("ncclCommGetAsyncError", nccl_h.ncclCommGetAsyncError(comm, r), comm);
            return r.get(ValueLayout.JAVA_INT, 0);
        }
    }

    static void allReduce(
            MemorySegment send, MemorySegment recv, long count, int type, int op, MemorySegment comm, MemorySegment s) {
        check("ncclAllReduce", nccl_h.ncclAllReduce(send, recv, count, type, op, comm, s), comm);
    }

    static void allGather(
            MemorySegment send, MemorySegment recv, long sendCount, int type, MemorySegment comm, MemorySegment s) {
        check("ncclAllGather", nccl_h.ncclAllGather(send, recv, sendCount, type, comm, s), comm);
    }

    static void reduceScatter(
            MemorySegment send,
            MemorySegment recv,
            long recvCount,
            int type,
            int op,
            MemorySegment comm,
            MemorySegment s) {
        check("ncclReduceScatter", nccl_h.ncclReduceScatter(send, recv, recvCount, type, op, comm, s), comm);
    }

    static void broadcast(
            MemorySegment send,
            MemorySegment recv,
            long count,
            int type,
            int root,
            MemorySegment comm,
            MemorySegment s) {
        check("ncclBroadcast", nccl_h.ncclBroadcast(send, recv, count, type, root, comm, s), comm);
    }

    static void send(MemorySegment buf, long count, int type, int peer, MemorySegment comm, MemorySegment s) {
        check("ncclSend", nccl_h.ncclSend(buf, count, type, peer, comm, s), comm);
    }

    static void recv(MemorySegment buf, long count, int type, int peer, MemorySegment comm, MemorySegment s) {
        check("ncclRecv", nccl_h.ncclRecv(buf, count, type, peer, comm, s), comm);
    }

    // C declares ncclGroupStart() and ncclGroupEnd() with an empty parameter list, which jextract reads as variadic;
    // called with no arguments the variadic invoker is an ordinary call
    static void groupStart() {
        check("ncclGroupStart", nccl_h.ncclGroupStart.makeInvoker().apply(), MemorySegment.NULL);
    }

    static void groupEnd() {
        check("ncclGroupEnd", nccl_h.ncclGroupEnd.makeInvoker().apply(), MemorySegment.NULL);
    }
}
