package dev.roofline.cuda.kernels;

import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.UnsupportedOnDeviceException;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * NVFP4 weights × NVFP4 activations (W4A4) on the block-scaled tensor-core instruction of compute capability 12.x
 * ({@code mma.sync … kind::mxf4nvf4.block_scale.scale_vec::4X}, sm_120a GeForce and RTX PRO Blackwell, sm_121a GB10):
 * the E2M1 codes and their UE4M3 block scales go to the mma as stored, with no decode to FP16. The instruction takes
 * E2M1 on both operands, so the FP16 activations are first quantized to NVFP4 per 16 elements
 * ({@link #quantizeActivations}, the same bytes as {@code Nvfp4Quantizer.modelOpt()} gives for the same global
 * scale); that changes the product's numerics, so it is a product of its own beside
 * {@link GemvKernels}' NVFP4 × FP16 kernels, which every GPU keeps.
 *
 * <p>Two forms of the GEMV ({@code gemv_w4a4.cu}): {@link Mma#HARDWARE}, the instruction, which only compute
 * capability 12.x has (what has run where: {@code Validation.neverRunByUs}, docs/design/gemv-kernels.md); and
 * {@link Mma#EMULATED}, the same loads, half exchanges and scale permutes feeding the instruction computed from the PTX
 * ISA's fragment and block-scale tables, which runs on every GPU and checks that data path where the instruction is
 * missing, and the instruction's layout where it is not.
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

    /** K is a multiple of this: one step of the kernels (16 bytes of a row per lane, 4 lanes a row). */
    public static final int K_MULTIPLE = 128;
    /** The most activation rows: the mma's 8 columns. */
    public static final int MAX_ROWS = 8;

    static final String QUANTIZE = "quantize_x_nvfp4_f16";
    private static final int QUANTIZE_THREADS = 256;
    private static final int QUANTIZE_MAX_GRID = 4096; // grid-stride loop past it
    private static final int ROWS_PER_BLOCK = 16; // TC_ROWS
    private static final int BLOCK = 16; // NVFP4 elements per scale
    private static final int EMULATED_WARPS = 8; // EmulatedMma::WARPS
    private static final ComputeCapability INSTRUCTION = new ComputeCapability(12, 0);

    private final KernelLibrary library;

    private NativeFp4Gemv(KernelLibrary library) {
        this.library = library;
    }

    /** Loads the embedded fatbin into the current device's context and looks up these kernels. */
    public static NativeFp4Gemv load(KernelLaunch launch) {
        return new NativeFp4Gemv(KernelLibrary.load("native FP4 GEMV library", kernelNames(), launch));
    }

    /**
     * Whether {@code cc} has the block-scaled instruction in roofline's fatbin: compute capability 12.x (its sm_120a
     * and sm_121a machine code). Compute capability 10.x reaches its block-scaled tensor cores through
     * {@code tcgen05.mma}, which these kernels do not use; others run the compute_90 PTX, whose kernels trap.
     */
    public static boolean hasInstruction(ComputeCapability cc) {
        return cc.major() == INSTRUCTION.major();
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
     * @throws UnsupportedOnDeviceException for {@link Mma#HARDWARE} on a GPU without the instruction
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
        if (mma == Mma.HARDWARE && !hasInstruction(cc)) {
            throw new UnsupportedOnDeviceException(
                    "the block-scaled FP4 mma (mma.sync kind::mxf4nvf4)",
                    "compute capability 12.x (sm_120a, sm_121a)",
                    INSTRUCTION,
                    "this GPU",
                    cc);
        }
        DecodeKernels.requireBytes("xq", xq, (long) m * k / 2);
        DecodeKernels.requireBytes("xs", xs, (long) m * k / BLOCK);
        DecodeKernels.requireBytes("y", y, 2L * m * n);
        int warps = mma == Mma.EMULATED ? EMULATED_WARPS : GemvKernels.tensorCoreWarps(n);
        String name = kernelName(m, mma, warps);
        library.launch(
                name,
                Math.ceilDiv(n, ROWS_PER_BLOCK),
                32 * warps,
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

    /** {@code gemv_nvfp4_w4a4[_emulated]_m<1|8>_w<warps>}. */
    static String kernelName(int m, Mma mma, int warps) {
        return "gemv_nvfp4_w4a4" + (mma == Mma.EMULATED ? "_emulated" : "") + "_m" + (m == 1 ? 1 : MAX_ROWS) + "_w"
                + warps;
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
