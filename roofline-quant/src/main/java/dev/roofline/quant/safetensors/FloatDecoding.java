package dev.roofline.quant.safetensors;

import dev.roofline.core.format.Bf16;
import dev.roofline.core.format.E8M0;
import dev.roofline.core.format.MiniFloat;
import dev.roofline.core.precision.Precision;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/** Little-endian floating-point tensor bytes → {@code float}: exact for F32/F16/BF16/F8/E8M0, rounded for F64. */
final class FloatDecoding {
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble F64 =
            ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final int CHUNK = 4096;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final float[] E4M3 = table(Precision.FP8_E4M3);
    private static final float[] E5M2 = table(Precision.FP8_E5M2);
    private static final float[] E8M0_VALUES = new float[256];

    static {
        for (int code = 0; code < E8M0_VALUES.length; code++) {
            E8M0_VALUES[code] = (float) E8M0.decode(code); // 2^-127 .. 2^127 are all floats; 0xFF is NaN
        }
    }

    private FloatDecoding() {}

    private static float[] table(Precision precision) {
        MiniFloat codec = MiniFloat.of(precision);
        float[] values = new float[256];
        for (int code = 0; code < values.length; code++) {
            values[code] = (float) codec.decode(code);
        }
        return values;
    }

    /** Decodes {@code count} elements of {@code tensor}, whose bytes are {@code src}, from element {@code first}. */
    static void decode(TensorInfo tensor, MemorySegment src, long first, float[] dst, int dstIndex, int count) {
        Dtype dtype = tensor.dtype();
        long offset =
                switch (dtype) {
                    case F64, F32, F16, BF16, F8_E4M3, F8_E5M2, F8_E8M0 -> first * dtype.byteSize();
                    default ->
                        throw new UnsupportedOperationException("tensor '" + tensor.name() + "' has dtype " + dtype
                                + ", which floats(...) does not decode (it reads F64, F32, F16, BF16, F8_E4M3, F8_E5M2 and"
                                + " F8_E8M0); read its bytes through segment(...)");
                };
        switch (dtype) {
            case F32 -> MemorySegment.copy(src, F32, offset, dst, dstIndex, count);
            case F64 -> {
                for (int i = 0; i < count; i++) {
                    dst[dstIndex + i] = (float) src.get(F64, offset + 8L * i);
                }
            }
            case F16 -> {
                for (int i = 0; i < count; i++) {
                    dst[dstIndex + i] = Float.float16ToFloat(src.get(I16, offset + 2L * i));
                }
            }
            case BF16 -> bf16(src, offset, dst, dstIndex, count);
            case F8_E4M3 -> lookUp(E4M3, src, offset, dst, dstIndex, count);
            case F8_E5M2 -> lookUp(E5M2, src, offset, dst, dstIndex, count);
            case F8_E8M0 -> lookUp(E8M0_VALUES, src, offset, dst, dstIndex, count);
            default -> throw new AssertionError(dtype); // refused above
        }
    }

    /** Bulk-copies BF16 codes into a small short[] (an intrinsic copy), then widens in a loop C2 can vectorize. */
    private static void bf16(MemorySegment src, long offset, float[] dst, int dstIndex, int count) {
        short[] codes = new short[Math.min(count, CHUNK)];
        for (int done = 0; done < count; done += codes.length) {
            int n = Math.min(codes.length, count - done);
            MemorySegment.copy(src, I16, offset + 2L * done, codes, 0, n);
            for (int i = 0; i < n; i++) {
                dst[dstIndex + done + i] = Bf16.decode(codes[i]);
            }
        }
    }

    private static void lookUp(float[] table, MemorySegment src, long offset, float[] dst, int dstIndex, int count) {
        for (int i = 0; i < count; i++) {
            dst[dstIndex + i] = table[src.get(ValueLayout.JAVA_BYTE, offset + i) & 0xFF];
        }
    }
}
