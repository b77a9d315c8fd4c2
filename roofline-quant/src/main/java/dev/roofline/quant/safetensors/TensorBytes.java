package dev.roofline.quant.safetensors;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Streams one tensor's bytes (little-endian) into a safetensors file as it is written, so a writer never holds
 * the tensor: e.g. quantize a weight block by block. It must write exactly the bytes its shape and dtype need, and
 * not close {@code out}. Throwing aborts the write and leaves no output behind.
 */
@FunctionalInterface
public interface TensorBytes {
    void writeTo(OutputStream out) throws IOException;
}
