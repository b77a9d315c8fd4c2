package dev.roofline.cuda;

import dev.roofline.bindings.loader.OwnedHandle;
import dev.roofline.cuda.internal.Cudart;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/** A captured and instantiated CUDA graph; replaying it launches all captured work with one call. */
public final class CudaGraph implements AutoCloseable {
    private final OwnedHandle graph;
    private final OwnedHandle exec;

    private CudaGraph(OwnedHandle graph, OwnedHandle exec) {
        this.graph = graph;
        this.exec = exec;
    }

    static CudaGraph instantiate(MemorySegment rawGraph) {
        OwnedHandle graph = Cudart.ownGraph(rawGraph);
        try {
            return new CudaGraph(graph, Cudart.instantiateGraph(rawGraph));
        } catch (RuntimeException ex) {
            graph.close();
            throw ex;
        }
    }

    public void launch(Stream stream) {
        Objects.requireNonNull(stream, "stream must not be null");
        Cudart.launchGraph(exec.get(), stream.handle());
    }

    @Override
    public void close() {
        exec.close();
        graph.close();
    }
}
