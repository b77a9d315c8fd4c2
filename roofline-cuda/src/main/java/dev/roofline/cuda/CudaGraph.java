package dev.roofline.cuda;

import dev.roofline.bindings.cudart.cudart_h;
import dev.roofline.cuda.resource.OwnedHandle;

import java.lang.foreign.MemorySegment;

/** A captured and instantiated CUDA graph; replaying it launches all captured work with one call. */
public final class CudaGraph implements AutoCloseable {
    private final OwnedHandle graph;
    private final OwnedHandle exec;

    private CudaGraph(OwnedHandle graph, OwnedHandle exec) {
        this.graph = graph;
        this.exec = exec;
    }

    static CudaGraph instantiate(MemorySegment rawGraph) {
        OwnedHandle graph = OwnedHandle.own(rawGraph, 0, "graph",
                h -> Cudart.check("cudaGraphDestroy", cudart_h.cudaGraphDestroy(h)));
        try {
            MemorySegment e = Cudart.create("cudaGraphInstantiate", p -> cudart_h.cudaGraphInstantiate(p, rawGraph, 0L));
            return new CudaGraph(graph, OwnedHandle.own(e, 0, "graph",
                    h -> Cudart.check("cudaGraphExecDestroy", cudart_h.cudaGraphExecDestroy(h))));
        } catch (RuntimeException ex) {
            graph.close();
            throw ex;
        }
    }

    public void launch(Stream stream) {
        Cudart.check("cudaGraphLaunch", cudart_h.cudaGraphLaunch(exec.get(), stream.handle()));
    }

    @Override
    public void close() {
        exec.close();
        graph.close();
    }
}
