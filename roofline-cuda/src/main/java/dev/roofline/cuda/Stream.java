package dev.roofline.cuda;

import dev.roofline.bindings.loader.OwnedHandle;
import dev.roofline.cuda.internal.Cudart;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

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
        return new Stream(Cudart.createStream());
    }

    /** The {@code cudaStream_t}, for calls into other CUDA libraries (cuBLASLt). */
    public MemorySegment handle() {
        return handle.get();
    }

    public void synchronize() {
        Cudart.streamSynchronize(handle());
    }

    /**
     * Records the work {@code body} enqueues on this stream into a graph instead of running it.
     *
     * @throws CudaException when {@code body} does something capture forbids (e.g. a synchronous copy)
     */
    public CudaGraph capture(Runnable body) {
        Objects.requireNonNull(body, "body must not be null");
        Cudart.beginCapture(handle());
        RuntimeException failure = null;
        try {
            body.run();
        } catch (RuntimeException e) {
            failure = e;
        }
        MemorySegment graph = Cudart.endCapture(handle());
        if (failure != null) {
            Cudart.destroyGraph(graph);
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
