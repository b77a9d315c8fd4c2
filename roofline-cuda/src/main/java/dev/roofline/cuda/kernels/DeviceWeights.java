package dev.roofline.cuda.kernels;

import dev.roofline.cuda.DeviceBuffer;

import java.util.Arrays;
import java.util.Objects;

/**
 * A GEMV weight matrix W[rows×cols] on the device in one {@link WeightFormat}: its element bytes, its scale bytes as
 * the kernels read them ({@link WeightFormat#deviceScaleBytes}; null when the format has none) and NVFP4's global
 * scale, either in the format's row-major layout or, when {@code tiled}, in {@link TiledLayout} (4-bit formats, which
 * {@link GemvKernels} then runs on its tiled kernels). Owns both buffers.
 */
public record DeviceWeights(
        WeightFormat format,
        int rows,
        int cols,
        DeviceBuffer weights,
        DeviceBuffer scales,
        float globalScale,
        boolean tiled)
        implements AutoCloseable {

    public DeviceWeights {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(weights, "weights");
        if (tiled) {
            TiledLayout.requireSupported(format, rows, cols);
        }
        if ((format.scaleBytes(rows, cols) > 0) != (scales != null)) {
            throw new IllegalArgumentException(format + (scales == null ? " needs" : " has no") + " scales");
        }
        if (scales != null && scales.byteSize() < format.deviceScaleBytes(rows, cols)) {
            throw new IllegalArgumentException(format + " " + rows + " x " + cols + " needs a scales buffer of "
                    + format.deviceScaleBytes(rows, cols) + " bytes (see WeightFormat.deviceScaleBytes), got "
                    + scales.byteSize());
        }
    }

    /** Weights in the format's row-major layout. */
    public DeviceWeights(
            WeightFormat format, int rows, int cols, DeviceBuffer weights, DeviceBuffer scales, float globalScale) {
        this(format, rows, cols, weights, scales, globalScale, false);
    }

    /**
     * Copies {@code weights} and {@code scales} (exactly the format's byte layout) to new device buffers, the scales
     * as {@link #deviceScales} extends them, in the row-major layout every kernel reads.
     */
    public static DeviceWeights upload(
            WeightFormat format, int rows, int cols, byte[] weights, byte[] scales, float globalScale) {
        requireBytes(format, rows, cols, weights, scales);
        byte[] onDevice = format.scaleBytes(rows, cols) == 0 ? null : deviceScales(format, rows, cols, scales);
        return copy(format, rows, cols, weights, onDevice, globalScale, false);
    }

    /**
     * {@link #upload} in the layout {@link GemvKernels#gemv} runs fastest with FP16 activations: {@link TiledLayout}
     * where it applies (4-bit formats, rows a multiple of 16, columns of 128), else row-major. Tiled weights run on
     * {@link GemvKernels} with FP16 or BF16 activations and no epilogue only; with BF16 activations the row-major layout
     * measured faster below about 8192 rows (docs/design/gemv-kernels.md#4-bit-weights-with-bf16-activations); the
     * grouped expert GEMVs ({@link MoeKernels}) and the native FP4 GEMV read the row-major layout ({@link #upload}).
     */
    public static DeviceWeights uploadForGemv(
            WeightFormat format, int rows, int cols, byte[] weights, byte[] scales, float globalScale) {
        if (!TiledLayout.supports(format, rows, cols)) {
            return upload(format, rows, cols, weights, scales, globalScale);
        }
        requireBytes(format, rows, cols, weights, scales);
        byte[] tiledScales = TiledLayout.scales(format, rows, cols, scales);
        // MXFP4's row maxima come from the row-major scales and follow the tiled ones unchanged
        byte[] onDevice = deviceScales(format, rows, cols, scales).clone();
        System.arraycopy(tiledScales, 0, onDevice, 0, tiledScales.length);
        return copy(format, rows, cols, TiledLayout.weights(format, rows, cols, weights), onDevice, globalScale, true);
    }

    /** New device buffers holding {@code weights} and {@code onDevice} (null: none), freed again if a copy fails. */
    private static DeviceWeights copy(
            WeightFormat format,
            int rows,
            int cols,
            byte[] weights,
            byte[] onDevice,
            float globalScale,
            boolean tiled) {
        DeviceBuffer w = DeviceBuffer.allocate(weights.length);
        DeviceBuffer s = null;
        try {
            w.copyFrom(weights);
            if (onDevice != null) {
                s = DeviceBuffer.allocate(onDevice.length);
                s.copyFrom(onDevice);
            }
            return new DeviceWeights(format, rows, cols, w, s, globalScale, tiled);
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

    /**
     * Throws unless these weights are row-major: {@code reader} (e.g. "the grouped expert GEMV") reads that layout only.
     *
     * @throws IllegalArgumentException naming the reader, when the weights are tiled
     */
    void requireRowMajor(String reader) {
        if (tiled) {
            throw new IllegalArgumentException(reader + " reads row-major weights; these " + format + " " + rows + " x "
                    + cols + " are tiled (DeviceWeights.uploadForGemv): upload them with DeviceWeights.upload");
        }
    }

    /** Throws unless {@code weights} and {@code scales} (null: none) are exactly the format's bytes for the shape. */
    private static void requireBytes(WeightFormat format, int rows, int cols, byte[] weights, byte[] scales) {
        requireLength("weights", weights.length, format.weightBytes(rows, cols), format, rows, cols);
        requireLength("scales", scales == null ? 0 : scales.length, format.scaleBytes(rows, cols), format, rows, cols);
    }

    /** Throws, naming the shape and {@code what}, unless {@code have} bytes are the {@code need} bytes it takes. */
    static void requireLength(String what, long have, long need, WeightFormat f, int rows, int cols) {
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
