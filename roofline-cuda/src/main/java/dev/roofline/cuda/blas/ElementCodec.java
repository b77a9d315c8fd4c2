package dev.roofline.cuda.blas;

import dev.roofline.core.format.Bf16;
import dev.roofline.core.format.MiniFloat;
import dev.roofline.core.format.Overflow;
import dev.roofline.core.precision.Precision;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * Host-side encoding of matrix elements in the layouts cuBLASLt reads (little-endian): FP32/TF32, FP16, BF16, FP8 E4M3
 * and E5M2 (OCP, saturating), INT8; and decoding of those plus INT32 outputs. Rounding is to nearest, ties to even.
 * The element codes come from roofline-core's codecs ({@link dev.roofline.core.format}): FP8 from {@link MiniFloat},
 * BF16 from {@link Bf16}, FP16 from the JDK's IEEE binary16 conversion ({@link Float#floatToFloat16}, which
 * {@code MiniFloat} matches), so these bytes are the ones roofline-quant writes.
 *
 * <pre>{@code
 * byte[] w = ElementCodec.encode(Precision.FP8_E4M3, values);   // 1 byte per value
 * double[] back = ElementCodec.decode(Precision.FP8_E4M3, w);    // exactly what the GPU multiplies
 * }</pre>
 */
public final class ElementCodec {
    private static final MiniFloat E4M3 = MiniFloat.of(Precision.FP8_E4M3);
    private static final MiniFloat E5M2 = MiniFloat.of(Precision.FP8_E5M2);

    private ElementCodec() {}

    public static int bytesPerElement(Precision p) {
        Objects.requireNonNull(p, "precision must not be null");
        return switch (p) {
            case FP32, TF32 -> 4;
            case FP16, BF16 -> 2;
            case FP8_E4M3, FP8_E5M2, INT8 -> 1;
            default -> throw unsupported(p);
        };
    }

    public static byte[] encode(Precision p, float[] values) {
        Objects.requireNonNull(values, "values must not be null");
        ByteBuffer b = ByteBuffer.allocate(values.length * bytesPerElement(p)).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            switch (p) {
                case FP32, TF32 -> b.putFloat(v);
                case FP16 -> b.putShort(Float.floatToFloat16(v));
                case BF16 -> b.putShort(Bf16.encode(v));
                case FP8_E4M3 -> b.put((byte) E4M3.encode(v, Overflow.SATURATE));
                case FP8_E5M2 -> b.put((byte) E5M2.encode(v, Overflow.SATURATE));
                case INT8 -> b.put((byte) Math.max(-128, Math.min(127, Math.round(v))));
                default -> throw unsupported(p);
            }
        }
        return b.array();
    }

    public static double[] decode(Precision p, byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes must not be null");
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        double[] out = new double[bytes.length / bytesPerElement(p)];
        for (int i = 0; i < out.length; i++) {
            out[i] = switch (p) {
                case FP32, TF32 -> b.getFloat();
                case FP16 -> Float.float16ToFloat(b.getShort());
                case BF16 -> Bf16.decode(b.getShort());
                case FP8_E4M3 -> E4M3.decode(b.get() & 0xFF);
                case FP8_E5M2 -> E5M2.decode(b.get() & 0xFF);
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
        Objects.requireNonNull(p, "precision must not be null");
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

    private static IllegalArgumentException unsupported(Precision p) {
        return new IllegalArgumentException("no host encoding for " + p.displayName()
                + "; supported: FP32, TF32, FP16, BF16, FP8 E4M3, FP8 E5M2, INT8");
    }
}
