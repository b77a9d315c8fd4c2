package dev.roofline.cuda.kernels;

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

/**
 * roofline's weight-only GEMV kernels {@code y[M×N] = x[M×K] · W[N×K]ᵀ} (FP32 accumulation, M = 1…16), loaded from
 * the fatbin embedded in this jar ({@code gemv.fatbin}: sm_90a, sm_100a, sm_120a, sm_121a and compute_90 PTX) with
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
    private static final int MAX_M = 16;

    private final KernelLibrary library;

    private GemvKernels(KernelLibrary library) {
        this.library = library;
    }

    /** Loads the embedded fatbin into the current device's context and looks up every kernel. */
    public static GemvKernels load() {
        return load(KernelLaunch.ORDERED);
    }

    /** {@link #load()}, each launch then made as {@code launch} says. */
    public static GemvKernels load(KernelLaunch launch) {
        return new GemvKernels(KernelLibrary.load("GEMV kernel library", kernelNames(), launch));
    }

    /** {@code y = x · Wᵀ} for {@code m} activation rows, enqueued on {@code stream}. */
    public void gemv(DeviceWeights w, DeviceBuffer x, DeviceBuffer y, int m, Activation activation, Stream stream) {
        gemv(w.format(), w.weights(), w.scales(), w.globalScale(), x, y, m, w.rows(), w.cols(), activation, stream);
    }

    /**
     * {@code y[m×n] = x[m×k] · W[n×k]ᵀ} with W in {@code format} (see {@link WeightFormat} for the byte layouts).
     *
     * @param scales      the format's scales as the kernels read them ({@link WeightFormat#deviceScaleBytes}: for
     *                    MXFP4 followed by each row's largest code of exactly these n rows, see
     *                    {@link DeviceWeights#deviceScales}), or {@code null} for FP16/BF16
     * @param globalScale NVFP4's second-level scale ({@code weight_scale_2}); ignored by the other formats
     * @throws IllegalArgumentException for m outside 1…16, k not a multiple of {@link WeightFormat#kMultiple()}, or a
     *                                  buffer smaller than the shape needs
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
        String kernel = kernelName(format, activation, m, n);
        library.kernel(kernel); // a closed library fails before any argument is allocated
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment[] values = {
                arena.allocateFrom(ValueLayout.ADDRESS, weights.pointer()),
                arena.allocateFrom(ValueLayout.ADDRESS, scales == null ? MemorySegment.NULL : scales.pointer()),
                arena.allocateFrom(ValueLayout.ADDRESS, x.pointer()),
                arena.allocateFrom(ValueLayout.ADDRESS, y.pointer()),
                arena.allocateFrom(ValueLayout.JAVA_INT, m),
                arena.allocateFrom(ValueLayout.JAVA_INT, n),
                arena.allocateFrom(ValueLayout.JAVA_INT, k),
                arena.allocateFrom(ValueLayout.JAVA_FLOAT, globalScale)
            };
            MemorySegment args = arena.allocate(ValueLayout.ADDRESS, values.length);
            for (int i = 0; i < values.length; i++) {
                args.setAtIndex(ValueLayout.ADDRESS, i, values[i]);
            }
            library.launch(
                    arena,
                    kernel,
                    Math.ceilDiv(n, rowsPerBlock(format, activation, m)),
                    threadsPerBlock(format, activation, n),
                    args,
                    stream.handle());
        }
    }

    /**
     * Output rows one block computes: 16 for the tensor-core kernels (NVFP4, MXFP4 and INT4 with FP16 activations);
     * for the CUDA-core kernels 4 warps of one row each, or of two rows for FP16, BF16, FP8 and INT8 weights at
     * {@code m = 1} (ROOFLINE_GEMV_ALL in gemv.cu).
     */
    static int rowsPerBlock(WeightFormat format, Activation activation, int m) {
        if (tensorCores(format, activation)) {
            return TC_ROWS_PER_BLOCK;
        }
        return THREADS / 32 * (m == 1 && !format.isFourBit() ? 2 : 1);
    }

    /** Whether the kernel for these weights and activations runs on the tensor cores (gemv_4bit_f16_tc in gemv.cu). */
    static boolean tensorCores(WeightFormat format, Activation activation) {
        return activation == Activation.F16 && format.isFourBit();
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
    static int threadsPerBlock(WeightFormat format, Activation activation, int n) {
        return tensorCores(format, activation) ? 32 * tensorCoreWarps(n) : THREADS;
    }

    /** The kernel's name in the fatbin, e.g. {@code gemv_nvfp4_bf16_m1} or {@code gemv_nvfp4_f16_m16_w8}. */
    static String kernelName(WeightFormat format, Activation activation, int m, int n) {
        String name = baseName(format, activation, m == 1);
        return tensorCores(format, activation) ? name + "_w" + tensorCoreWarps(n) : name;
    }

    /** {@code gemv_<format>_<activation>_m<1|16>}: the whole name of a CUDA-core kernel, a tensor-core one's stem. */
    private static String baseName(WeightFormat format, Activation activation, boolean singleRow) {
        return "gemv_" + format.kernelName() + "_" + activation.kernelName() + (singleRow ? "_m1" : "_m16");
    }

    /** Every kernel name this class launches: one per format, activation and M (1 or up to 16), tensor-core K splits. */
    static List<String> kernelNames() {
        List<String> names = new ArrayList<>();
        for (WeightFormat f : WeightFormat.values()) {
            for (Activation a : Activation.values()) {
                for (boolean singleRow : new boolean[] {true, false}) {
                    String name = baseName(f, a, singleRow);
                    if (tensorCores(f, a)) {
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
