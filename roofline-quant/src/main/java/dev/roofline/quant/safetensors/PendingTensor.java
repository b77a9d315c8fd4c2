package dev.roofline.quant.safetensors;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/** A tensor queued in a {@link SafetensorsWriter}: what the header says about it and where its bytes come from. */
record PendingTensor(String name, Dtype dtype, List<Long> shape, long byteCount, TensorBytes content) {
    private static final int CHUNK_BYTES = 1 << 20;

    PendingTensor {
        shape = List.copyOf(shape);
    }

    /** Content that copies {@code bytes} to the output in bounded chunks (a mapped segment may exceed the heap). */
    static TensorBytes copying(MemorySegment bytes) {
        return out -> {
            byte[] chunk = new byte[(int) Math.min(bytes.byteSize(), CHUNK_BYTES)];
            for (long offset = 0; offset < bytes.byteSize(); offset += chunk.length) {
                int n = (int) Math.min(chunk.length, bytes.byteSize() - offset);
                MemorySegment.copy(bytes, ValueLayout.JAVA_BYTE, offset, chunk, 0, n);
                out.write(chunk, 0, n);
            }
        };
    }

    /** The header entry of this tensor at byte {@code begin} of the data section. */
    TensorInfo at(long begin) {
        return new TensorInfo(name, dtype, shape, begin, Math.addExact(begin, byteCount));
    }
}
