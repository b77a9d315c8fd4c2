package dev.roofline.cuda.kernels;

import dev.roofline.cuda.DeviceBuffer;

import java.util.Arrays;
import java.util.Objects;

/**
 * A GEMV weight matrix W[rows×cols] on the device in one {@link WeightFormat}: its element bytes, its scale bytes as
 * the kernels read them ({@link WeightFormat#deviceScaleBytes}; null when the format has none) and NVFP4's global
 * scale. Owns both buffers.
 */
public record DeviceWeights(
        WeightFormat format, int rows, int cols, DeviceBuffer weights, DeviceBuffer scales, float globalScale)
        implements AutoCloseable {

    public DeviceWeights {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(weights, "weights");
        if ((format.scaleBytes(rows, cols) > 0) != (scales != null)) {
            throw new IllegalArgumentException(format + (scales == null ? " needs" : " has no") + " scales");
        }
        if (scales != null && scales.byteSize() < format.deviceScaleBytes(rows, cols)) {
            throw new IllegalArgumentException(format + " " + rows + " x " + cols + " needs a scales buffer of "
                    + format.deviceScaleBytes(rows, cols) + " bytes (see WeightFormat.deviceScaleBytes), got "
                    + scales.byteSize());
        }
    }

    /**
     * Copies {@code weights} and {@code scales} (exactly the format's byte layout) to new device buffers, the scales
     * as {@link #deviceScales} extends them.
     */
    public static DeviceWeights upload(
            WeightFormat format, int rows, int cols, byte[] weights, byte[] scales, float globalScale) {
        requireLength("weights", weights.length, format.weightBytes(rows, cols), format, rows, cols);
        requireLength("scales", scales == null ? 0 : scales.length, format.scaleBytes(rows, cols), format, rows, cols);
        byte[] onDevice = format.scaleBytes(rows, cols) == 0 ? null : deviceScales(format, rows, cols, scales);
        DeviceBuffer w = DeviceBuffer.allocate(weights.length);
        DeviceBuffer s = null;
        try {
            w.copyFrom(weights);
            if (onDevice != null) {
                s = DeviceBuffer.allocate(onDevice.length);
                s.copyFrom(onDevice);
            }
            return new DeviceWeights(format, rows, cols, w, s, globalScale);
        } catch (RuntimeException e) {
            w.close();
            if (s != null) {
                s.close();
            }
            throw e;
        }
    }

    /**
     * The scales buffer the kernels read ({@link WeightFormat#deviceScaleBytes} bytes) from the format's scales for
     * W[rows×cols]: the same bytes and, for MXFP4, each row's largest E8M0 code after them (unsigned byte order).
     * Returns {@code scales} itself for the other formats. {@link #upload} calls it; callers of the {@code GemvKernels.gemv}
     * overload that takes buffers fill theirs with it. The kernels trust those maxima: they must be this matrix's,
     * for exactly these rows (a launch over the first n rows of a larger MXFP4 buffer would read scale codes as
     * maxima, and a maximum below a row's codes overflows FP16).
     *
     * @throws IllegalArgumentException if {@code scales} is not exactly {@link WeightFormat#scaleBytes} long
     * @throws NullPointerException     if {@code scales} is null
     */
    public static byte[] deviceScales(WeightFormat format, int rows, int cols, byte[] scales) {
        Objects.requireNonNull(scales, "scales");
        requireLength("scales", scales.length, format.scaleBytes(rows, cols), format, rows, cols);
        if (format != WeightFormat.MXFP4) {
            return scales;
        }
        int perRow = cols / 32;
        byte[] out = Arrays.copyOf(scales, Math.addExact(scales.length, rows));
        for (int r = 0; r < rows; r++) {
            int max = 0;
            for (int i = r * perRow, end = i + perRow; i < end; i++) {
                max = Math.max(max, Byte.toUnsignedInt(scales[i]));
            }
            out[scales.length + r] = (byte) max;
        }
        return out;
    }

    private static void requireLength(String what, long have, long need, WeightFormat f, int rows, int cols) {
        if (have != need) {
            throw new IllegalArgumentException(
                    f + " " + rows + " x " + cols + " has " + need + " " + what + " bytes, got " + have);
        }
    }

    @Override
    public void close() {
        weights.close();
        if (scales != null) {
            scales.close();
        }
    }
}
