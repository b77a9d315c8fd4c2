package dev.roofline.cuda.blas;

import dev.roofline.core.precision.Precision;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

/**
 * Host-side encoding of matrix elements in the layouts cuBLASLt reads (little-endian): FP32/TF32, FP16, BF16, FP8 E4M3
 * and E5M2 (OCP, saturating), INT8; and decoding of those plus INT32 outputs. Rounding is to nearest, ties to even.
 *
 * <pre>{@code
 * byte[] w = ElementCodec.encode(Precision.FP8_E4M3, values);   // 1 byte per value
 * double[] back = ElementCodec.decode(Precision.FP8_E4M3, w);    // exactly what the GPU multiplies
 * }</pre>
 */
public final class ElementCodec {
    private static final double[] E4M3 = table(4, 3, true);
    private static final double[] E5M2 = table(5, 2, false);

    private ElementCodec() {}

    public static int bytesPerElement(Precision p) {
        return switch (p) {
            case FP32, TF32 -> 4;
            case FP16, BF16 -> 2;
            case FP8_E4M3, FP8_E5M2, INT8 -> 1;
            default -> throw unsupported(p);
        };
    }

    public static byte[] encode(Precision p, float[] values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * bytesPerElement(p)).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            switch (p) {
                case FP32, TF32 -> b.putFloat(v);
                case FP16 -> b.putShort(Float.floatToFloat16(v));
                case BF16 -> b.putShort(toBf16(v));
                case FP8_E4M3 -> b.put(toFp8(E4M3, v));
                case FP8_E5M2 -> b.put(toFp8(E5M2, v));
                case INT8 -> b.put((byte) Math.max(-128, Math.min(127, Math.round(v))));
                default -> throw unsupported(p);
            }
        }
        return b.array();
    }

    public static double[] decode(Precision p, byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        double[] out = new double[bytes.length / bytesPerElement(p)];
        for (int i = 0; i < out.length; i++) {
            out[i] = switch (p) {
                case FP32, TF32 -> b.getFloat();
                case FP16 -> Float.float16ToFloat(b.getShort());
                case BF16 -> Float.intBitsToFloat((b.getShort() & 0xFFFF) << 16);
                case FP8_E4M3 -> E4M3[b.get() & 0xFF];
                case FP8_E5M2 -> E5M2[b.get() & 0xFF];
                case INT8 -> b.get();
                default -> throw unsupported(p);
            };
        }
        return out;
    }

    /** INT32 outputs (INT8 products), little-endian. */
    public static double[] decodeInt32(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        double[] out = new double[bytes.length / 4];
        for (int i = 0; i < out.length; i++) {
            out[i] = b.getInt();
        }
        return out;
    }

    /**
     * Fresh random values for precision {@code p}: uniform in [-1, 1) for floats (in [-range, range) for FP8, to use
     * its exponent range), whole numbers in [-127, 127] for INT8. Never all zeros.
     */
    public static float[] random(Precision p, int count, long seed, float fp8Range) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] v = new float[count];
        for (int i = 0; i < count; i++) {
            v[i] = switch (p) {
                case INT8 -> r.nextInt(-127, 128);
                case FP8_E4M3, FP8_E5M2 -> (float) ((r.nextDouble() * 2 - 1) * fp8Range);
                default -> (float) (r.nextDouble() * 2 - 1);
            };
        }
        return v;
    }

    static short toBf16(float v) {
        int bits = Float.floatToRawIntBits(v);
        if (Float.isNaN(v)) {
            return (short) ((bits >>> 16) | 0x40);
        }
        int rounded = bits + 0x7FFF + ((bits >>> 16) & 1);
        return (short) (rounded >>> 16);
    }

    /** Nearest code among the finite positive values (ascending with the code), ties to the even code; saturating. */
    static byte toFp8(double[] table, float v) {
        if (Float.isNaN(v)) {
            return (byte) 0x7F;
        }
        double mag = Math.abs(v);
        int sign = (Float.floatToRawIntBits(v) >>> 31) << 7;
        int lo = 0;
        int hi = maxFiniteCode(table);
        if (mag >= table[hi]) {
            return (byte) (sign | hi);
        }
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            if (table[mid] <= mag) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        double dl = mag - table[lo];
        double dh = table[hi] - mag;
        int code = dl < dh ? lo : dh < dl ? hi : ((lo & 1) == 0 ? lo : hi);
        return (byte) (sign | code);
    }

    private static int maxFiniteCode(double[] table) {
        int c = 0x7F;
        while (!Double.isFinite(table[c])) {
            c--;
        }
        return c;
    }

    /** Values of all 256 codes; E4M3 (OCP "fn") has no infinities and NaN only at S.1111.111. */
    private static double[] table(int exponentBits, int mantissaBits, boolean nanOnlyAllOnes) {
        double[] t = new double[256];
        int bias = (1 << (exponentBits - 1)) - 1;
        int maxExp = (1 << exponentBits) - 1;
        for (int code = 0; code < 256; code++) {
            int e = (code >> mantissaBits) & maxExp;
            int m = code & ((1 << mantissaBits) - 1);
            double sign = (code & 0x80) != 0 ? -1 : 1;
            double value;
            if (e == maxExp && (!nanOnlyAllOnes || m == (1 << mantissaBits) - 1)) {
                value = nanOnlyAllOnes || m != 0 ? Double.NaN : sign * Double.POSITIVE_INFINITY;
            } else if (e == 0) {
                value = sign * Math.scalb((double) m / (1 << mantissaBits), 1 - bias);
            } else {
                value = sign * Math.scalb(1 + (double) m / (1 << mantissaBits), e - bias);
            }
            t[code] = value;
        }
        return t;
    }

    private static IllegalArgumentException unsupported(Precision p) {
        return new IllegalArgumentException("no host encoding for " + p.displayName()
                + "; supported: FP32, TF32, FP16, BF16, FP8 E4M3, FP8 E5M2, INT8");
    }
}
