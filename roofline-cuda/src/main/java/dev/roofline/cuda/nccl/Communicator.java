package dev.roofline.cuda.nccl;

import dev.roofline.bindings.loader.OwnedHandle;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.internal.Handles;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One rank of an NCCL communicator: the GPU {@link #device()} in a group of {@link #size()}. Its collectives are
 * enqueued on a stream of that device, from a thread whose current device it is ({@link Communicators#onEachRank}
 * runs a task per rank that way); every rank must make the same calls in the same order, or all of them wait.
 * Counts are elements of a {@link DataType}; each buffer is checked to hold what the call reads or writes.
 *
 * <pre>{@code
 * try (Communicators gpus = Communicators.ofDevices(0, 1)) {
 *     gpus.onEachRank(comm -> {
 *         try (DeviceBuffer x = DeviceBuffer.allocate(4096); Stream s = Stream.create()) {
 *             comm.allReduce(x, x, 1024, DataType.FLOAT32, ReduceOp.SUM, s);   // in place
 *             s.synchronize();
 *         }
 *         return null;
 *     });
 * }
 * }</pre>
 */
public final class Communicator implements AutoCloseable {
    private final OwnedHandle comm;
    private final int rank;
    private final int size;
    private final int device;
    /** Set by {@link #abort}: the handle is then freed by ncclCommAbort, not ncclCommDestroy. */
    private final AtomicBoolean aborted;

    private Communicator(OwnedHandle comm, int rank, int size, int device, AtomicBoolean aborted) {
        this.comm = comm;
        this.rank = rank;
        this.size = size;
        this.device = device;
        this.aborted = aborted;
    }

    /** Takes ownership of the raw {@code ncclComm_t} of rank {@code rank} of {@code size} on {@code device}. */
    static Communicator own(MemorySegment raw, int rank, int size, int device) {
        AtomicBoolean aborted = new AtomicBoolean();
        OwnedHandle h = Handles.own(raw, 0, "NCCL communicator", c -> {
            if (!aborted.get()) {
                NcclCalls.destroy(c);
            }
        });
        return new Communicator(h, rank, size, device, aborted);
    }

    /** This rank, in [0, size). */
    public int rank() {
        return rank;
    }

    /** Ranks in the communicator. */
    public int size() {
        return size;
    }

    /** The CUDA device this rank runs on. */
    public int device() {
        return device;
    }

    /** Sums (or {@code op}s) {@code count} elements of {@code send} over all ranks into every rank's {@code recv}. */
    public void allReduce(DeviceBuffer send, DeviceBuffer recv, long count, DataType type, ReduceOp op, Stream stream) {
        check(type, op, stream);
        holds("send", send, count, type, "all-reduce");
        holds("recv", recv, count, type, "all-reduce");
        NcclCalls.allReduce(send.pointer(), recv.pointer(), count, type.code, op.code, handle(), stream.handle());
    }

    /** Gathers every rank's {@code sendCount} elements into {@code recv}, rank r's at element {@code r · sendCount}. */
    public void allGather(DeviceBuffer send, DeviceBuffer recv, long sendCount, DataType type, Stream stream) {
        check(type, ReduceOp.SUM, stream);
        holds("send", send, sendCount, type, "all-gather");
        holds("recv", recv, gathered("sendCount", sendCount), type, "all-gather");
        NcclCalls.allGather(send.pointer(), recv.pointer(), sendCount, type.code, handle(), stream.handle());
    }

    /**
     * Reduces {@code size · recvCount} elements of {@code send} over all ranks and leaves block r of the result
     * ({@code recvCount} elements) in rank r's {@code recv}.
     */
    public void reduceScatter(
            DeviceBuffer send, DeviceBuffer recv, long recvCount, DataType type, ReduceOp op, Stream stream) {
        check(type, op, stream);
        holds("send", send, gathered("recvCount", recvCount), type, "reduce-scatter");
        holds("recv", recv, recvCount, type, "reduce-scatter");
        NcclCalls.reduceScatter(
                send.pointer(), recv.pointer(), recvCount, type.code, op.code, handle(), stream.handle());
    }

    /** Copies {@code count} elements of rank {@code root}'s {@code send} into every rank's {@code recv}. */
    public void broadcast(DeviceBuffer send, DeviceBuffer recv, long count, DataType type, int root, Stream stream) {
        check(type, ReduceOp.SUM, stream);
        rank("root", root);
        holds("send", send, count, type, "broadcast");
        holds("recv", recv, count, type, "broadcast");
        NcclCalls.broadcast(send.pointer(), recv.pointer(), count, type.code, root, handle(), stream.handle());
    }

    /**
     * Sends {@code count} elements of {@code send} to rank {@code peer}, which must post the matching {@link #recv};
     * both inside one {@link Communicators#group} when a rank sends and receives at once.
     */
    public void send(DeviceBuffer send, long count, DataType type, int peer, Stream stream) {
        check(type, ReduceOp.SUM, stream);
        rank("peer", peer);
        holds("send", send, count, type, "send");
        NcclCalls.send(send.pointer(), count, type.code, peer, handle(), stream.handle());
    }

    /** Receives {@code count} elements from rank {@code peer} into {@code recv}. */
    public void recv(DeviceBuffer recv, long count, DataType type, int peer, Stream stream) {
        check(type, ReduceOp.SUM, stream);
        rank("peer", peer);
        holds("recv", recv, count, type, "recv");
        NcclCalls.recv(recv.pointer(), count, type.code, peer, handle(), stream.handle());
    }

    /** The error NCCL's asynchronous work on this communicator has hit so far, if any. */
    public Optional<NcclException> asyncError() {
        int r = NcclCalls.asyncError(handle());
        return !NcclCalls.failed(r)
                ? Optional.empty()
                : Optional.of(NcclCalls.exception("ncclCommGetAsyncError", r, handle()));
    }

    /** Whether the communicator has been destroyed or aborted. */
    public boolean isClosed() {
        return comm.isClosed();
    }

    /** Destroys the communicator ({@code ncclCommDestroy}); later calls do nothing. */
    @Override
    public void close() {
        comm.close();
    }

    /**
     * Aborts the communicator ({@code ncclCommAbort}): whatever it still runs on the device stops, and a rank waiting
     * on it returns with an error instead of waiting for a peer that will never come. Callable from any thread; the
     * communicator is closed after it; later calls do nothing.
     */
    public void abort() {
        if (comm.isClosed() || !aborted.compareAndSet(false, true)) {
            return;
        }
        try {
            NcclCalls.abort(comm.get());
        } finally {
            comm.close(); // frees nothing more: the destroy function skips an aborted communicator
        }
    }

    @Override
    public String toString() {
        return "NCCL rank " + rank + " of " + size + " on device " + device + (isClosed() ? " (closed)" : "");
    }

    MemorySegment handle() {
        return comm.get();
    }

    private static void check(DataType type, ReduceOp op, Stream stream) {
        Objects.requireNonNull(type, "type must not be null");
        Objects.requireNonNull(op, "op must not be null");
        Objects.requireNonNull(stream, "stream must not be null");
    }

    private void rank(String name, int r) {
        if (r < 0 || r >= size) {
            throw new IllegalArgumentException(name + " must be a rank in [0, " + size + "), got " + r);
        }
    }

    private long gathered(String name, long count) {
        if (count < 0) {
            throw new IllegalArgumentException(name + " must be >= 0, got " + count);
        }
        if (count > Long.MAX_VALUE / size) {
            throw new IllegalArgumentException(name + " " + count + " times " + size + " ranks overflows");
        }
        return count * size;
    }

    private static void holds(String name, DeviceBuffer buffer, long count, DataType type, String call) {
        Objects.requireNonNull(buffer, name + " must not be null");
        if (count < 0) {
            throw new IllegalArgumentException(call + ": count must be >= 0, got " + count);
        }
        if (count > buffer.byteSize() / type.bytes()) {
            throw new IllegalArgumentException(call + ": " + name + " holds " + buffer.byteSize() + " bytes, not the "
                    + count + " " + type + " elements (" + type.bytes() + " bytes each) the call takes");
        }
    }
}
