package dev.roofline.quant.block;

import dev.roofline.quant.format.Overflow;

/**
 * NVFP4 quantization exactly as NVIDIA ModelOpt does it for weights, in float32 arithmetic:
 * <ol>
 *   <li>global scale g = amax(|W|) / (6 · 448)</li>
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
        Shape.check(w, rows, cols);
        if (cols % Nvfp4Tensor.BLOCK != 0) {
            throw new IllegalArgumentException("NVFP4 needs cols (K) to be a multiple of 16, got " + cols);
        }
        float amax = Shape.absMax(w, 0, w.length);
        float global = amax == 0 ? 1f : amax / (E2M1_MAX * E4M3_MAX);
        byte[] packed = new byte[w.length / 2];
        byte[] scales = new byte[w.length / Nvfp4Tensor.BLOCK];
        int[] codes = new int[Nvfp4Tensor.BLOCK];
        int[] alt = new int[Nvfp4Tensor.BLOCK];
        for (int b = 0; b < scales.length; b++) {
            int from = b * Nvfp4Tensor.BLOCK;
            float blockMax = Shape.absMax(w, from, from + Nvfp4Tensor.BLOCK);
            int scaleCode = blockScale(blockMax, E2M1_MAX, global);
            float err = encodeBlock(w, from, scaleCode, global, codes);
            if (fourOverSix) {
                int altScale = blockScale(blockMax, 4f, global);
                if (altScale != scaleCode && encodeBlock(w, from, altScale, global, alt) < err) {
                    scaleCode = altScale;
                    System.arraycopy(alt, 0, codes, 0, codes.length);
                }
            }
            scales[b] = (byte) scaleCode;
            for (int j = 0; j < Nvfp4Tensor.BLOCK; j += 2) {
                packed[(from + j) >>> 1] = (byte) (codes[j] | (codes[j + 1] << 4));
            }
        }
        return new Nvfp4Tensor(rows, cols, packed, scales, global);
    }

    /** E4M3 code of amax / (target · g), with ModelOpt's 0 → 1 rule. */
    private static int blockScale(float blockMax, float target, float global) {
        float s = blockMax / (target * global);
        if (s == 0) {
            s = 1f;
        }
        return Nvfp4Tensor.E4M3.encode(s, Overflow.SATURATE);
    }

    /** Fills {@code codes} for one block and returns its squared error. */
    private static float encodeBlock(float[] w, int from, int scaleCode, float global, int[] codes) {
        float scale = (float) Nvfp4Tensor.E4M3.decode(scaleCode) * global;
        float err = 0;
        for (int j = 0; j < codes.length; j++) {
            float x = w[from + j];
            int c = E2M1.encode(x / scale);
            codes[j] = c;
            float d = x - E2M1.decode(c) * scale;
            err += d * d;
        }
        return err;
    }
}
