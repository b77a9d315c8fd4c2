package dev.roofline.cuda.blas;

import dev.roofline.bindings.loader.OwnedHandle;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.internal.CublasLtCalls;

import java.lang.foreign.MemorySegment;

/**
 * A cuBLASLt handle. Loads {@code libcublasLt.so.13} on first use.
 *
 * <pre>{@code
 * try (CublasLt lt = CublasLt.create();
 *      Matmul mm = Matmul.plan(lt, Gemm.of(8192, 8192, 8192).in(Precision.BF16).withOutput(Precision.BF16), Cuda.device(0))) {
 *     mm.run(operands, stream);
 * }
 * }</pre>
 */
public final class CublasLt implements AutoCloseable {
    private final OwnedHandle handle;

    private CublasLt(OwnedHandle handle) {
        this.handle = handle;
    }

    public static CublasLt create() {
        Cuda.requireAvailable();
        CublasLtCalls.load();
        return new CublasLt(CublasLtCalls.create());
    }

    /** e.g. 130000 for cuBLAS 13.0.0. */
    public static long version() {
        Cuda.requireAvailable();
        CublasLtCalls.load();
        return CublasLtCalls.version();
    }

    MemorySegment handle() {
        return handle.get();
    }

    @Override
    public void close() {
        handle.close();
    }
}
