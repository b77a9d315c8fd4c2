package dev.roofline.cuda.kernels;

import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.UnsupportedOnDeviceException;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * NVFP4 weights × NVFP4 activations (W4A4) on the block-scaled tensor cores of Blackwell ({@code kind::mxf4nvf4}, UE4M3
 * scales per 16 elements): the E2M1 codes and their block scales go to the instruction as stored, with no decode to
 * FP16. The instruction takes E2M1 on both operands, so the FP16 activations are first quantized to NVFP4 per 16
 * elements ({@link #quantizeActivations}, the same bytes as {@code Nvfp4Quantizer.modelOpt()} gives for the same global
 * scale); that changes the product's numerics, so it is a product of its own beside {@link GemvKernels}' NVFP4 × FP16
 * kernels, which every GPU keeps.
 *
 * <p>Two forms of the GEMV: {@link Mma#HARDWARE}, the instruction, which only some GPUs have ({@link Instruction#on}:
 * {@code tcgen05.mma} on compute capability 10.0, {@code gemv_w4a4_sm100.cu}; {@code mma.sync} on 12.x,
 * {@code gemv_w4a4.cu}; what has run where: {@code Validation.neverRunByUs}, docs/design/gemv-kernels.md); and
 * {@link Mma#EMULATED}, the loads, half exchanges and scale permutes of the {@code mma.sync} kernel with the instruction
 * computed from the PTX ISA's fragment and block-scale tables, which runs on every GPU and checks that data path where
 * the instruction is missing, and either instruction's output where it is not.
 *
 * <pre>{@code
 * try (NativeFp4Gemv fp4 = NativeFp4Gemv.load(KernelLaunch.ORDERED)) {
 *     fp4.quantizeActivations(x, xq, xs, 1, k, xGlobal, stream);
 *     fp4.gemv(weights, xq, xs, xGlobal, y, 1, NativeFp4Gemv.Mma.HARDWARE, device.computeCapability(), stream);
 * }
 * }</pre>
 */
public final class NativeFp4Gemv implements AutoCloseable {
    /** How the kernel multiplies: the block-scaled instruction, or the instruction computed from its documented tables. */
    public enum Mma {
        HARDWARE,
        EMULATED
    }

    /**
     * The block-scaled FP4 instruction whose machine code roofline's fatbin holds for a compute capability: the fatbin
     * has sm_100a code (only compute capability 10.0 runs it; 10.3 and other 10.x would need their own) and sm_120a,
     * sm_121a code (12.x).
     */
    public enum Instruction {
        /** {@code tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X}, sm_100a (B200, GB200). */
        TCGEN05("tcgen05.mma kind::mxf4nvf4"),
        /** {@code mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X}, sm_120a and sm_121a. */
        MMA_SYNC("mma.sync kind::mxf4nvf4");

        private final String ptx;

        Instruction(String ptx) {
            this.ptx = ptx;
        }

        /** The PTX instruction in short, e.g. {@code tcgen05.mma kind::mxf4nvf4}. */
        public String ptx() {
            return ptx;
        }

        /** The instruction {@code cc} runs from roofline's fatbin, or empty when it runs neither. */
        public static Optional<Instruction> on(ComputeCapability cc) {
            Objects.requireNonNull(cc, "cc");
            if (cc.equals(TCGEN05_CAPABILITY)) {
                return Optional.of(TCGEN05);
            }
            return cc.major() == MMA_SYNC_CAPABILITY.major() ? Optional.of(MMA_SYNC) : Optional.empty();
        }
    }

    /** A kernel of this class with its grid and block, as {@link #gemv} launches it. */
    record Launch(String kernel, int blocks, int threadsPerBlock) {}

    /**
     * K is a multiple of this: one step of the {@code mma.sync} kernels (16 bytes of a row per lane, 4 lanes a row) and
     * one pipeline stage of the {@code tcgen05.mma} kernels (two MMAs of K = 64).
     */
    public static final int K_MULTIPLE = 128;
    /** The most activation rows: both instructions' N = 8 columns. */
    public static final int MAX_ROWS = 8;

    static final String QUANTIZE = "quantize_x_nvfp4_f16";
    private static final int QUANTIZE_THREADS = 256;
    private static final int QUANTIZE_MAX_GRID = 4096; // grid-stride loop past it
    private static final int ROWS_PER_BLOCK = 16; // TC_ROWS
    private static final int BLOCK = 16; // NVFP4 elements per scale
    private static final int EMULATED_WARPS = 8; // EmulatedMma::WARPS
    private static final ComputeCapability TCGEN05_CAPABILITY = new ComputeCapability(10, 0);
    private static final ComputeCapability MMA_SYNC_CAPABILITY = new ComputeCapability(12, 0);
    private static final int TCGEN05_ROWS = 128; // roofline_w4a4_sm100::ROWS: the MMA's M
    private static final int TCGEN05_THREADS = 128; // roofline_w4a4_sm100::THREADS
    private static final int[] TCGEN05_SPLITS = {1, 4}; // gemv_nvfp4_w4a4_sm100_s<split>: CTAs a cluster splits K over
    // from this many 128-row tiles on, K is not split: two CTAs for each of B200's 148 SMs
    private static final int TCGEN05_UNSPLIT_TILES = 296;

    private final KernelLibrary library;

    private NativeFp4Gemv(KernelLibrary library) {
        this.library = library;
    }

    /** Loads the embedded fatbin into the current device's context and looks up these kernels. */
    public static NativeFp4Gemv load(KernelLaunch launch) {
        return new NativeFp4Gemv(KernelLibrary.load("native FP4 GEMV library", kernelNames(), launch));
    }

    /** Whether {@code cc} runs one of the block-scaled instructions from roofline's fatbin ({@link Instruction#on}). */
    public static boolean hasInstruction(ComputeCapability cc) {
        return Instruction.on(cc).isPresent();
    }

    /**
     * Quantizes {@code x} (FP16, {@code m × k}) to NVFP4 with the global scale {@code xGlobal}: E2M1 codes into
     * {@code xq} ({@code m × k / 2} bytes, element 2i in the low nibble) and UE4M3 scales into {@code xs}
     * ({@code m × k / 16} bytes), row-major. Runs on every GPU.
     *
     * @param xGlobal the activations' per-tensor scale, finite and positive (ModelOpt's calibrated {@code input_scale}:
     *                amax / (6 × 448))
     */
    public void quantizeActivations(
            DeviceBuffer x, DeviceBuffer xq, DeviceBuffer xs, int m, int k, float xGlobal, Stream stream) {
        checkActivations(m, k, xGlobal);
        DecodeKernels.requireBytes("x", x, 2L * m * k);
        DecodeKernels.requireBytes("xq", xq, (long) m * k / 2);
        DecodeKernels.requireBytes("xs", xs, (long) m * k / BLOCK);
        long blocks = (long) m * k / BLOCK;
        int grid = (int) Math.min(QUANTIZE_MAX_GRID, Math.ceilDiv(blocks, QUANTIZE_THREADS));
        library.launch(QUANTIZE, grid, QUANTIZE_THREADS, stream, x, xq, xs, m, k, xGlobal);
    }

    /**
     * {@code y[m × n] = x · Wᵀ} (FP16) from NVFP4 weights and activations quantized by {@link #quantizeActivations},
     * FP32 accumulation, scaled once by both global scales.
     *
     * @param cc the device's compute capability: {@link Mma#HARDWARE} needs {@link #hasInstruction}
     * @throws UnsupportedOnDeviceException for {@link Mma#HARDWARE} on a GPU whose machine code in roofline's fatbin has
     *                                      neither instruction
     * @throws IllegalArgumentException     for weights other than NVFP4, K not a multiple of {@link #K_MULTIPLE},
     *                                      {@code m} outside 1..{@link #MAX_ROWS} or buffers too small
     */
    public void gemv(
            DeviceWeights weights,
            DeviceBuffer xq,
            DeviceBuffer xs,
            float xGlobal,
            DeviceBuffer y,
            int m,
            Mma mma,
            ComputeCapability cc,
            Stream stream) {
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(mma, "mma");
        Objects.requireNonNull(cc, "cc");
        if (weights.format() != WeightFormat.NVFP4) {
            throw new IllegalArgumentException("the native FP4 GEMV takes NVFP4 weights, got " + weights.format());
        }
        weights.requireRowMajor("the native FP4 GEMV");
        int n = weights.rows();
        int k = weights.cols();
        checkActivations(m, k, xGlobal);
        Launch launch = launch(m, n, mma, cc);
        DecodeKernels.requireBytes("xq", xq, (long) m * k / 2);
        DecodeKernels.requireBytes("xs", xs, (long) m * k / BLOCK);
        DecodeKernels.requireBytes("y", y, 2L * m * n);
        library.launch(
                launch.kernel(),
                launch.blocks(),
                launch.threadsPerBlock(),
                stream,
                weights.weights(),
                weights.scales(),
                xq,
                xs,
                y,
                m,
                n,
                k,
                weights.globalScale(),
                xGlobal,
                GemvKernels.Epilogue.NONE);
    }

    /**
     * The kernel, grid and block for {@code m × n} on {@code cc}: the emulated {@code mma.sync} kernel anywhere; for
     * {@link Mma#HARDWARE} the {@code mma.sync} kernels (16 rows a block) on 12.x, the {@code tcgen05.mma} kernels (128
     * rows a CTA, K split over a cluster of 4 below TCGEN05_UNSPLIT_TILES tiles) on 10.0.
     *
     * @throws UnsupportedOnDeviceException for {@link Mma#HARDWARE} where {@link Instruction#on} is empty
     */
    static Launch launch(int m, int n, Mma mma, ComputeCapability cc) {
        if (mma == Mma.EMULATED) {
            return new Launch(kernelName(m, Mma.EMULATED, EMULATED_WARPS), blocks(n), 32 * EMULATED_WARPS);
        }
        Instruction instruction = Instruction.on(cc)
                .orElseThrow(() -> new UnsupportedOnDeviceException(
                        "the block-scaled FP4 MMA (kind::mxf4nvf4)",
                        "compute capability 10.0 (sm_100a: tcgen05.mma; roofline's fatbin has no machine code for other"
                                + " 10.x) or 12.x (sm_120a, sm_121a: mma.sync)",
                        TCGEN05_CAPABILITY,
                        "this GPU",
                        cc));
        return switch (instruction) {
            case MMA_SYNC -> {
                int warps = GemvKernels.tensorCoreWarps(n);
                yield new Launch(kernelName(m, Mma.HARDWARE, warps), blocks(n), 32 * warps);
            }
            case TCGEN05 -> {
                int tiles = Math.ceilDiv(n, TCGEN05_ROWS);
                int split = tiles >= TCGEN05_UNSPLIT_TILES ? TCGEN05_SPLITS[0] : TCGEN05_SPLITS[1];
                yield new Launch(tcgen05KernelName(split), tiles * split, TCGEN05_THREADS);
            }
        };
    }

    private static int blocks(int n) {
        return Math.ceilDiv(n, ROWS_PER_BLOCK);
    }

    /** {@code gemv_nvfp4_w4a4[_emulated]_m<1|8>_w<warps>}. */
    static String kernelName(int m, Mma mma, int warps) {
        return "gemv_nvfp4_w4a4" + (mma == Mma.EMULATED ? "_emulated" : "") + "_m" + (m == 1 ? 1 : MAX_ROWS) + "_w"
                + warps;
    }

    /** {@code gemv_nvfp4_w4a4_sm100_s<split>}: the {@code tcgen05.mma} kernel, K split over {@code split} CTAs. */
    static String tcgen05KernelName(int split) {
        return "gemv_nvfp4_w4a4_sm100_s" + split;
    }

    /** Every kernel this class launches. */
    static List<String> kernelNames() {
        List<String> names = new ArrayList<>(List.of(QUANTIZE));
        for (int m : new int[] {1, MAX_ROWS}) {
            names.add(kernelName(m, Mma.EMULATED, EMULATED_WARPS));
            for (int w : new int[] {8, 16}) {
                names.add(kernelName(m, Mma.HARDWARE, w));
            }
        }
        for (int split : TCGEN05_SPLITS) {
            names.add(tcgen05KernelName(split));
        }
        return names;
    }

    private static void checkActivations(int m, int k, float xGlobal) {
        if (m < 1 || m > MAX_ROWS) {
            throw new IllegalArgumentException("M (activation rows) must be in 1.." + MAX_ROWS + ", got " + m);
        }
        if (k < K_MULTIPLE || k % K_MULTIPLE != 0) {
            throw new IllegalArgumentException(
                    "K must be a positive multiple of " + K_MULTIPLE + " for the native FP4 GEMV, got " + k);
        }
        if (!(Float.isFinite(xGlobal) && xGlobal > 0)) {
            throw new IllegalArgumentException(
                    "the activations' global scale must be finite and positive, got " + xGlobal);
        }
    }

    /** Unloads the library and frees its image, the first time only; launches already enqueued still run. */
    @Override
    public void close() {
        library.close();
    }
}
