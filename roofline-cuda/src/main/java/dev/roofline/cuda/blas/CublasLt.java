package dev.roofline.cuda.blas;

import dev.roofline.bindings.cublaslt.cublaslt_h;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.library.NativeLibraries;
import dev.roofline.cuda.library.NativeLibrary;
import dev.roofline.cuda.resource.OwnedHandle;

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
        NativeLibraries.load(NativeLibrary.CUBLASLT);
        MemorySegment h = CublasStatus.create("cublasLtCreate", cublaslt_h::cublasLtCreate);
        return new CublasLt(OwnedHandle.own(h, 0, "cuBLASLt handle",
                p -> CublasStatus.check("cublasLtDestroy", cublaslt_h.cublasLtDestroy(p))));
    }

    /** e.g. 130000 for cuBLAS 13.0.0. */
    public static long version() {
        Cuda.requireAvailable();
        NativeLibraries.load(NativeLibrary.CUBLASLT);
        return cublaslt_h.cublasLtGetVersion();
    }

    MemorySegment handle() {
        return handle.get();
    }

    @Override
    public void close() {
        handle.close();
    }
}
