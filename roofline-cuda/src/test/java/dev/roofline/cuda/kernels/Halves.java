package dev.roofline.cuda.kernels;

import dev.roofline.cuda.DeviceBuffer;

import java.util.SplittableRandom;

/** FP16 test data for the kernel tests: seeded normal values, what FP16 bits stand for, and their upload. */
final class Halves {
    private Halves() {}

    /** {@code count} normal values of standard deviation {@code sigma}, rounded to FP16 bits. */
    static short[] gaussian(SplittableRandom rnd, int count, double sigma) {
        short[] h = new short[count];
        for (int i = 0; i < count; i++) {
            h[i] = Float.floatToFloat16((float) (sigma * rnd.nextGaussian()));
        }
        return h;
    }

    /** The doubles FP16 bits stand for. */
    static double[] decode(short[] h) {
        double[] d = new double[h.length];
        for (int i = 0; i < h.length; i++) {
            d[i] = Float.float16ToFloat(h[i]);
        }
        return d;
    }

    /** {@code values} rounded to FP16 bits. */
    static short[] encode(double[] values) {
        short[] h = new short[values.length];
        for (int i = 0; i < values.length; i++) {
            h[i] = Float.floatToFloat16((float) values[i]);
        }
        return h;
    }

    /** A device buffer holding {@code values}. */
    static DeviceBuffer upload(short[] values) {
        DeviceBuffer b = DeviceBuffer.allocate(2L * values.length);
        b.copyFrom(values);
        return b;
    }
}
