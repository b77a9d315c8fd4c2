package dev.roofline.cuda.bench;

import dev.roofline.core.format.E4M3Scale;
import dev.roofline.core.format.E8M0;
import dev.roofline.core.format.MiniFloat;
import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.WeightFormat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * Random GEMV weights in each format's device layout, made here so that the benchmark needs no quantizer: random
 * bytes for the elements (every code, outliers included, which run at the speed real data runs) and plausible scales:
 * FP32 around 0.01, E4M3 codes for 2^-4..2^3, E8M0 codes for 2^-8..2^2. Their values are meaningless; the kernels'
 * results are checked against a CPU reference by {@code GemvKernelsIT}, not here.
 */
final class RandomGemvWeights {
    /** NVFP4's second-level scale for weights of amax 1: 1 / (largest E4M3 scale x largest E2M1 value) = 1 / 2688. */
    static final float NVFP4_GLOBAL_SCALE = (float) (1
            / (MiniFloat.of(Precision.FP8_E4M3).maxFinite()
                    * MiniFloat.of(Precision.MXFP4).maxFinite()));
    /** On an FP16's high byte: clears exponent bits 4 and 0, so the exponent is at most 14 (magnitudes below 1). */
    private static final byte FP16_HIGH_MASK = (byte) 0b1011_1011;
    /** On a BF16's high byte: clears the top exponent bit, so the exponent is at most 127 (magnitudes below 2). */
    private static final byte BF16_HIGH_MASK = (byte) 0b1011_1111;

    private RandomGemvWeights() {}

    /** Random {@code f} weights of {@code n × k} from {@code seed}, row-major ({@link DeviceWeights#upload}). */
    static DeviceWeights upload(WeightFormat f, int n, int k, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        byte[] w = elements(f, n, k, rnd);
        return DeviceWeights.upload(f, n, k, w, scales(f, n, k, rnd), NVFP4_GLOBAL_SCALE);
    }

    /**
     * The same weights as {@link #upload} in the layout {@code GemvKernels.gemv} runs fastest
     * ({@link DeviceWeights#uploadForGemv}: tiled for the 4-bit formats where the shape allows).
     */
    static DeviceWeights uploadForGemv(WeightFormat f, int n, int k, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        byte[] w = elements(f, n, k, rnd);
        return DeviceWeights.uploadForGemv(f, n, k, w, scales(f, n, k, rnd), NVFP4_GLOBAL_SCALE);
    }

    /**
     * Random element bytes; FP16 kept below 1 and BF16 below 2 in magnitude, FP8's two NaN codes turned into ±448:
     * finite in every format, so the values a step computes from them stay numbers (a mixture of experts routes by
     * them).
     */
    static byte[] elements(WeightFormat f, int n, int k, SplittableRandom rnd) {
        byte[] w = new byte[Math.toIntExact(f.weightBytes(n, k))];
        rnd.nextBytes(w);
        if (f == WeightFormat.FP16 || f == WeightFormat.BF16) {
            for (int i = 1; i < w.length; i += 2) { // little-endian: the odd bytes are the high ones
                w[i] &= f == WeightFormat.FP16 ? FP16_HIGH_MASK : BF16_HIGH_MASK;
            }
        } else if (f == WeightFormat.FP8_E4M3) {
            for (int i = 0; i < w.length; i++) {
                if ((w[i] & 0x7F) == 0x7F) { // S.1111.111 is NaN; S.1111.110 is 448
                    w[i] ^= 1;
                }
            }
        }
        return w;
    }

    /** Random scales in the format's layout, or null for a format without scales. */
    static byte[] scales(WeightFormat f, int n, int k, SplittableRandom rnd) {
        int sb = Math.toIntExact(f.scaleBytes(n, k));
        if (sb == 0) {
            return null;
        }
        byte[] s = new byte[sb];
        switch (f) {
            case NVFP4 -> fill(s, rnd, E4M3Scale.encode(0x1p-4f), E4M3Scale.encode(0x1p3f));
            case MXFP4 -> fill(s, rnd, E8M0.encodeExponent(-8), E8M0.encodeExponent(2));
            default -> {
                ByteBuffer b = ByteBuffer.wrap(s).order(ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < sb / 4; i++) {
                    b.putFloat(4 * i, (float) (0.005 + 0.01 * rnd.nextDouble()));
                }
            }
        }
        return s;
    }

    /** A device-side copy of {@code w} in new buffers (another input set for the L2-cold rotation). */
    static DeviceWeights copyOf(DeviceWeights w) {
        DeviceBuffer ww = DeviceBuffer.allocate(w.weights().byteSize());
        DeviceBuffer ss = null;
        try {
            ww.copyFrom(w.weights());
            if (w.scales() != null) {
                ss = DeviceBuffer.allocate(w.scales().byteSize());
                ss.copyFrom(w.scales());
            }
            return new DeviceWeights(w.format(), w.rows(), w.cols(), ww, ss, w.globalScale(), w.tiled());
        } catch (RuntimeException e) {
            ww.close();
            if (ss != null) {
                ss.close();
            }
            throw e;
        }
    }

    private static void fill(byte[] s, SplittableRandom rnd, int from, int to) {
        for (int i = 0; i < s.length; i++) {
            s[i] = (byte) rnd.nextInt(from, to);
        }
    }
}
