package dev.roofline.quant.block;

import dev.roofline.core.format.Bf16;
import dev.roofline.core.format.E2M1;
import dev.roofline.core.format.E4M3Scale;

/**
 * NVFP4 quantization exactly as NVIDIA ModelOpt does it for weights, in float32 arithmetic:
 * <ol>
 *   <li>global scale g = amax(|W|) / (6 · 448): 1 when amax is 0 and never below 2^-126 ({@link Scale}), so that
 *       tiny weights (where ModelOpt's float32 arithmetic divides by 0) get finite scales and 1 / g is finite</li>
 *   <li>per 16-element block: s = amax(|block|) / (6 · g), 1 when 0, cast to E4M3 (round to nearest even, clamped to 448)</li>
 *   <li>elements: E2M1(x / (e4m3(s) · g)), round half to even, saturating at 6; element 2i in the low nibble</li>
 * </ol>
 * Optionally "4/6": each block also tries scaling its maximum to 4 instead of 6 and keeps whichever gives the
 * lower squared error (ties keep 6).
 */
public final class Nvfp4Quantizer {
    private static final float E2M1_MAX = 6f;
    private static final float E4M3_MAX = 448f;

    private final boolean fourOverSix;

    /**
     * Whether the Vector API path runs: the JVM must have the jdk.incubator.vector module (e.g. started with
     * {@code --add-modules jdk.incubator.vector}); otherwise the scalar loop, which gives identical bytes, runs.
     */
    static final boolean VECTOR =
            ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent() && Nvfp4Vector.usable();

    private Nvfp4Quantizer(boolean fourOverSix) {
        this.fourOverSix = fourOverSix;
    }

    /** ModelOpt's recipe. */
    public static Nvfp4Quantizer modelOpt() {
        return new Nvfp4Quantizer(false);
    }

    /** ModelOpt's recipe with the per-block choice between scaling the maximum to 6 or to 4. */
    public static Nvfp4Quantizer fourOverSix() {
        return new Nvfp4Quantizer(true);
    }

    public Nvfp4Tensor quantize(float[] w, int rows, int cols) {
        return quantize(w, rows, cols, VECTOR);
    }

    /**
     * Quantizes BF16 weights given as their raw bits (as a safetensors BF16 tensor holds them), without first
     * widening the whole tensor to float: rows are widened one at a time. Same bytes as {@link #quantize}.
     */
    public Nvfp4Tensor quantizeBf16(short[] bf16, int rows, int cols) {
        if (bf16 == null) {
            throw new IllegalArgumentException("bf16 must not be null");
        }
        Shape.checkLength(bf16.length, rows, cols);
        checkBlocks(cols);
        int maxBits = VECTOR ? Nvfp4Vector.bf16MaxMagnitudeBits(bf16) : 0; // all-ones exponent: infinity or NaN
        if (!VECTOR) {
            for (short b : bf16) { // |x| orders like its bits with the sign cleared
                maxBits = Math.max(maxBits, b & 0x7FFF);
            }
        }
        if (maxBits >= 0x7F80) {
            for (int i = 0; i < bf16.length; i++) {
                if ((bf16[i] & 0x7F80) == 0x7F80) {
                    throw new IllegalArgumentException(
                            "bf16[" + i + "] is " + Bf16.decode(bf16[i]) + ": only finite values can be quantized");
                }
            }
        }
        float global = globalScale(Bf16.decode((short) maxBits));
        byte[] packed = new byte[bf16.length / 2];
        byte[] scales = new byte[bf16.length / Nvfp4Tensor.BLOCK];
        float[] row = new float[cols];
        for (int r = 0; r < rows; r++) {
            int from = r * cols;
            if (VECTOR) {
                Nvfp4Vector.widenBf16(bf16, from, row, cols);
            } else {
                for (int c = 0; c < cols; c++) {
                    row[c] = Bf16.decode(bf16[from + c]);
                }
            }
            quantizeBlocks(row, 0, cols / Nvfp4Tensor.BLOCK, from / Nvfp4Tensor.BLOCK, global, packed, scales, VECTOR);
        }
        return new Nvfp4Tensor(rows, cols, packed, scales, global);
    }

    /** {@code allowVector} false forces the scalar loop (tests compare the two paths). */
    Nvfp4Tensor quantize(float[] w, int rows, int cols, boolean allowVector) {
        Shape.checkShape(w, rows, cols);
        checkBlocks(cols);
        boolean vector = allowVector && VECTOR;
        float amax = vector && !fourOverSix ? Nvfp4Vector.absMax(w) : Shape.absMax(w, 0, w.length);
        if (!Float.isFinite(amax)) {
            Shape.rejectNonFinite(w);
        }
        float global = globalScale(amax);
        byte[] packed = new byte[w.length / 2];
        byte[] scales = new byte[w.length / Nvfp4Tensor.BLOCK];
        quantizeBlocks(w, 0, scales.length, 0, global, packed, scales, vector);
        return new Nvfp4Tensor(rows, cols, packed, scales, global);
    }

    private static void checkBlocks(int cols) {
        if (cols % Nvfp4Tensor.BLOCK != 0) {
            throw new IllegalArgumentException("NVFP4 needs cols (K) to be a multiple of 16, got " + cols);
        }
    }

    private static float globalScale(float amax) {
        return Scale.of(amax, amax / (E2M1_MAX * E4M3_MAX));
    }

    /** Quantizes {@code blocks} blocks of {@code w} from {@code from} into block {@code outBlock} onwards. */
    private void quantizeBlocks(
            float[] w,
            int from,
            int blocks,
            int outBlock,
            float global,
            byte[] packed,
            byte[] scales,
            boolean allowVector) {
        boolean vector = allowVector && !fourOverSix;
        int[] codes = new int[Nvfp4Tensor.BLOCK];
        int[] alt = new int[Nvfp4Tensor.BLOCK];
        for (int b = 0; b < blocks; b++) {
            int at = from + b * Nvfp4Tensor.BLOCK;
            int out = outBlock + b;
            float blockMax = vector ? Nvfp4Vector.blockMax(w, at) : Shape.absMax(w, at, at + Nvfp4Tensor.BLOCK);
            int scaleCode = blockScale(blockMax, E2M1_MAX, global);
            if (fourOverSix) {
                scaleCode = chooseFourOverSix(w, at, blockMax, scaleCode, global, alt);
            }
            scales[out] = (byte) scaleCode;
            float scale = E4M3Scale.decode(scaleCode) * global;
            int packedAt = out * (Nvfp4Tensor.BLOCK / 2);
            if (vector) {
                Nvfp4Vector.encodeBlock(w, at, scale, packed, packedAt);
                continue;
            }
            for (int j = 0; j < codes.length; j++) {
                codes[j] = E2M1.encode(w[at + j] / scale);
            }
            for (int j = 0; j < codes.length; j += 2) {
                packed[packedAt + (j >>> 1)] = (byte) (codes[j] | (codes[j + 1] << 4));
            }
        }
    }

    /** The block's scale code after trying to scale its maximum to 4 instead of 6; lower squared error wins. */
    private static int chooseFourOverSix(float[] w, int from, float blockMax, int sixCode, float global, int[] tmp) {
        int fourCode = blockScale(blockMax, 4f, global);
        if (fourCode == sixCode) {
            return sixCode;
        }
        return encodeBlock(w, from, fourCode, global, tmp) < encodeBlock(w, from, sixCode, global, tmp)
                ? fourCode
                : sixCode;
    }

    /** E4M3 code of amax / (target · g), with ModelOpt's 0 → 1 rule. */
    private static int blockScale(float blockMax, float target, float global) {
        float s = blockMax / (target * global);
        if (s == 0) {
            s = 1f;
        }
        return E4M3Scale.encode(s);
    }

    /** Encodes one block into {@code codes} and returns its squared error. */
    private static float encodeBlock(float[] w, int from, int scaleCode, float global, int[] codes) {
        float scale = E4M3Scale.decode(scaleCode) * global;
        float err = 0;
        for (int j = 0; j < codes.length; j++) {
            codes[j] = E2M1.encode(w[from + j] / scale);
            float d = w[from + j] - E2M1.decode(codes[j]) * scale;
            err += d * d;
        }
        return err;
    }
}
