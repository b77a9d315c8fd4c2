package dev.roofline.cuda.kernels;

import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * roofline's weight-only GEMV kernels {@code y[M×N] = x[M×K] · W[N×K]ᵀ} (FP32 accumulation, M = 1…32; above 16 rows
 * on the tensor cores only), loaded from the fatbin embedded in this jar ({@code gemv.fatbin}: sm_90a, sm_100a, sm_120a, sm_121a and compute_90 PTX) with
 * the runtime's library API, so no nvcc is needed at run time.
 *
 * <pre>{@code
 * try (GemvKernels gemv = GemvKernels.load(); DeviceWeights w = DeviceWeights.upload(WeightFormat.INT8, n, k, q, s, 1f)) {
 *     gemv.gemv(w, x, y, 1, Activation.BF16, stream);
 * }
 * }</pre>
 */
public final class GemvKernels implements AutoCloseable {
    static final String FATBIN = "gemv.fatbin";
    private static final int THREADS = 128; // CUDA-core kernels: 4 warps (WARPS_PER_BLOCK in gemv.cu)
    private static final int TC_ROWS_PER_BLOCK = 16; // tensor-core kernels: 16 rows per block (TC_ROWS)
    private static final int[] TC_SPLITS = {8, 16}; // their K splits, one kernel each (_w8, _w16)
    /** The most activation rows of the CUDA-core kernels (and of a product with an epilogue). */
    private static final int MAX_M = 16;
    /**
     * The most activation rows a product takes: the tensor-core kernels' (_m32 in gemv.cu); the CUDA-core kernels and
     * a product with an {@link Epilogue} take up to 16.
     */
    public static final int MAX_ROWS = 32;

    private final KernelLibrary library;
    private final int smCount;
    private final double dramBytesPerSmCycle;

    private GemvKernels(KernelLibrary library, int smCount, double dramBytesPerSmCycle) {
        this.library = library;
        this.smCount = smCount;
        this.dramBytesPerSmCycle = dramBytesPerSmCycle;
    }

    /** Loads the embedded fatbin into the current device's context and looks up every kernel. */
    public static GemvKernels load() {
        return load(KernelLaunch.ORDERED);
    }

    /** {@link #load()}, each launch then made as {@code launch} says. */
    public static GemvKernels load(KernelLaunch launch) {
        Device device = Cuda.currentDevice();
        return new GemvKernels(
                KernelLibrary.load("GEMV kernel library", kernelNames(), launch),
                device.smCount(),
                dramBytesPerSmCycle(device));
    }

    /**
     * The GPU's peak DRAM bytes per SM and SM clock cycle, from its clocks ({@link Device#memoryBytesPerSecond}): 18.4
     * on an H200 (4814 GB/s, 132 SMs at 1980 MHz), 12.8 on an H100 SXM (3352 GB/s). The more of them, the more an SM's
     * reads of x from L1 and L2 may cost beside its weights from DRAM ({@link #TILED_PAIRS_MIN_DRAM_BYTES_PER_SM_CYCLE}).
     */
    static double dramBytesPerSmCycle(Device device) {
        return device.memoryBytesPerSecond() / ((double) device.smCount() * device.smClockKhz() * 1e3);
    }

    /**
     * What a product does with its outputs besides storing them, so that a decoder's RMSNorm needs no launch of its
     * own (the kernels' {@code GemvEpilogue} in gemv.cu, whose 48 bytes {@link #write} lays out); FP16 and FP8 weights
     * with FP16 activations only ({@link #runsEpilogue}). {@link #NONE} is the plain product.
     *
     * <ul>
     *   <li>{@link #addNorm}, for the product before a norm: {@code r = residual + y} rounded to FP16 goes back to
     *       {@code residual}, the output becomes {@code r · normWeight} rounded to FP16, and each row's {@code Σ r²} is
     *       added to its {@link #SUM_SPREAD} partial sums {@code sumsOut[m][·]} (FP32); block 0 first zeroes
     *       {@code sumsClear[m][·]}.
     *   <li>{@link #normScale}, for the product after it: each output times {@code 1 / sqrt(Σ sumsIn[m][·] / hidden +
     *       eps)}.
     *   <li>{@link #clearing}: a plain product that zeroes {@code sumsClear[m][·]}.
     * </ul>
     */
    public record Epilogue(
            MemorySegment residual,
            MemorySegment normWeight,
            MemorySegment sumsOut,
            MemorySegment sumsClear,
            MemorySegment sumsIn,
            float invHidden,
            float eps) {
        public static final Epilogue NONE = new Epilogue(
                MemorySegment.NULL,
                MemorySegment.NULL,
                MemorySegment.NULL,
                MemorySegment.NULL,
                MemorySegment.NULL,
                0,
                0);
        static final long BYTES = 48;

        /**
         * Partial sums per row ({@code SUM_SPREAD} in gemv.cu): the sums are {@code float[m][SUM_SPREAD]}, each warp
         * adding into one, so that the atomics at a product's tail do not queue on one address; the norm scale adds
         * them up.
         */
        public static final int SUM_SPREAD = 8;

        public Epilogue {
            Objects.requireNonNull(residual, "residual");
            Objects.requireNonNull(normWeight, "normWeight");
            Objects.requireNonNull(sumsOut, "sumsOut");
            Objects.requireNonNull(sumsClear, "sumsClear");
            Objects.requireNonNull(sumsIn, "sumsIn");
            if (isNull(residual) != isNull(normWeight) || isNull(residual) != isNull(sumsOut)) {
                throw new IllegalArgumentException("the residual add needs the residual, the norm weight and the sums");
            }
            if (!isNull(sumsIn) && !(invHidden > 0 && eps > 0 && Float.isFinite(eps))) {
                throw new IllegalArgumentException(
                        "a norm scale needs 1 / hidden and eps positive, got " + invHidden + " and " + eps);
            }
        }

        /** The residual add before a norm whose weight is {@code normWeight}. */
        public static Epilogue addNorm(
                DeviceBuffer residual, DeviceBuffer normWeight, MemorySegment sumsOut, MemorySegment sumsClear) {
            return new Epilogue(residual.pointer(), normWeight.pointer(), sumsOut, sumsClear, MemorySegment.NULL, 0, 0);
        }

        /** The norm's {@code 1 / rms} from the sums {@link #addNorm} left. */
        public static Epilogue normScale(MemorySegment sumsIn, int hidden, float eps) {
            return new Epilogue(
                    MemorySegment.NULL,
                    MemorySegment.NULL,
                    MemorySegment.NULL,
                    MemorySegment.NULL,
                    sumsIn,
                    1f / hidden,
                    eps);
        }

        /** A plain product that zeroes the sums the next {@link #addNorm} adds into. */
        public static Epilogue clearing(MemorySegment sumsClear) {
            return new Epilogue(
                    MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL, sumsClear, MemorySegment.NULL, 0, 0);
        }

        /** Whether this is {@link #NONE}: no residual add, no norm scale, no sums cleared. */
        public boolean none() {
            return isNull(residual) && isNull(sumsIn) && isNull(sumsClear);
        }

        /** Whether the outputs go into a residual add ({@link #addNorm}). */
        public boolean addsResidual() {
            return !isNull(residual);
        }

        private static boolean isNull(MemorySegment p) {
            return p.address() == 0;
        }

        /** The struct as the kernels read it: five pointers, then {@code invHidden} and {@code eps}. */
        MemorySegment write(Arena arena) {
            MemorySegment s = arena.allocate(BYTES, 8);
            s.set(ValueLayout.ADDRESS, 0, residual);
            s.set(ValueLayout.ADDRESS, 8, normWeight);
            s.set(ValueLayout.ADDRESS, 16, sumsOut);
            s.set(ValueLayout.ADDRESS, 24, sumsClear);
            s.set(ValueLayout.ADDRESS, 32, sumsIn);
            s.set(ValueLayout.JAVA_FLOAT, 40, invHidden);
            s.set(ValueLayout.JAVA_FLOAT, 44, eps);
            return s;
        }
    }

    /** {@code y = x · Wᵀ} for {@code m} activation rows, enqueued on {@code stream}. */
    public void gemv(DeviceWeights w, DeviceBuffer x, DeviceBuffer y, int m, Activation activation, Stream stream) {
        gemv(w, x, y, m, activation, Epilogue.NONE, stream);
    }

    /**
     * {@code y = x · Wᵀ} for {@code m} activation rows with {@code epilogue} applied to the outputs. A residual add
     * reads and writes {@code residual[m][w.rows()]} and {@code normWeight[w.rows()]} in the activation type; the sums
     * are {@code float[m][Epilogue.SUM_SPREAD]}.
     */
    public void gemv(
            DeviceWeights w,
            DeviceBuffer x,
            DeviceBuffer y,
            int m,
            Activation activation,
            Epilogue epilogue,
            Stream stream) {
        if (w.tiled()) {
            tiled(w, x, y, m, activation, epilogue, stream);
            return;
        }
        gemv(
                w.format(),
                w.weights(),
                w.scales(),
                w.globalScale(),
                x,
                y,
                m,
                w.rows(),
                w.cols(),
                activation,
                epilogue,
                stream);
    }

    /**
     * {@code y[m×n] = x[m×k] · W[n×k]ᵀ} with W in {@code format} (see {@link WeightFormat} for the byte layouts), in
     * the row-major layout: the buffers of tiled weights ({@link DeviceWeights#tiled}) go through
     * {@link #gemv(DeviceWeights, DeviceBuffer, DeviceBuffer, int, Activation, Stream)}.
     *
     * @param scales      the format's scales as the kernels read them ({@link WeightFormat#deviceScaleBytes}: for
     *                    MXFP4 followed by each row's largest code of exactly these n rows, see
     *                    {@link DeviceWeights#deviceScales}), or {@code null} for FP16/BF16
     * @param globalScale NVFP4's second-level scale ({@code weight_scale_2}); ignored by the other formats
     * @throws IllegalArgumentException for m outside 1…32, above 16 with activations the tensor-core kernels do not
     *                                  take ({@link #tensorCores}), k not a multiple of {@link WeightFormat#kMultiple()},
     *                                  or a buffer smaller than the shape needs
     */
    public void gemv(
            WeightFormat format,
            DeviceBuffer weights,
            DeviceBuffer scales,
            float globalScale,
            DeviceBuffer x,
            DeviceBuffer y,
            int m,
            int n,
            int k,
            Activation activation,
            Stream stream) {
        gemv(format, weights, scales, globalScale, x, y, m, n, k, activation, Epilogue.NONE, stream);
    }

    private void gemv(
            WeightFormat format,
            DeviceBuffer weights,
            DeviceBuffer scales,
            float globalScale,
            DeviceBuffer x,
            DeviceBuffer y,
            int m,
            int n,
            int k,
            Activation activation,
            Epilogue epilogue,
            Stream stream) {
        Objects.requireNonNull(epilogue, "epilogue");
        checkOperands(format, weights, scales, globalScale, x, y, m, n, k, activation);
        RowMajorLaunch launch = rowMajorLaunch(format, activation, m, n, k, epilogue.none());
        library.launch(
                launch.kernel(),
                launch.blocks(),
                launch.threadsPerBlock(),
                stream,
                weights,
                scales,
                x,
                y,
                m,
                n,
                k,
                globalScale,
                epilogue);
    }

    /** The kernel a row-major product runs and its grid: blocks of {@code threadsPerBlock} threads. */
    record RowMajorLaunch(String kernel, int blocks, int threadsPerBlock) {}

    /**
     * The launch of an M × K by N × K row-major product, with an epilogue unless {@code plain}: the tensor cores where
     * {@link #tensorCores} or {@link #oneRowOnTensorCores} say so and there is no epilogue or the weights are FP8, else
     * the CUDA cores (above one row FP16's 16-row kernel carries the epilogue). FP8 with an epilogue runs the same
     * kernels' {@value #EPILOGUE_SUFFIX} twins, which carry it: the plain kernels carrying it made a decode step slower
     * with its norms launched (gemv.cu).
     *
     * @throws IllegalArgumentException for an epilogue these weights, activations and rows do not take
     *                                  ({@link #runsEpilogue}), or above {@link #MAX_M} rows where only the CUDA cores
     *                                  could run them
     */
    static RowMajorLaunch rowMajorLaunch(
            WeightFormat format, Activation activation, int m, int n, int k, boolean plain) {
        if (!plain && !runsEpilogue(format, activation, m)) {
            throw new IllegalArgumentException("a residual add, norm scale or sums to clear runs on FP16 weights with"
                    + " FP16 activations up to " + MAX_M + " rows and FP8 weights with FP16 activations up to "
                    + FP8_EPILOGUE_MAX_M + " rows only, got " + format + " weights with " + activation
                    + " activations at " + m + " rows");
        }
        boolean twin = !plain && format == WeightFormat.FP8_E4M3; // the plain kernel's _ep twin carries the epilogue
        boolean oneRowTc = oneRowOnTensorCores(format, activation, m, n, k);
        boolean tc = (tensorCores(format, activation, m) || oneRowTc) && (plain || twin);
        if (!tc && m > MAX_M) {
            throw new IllegalArgumentException("M (activation rows) " + m + " above " + MAX_M + " runs on the tensor"
                    + " cores only, which take " + format + " weights with " + Activation.F16 + " activations"
                    + (format == WeightFormat.BF16 ? " or BF16" : "") + " and no epilogue, got " + activation
                    + " activations" + (plain ? "" : " and an epilogue"));
        }
        String suffix = twin ? EPILOGUE_SUFFIX : "";
        if (!tc) {
            return new RowMajorLaunch(
                    baseName(format, activation, m == 1 ? 1 : MAX_M) + suffix,
                    Math.ceilDiv(n, cudaCoreRowsPerBlock(format, m)),
                    THREADS);
        }
        int warps = oneRowTc ? TC_SPLITS[1] : tensorCoreWarps(n);
        String kernel =
                oneRowTc ? baseName(format, activation, 8) + "_w" + warps : kernelName(format, activation, m, n);
        return new RowMajorLaunch(kernel + suffix, Math.ceilDiv(n, TC_ROWS_PER_BLOCK), 32 * warps);
    }

    /**
     * {@code w}'s product on the tiled kernels ({@link #tiledLaunch}, gemv_tiled.cu): FP16 or BF16 activations, no
     * epilogue, 8 warps a block (2 for INT4's {@code _w2}) over {@link #tiledLaunch}'s tiles of 16 rows. Always
     * launched in plain stream order, also from a library of programmatic launches: made resident while the kernel
     * before drains, they slow a decode step, and in stream order they run in the step as fast as timed alone, so a
     * calibration's products timed alone predict them (docs/measurements/2026-11-26-issue20-tiled-h200). The kernels
     * after them still launch early.
     */
    private void tiled(
            DeviceWeights w,
            DeviceBuffer x,
            DeviceBuffer y,
            int m,
            Activation activation,
            Epilogue epilogue,
            Stream s) {
        Objects.requireNonNull(epilogue, "epilogue");
        if (!epilogue.none()) {
            throw new IllegalArgumentException(w.format() + " weights in the tiled layout run with no epilogue, got"
                    + " one: a residual add, norm scale or sums to clear runs on FP16 and FP8 weights with FP16"
                    + " activations only");
        }
        checkOperands(w.format(), w.weights(), w.scales(), w.globalScale(), x, y, m, w.rows(), w.cols(), activation);
        TiledLaunch launch = tiledLaunch(w.format(), activation, m, w.rows(), w.cols(), smCount, dramBytesPerSmCycle);
        library.launchOrdered(
                launch.kernel(),
                launch.blocks(w.rows()),
                32 * launch.warps(),
                s,
                w.weights(),
                w.scales(),
                x,
                y,
                m,
                w.rows(),
                w.cols(),
                w.globalScale(),
                epilogue);
    }

    /** The shape and buffer sizes of a product ({@link GemvShape#check}) and NVFP4's global scale. */
    private static void checkOperands(
            WeightFormat format,
            DeviceBuffer weights,
            DeviceBuffer scales,
            float globalScale,
            DeviceBuffer x,
            DeviceBuffer y,
            int m,
            int n,
            int k,
            Activation activation) {
        GemvShape.check(
                format,
                m,
                n,
                k,
                weights.byteSize(),
                scales == null ? 0 : scales.byteSize(),
                x.byteSize(),
                y.byteSize(),
                activation.bytes());
        if (format.usesGlobalScale() && !(Float.isFinite(globalScale) && globalScale != 0)) {
            throw new IllegalArgumentException("NVFP4 needs a finite, nonzero global scale, got " + globalScale);
        }
    }

    /** Warps per block of the tiled kernels, which split K among them (the 8 of gemv_tiled.cu's kernels). */
    static final int TILED_WARPS = 8;

    /**
     * 16-row tiles one block of the plain tiled kernel for {@code bound} rows computes: 2 at 16 rows, else 1 (at 8
     * rows {@link #tiledPairs} may take 2).
     */
    static int tiledTiles(int bound) {
        return bound == MAX_M ? 2 : 1;
    }

    private static String tiledName(WeightFormat format, Activation activation, int bound) {
        return baseName(format, activation, bound) + "_tiled";
    }

    /**
     * A tiled kernel for small grids and where it runs: {@code suffix} after the plain kernel's name ({@code _r<steps
     * in the window>} for a rolling window, {@code _b<n>} for one capped at n blocks an SM), for grids of at most
     * {@code blocksPerSm} blocks an SM whose warps each take at least {@code minWarpSteps} steps of 128 columns
     * (K / 1024 rounded down; the others take one more; 0: any K) and which are at most {@code maxCols} long. Each
     * block computes one 16-row tile, at 16 rows too.
     */
    record SmallGridKernel(String suffix, int blocksPerSm, int minWarpSteps, int maxCols) {
        SmallGridKernel(String suffix, int blocksPerSm, int minWarpSteps) {
            this(suffix, blocksPerSm, minWarpSteps, Integer.MAX_VALUE);
        }

        /** Whether this kernel runs {@code blocks} blocks of rows {@code cols} long on {@code smCount} SMs. */
        boolean takes(long blocks, int cols, int smCount) {
            return blocks <= (long) blocksPerSm * smCount
                    && cols / (TiledLayout.GROUP_K * TILED_WARPS) >= minWarpSteps
                    && cols <= maxCols;
        }
    }

    /**
     * A one-tile-a-block kernel of {@link #INT4_M1_WAVES}: {@code suffix} after the plain kernel's name, the blocks an
     * SM holds ({@code blocksPerSm}, from ptxas's registers on sm_90a) and the warps splitting each tile's K.
     */
    record WaveKernel(String suffix, int blocksPerSm, int warps) {}

    /**
     * The kernels that compete by their last waves above every {@link #smallGridKernels} cap ({@link #INT4_M1_WAVES}
     * for INT4 with FP16 activations at one row), or none: the plain kernel runs there.
     */
    static List<WaveKernel> waveKernels(WeightFormat format, Activation activation, int bound) {
        return format == WeightFormat.INT4 && activation == Activation.F16 && bound == 1 ? INT4_M1_WAVES : List.of();
    }

    /** The share of a wave of {@code wave} blocks that the last wave of {@code blocks} blocks fills, in (0, 1]. */
    static double lastWaveFill(long blocks, long wave) {
        long last = blocks % wave;
        return last == 0 ? 1 : (double) last / wave;
    }

    /** Of {@code kernels}, the first whose last wave of {@code blocks} blocks on {@code smCount} SMs is fullest. */
    static WaveKernel fullestLastWave(List<WaveKernel> kernels, long blocks, int smCount) {
        WaveKernel best = kernels.getFirst();
        for (WaveKernel k : kernels) {
            if (lastWaveFill(blocks, (long) k.blocksPerSm() * smCount)
                    > lastWaveFill(blocks, (long) best.blocksPerSm() * smCount)) {
                best = k;
            }
        }
        return best;
    }

    /**
     * INT4 at one row up to 2 blocks an SM: 4 steps of loads a trip like the plain kernel, capped at 3 blocks an SM
     * ({@code gemv_int4_f16_m1_tiled_b3}: ptxas then keeps the 4 steps' loads in 80 registers on sm_90a, where uncapped
     * it takes 46 and fewer loads in flight). Against the window of 2, at up to 1.9 blocks an SM (1024–4096 rows, K
     * 4096–28672): 1.09–1.35× on an H200, 1.06–1.28× on an H100; at 2.9 (6144 rows) 1.01× on the H200 but 0.98× on the
     * H100, and 0.79× at 3.9 on the H200 (docs/measurements/2026-11-27-issue20-int4-one-row-h200).
     */
    static final SmallGridKernel INT4_M1_FEW_BLOCKS = new SmallGridKernel("_b3", 2, 0);

    /**
     * INT4 at one row above {@link #INT4_M1_FEW_BLOCKS}'s grids: a window of 2 ({@code gemv_int4_f16_m1_tiled_r2}, 55
     * registers on sm_90a) up to one wave of the 4 blocks of 256 threads an SM holds; above, {@link #INT4_M1_WAVES}.
     */
    static final SmallGridKernel INT4_M1_WINDOW = new SmallGridKernel("_r2", 4, 0);

    /**
     * INT4 at one row on grids above every {@link #smallGridKernels} cap: the kernel whose last wave is the fullest
     * ({@link #lastWaveFill}; the first of the fullest) of the plain kernel (46 registers on sm_90a, 5 blocks an SM),
     * {@link #INT4_M1_FEW_BLOCKS}'s kernel (80 registers, 3 blocks an SM), {@link #INT4_M1_WINDOW}'s (55, 4) and
     * {@code gemv_int4_f16_m1_tiled_w2} (2 warps a tile with a window of 3 steps each, 63 registers in blocks of 64
     * threads, 16). At seven grids of 640 to 3584 blocks on an H200 (132 SMs) that kernel was the fastest of those
     * timed but at 2560 blocks, where the window ran 1.02× the plain kernel the rule keeps; with the rule 28672 rows
     * ran 1.05× faster (H200, 1.00–1.01× on an H100) and the Llama-3-8B INT4 batch 1 step 2.0 % (0.3 %)
     * (docs/measurements/2026-11-27-issue20-int4-last-wave-h200, each grid's fills and speeds). NVFP4's and MXFP4's
     * kernels of 4 blocks an SM did not follow the rule there and keep their caps.
     */
    static final List<WaveKernel> INT4_M1_WAVES = List.of(
            new WaveKernel("", 5, TILED_WARPS),
            new WaveKernel(INT4_M1_FEW_BLOCKS.suffix(), 3, TILED_WARPS),
            new WaveKernel(INT4_M1_WINDOW.suffix(), 4, TILED_WARPS),
            new WaveKernel("_w2", 16, 2));

    /**
     * NVFP4 at one row up to 4 blocks an SM: 4 steps of loads a trip capped at 4 blocks an SM
     * ({@code gemv_nvfp4_f16_m1_tiled_b4}), where the plain kernel takes 2 at 5. Over the plain kernel at seven shapes
     * of 128 to 512 blocks 1.03–1.15× on an H200 and 1.01–1.13× on an H100; at 1792 blocks 0.95× on the H100
     * (docs/measurements/2026-11-27-issue20-int4-one-row-h200, runs 5–7).
     * On rows of at least 8192 and up to 2 blocks an SM the same blocks split over clusters of 2 run instead where
     * DRAM is fast for the SMs, as on an H200 ({@link #splitsK}).
     */
    static final SmallGridKernel NVFP4_M1_FEW_BLOCKS = new SmallGridKernel("_b4", 4, 0);

    /**
     * MXFP4 at one row: a window of 2 ({@code gemv_mxfp4_f16_m1_tiled_r2}, 61 registers, 4 blocks an SM) up to 2
     * blocks an SM: measured faster than the plain kernel up to 384 blocks on 132 SMs (2.9 an SM), slower from 512;
     * above 2 blocks an SM {@link #MXFP4_M1_DIAGONAL} is faster still, and on rows of at least 8192 where DRAM is fast
     * for the SMs, as on an H200, the split diagonal kernel ({@link #splitsK}).
     */
    static final SmallGridKernel MXFP4_M1_WINDOW = new SmallGridKernel("_r2", 2, 0);

    /**
     * MXFP4 at one row above {@link #MXFP4_M1_WINDOW}'s grids and up to 4 blocks an SM: x on the diagonal of the mma's
     * B fragment, so that each D column sums one 32-k block and its scale is applied in FP32 once a step instead of
     * on every A register in half ({@code gemv_mxfp4_f16_m1_tiled_dg}: 4 steps of loads a trip, 64 registers, capped
     * at 4 blocks an SM). On an H200, over the fastest of the plain kernel and the window: 1.06–1.07× at 384 and 512
     * blocks (6144 and 8192 rows); 0.955–1.03× at 64–256 blocks, where the window stays; 0.97× at 1792, where the
     * plain kernel stays (docs/measurements/2026-11-27-issue20-mxfp4-diagonal-h200).
     */
    static final SmallGridKernel MXFP4_M1_DIAGONAL = new SmallGridKernel("_dg", 4, 0);

    /**
     * NVFP4 at 9 to 16 rows up to 3 tiles an SM on rows shorter than {@value #SPLIT_MIN_COLS}, where it does not
     * split ({@link #splitsK}): one tile a block instead of the plain kernel's two, with 2 steps of loads a trip,
     * capped at 3 blocks an SM ({@code gemv_nvfp4_f16_m16_tiled_b3}, 80 registers on sm_90a), so that more blocks
     * share the SMs where the two-tile grid leaves them idle or with one block. On an H200 at 12 and 16 rows
     * 1.15–1.45× the two-tile kernel at 64 to 384 tiles and K = 4096 (1024, 4096 and 6144 rows) in {@code gemv-bench},
     * 0.75× at 512 tiles (8192²); the Llama-3-8B NVFP4 batch-16 step 1.9 % faster (q/k/v and o_proj). Each block
     * reads all 16 rows of x, so one tile a block doubles x's reads per weight byte; longer rows were not timed in a
     * step, and INT4's like kernel, 1.04–1.16× timed alone at K = 4096 to 14336, made the INT4 step 0.7 % slower even
     * on K = 4096 alone, so INT4 has none (docs/measurements/2026-11-27-issue20-m16-waves-h200, runs 5–7).
     */
    static final SmallGridKernel NVFP4_M16_FEW_BLOCKS =
            new SmallGridKernel("_b3", 3, 0, GemvKernels.SPLIT_MIN_COLS - TiledLayout.GROUP_K);

    /**
     * INT4 and MXFP4 from 2 to 8 rows: a window of 3 ({@code gemv_<int4|mxfp4>_f16_m8_tiled_r3}, 79 and 64 registers,
     * so 3 and 4 blocks an SM) up to 2 blocks an SM, where every warp takes at least 8 steps.
     */
    static final SmallGridKernel M8_WINDOW = new SmallGridKernel("_r3", 2, 8);

    /**
     * Two tiles a block at 8 rows ({@code gemv_mxfp4_f16_m8_tiled_t2}): from {@code minRows} activation rows where
     * the weights have more than {@code tilesPerSm} tiles of 16 rows an SM. Each x load then serves two tiles, which
     * halves the x bytes a block reads per weight byte; with fewer tiles the halved grid leaves the SMs too few blocks.
     */
    record TiledPairs(int minRows, int tilesPerSm) {}

    /**
     * MXFP4's pairs: from 5 rows above 3 tiles an SM (396 on 132 SMs), there also where it measured slightly slower (at
     * 8192 rows and 5 or 6 rows) for its gains at 28672. INT4 and NVFP4 have none: their lanes read x one line a load
     * ({@link TiledLayout}), and with that one tile a block was 1.04–1.06× faster at 28672 rows, NVFP4's pairs at most
     * 1.5 % faster at 8192.
     */
    static final TiledPairs MXFP4_PAIRS = new TiledPairs(5, 3);

    /**
     * The fewest peak DRAM bytes per SM and cycle ({@link #dramBytesPerSmCycle}) from which the two-tile 8-row kernels
     * run: between an H200's 18.4, where they were faster, and an H100's 12.8, where they were mostly slower; no other
     * GPU was measured. The numbers: docs/design/gemv-kernels.md#tiled-layout-4-bit--fp16.
     */
    static final double TILED_PAIRS_MIN_DRAM_BYTES_PER_SM_CYCLE = 15;

    /**
     * The kernel a tiled product launches, the 16-row tiles each of its blocks computes, its warps a block and the
     * blocks of a cluster that split each block's K ({@code split}: 1, or 2 for {@link #splitsK}'s kernels).
     */
    record TiledLaunch(String kernel, int tiles, int warps, int split) {
        TiledLaunch(String kernel, int tiles) {
            this(kernel, tiles, TILED_WARPS);
        }

        TiledLaunch(String kernel, int tiles, int warps) {
            this(kernel, tiles, warps, 1);
        }

        /**
         * Blocks of the launch over weights of {@code rows} rows (a multiple of 16): {@code split} for each group of
         * {@code tiles} tiles, the last group of which may hold one tile.
         */
        int blocks(int rows) {
            return Math.ceilDiv(rows / TiledLayout.TILE_ROWS, tiles) * split;
        }
    }

    /** The suffix of the kernels whose blocks split K over a cluster of 2 ({@link #splitsK}). */
    private static final String SPLIT_SUFFIX = "_k2";

    /**
     * Whether NVFP4 or MXFP4 with FP16 activations at one row or 9 to 16 ({@code bound} 1 or 16) runs the kernel that
     * splits each block's K over a cluster of 2 ({@code gemv_<nvfp4|mxfp4>_f16_m<1|16>_tiled_k2}, the two blocks' sums
     * added through distributed shared memory): where the weights have at most {@value #SPLIT_MAX_TILES_PER_SM} tiles
     * an SM (one block of two at 16 rows, two of one at one row), so that twice the blocks stream the same bytes, and
     * rows of at least {@value #SPLIT_MIN_COLS} columns give each of the cluster's 16 warps at least 4 steps. At one
     * row the split blocks are NVFP4's kernel capped at 4 blocks an SM and MXFP4's diagonal one, and only on GPUs whose
     * DRAM gives at least {@value #SPLIT_ONE_ROW_MIN_DRAM_BYTES_PER_SM_CYCLE} bytes an SM and cycle
     * ({@code dramBytesPerSmCycle}, {@link #dramBytesPerSmCycle}): an H200's 18.4, where it was faster, not an
     * H100's 12.8, where it was not.
     *
     * <p>On an H200 at 12 and 16 rows 1.12–1.43× the one-block kernel at eight shapes of 32 to 132 blocks on 132 SMs
     * (1024×4096 to 4224×14336), 0.97–1.02× at 136 blocks and 0.88–0.93× at 160; INT4's was 0.89–0.98× at the eight.
     * On an H100 1.19–1.34× at K ≥ 8192 but 0.95–0.99× at 4096² (2 steps a warp), which keeps the one-block kernel.
     * At one row on an H200 1.03–1.16× the shipped kernels at 2048×8192, 4096×14336, 4224×14336 and 4096×28672 in
     * {@code gemv-bench}, 0.86–1.02× at K = 4096 in the harness
     * (docs/measurements/2026-11-27-issue20-m16-cluster-split-h200); on an H100 at those four shapes NVFP4 0.95–1.01×
     * and MXFP4 0.98–1.06×, the Llama-3-8B NVFP4 batch 1 step 0.8 % slower
     * (docs/measurements/2026-11-27-issue20-m16-waves-h200, run 4).
     */
    static boolean splitsK(
            WeightFormat format,
            Activation activation,
            int bound,
            long tiles,
            int cols,
            int smCount,
            double dramBytesPerSmCycle) {
        return activation == Activation.F16
                && (bound == MAX_M || bound == 1 && dramBytesPerSmCycle >= SPLIT_ONE_ROW_MIN_DRAM_BYTES_PER_SM_CYCLE)
                && (format == WeightFormat.NVFP4 || format == WeightFormat.MXFP4)
                && tiles <= (long) SPLIT_MAX_TILES_PER_SM * smCount
                && cols >= SPLIT_MIN_COLS;
    }

    /** The fewest peak DRAM bytes per SM and cycle from which {@link #splitsK} splits at one row. */
    static final double SPLIT_ONE_ROW_MIN_DRAM_BYTES_PER_SM_CYCLE = 15;

    /** The most 16-row tiles an SM on which {@link #splitsK} splits: one block of two at 16 rows, two of one at one. */
    static final int SPLIT_MAX_TILES_PER_SM = 2;

    /** The shortest rows {@link #splitsK} splits: 8192 columns, 4 steps of 128 for each of 16 warps. */
    static final int SPLIT_MIN_COLS = 8192;

    /**
     * The tiled kernel for {@code format} with {@code activation} activations at {@code m} rows, weights of
     * {@code rows} × {@code cols}, on a GPU of {@code smCount} SMs with {@code dramBytesPerSmCycle}: at 5 to 8 rows on
     * large grids of GPUs with fast DRAM two tiles a block ({@link #tiledPairs}); where the blocks of an SM are too few
     * to overlap one block's loads with another's steps, the first small-grid kernel that takes the grid
     * ({@link #smallGridKernels}: a rolling window, which keeps each warp's next loads in flight through its step,
     * INT4's and NVFP4's one-row kernels capped at 3 and 4 blocks an SM, MXFP4's diagonal one capped at 4, or at 9 to
     * 16 rows NVFP4's of one tile a block), but
     * first, on at most 2 tiles an SM and rows of at least 8192, at one row and 9 to 16 NVFP4's and MXFP4's blocks
     * split over clusters of 2 ({@link #splitsK}); above them INT4 at one row the kernel of
     * {@link #INT4_M1_WAVES} whose last wave is the fullest; else {@code gemv_<format>_<activation>_m<bound>_tiled}
     * with {@link #tiledTiles} tiles a block. Where each was measured faster and slower:
     * docs/design/gemv-kernels.md#tiled-layout-4-bit--fp16.
     */
    static TiledLaunch tiledLaunch(
            WeightFormat format,
            Activation activation,
            int m,
            int rows,
            int cols,
            int smCount,
            double dramBytesPerSmCycle) {
        int bound = rowsBound(format, activation, m);
        long tiles = Math.ceilDiv(rows, TiledLayout.TILE_ROWS);
        String name = tiledName(format, activation, bound);
        boolean pairs = dramBytesPerSmCycle >= TILED_PAIRS_MIN_DRAM_BYTES_PER_SM_CYCLE
                && tiledPairs(format, activation, bound)
                        .filter(p -> m >= p.minRows() && tiles > (long) p.tilesPerSm() * smCount)
                        .isPresent();
        if (pairs) {
            return new TiledLaunch(name + PAIRS_SUFFIX, 2);
        }
        if (splitsK(format, activation, bound, tiles, cols, smCount, dramBytesPerSmCycle)) {
            return new TiledLaunch(name + SPLIT_SUFFIX, tiledTiles(bound), TILED_WARPS, 2);
        }
        List<SmallGridKernel> small = smallGridKernels(format, activation, bound);
        Optional<SmallGridKernel> capped =
                small.stream().filter(w -> w.takes(tiles, cols, smCount)).findFirst();
        if (capped.isPresent()) {
            return new TiledLaunch(name + capped.get().suffix(), 1);
        }
        List<WaveKernel> waves = waveKernels(format, activation, bound);
        if (!waves.isEmpty()) {
            WaveKernel k = fullestLastWave(waves, tiles, smCount);
            return new TiledLaunch(name + k.suffix(), 1, k.warps());
        }
        return new TiledLaunch(name, tiledTiles(bound));
    }

    /** The suffix of the two-tile 8-row kernels' names. */
    private static final String PAIRS_SUFFIX = "_t2";

    /** Where gemv_tiled.cu builds two-tile 8-row kernels: MXFP4 with FP16 activations. */
    static Optional<TiledPairs> tiledPairs(WeightFormat format, Activation activation, int bound) {
        if (activation != Activation.F16 || bound != 8) {
            return Optional.empty();
        }
        return format == WeightFormat.MXFP4 ? Optional.of(MXFP4_PAIRS) : Optional.empty();
    }

    /**
     * The small-grid kernels gemv_tiled.cu builds for these weights, activations and rows bound, in the order they are
     * tried: with FP16 activations {@link #INT4_M1_FEW_BLOCKS} then {@link #INT4_M1_WINDOW} for INT4 at one row,
     * {@link #NVFP4_M1_FEW_BLOCKS} for NVFP4, {@link #MXFP4_M1_WINDOW} then {@link #MXFP4_M1_DIAGONAL} for MXFP4,
     * {@link #M8_WINDOW} for INT4 and MXFP4 at 8, {@link #NVFP4_M16_FEW_BLOCKS} for NVFP4 at 16; none for NVFP4 at 8
     * (its windows were no faster), INT4 and MXFP4 at 16 (see {@link #NVFP4_M16_FEW_BLOCKS}; MXFP4's one tile a block
     * was 0.98–1.01× at those grids), BF16 activations or 32 rows.
     */
    static List<SmallGridKernel> smallGridKernels(WeightFormat format, Activation activation, int bound) {
        if (activation != Activation.F16) {
            return List.of();
        }
        return switch (bound) {
            case 1 ->
                switch (format) {
                    case INT4 -> List.of(INT4_M1_FEW_BLOCKS, INT4_M1_WINDOW);
                    case NVFP4 -> List.of(NVFP4_M1_FEW_BLOCKS);
                    case MXFP4 -> List.of(MXFP4_M1_WINDOW, MXFP4_M1_DIAGONAL);
                    default -> List.of();
                };
            case 8 -> format == WeightFormat.INT4 || format == WeightFormat.MXFP4 ? List.of(M8_WINDOW) : List.of();
            case MAX_M -> format == WeightFormat.NVFP4 ? List.of(NVFP4_M16_FEW_BLOCKS) : List.of();
            default -> List.of();
        };
    }

    /**
     * Output rows one block computes: 16 for the tensor-core kernels ({@link #tensorCores}); for the CUDA-core kernels
     * 4 warps of one row each, or of two rows for FP16, BF16, FP8 and INT8 weights at {@code m = 1} (the
     * {@code ROOFLINE_GEMV(…, 1, 2, 2)} kernels in gemv.cu).
     */
    static int rowsPerBlock(WeightFormat format, Activation activation, int m) {
        return tensorCores(format, activation, m) ? TC_ROWS_PER_BLOCK : cudaCoreRowsPerBlock(format, m);
    }

    private static int cudaCoreRowsPerBlock(WeightFormat format, int m) {
        if (format.isFourBit()) {
            throw new IllegalStateException(format + " weights run on the tensor cores only");
        }
        return THREADS / 32 * (m == 1 ? 2 : 1);
    }

    /**
     * Whether the kernel for these weights and activations at {@code m} rows runs on the tensor cores (gemv_tc in
     * gemv.cu): the 4-bit formats at every {@code m} with either activations (decoded to FP16 or to BF16, the mma of
     * the activations' type); above one row every format with FP16 activations, and BF16 weights with BF16
     * activations, where one FFMA per weight and activation row would bound the CUDA-core kernel. The 8-bit formats
     * decode to FP16 for the mma, so with BF16 activations they, and FP16 weights, stay on the CUDA cores.
     */
    static boolean tensorCores(WeightFormat format, Activation activation, int m) {
        if (format.isFourBit()) {
            return true;
        }
        if (activation == Activation.F16) {
            return m > 1;
        }
        return format == WeightFormat.BF16 && m > 1;
    }

    /**
     * The most activation rows of the kernel that runs {@code m} rows: 1 at one row; on the tensor cores 8 up to 8 rows
     * (one B fragment, fewer registers), 16 up to 16, else 32; on the CUDA cores 16.
     */
    static int rowsBound(WeightFormat format, Activation activation, int m) {
        if (m == 1) {
            return 1;
        }
        if (!tensorCores(format, activation, m)) {
            return MAX_M;
        }
        return m <= 8 ? 8 : m <= MAX_M ? MAX_M : MAX_ROWS;
    }

    /**
     * Warps per block of the tensor-core kernels, which split K among them: 8 from 384 16-row blocks (6144 rows) up,
     * else 16: on an H200, 8 warps are fastest from 6144 rows up and 16 at 4096×14336; at 4096×4096 the formats split
     * (NVFP4 runs best on 8, INT4 on 16). Numbers: docs/design/gemv-kernels.md#k-split-warps-per-block.
     */
    static int tensorCoreWarps(int n) {
        return Math.ceilDiv(n, TC_ROWS_PER_BLOCK) >= 384 ? TC_SPLITS[0] : TC_SPLITS[1];
    }

    /** Threads per block: 128 for the CUDA-core kernels, 32 × {@link #tensorCoreWarps} for the tensor-core kernels. */
    static int threadsPerBlock(WeightFormat format, Activation activation, int m, int n) {
        return tensorCores(format, activation, m) ? 32 * tensorCoreWarps(n) : THREADS;
    }

    /**
     * The kernel's name in the fatbin by format, activation and rows, e.g. {@code gemv_nvfp4_bf16_m1},
     * {@code gemv_fp8_f16_m8_w16}: what {@link #rowMajorLaunch} launches without an epilogue, except where
     * {@link #oneRowOnTensorCores} picks the tensor cores.
     */
    static String kernelName(WeightFormat format, Activation activation, int m, int n) {
        String name = baseName(format, activation, rowsBound(format, activation, m));
        return tensorCores(format, activation, m) ? name + "_w" + tensorCoreWarps(n) : name;
    }

    /** The fewest output rows at which FP8 weights run one row on the tensor cores. */
    static final int FP8_ONE_ROW_TC_MIN_N = 4096;
    /** The most output rows at which FP8 weights run one row on the tensor cores. */
    static final int FP8_ONE_ROW_TC_MAX_N = 6144;
    /** The output rows at which INT8 weights run one row on the tensor cores. */
    static final int INT8_ONE_ROW_TC_N = 4096;
    /** The shortest rows (K) at which FP8 or INT8 weights run one row on the tensor cores. */
    static final int ONE_ROW_TC_MIN_K = 4096;

    /**
     * Whether a one-row product of 8-bit weights with FP16 activations runs the 8-row tensor-core kernel on 16 warps
     * ({@code gemv_fp8_f16_m8_w16}, {@code gemv_int8_f16_m8_w16}) instead of the CUDA-core one: FP8 from
     * {@value #FP8_ONE_ROW_TC_MIN_N} to {@value #FP8_ONE_ROW_TC_MAX_N} rows, INT8 at {@value #INT8_ONE_ROW_TC_N}, both
     * with rows of at least {@value #ONE_ROW_TC_MIN_K}. There the tensor cores made Llama-3-8B's decode step at one
     * sequence on an H200 46–50 µs faster with FP8 weights (q/k/v at 6144 rows, o and down at 4096; 8.06 against 8.65
     * µs alone at 6144 × 4096) and 92–96 µs faster with INT8 (o and down; 6.28 against 7.15 µs alone at 4096²), while
     * INT8 at 6144 rows was slower (docs/design/gemv-kernels.md, "One row of 8-bit weights on the tensor cores").
     * Shorter rows give each of the 16 warps fewer steps, and other shapes were not measured faster; they keep the
     * CUDA-core kernel. The step, not a product timed alone, decides: FP8's down on the CUDA-core kernel was faster
     * alone and made the step 73–75 µs slower; gate/up (28672 rows) on the tensor cores made it 31–46 µs slower.
     */
    static boolean oneRowOnTensorCores(WeightFormat format, Activation activation, int m, int n, int k) {
        if (m != 1 || activation != Activation.F16 || k < ONE_ROW_TC_MIN_K) {
            return false;
        }
        return switch (format) {
            case FP8_E4M3 -> n >= FP8_ONE_ROW_TC_MIN_N && n <= FP8_ONE_ROW_TC_MAX_N;
            case INT8 -> n == INT8_ONE_ROW_TC_N;
            default -> false;
        };
    }

    /** {@code gemv_<format>_<activation>_m<1|8|16|32>}: the whole name of a CUDA-core kernel, a tensor-core one's stem. */
    private static String baseName(WeightFormat format, Activation activation, int rowsBound) {
        return "gemv_" + format.kernelName() + "_" + activation.kernelName() + "_m" + rowsBound;
    }

    /**
     * Every kernel name this class launches: one per format, activation and row bound, tensor-core K splits, the tiled
     * kernels, their rolling-window variants, the two-tile 8-row ones and the 16-row ones split over clusters
     * ({@link #tiledLaunch}).
     */
    static List<String> kernelNames() {
        List<String> names = new ArrayList<>();
        for (WeightFormat f : WeightFormat.values()) {
            for (Activation a : Activation.values()) {
                for (int m : new int[] {1, 8, MAX_M, MAX_ROWS}) {
                    if (rowsBound(f, a, m) != m) {
                        continue; // no 8- or 32-row kernel on the CUDA cores: their 16-row kernel runs 2..16 rows
                    }
                    String name = baseName(f, a, m);
                    // FP8 kernels taking an epilogue have an _ep twin each (rowMajorLaunch)
                    boolean twins = f == WeightFormat.FP8_E4M3 && runsEpilogue(f, a, m);
                    if (tensorCores(f, a, m)) {
                        for (int w : TC_SPLITS) {
                            names.add(name + "_w" + w);
                            if (twins) {
                                names.add(name + "_w" + w + EPILOGUE_SUFFIX);
                            }
                        }
                    }
                    if (!tensorCores(f, a, m) || (m == MAX_M && runsEpilogue(f, a, m))) {
                        names.add(name);
                        if (twins) {
                            names.add(name + EPILOGUE_SUFFIX);
                        }
                    }
                    if (f.isFourBit()) {
                        String tiled = tiledName(f, a, m);
                        names.add(tiled);
                        smallGridKernels(f, a, m).forEach(w -> names.add(tiled + w.suffix()));
                        waveKernels(f, a, m).stream()
                                .map(k -> tiled + k.suffix())
                                .filter(n -> !names.contains(n))
                                .forEach(names::add);
                        tiledPairs(f, a, m).ifPresent(p -> names.add(tiled + PAIRS_SUFFIX));
                        if (splitsK(f, a, m, 1, SPLIT_MIN_COLS, 1, SPLIT_ONE_ROW_MIN_DRAM_BYTES_PER_SM_CYCLE)) {
                            names.add(tiled + SPLIT_SUFFIX);
                        }
                    }
                }
            }
        }
        return names;
    }

    /** The most activation rows of an FP8 product with an {@link Epilogue}: its 8-row tensor-core kernel's. */
    static final int FP8_EPILOGUE_MAX_M = 8;

    /** The suffix of the FP8 kernels that carry an {@link Epilogue} ({@code gemv_fp8_f16_m1_ep}, …). */
    static final String EPILOGUE_SUFFIX = "_ep";

    /**
     * Whether these weights and activations take an {@link Epilogue} at {@code m} rows (EpilogueRows in gemv.cu): FP16
     * with FP16 up to {@value #MAX_M} rows (CUDA cores), FP8 with FP16 up to {@value #FP8_EPILOGUE_MAX_M} (the CUDA-core
     * one-row kernel and the 8-row tensor-core kernel).
     */
    static boolean runsEpilogue(WeightFormat format, Activation activation, int m) {
        if (activation != Activation.F16) {
            return false;
        }
        return switch (format) {
            case FP16 -> m <= MAX_M;
            case FP8_E4M3 -> m <= FP8_EPILOGUE_MAX_M;
            default -> false;
        };
    }

    static byte[] embeddedFatbin() {
        try (InputStream in = GemvKernels.class.getResourceAsStream(FATBIN)) {
            if (in == null) {
                throw new IllegalStateException(
                        FATBIN + " is missing from the roofline-cuda jar (dev/roofline/cuda/kernels/); "
                                + "rebuild it with ./mvnw -pl roofline-cuda -Pkernels generate-resources");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + FATBIN, e);
        }
    }

    /** Unloads the library and frees its image, the first time only; launches already enqueued still run. */
    @Override
    public void close() {
        library.close();
    }
}
