package dev.roofline.cuda.bench;

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
    /** NVFP4's second-level scale: 1 / (448 x 6), the largest E4M3 scale times the largest E2M1 value. */
    static final float NVFP4_GLOBAL_SCALE = 1f / 2688;

    private RandomGemvWeights() {}

    static DeviceWeights upload(WeightFormat f, int n, int k, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        byte[] w = new byte[Math.toIntExact(f.weightBytes(n, k))];
        rnd.nextBytes(w);
        if (f == WeightFormat.FP16 || f == WeightFormat.BF16) {
            for (int i = 1; i < w.length; i += 2) {
                w[i] &= (byte)
                        (f == WeightFormat.FP16 ? 0xBB : 0xBF); // keep FP16 exponents < 31 (no Inf/NaN) and BF16 < 128
            }
        }
        byte[] s = null;
        int sb = Math.toIntExact(f.scaleBytes(n, k));
        if (sb > 0) {
            s = new byte[sb];
            switch (f) {
                case NVFP4 -> fill(s, rnd, 0x18, 0x50);
                case MXFP4 -> fill(s, rnd, 119, 129);
                default -> {
                    ByteBuffer b = ByteBuffer.wrap(s).order(ByteOrder.LITTLE_ENDIAN);
                    for (int i = 0; i < sb / 4; i++) {
                        b.putFloat(4 * i, (float) (0.005 + 0.01 * rnd.nextDouble()));
                    }
                }
            }
        }
        return DeviceWeights.upload(f, n, k, w, s, NVFP4_GLOBAL_SCALE);
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
            return new DeviceWeights(w.format(), w.rows(), w.cols(), ww, ss, w.globalScale());
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
