package dev.roofline.cuda.kernels;

import dev.roofline.cuda.DeviceBuffer;

import java.util.Objects;

/**
 * A GEMV weight matrix W[rows×cols] on the device in one {@link WeightFormat}: its element bytes, its scale bytes
 * (null when the format has none) and NVFP4's global scale. Owns both buffers.
 */
public record DeviceWeights(WeightFormat format, int rows, int cols, DeviceBuffer weights, DeviceBuffer scales,
                            float globalScale) implements AutoCloseable {

    public DeviceWeights {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(weights, "weights");
        if ((format.scaleBytes(rows, cols) > 0) != (scales != null)) {
            throw new IllegalArgumentException(format + (scales == null ? " needs" : " has no") + " scales");
        }
    }

    /** Copies {@code weights} and {@code scales} (exactly the format's byte layout) to new device buffers. */
    public static DeviceWeights upload(WeightFormat format, int rows, int cols, byte[] weights, byte[] scales, float globalScale) {
        requireLength("weights", weights.length, format.weightBytes(rows, cols), format, rows, cols);
        long scaleBytes = format.scaleBytes(rows, cols);
        requireLength("scales", scales == null ? 0 : scales.length, scaleBytes, format, rows, cols);
        DeviceBuffer w = DeviceBuffer.allocate(weights.length);
        DeviceBuffer s = null;
        try {
            w.copyFrom(weights);
            if (scaleBytes > 0) {
                s = DeviceBuffer.allocate(scaleBytes);
                s.copyFrom(scales);
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

    private static void requireLength(String what, long have, long need, WeightFormat f, int rows, int cols) {
        if (have != need) {
            throw new IllegalArgumentException(f + " " + rows + " x " + cols + " has " + need + " " + what + " bytes, got " + have);
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
