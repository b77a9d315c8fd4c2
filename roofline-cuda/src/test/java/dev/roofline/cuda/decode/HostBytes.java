package dev.roofline.cuda.decode;

import dev.roofline.cuda.kernels.WeightFormat;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/** A {@link HostWeights}' bytes copied off its pieces, to compare with a checkpoint's after it is closed. */
record HostBytes(WeightFormat format, int rows, int cols, byte[] weights, byte[] scales, float globalScale) {

    static HostBytes of(HostWeights w) {
        return new HostBytes(w.format(), w.rows(), w.cols(), join(w.weights()), join(w.scales()), w.globalScale());
    }

    static byte[] join(List<MemorySegment> pieces) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (MemorySegment p : pieces) {
            out.writeBytes(p.toArray(ValueLayout.JAVA_BYTE));
        }
        return out.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
