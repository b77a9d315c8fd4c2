package dev.roofline.cuda;

import dev.roofline.bindings.cudart.cudart_h;
import dev.roofline.cuda.resource.OwnedHandle;

import java.lang.foreign.MemorySegment;

/**
 * A non-blocking CUDA stream.
 *
 * <pre>{@code
 * try (Stream s = Stream.create()) {
 *     buffer.copyFromAsync(other, s);
 *     s.synchronize();
 * }
 * }</pre>
 */
public final class Stream implements AutoCloseable {
    private final OwnedHandle handle;

    private Stream(OwnedHandle handle) {
        this.handle = handle;
    }

    public static Stream create() {
        Cuda.requireAvailable();
        MemorySegment s = Cudart.create("cudaStreamCreateWithFlags",
                p -> cudart_h.cudaStreamCreateWithFlags(p, cudart_h.cudaStreamNonBlocking()));
        return new Stream(OwnedHandle.own(s, 0, "stream",
                h -> Cudart.check("cudaStreamDestroy", cudart_h.cudaStreamDestroy(h))));
    }

    /** The {@code cudaStream_t}, for calls into other CUDA libraries (cuBLASLt). */
    public MemorySegment handle() {
        return handle.get();
    }

    public void synchronize() {
        Cudart.check("cudaStreamSynchronize", cudart_h.cudaStreamSynchronize(handle()));
    }

    /**
     * Records the work {@code body} enqueues on this stream into a graph instead of running it.
     *
     * @throws CudaException when {@code body} does something capture forbids (e.g. a synchronous copy)
     */
    public CudaGraph capture(Runnable body) {
        Cudart.check("cudaStreamBeginCapture",
                cudart_h.cudaStreamBeginCapture(handle(), cudart_h.cudaStreamCaptureModeThreadLocal()));
        RuntimeException failure = null;
        try {
            body.run();
        } catch (RuntimeException e) {
            failure = e;
        }
        MemorySegment graph = Cudart.create("cudaStreamEndCapture", p -> cudart_h.cudaStreamEndCapture(handle(), p));
        if (failure != null) {
            Cudart.check("cudaGraphDestroy", cudart_h.cudaGraphDestroy(graph));
            throw failure;
        }
        return CudaGraph.instantiate(graph);
    }

    public boolean isClosed() {
        return handle.isClosed();
    }

    @Override
    public void close() {
        handle.close();
    }
}
