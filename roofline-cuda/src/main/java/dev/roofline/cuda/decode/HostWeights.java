package dev.roofline.cuda.decode;

import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.TiledLayout;
import dev.roofline.cuda.kernels.WeightFormat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One weight matrix W[rows×cols] on the host, its bytes in the format's row-major layout (as {@link DeviceWeights}
 * holds them unless {@link #upload} tiles them): the element bytes, the scale bytes
 * ({@link WeightFormat#deviceScaleBytes}) and NVFP4's global scale. Each kind of bytes
 * is a list of pieces laid end to end: one piece per checkpoint tensor, and a stack of matrices holds its parts'
 * pieces in row order. Pieces are typically read-only views of a mapped checkpoint, valid while it is open.
 */
record HostWeights(
        WeightFormat format,
        int rows,
        int cols,
        List<MemorySegment> weights,
        List<MemorySegment> scales,
        float globalScale) {

    HostWeights {
        Objects.requireNonNull(format, "format");
        if (rows <= 0 || cols <= 0) {
            throw new IllegalArgumentException("a matrix needs positive rows and cols, got " + rows + " x " + cols);
        }
        weights = List.copyOf(weights);
        scales = List.copyOf(scales);
        requireBytes(format, rows, cols, "weight", bytes(weights), format.weightBytes(rows, cols));
        requireBytes(format, rows, cols, "scale", bytes(scales), format.deviceScaleBytes(rows, cols));
        if (format.usesGlobalScale() && !(Float.isFinite(globalScale) && globalScale != 0)) {
            throw new IllegalArgumentException(format + " needs a finite, nonzero global scale, got " + globalScale);
        }
    }

    /** One tensor's bytes; {@code scales} is null for a format without scales. */
    static HostWeights of(
            WeightFormat format, int rows, int cols, MemorySegment weights, MemorySegment scales, float globalScale) {
        return new HostWeights(
                format, rows, cols, List.of(weights), scales == null ? List.of() : List.of(scales), globalScale);
    }

    /**
     * Whether {@code next}'s bytes can follow this matrix's unchanged and be read as one matrix of both rows: the same
     * format and columns, scales that run row by row (every format but MXFP4, whose device scales end with each row's
     * largest code), and for NVFP4 the same global scale, bit for bit (the kernel takes one per launch).
     */
    boolean stacksWith(HostWeights next) {
        return format == next.format
                && cols == next.cols
                && format != WeightFormat.MXFP4
                && (!format.usesGlobalScale()
                        || Float.floatToRawIntBits(globalScale) == Float.floatToRawIntBits(next.globalScale));
    }

    /**
     * {@code parts} (in row order) as few matrices as their bytes allow: each run of neighbours that
     * {@linkplain #stacksWith stack} becomes one matrix of their rows, its bytes theirs end to end.
     */
    static List<HostWeights> stack(List<HostWeights> parts) {
        List<HostWeights> out = new ArrayList<>();
        for (HostWeights p : parts) {
            HostWeights last = out.isEmpty() ? null : out.getLast();
            if (last != null && last.stacksWith(p)) {
                out.set(out.size() - 1, last.on(p));
            } else {
                out.add(p);
            }
        }
        return List.copyOf(out);
    }

    /** This matrix with {@code next}'s rows after its own. */
    private HostWeights on(HostWeights next) {
        List<MemorySegment> w = new ArrayList<>(weights);
        w.addAll(next.weights);
        List<MemorySegment> s = new ArrayList<>(scales);
        s.addAll(next.scales);
        return new HostWeights(format, Math.addExact(rows, next.rows), cols, w, s, globalScale);
    }

    /** The largest matrix {@link #upload} tiles: its bytes pass through one Java array. */
    private static final long MAX_ARRAY_BYTES = Integer.MAX_VALUE - 8;

    /**
     * Copies the bytes to new device buffers, freed again if a copy fails: in the layout the decoder's products run
     * fastest ({@link DeviceWeights#uploadForGemv}, tiled for the 4-bit formats where the shape allows, through the
     * heap, so for matrices that fit one Java array), else as they are.
     */
    DeviceWeights upload() {
        if (TiledLayout.supports(format, rows, cols) && format.weightBytes(rows, cols) <= MAX_ARRAY_BYTES) {
            byte[] s = gather(scales);
            return DeviceWeights.uploadForGemv(
                    format,
                    rows,
                    cols,
                    gather(weights),
                    Arrays.copyOf(s, Math.toIntExact(format.scaleBytes(rows, cols))),
                    globalScale);
        }
        DeviceBuffer w = DeviceBuffer.allocate(format.weightBytes(rows, cols));
        DeviceBuffer s = null;
        try {
            copy(weights, w);
            if (!scales.isEmpty()) {
                s = DeviceBuffer.allocate(format.deviceScaleBytes(rows, cols));
                copy(scales, s);
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

    /** The pieces' bytes one after another (a tiled layout takes whole rows of the matrix at once). */
    private static byte[] gather(List<MemorySegment> pieces) {
        long total = 0;
        for (MemorySegment p : pieces) {
            total += p.byteSize();
        }
        byte[] out = new byte[Math.toIntExact(total)];
        int at = 0;
        for (MemorySegment p : pieces) {
            MemorySegment.copy(p, ValueLayout.JAVA_BYTE, 0, out, at, Math.toIntExact(p.byteSize()));
            at += Math.toIntExact(p.byteSize());
        }
        return out;
    }

    private static void copy(List<MemorySegment> pieces, DeviceBuffer to) {
        long at = 0;
        for (MemorySegment p : pieces) {
            if (p.byteSize() > 0) {
                to.slice(at, p.byteSize()).copyFrom(p);
            }
            at += p.byteSize();
        }
    }

    private static long bytes(List<MemorySegment> pieces) {
        long sum = 0;
        for (MemorySegment p : pieces) {
            sum = Math.addExact(sum, p.byteSize());
        }
        return sum;
    }

    private static void requireBytes(WeightFormat f, int rows, int cols, String what, long have, long need) {
        if (have != need) {
            throw new IllegalArgumentException(
                    f + " " + rows + " x " + cols + " has " + need + " " + what + " bytes, got " + have);
        }
    }
}
