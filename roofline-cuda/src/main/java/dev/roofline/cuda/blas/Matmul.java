package dev.roofline.cuda.blas;

import dev.roofline.bindings.loader.OwnedHandle;
import dev.roofline.core.format.ScaleTiles;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.UnsupportedOnDeviceException;
import dev.roofline.cuda.internal.CublasLtCalls;
import dev.roofline.cuda.internal.CublasLtCalls.ScalePointer;
import dev.roofline.cuda.internal.MatmulRecipe;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

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
            desc = own(CublasLtCalls.matmulDescriptor(recipe.computeType(), recipe.scaleType()));
            CublasLtCalls.setTransposes(desc.get());
            if (recipe.perTensorScales() && options.fastAccumulation()) {
                CublasLtCalls.setFastAccumulation(desc.get());
            }
            if (recipe.blockScaleMode() >= 0) {
                CublasLtCalls.setBlockScaleModes(desc.get(), recipe.blockScaleMode());
            }
            layouts[0] = layout(recipe.aType(), l.aRows(), l.aCols(), l.lda());
            layouts[1] = layout(recipe.bType(), l.bRows(), l.bCols(), l.ldb());
            layouts[2] =
                    recipe.cType() == recipe.dType() ? null : layout(recipe.cType(), l.cRows(), l.cCols(), l.ldc());
            MemorySegment dLayout = layout(recipe.dType(), l.cRows(), l.cCols(), l.ldc());
            if (layouts[2] == null) {
                layouts[2] = dLayout;
            }
            this.dLayout = dLayout;
            workspace = options.workspaceBytes() > 0 ? DeviceBuffer.allocate(options.workspaceBytes()) : null;
            heuristics = CublasLtCalls.heuristicResults(options.algorithms(), arena);
            algorithmCount = CublasLtCalls.heuristic(
                    lt.handle(),
                    desc.get(),
                    layouts[0],
                    layouts[1],
                    layouts[2],
                    dLayout,
                    options.workspaceBytes(),
                    options.algorithms(),
                    heuristics,
                    recipe.label() + " " + gemm.name());
            boolean ints = recipe.integerScale();
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
        Objects.requireNonNull(lt, "lt must not be null");
        Objects.requireNonNull(gemm, "gemm must not be null");
        Objects.requireNonNull(device, "device must not be null");
        Objects.requireNonNull(options, "options must not be null");
        MatmulRecipe recipe = MatmulRecipe.of(gemm);
        if (device.computeCapability().compareTo(recipe.minimum()) < 0) {
            throw new UnsupportedOnDeviceException(
                    recipe.label() + " matmul", recipe.minimum(), device.name(), device.computeCapability());
        }
        if (recipe.eightBitOperands() && gemm.k() % 16 != 0) {
            throw new IllegalArgumentException(
                    "K must be a multiple of 16 for 8-bit operands (16-byte aligned rows), got K=" + gemm.k());
        }
        requireWholeScaleBlocks(gemm);
        try {
            return new Matmul(lt, gemm, recipe, options);
        } catch (CublasException e) {
            String note = recipe.blockScaleMode() >= 0 && e.function().equals("cublasLtMatmulAlgoGetHeuristic")
                    ? BlockScaledLimits.noAlgorithmNote(device.computeCapability(), recipe.label(), CublasLt.version())
                    : "";
            if (note.isEmpty()) {
                throw e;
            }
            CublasException explained =
                    new CublasException(e.function(), e.status(), e.statusName(), e.libraryMessage() + note);
            explained.initCause(e);
            throw explained;
        }
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

    /**
     * Bytes each operand buffer must hold at least: a block-scaled operand's elements alone (its scales are separate
     * buffers, {@link #requiredBlockScaleBytes}), every other operand as stored.
     */
    public OperandBytes requiredBytes() {
        boolean blocks = recipe.blockScaleMode() >= 0;
        return new OperandBytes(
                blocks
                        ? gemm.weights().elementBytes(gemm.n(), gemm.k())
                        : gemm.weights().storageBytes(gemm.n(), gemm.k()),
                blocks
                        ? gemm.activations().elementBytes(gemm.m(), gemm.k())
                        : gemm.activations().storageBytes(gemm.m(), gemm.k()),
                gemm.output().storageBytes(gemm.m(), gemm.n()));
    }

    /** Enqueues the product on {@code stream}. */
    public void run(Operands ops, Stream stream) {
        Objects.requireNonNull(ops, "ops must not be null");
        Objects.requireNonNull(stream, "stream must not be null");
        if (closed) {
            throw new dev.roofline.cuda.ClosedResourceException("matmul");
        }
        OperandBytes need = requiredBytes();
        requireSize("weights", ops.weights(), need.weights());
        requireSize("activations", ops.activations(), need.activations());
        requireSize("output", ops.output(), need.output());
        if (recipe.perTensorScales()) {
            setScale(ScalePointer.A, ops.weightScale(), "weightScale");
            setScale(ScalePointer.B, ops.activationScale(), "activationScale");
            if (gemm.output() == Precision.FP8_E4M3) {
                setScale(ScalePointer.D, ops.outputScale(), "outputScale");
            }
        }
        if (recipe.blockScaleMode() >= 0) {
            BlockScaleBytes scales = requiredBlockScaleBytes(gemm);
            requireBlockScales("weightBlockScales", ops.weightBlockScales(), scales.weights());
            requireBlockScales("activationBlockScales", ops.activationBlockScales(), scales.activations());
            BlockScaledLimits.requireAlignedScales("weightBlockScales", ops.weightBlockScales());
            BlockScaledLimits.requireAlignedScales("activationBlockScales", ops.activationBlockScales());
            CublasLtCalls.setScalePointer(
                    desc.get(), ScalePointer.A, ops.weightBlockScales().pointer());
            CublasLtCalls.setScalePointer(
                    desc.get(), ScalePointer.B, ops.activationBlockScales().pointer());
            // the tensor scales multiply the whole product: alpha (a float; block-scaled recipes scale in FP32)
            alpha.set(ValueLayout.JAVA_FLOAT, 0, ops.tensorScales());
        }
        CublasLtCalls.matmul(
                lt.handle(),
                desc.get(),
                alpha,
                ops.weights().pointer(),
                layouts[0],
                ops.activations().pointer(),
                layouts[1],
                beta,
                ops.output().pointer(),
                layouts[2],
                dLayout,
                CublasLtCalls.algorithm(heuristics, selected),
                workspace == null ? MemorySegment.NULL : workspace.pointer(),
                workspace == null ? 0 : workspace.byteSize(),
                stream.handle());
    }

    private MemorySegment layout(int type, long rows, long cols, long ld) {
        return own(CublasLtCalls.matrixLayout(type, rows, cols, ld)).get();
    }

    private void setScale(ScalePointer operand, DeviceBuffer scale, String name) {
        if (scale == null || scale.byteSize() < Float.BYTES) {
            throw new IllegalArgumentException(
                    name + " must be a device buffer holding one FP32 scale for " + recipe.label());
        }
        CublasLtCalls.setScalePointer(desc.get(), operand, scale.pointer());
    }

    /**
     * Bytes of the tiled block scales a block-scaled product reads: weights (A, {@code N} rows) and activations
     * ({@code M} rows), each {@code ⌈K / block⌉} scales a row padded to 128 × 4 tiles ({@link ScaleTiles}); both 0 for a
     * product without block scales.
     */
    public record BlockScaleBytes(long weights, long activations) {}

    /** The block-scale bytes {@code gemm} reads (see {@link BlockScaleBytes}). */
    public static BlockScaleBytes requiredBlockScaleBytes(Gemm gemm) {
        Objects.requireNonNull(gemm, "gemm must not be null");
        return new BlockScaleBytes(
                ScaleTiles.scaleBytes(gemm.weights(), Math.toIntExact(gemm.n()), gemm.k()),
                ScaleTiles.scaleBytes(gemm.activations(), Math.toIntExact(gemm.m()), gemm.k()));
    }

    /** Block-scaled operands' K, in elements, is a multiple of this: whole 32-element blocks and 16-byte rows. */
    static final int BLOCK_SCALED_K_MULTIPLE = 32;

    /**
     * Refuses a block-scaled product whose K would split a scale block or misalign a row: NVFP4 rows are 16-byte aligned
     * at 32 elements, MXFP8's blocks are 32 elements.
     */
    static void requireWholeScaleBlocks(Gemm gemm) {
        boolean blocks = gemm.weights().blockScaling().isPresent()
                || gemm.activations().blockScaling().isPresent();
        if (blocks && gemm.k() % BLOCK_SCALED_K_MULTIPLE != 0) {
            throw new IllegalArgumentException("K must be a multiple of " + BLOCK_SCALED_K_MULTIPLE
                    + " for block-scaled operands (whole scale blocks, 16-byte aligned rows), got K=" + gemm.k()
                    + " for " + gemm.name());
        }
    }

    private static void requireBlockScales(String name, DeviceBuffer b, long bytes) {
        if (b == null) {
            throw new IllegalArgumentException(name + ": a block-scaled product needs its tiled block scales (" + bytes
                    + " bytes; Operands.withBlockScales)");
        }
        requireSize(name, b, bytes);
    }

    private static void requireSize(String name, DeviceBuffer b, long bytes) {
        if (b.byteSize() < bytes) {
            throw new IllegalArgumentException(
                    name + " buffer holds " + b.byteSize() + " bytes, the product needs " + bytes);
        }
    }

    /** Keeps {@code h} to close with this plan, in reverse order of creation. */
    private OwnedHandle own(OwnedHandle h) {
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
