package dev.roofline.cuda.blas;

import dev.roofline.bindings.cublaslt.cublasLtMatmulHeuristicResult_t;
import dev.roofline.bindings.cublaslt.cublaslt_h;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.UnsupportedOnDeviceException;
import dev.roofline.cuda.resource.OwnedHandle;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * One planned cuBLASLt matrix product {@code C[M×N] = A[M×K] · B[N×K]ᵀ} (see {@link Gemm}): descriptors, layouts and
 * the heuristic's algorithms, ready to be enqueued many times.
 *
 * <pre>{@code
 * Gemm g = Gemm.of(4096, 4096, 4096).in(Precision.FP8_E4M3).withOutput(Precision.BF16);
 * try (Matmul mm = Matmul.plan(lt, g, device, MatmulOptions.defaults())) {
 *     mm.run(Operands.of(w, x, y).withScales(sw, sx, null), stream);
 * }
 * }</pre>
 */
public final class Matmul implements AutoCloseable {
    private final Gemm gemm;
    private final MatmulRecipe recipe;
    private final CublasLt lt;
    private final Arena arena = Arena.ofShared();
    private final List<OwnedHandle> handles = new ArrayList<>();
    private final OwnedHandle desc;
    private final MemorySegment[] layouts = new MemorySegment[3];
    private final MemorySegment heuristics;
    private final int algorithmCount;
    private final MemorySegment alpha;
    private final MemorySegment beta;
    private final DeviceBuffer workspace;
    private int selected;
    private boolean closed;

    private Matmul(CublasLt lt, Gemm gemm, MatmulRecipe recipe, MatmulOptions options) {
        this.lt = lt;
        this.gemm = gemm;
        this.recipe = recipe;
        MatrixLayouts l = MatrixLayouts.of(gemm);
        try {
            desc = own(CublasStatus.create("cublasLtMatmulDescCreate",
                    p -> cublaslt_h.cublasLtMatmulDescCreate(p, recipe.computeType(), recipe.scaleType())),
                    h -> cublaslt_h.cublasLtMatmulDescDestroy(h), "cublasLtMatmulDescDestroy");
            setDesc(cublaslt_h.CUBLASLT_MATMUL_DESC_TRANSA(), cublaslt_h.CUBLAS_OP_T());
            setDesc(cublaslt_h.CUBLASLT_MATMUL_DESC_TRANSB(), cublaslt_h.CUBLAS_OP_N());
            if (recipe.perTensorScales() && options.fastAccumulation()) {
                setDescByte(cublaslt_h.CUBLASLT_MATMUL_DESC_FAST_ACCUM(), (byte) 1); // declared int8_t in cublasLt.h
            }
            if (recipe.blockScaleMode() >= 0) {
                setDesc(cublaslt_h.CUBLASLT_MATMUL_DESC_A_SCALE_MODE(), recipe.blockScaleMode());
                setDesc(cublaslt_h.CUBLASLT_MATMUL_DESC_B_SCALE_MODE(), recipe.blockScaleMode());
            }
            layouts[0] = layout(recipe.aType(), l.aRows(), l.aCols(), l.lda());
            layouts[1] = layout(recipe.bType(), l.bRows(), l.bCols(), l.ldb());
            layouts[2] = recipe.cType() == recipe.dType() ? null : layout(recipe.cType(), l.cRows(), l.cCols(), l.ldc());
            MemorySegment dLayout = layout(recipe.dType(), l.cRows(), l.cCols(), l.ldc());
            if (layouts[2] == null) {
                layouts[2] = dLayout;
            }
            this.dLayout = dLayout;
            workspace = options.workspaceBytes() > 0 ? DeviceBuffer.allocate(options.workspaceBytes()) : null;
            heuristics = cublasLtMatmulHeuristicResult_t.allocateArray(options.algorithms(), arena);
            algorithmCount = heuristic(options);
            boolean ints = recipe.scaleType() == cublaslt_h.CUDA_R_32I();
            alpha = ints ? arena.allocateFrom(ValueLayout.JAVA_INT, 1) : arena.allocateFrom(ValueLayout.JAVA_FLOAT, 1f);
            beta = ints ? arena.allocateFrom(ValueLayout.JAVA_INT, 0) : arena.allocateFrom(ValueLayout.JAVA_FLOAT, 0f);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private final MemorySegment dLayout;

    /**
     * Plans {@code gemm} on {@code device}.
     *
     * @throws IllegalArgumentException      for precisions cuBLASLt cannot multiply, or misaligned 8-bit shapes
     * @throws UnsupportedOnDeviceException  for block-scaled formats below compute capability 10.0 (FP8 below 8.9)
     * @throws CublasException               when the heuristic finds no algorithm
     */
    public static Matmul plan(CublasLt lt, Gemm gemm, Device device, MatmulOptions options) {
        MatmulRecipe recipe = MatmulRecipe.of(gemm);
        if (device.computeCapability().compareTo(recipe.minimum()) < 0) {
            throw new UnsupportedOnDeviceException(recipe.label() + " matmul", recipe.minimum(), device.name(),
                    device.computeCapability());
        }
        if (recipe.eightBitOperands() && gemm.k() % 16 != 0) {
            throw new IllegalArgumentException("K must be a multiple of 16 for 8-bit operands (16-byte aligned rows), got K=" + gemm.k());
        }
        return new Matmul(lt, gemm, recipe, options);
    }

    public Gemm gemm() {
        return gemm;
    }

    /** e.g. "BF16 -> BF16". */
    public String label() {
        return recipe.label();
    }

    /** How many algorithms the heuristic returned (at most {@link MatmulOptions#algorithms()}). */
    public int algorithmCount() {
        return algorithmCount;
    }

    /** Uses the {@code index}-th heuristic result for later runs (0 = the heuristic's first choice). */
    public void selectAlgorithm(int index) {
        if (index < 0 || index >= algorithmCount) {
            throw new IllegalArgumentException("algorithm index must be in [0, " + algorithmCount + "), got " + index);
        }
        selected = index;
    }

    /** Bytes each operand buffer must hold at least: weights, activations, output. */
    public long[] requiredBytes() {
        Precision out = gemm.output();
        return new long[] {gemm.weights().storageBytes(gemm.n(), gemm.k()),
                gemm.activations().storageBytes(gemm.m(), gemm.k()), out.storageBytes(gemm.m(), gemm.n())};
    }

    /** Enqueues the product on {@code stream}. */
    public void run(Operands ops, Stream stream) {
        if (closed) {
            throw new dev.roofline.cuda.ClosedResourceException("matmul");
        }
        long[] need = requiredBytes();
        requireSize("weights", ops.weights(), need[0]);
        requireSize("activations", ops.activations(), need[1]);
        requireSize("output", ops.output(), need[2]);
        if (recipe.perTensorScales()) {
            setScale(cublaslt_h.CUBLASLT_MATMUL_DESC_A_SCALE_POINTER(), ops.weightScale(), "weightScale");
            setScale(cublaslt_h.CUBLASLT_MATMUL_DESC_B_SCALE_POINTER(), ops.activationScale(), "activationScale");
            if (gemm.output() == Precision.FP8_E4M3) {
                setScale(cublaslt_h.CUBLASLT_MATMUL_DESC_D_SCALE_POINTER(), ops.outputScale(), "outputScale");
            }
        }
        MemorySegment algo = cublasLtMatmulHeuristicResult_t.algo(cublasLtMatmulHeuristicResult_t.asSlice(heuristics, selected));
        MemorySegment out = ops.output().pointer();
        int status = cublaslt_h.cublasLtMatmul(lt.handle(), desc.get(), alpha, ops.weights().pointer(), layouts[0],
                ops.activations().pointer(), layouts[1], beta, out, layouts[2], out, dLayout, algo,
                workspace == null ? MemorySegment.NULL : workspace.pointer(),
                workspace == null ? 0 : workspace.byteSize(), stream.handle());
        CublasStatus.check("cublasLtMatmul", status);
    }

    private int heuristic(MatmulOptions options) {
        OwnedHandle pref = own(CublasStatus.create("cublasLtMatmulPreferenceCreate", cublaslt_h::cublasLtMatmulPreferenceCreate),
                h -> cublaslt_h.cublasLtMatmulPreferenceDestroy(h), "cublasLtMatmulPreferenceDestroy");
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ws = a.allocateFrom(ValueLayout.JAVA_LONG, options.workspaceBytes());
            CublasStatus.check("cublasLtMatmulPreferenceSetAttribute", cublaslt_h.cublasLtMatmulPreferenceSetAttribute(
                    pref.get(), cublaslt_h.CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES(), ws, Long.BYTES));
            MemorySegment count = a.allocate(ValueLayout.JAVA_INT);
            CublasStatus.check("cublasLtMatmulAlgoGetHeuristic", cublaslt_h.cublasLtMatmulAlgoGetHeuristic(lt.handle(),
                    desc.get(), layouts[0], layouts[1], layouts[2], dLayout, pref.get(), options.algorithms(), heuristics, count));
            int n = count.get(ValueLayout.JAVA_INT, 0);
            if (n == 0) {
                throw new CublasException("cublasLtMatmulAlgoGetHeuristic", cublaslt_h.CUBLAS_STATUS_NOT_SUPPORTED(),
                        "CUBLAS_STATUS_NOT_SUPPORTED", "no algorithm for " + recipe.label() + " " + gemm.name());
            }
            return n;
        }
    }

    private MemorySegment layout(int type, long rows, long cols, long ld) {
        return own(CublasStatus.create("cublasLtMatrixLayoutCreate",
                p -> cublaslt_h.cublasLtMatrixLayoutCreate(p, type, rows, cols, ld)),
                h -> cublaslt_h.cublasLtMatrixLayoutDestroy(h), "cublasLtMatrixLayoutDestroy").get();
    }

    private void setDesc(int attribute, int value) {
        try (Arena a = Arena.ofConfined()) {
            CublasStatus.check("cublasLtMatmulDescSetAttribute", cublaslt_h.cublasLtMatmulDescSetAttribute(desc.get(),
                    attribute, a.allocateFrom(ValueLayout.JAVA_INT, value), Integer.BYTES));
        }
    }

    /** For the attributes cublasLt.h declares {@code int8_t}: the size passed must be 1. */
    private void setDescByte(int attribute, byte value) {
        try (Arena a = Arena.ofConfined()) {
            CublasStatus.check("cublasLtMatmulDescSetAttribute", cublaslt_h.cublasLtMatmulDescSetAttribute(desc.get(),
                    attribute, a.allocateFrom(ValueLayout.JAVA_BYTE, value), Byte.BYTES));
        }
    }

    private void setScale(int attribute, DeviceBuffer scale, String name) {
        if (scale == null || scale.byteSize() < Float.BYTES) {
            throw new IllegalArgumentException(name + " must be a device buffer holding one FP32 scale for " + recipe.label());
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment p = a.allocate(ValueLayout.ADDRESS);
            p.set(ValueLayout.ADDRESS, 0, scale.pointer());
            CublasStatus.check("cublasLtMatmulDescSetAttribute",
                    cublaslt_h.cublasLtMatmulDescSetAttribute(desc.get(), attribute, p, ValueLayout.ADDRESS.byteSize()));
        }
    }

    private static void requireSize(String name, DeviceBuffer b, long bytes) {
        if (b.byteSize() < bytes) {
            throw new IllegalArgumentException(name + " buffer holds " + b.byteSize() + " bytes, the product needs " + bytes);
        }
    }

    private OwnedHandle own(MemorySegment raw, java.util.function.ToIntFunction<MemorySegment> destroy, String fn) {
        OwnedHandle h = OwnedHandle.own(raw, 0, "matmul", p -> CublasStatus.check(fn, destroy.applyAsInt(p)));
        handles.add(h);
        return h;
    }

    /** Frees descriptors, layouts, preference and workspace; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = handles.size() - 1; i >= 0; i--) {
            handles.get(i).close();
        }
        if (workspace != null) {
            workspace.close();
        }
        arena.close();
    }
}
