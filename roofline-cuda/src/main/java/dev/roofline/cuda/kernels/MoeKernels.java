package dev.roofline.cuda.kernels;

import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The mixture-of-experts operators of a Mixtral-style decode step on the GPU ({@code moe.cu}, in the same fatbin as
 * the GEMV kernels), FP16 activations: top-k routing from the router's logits, the experts' gate/up and down
 * projections as grouped GEMVs that read the expert ids from device memory (no host round trip, so a step with them
 * can be captured into a CUDA graph), and the weighted sum of each token's expert outputs.
 *
 * <p>Layouts (row-major; B rows, E experts, k experts per token, slot {@code s = b·k + j}): logits
 * {@code half[B][E]}; routing {@code int ids[B][k]} and {@code float weights[B][k]}, best first; expert matrices
 * stacked into one {@link DeviceWeights} of {@code E·N} rows, expert e's rows {@code e·N …}; gate/up outputs
 * {@code half[B·k][N]}; down outputs {@code float[B·k][N]}, each already times its routing weight.
 *
 * <p>The grouped GEMVs run gemv.cu's kernels on gathered rows: block (j, tile) computes a tile of rows of the j-th
 * smallest expert id the batch picked, for the tokens that picked it, over {@code min(E, B·k)} groups of blocks (a
 * group past the experts picked returns at once), so a step reads each expert the batch picked once, whatever number of
 * its tokens picked it, and no other. Formats: {@link #FORMATS}; MXFP4 is refused, because its device scales end with the
 * row maxima of the whole stack, which an expert's slice of it does not carry.
 *
 * <pre>{@code
 * try (MoeKernels moe = MoeKernels.load()) {
 *     moe.topK(logits, ids, weights, batch, 8, 2, stream);
 *     moe.up(gateUp, 8, normed, ids, expertGateUp, batch, 2, stream);
 * }
 * }</pre>
 */
public final class MoeKernels implements AutoCloseable {
    /** The most experts per token the top-k kernel picks (MAX_TOP_K in moe.cu). */
    public static final int MAX_TOP_K = 8;
    /** The most tokens one step routes: the GEMV templates take up to 16 activation rows (MAX_ROWS in moe.cu). */
    public static final int MAX_ROWS = 16;
    /** The most experts the grouped GEMVs choose among (MAX_EXPERTS in moe.cu: a 128-bit mask of the picked ones). */
    public static final int MAX_EXPERTS = 128;
    /** Weight formats the grouped GEMVs are built for. */
    public static final Set<WeightFormat> FORMATS = Set.of(
            WeightFormat.FP16,
            WeightFormat.BF16,
            WeightFormat.FP8_E4M3,
            WeightFormat.INT8,
            WeightFormat.INT4,
            WeightFormat.NVFP4);

    private static final int[] TC_SPLITS = {8, 16};

    private final KernelLibrary library;

    private MoeKernels(KernelLibrary library) {
        this.library = library;
    }

    /** Loads the embedded fatbin into the current device's context and looks up every MoE kernel. */
    public static MoeKernels load() {
        return load(KernelLaunch.ORDERED);
    }

    /** {@link #load()}, each launch then made as {@code launch} says. */
    public static MoeKernels load(KernelLaunch launch) {
        return new MoeKernels(KernelLibrary.load("MoE kernel library", kernelNames(), launch));
    }

    /**
     * Throws naming the format when the grouped GEMVs have no kernel for {@code format}.
     *
     * @throws IllegalArgumentException for MXFP4
     */
    public static void requireFormat(WeightFormat format) {
        if (!FORMATS.contains(Objects.requireNonNull(format, "format"))) {
            throw new IllegalArgumentException("the grouped expert GEMVs have no " + format + " kernel: its device"
                    + " scales end with each row's largest code after all rows of the matrix, which one expert's"
                    + " slice of a stack does not carry; experts run in " + FORMATS);
        }
    }

    /**
     * Each row's {@code topK} largest of its {@code experts} logits (ties to the lower index, NaN below every number)
     * and their weights: the softmax over all experts, the chosen ones divided by their sum (Mixtral's rule).
     *
     * @param logits  {@code half[rows][experts]}
     * @param ids     {@code int[rows][topK]}, written best first
     * @param weights {@code float[rows][topK]}, in the order of {@code ids}
     */
    public void topK(
            DeviceBuffer logits,
            DeviceBuffer ids,
            DeviceBuffer weights,
            int rows,
            int experts,
            int topK,
            Stream stream) {
        routing(rows, experts, topK);
        DecodeKernels.requireBytes("logits", logits, 2L * rows * experts);
        DecodeKernels.requireBytes("ids", ids, 4L * rows * topK);
        DecodeKernels.requireBytes("weights", weights, 4L * rows * topK);
        library.launch("moe_top_k_f16", rows, 32, stream, logits, ids, weights, experts, topK);
    }

    /**
     * The gate/up projection of each token's chosen experts: {@code y[b·k + j] = x[b] · W_{ids[b][j]}ᵀ}.
     *
     * @param w       the {@code experts} experts' merged gate/up matrices stacked: {@code experts·N × K}
     * @param x       {@code half[rows][K]}
     * @param y       {@code half[rows·topK][N]}
     */
    public void up(
            DeviceWeights w,
            int experts,
            DeviceBuffer x,
            DeviceBuffer ids,
            DeviceBuffer y,
            int rows,
            int topK,
            Stream stream) {
        Grouped g = Grouped.of(w, experts, rows, topK);
        DecodeKernels.requireBytes("x", x, 2L * rows * g.k());
        DecodeKernels.requireBytes("ids", ids, 4L * rows * topK);
        DecodeKernels.requireBytes("y", y, 2L * rows * topK * g.n());
        launch(g, false, x, y, ids, null, stream);
    }

    /**
     * The down projection of each slot's expert, times its routing weight:
     * {@code y[s] = weights[s] · x[s] · W_{ids[s]}ᵀ} in FP32.
     *
     * @param w the {@code experts} experts' down matrices stacked: {@code experts·N × K}
     * @param x {@code half[rows·topK][K]}
     * @param y {@code float[rows·topK][N]}
     */
    public void down(
            DeviceWeights w,
            int experts,
            DeviceBuffer x,
            DeviceBuffer ids,
            DeviceBuffer weights,
            DeviceBuffer y,
            int rows,
            int topK,
            Stream stream) {
        Grouped g = Grouped.of(w, experts, rows, topK);
        DecodeKernels.requireBytes("x", x, 2L * rows * topK * g.k());
        DecodeKernels.requireBytes("ids", ids, 4L * rows * topK);
        DecodeKernels.requireBytes("weights", weights, 4L * rows * topK);
        DecodeKernels.requireBytes("y", y, 4L * rows * topK * g.n());
        launch(g, true, x, y, ids, weights, stream);
    }

    /**
     * {@code delta[b] = Σ_j expertOut[b·topK + j]}, summed in FP32 in slot order and rounded to FP16 once.
     *
     * @param expertOut {@code float[rows·topK][hidden]} ({@link #down}'s output)
     * @param delta     {@code half[rows][hidden]}
     */
    public void combine(DeviceBuffer expertOut, DeviceBuffer delta, int rows, int hidden, int topK, Stream stream) {
        DecodeKernels.positive("rows", rows);
        DecodeKernels.positive("hidden", hidden);
        DecodeKernels.positive("topK", topK);
        DecodeKernels.requireBytes("expertOut", expertOut, 4L * rows * topK * hidden);
        DecodeKernels.requireBytes("delta", delta, 2L * rows * hidden);
        library.launch(
                "moe_combine_f16",
                Math.multiplyExact(rows, Math.ceilDiv(hidden, 256)),
                256,
                stream,
                expertOut,
                delta,
                hidden,
                topK);
    }

    private void launch(
            Grouped g, boolean down, DeviceBuffer x, DeviceBuffer y, DeviceBuffer ids, DeviceBuffer weights, Stream s) {
        DeviceWeights w = g.weights();
        library.launch(
                kernelName(down, w.format(), g.rows(), g.n()),
                g.grid(),
                g.threads(),
                s,
                w.weights(),
                w.scales(),
                x,
                y,
                ids,
                weights,
                g.rows(),
                g.topK(),
                g.experts(),
                g.n(),
                g.k(),
                w.globalScale());
    }

    /**
     * One grouped GEMV's geometry: {@code experts} matrices of {@code n × k} stacked in {@code weights}, blocks of
     * {@link #threads} computing {@link #rowsPerBlock} rows of one expert each, {@code ⌈n / rowsPerBlock⌉} of them for
     * each of the at most {@code min(experts, rows·topK)} experts the tokens pick.
     */
    record Grouped(DeviceWeights weights, int experts, int n, int k, int rows, int topK) {

        static Grouped of(DeviceWeights w, int experts, int rows, int topK) {
            Objects.requireNonNull(w, "weights");
            requireFormat(w.format());
            w.requireRowMajor("the grouped expert GEMV");
            routing(rows, experts, topK);
            if (w.rows() % experts != 0) {
                throw new IllegalArgumentException(
                        "a stack of " + experts + " experts needs a multiple of " + experts + " rows, got " + w.rows());
            }
            if (w.cols() % w.format().kMultiple() != 0) {
                throw new IllegalArgumentException(w.format() + " needs K (inputs) a multiple of "
                        + w.format().kMultiple() + ", got " + w.cols());
            }
            return new Grouped(w, experts, w.rows() / experts, w.cols(), rows, topK);
        }

        int rowsPerBlock() {
            return GemvKernels.rowsPerBlock(weights.format(), Activation.F16, rows == 1 ? 1 : MAX_ROWS);
        }

        int threads() {
            return GemvKernels.threadsPerBlock(weights.format(), Activation.F16, rows == 1 ? 1 : MAX_ROWS, n);
        }

        int grid() {
            return Math.multiplyExact(Math.min(experts, rows * topK), Math.ceilDiv(n, rowsPerBlock()));
        }
    }

    /** {@code moe_<up|down>_<format>_f16_m<1|16>}, with {@code _w<8|16>} for the tensor-core formats. */
    static String kernelName(boolean down, WeightFormat format, int rows, int n) {
        String name = baseName(down, format, rows == 1);
        return GemvKernels.tensorCores(format, Activation.F16, rows == 1 ? 1 : MAX_ROWS)
                ? name + "_w" + GemvKernels.tensorCoreWarps(n)
                : name;
    }

    private static String baseName(boolean down, WeightFormat format, boolean singleRow) {
        return "moe_" + (down ? "down_" : "up_") + format.kernelName() + "_f16" + (singleRow ? "_m1" : "_m16");
    }

    static List<String> kernelNames() {
        List<String> names = new ArrayList<>(List.of("moe_top_k_f16", "moe_combine_f16"));
        for (WeightFormat f : WeightFormat.values()) {
            if (!FORMATS.contains(f)) {
                continue;
            }
            for (boolean down : new boolean[] {false, true}) {
                for (boolean singleRow : new boolean[] {true, false}) {
                    String name = baseName(down, f, singleRow);
                    if (GemvKernels.tensorCores(f, Activation.F16, singleRow ? 1 : MAX_ROWS)) {
                        for (int w : TC_SPLITS) {
                            names.add(name + "_w" + w);
                        }
                    } else {
                        names.add(name);
                    }
                }
            }
        }
        return names;
    }

    /** Throws naming the value when rows, experts or topK is out of what the kernels take. */
    static void routing(int rows, int experts, int topK) {
        if (rows < 1 || rows > MAX_ROWS) {
            throw new IllegalArgumentException("rows (tokens) must be 1.." + MAX_ROWS + ", got " + rows);
        }
        if (experts < 1 || experts > MAX_EXPERTS) {
            throw new IllegalArgumentException("experts must be 1.." + MAX_EXPERTS + ", got " + experts);
        }
        if (topK < 1 || topK > Math.min(MAX_TOP_K, experts)) {
            throw new IllegalArgumentException(
                    "topK must be 1.." + Math.min(MAX_TOP_K, experts) + " for " + experts + " experts, got " + topK);
        }
    }

    /** Unloads the library and frees its image, the first time only; launches already enqueued still run. */
    @Override
    public void close() {
        library.close();
    }
}
