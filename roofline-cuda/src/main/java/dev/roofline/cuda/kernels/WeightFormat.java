package dev.roofline.cuda.kernels;

import dev.roofline.core.precision.Precision;

/**
 * How a GEMV weight matrix W[N×K] is stored on the device: the element and scale bytes exactly as roofline-quant
 * writes them (row n holds the K inputs of output n, two 4-bit elements per byte with element 2i in the low nibble),
 * for MXFP4 followed by one derived byte per row ({@link #deviceScaleBytes}).
 *
 * <p>The byte counts derive from roofline-core's one rule, {@link Precision#storageBytes} of {@link #precision}, and
 * differ from it in two stated ways: NVFP4's FP32 per-tensor scale (ModelOpt's {@code weight_scale_2},
 * {@link Precision#tensorScaleBytes}) is not in a device buffer, because the kernels take it as their {@code global}
 * argument; and FP8 and INT8 weights carry one FP32 scale per output channel, which their core precisions (plain
 * element formats) do not model.
 */
public enum WeightFormat {
    /** FP16 elements, no scales. */
    FP16("fp16", Precision.FP16, 8, false),
    /** BF16 elements, no scales. */
    BF16("bf16", Precision.BF16, 8, false),
    /** FP8 E4M3 elements, one FP32 scale per output channel. */
    FP8_E4M3("fp8", Precision.FP8_E4M3, 16, true),
    /** INT8 two's complement, one FP32 scale per output channel. */
    INT8("int8", Precision.INT8, 16, true),
    /** INT4 two's complement (symmetric), one FP32 scale per group of 128 along K. */
    INT4("int4", Precision.INT4_G128, 128, false),
    /** NVFP4 as ModelOpt stores it: E2M1 elements, one E4M3 byte per 16 along K, one FP32 global scale. */
    NVFP4("nvfp4", Precision.NVFP4, 32, false),
    /**
     * OCP MXFP4: E2M1 elements, one E8M0 byte per 32 along K. On the device the scales are followed by each row's
     * largest code ({@link #deviceScaleBytes}).
     */
    MXFP4("mxfp4", Precision.MXFP4, 32, false);

    /** Bytes of one FP32 per-output-channel scale (FP8, INT8). */
    private static final int ROW_SCALE_BYTES = 4;

    private final String kernelName;
    private final Precision precision;
    private final int kMultiple;
    private final boolean rowScales;

    WeightFormat(String kernelName, Precision precision, int kMultiple, boolean rowScales) {
        this.kernelName = kernelName;
        this.precision = precision;
        this.kMultiple = kMultiple;
        this.rowScales = rowScales;
    }

    /** The format part of the kernel names in gemv.cu ({@code gemv_<this>_<activation>_m<1|16>}). */
    String kernelName() {
        return kernelName;
    }

    /** Whether elements are 4 bits wide (INT4, NVFP4, MXFP4): these run on the tensor cores with FP16 activations. */
    boolean isFourBit() {
        return precision.elementBits() == 4;
    }

    /** roofline-core's precision for the same weights (for predictions). */
    public Precision precision() {
        return precision;
    }

    /** K must be a multiple of this: a whole 16-byte chunk per load and, for INT4, whole groups of 128. */
    public int kMultiple() {
        return kMultiple;
    }

    /** Bytes of W for {@code n} rows of {@code k} elements: {@link Precision#elementBytes} of the precision. */
    public long weightBytes(long n, long k) {
        return precision.elementBytes(n, k);
    }

    /**
     * Bytes of the format's scales for W[n×k] in device memory as roofline-quant stores them (0 when the format has
     * none): the precision's {@link Precision#scaleBytes} less its per-tensor scale (NVFP4's FP32, the kernels'
     * {@code global} argument), plus one FP32 per row for FP8 and INT8. The device buffer the kernels read is
     * {@link #deviceScaleBytes} long.
     */
    public long scaleBytes(long n, long k) {
        long perRow = rowScales ? Math.multiplyExact(ROW_SCALE_BYTES, n) : 0;
        return precision.scaleBytes(n, k) - precision.tensorScaleBytes() + perRow;
    }

    /**
     * Bytes of the scales buffer the kernels read on the device: {@link #scaleBytes} and, for MXFP4, one more byte per
     * row after them, that row's largest E8M0 code. The tensor-core kernels read it instead of finding it themselves
     * ({@link DeviceWeights#deviceScales} appends it; {@link DeviceWeights#upload} does so).
     */
    public long deviceScaleBytes(long n, long k) {
        return scaleBytes(n, k) + (this == MXFP4 ? n : 0);
    }

    /**
     * Weight plus scale bytes in device memory as roofline-quant stores them: what one GEMV must read from memory
     * besides the activations. For NVFP4 this is {@link Precision#storageBytes} less the 4-byte per-tensor scale, which
     * the kernel takes as an argument. (MXFP4's tensor-core kernels read {@code n} more bytes, its row maxima: 1 byte
     * per K/2 weight bytes.)
     */
    public long storedBytes(long n, long k) {
        return weightBytes(n, k) + scaleBytes(n, k);
    }

    /** Whether the kernel reads the {@code global} argument (NVFP4's second-level scale). */
    public boolean usesGlobalScale() {
        return this == NVFP4;
    }
}
