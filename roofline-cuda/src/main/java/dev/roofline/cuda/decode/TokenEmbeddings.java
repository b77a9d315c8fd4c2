package dev.roofline.cuda.decode;

import dev.roofline.quant.safetensors.Dtype;
import dev.roofline.quant.safetensors.SafetensorsFile;
import dev.roofline.quant.safetensors.TensorInfo;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * A checkpoint's token embedding table ({@code model.embed_tokens.weight}, {@code vocab × hidden} in F16, BF16 or
 * F32), read from the mapped file a row at a time: what a caller writes to {@link DenseDecoder#input()} to feed real
 * tokens. Rows come as FP16 bits, the decoder's residual stream: F16 rows as stored, BF16 and F32 rows rounded to the
 * nearest FP16. Valid while the {@link CheckpointWeights} it came from is open.
 *
 * <pre>{@code
 * decoder.setInput(checkpoint.embeddings().lookup(token0, token1)); // batch 2
 * }</pre>
 */
public final class TokenEmbeddings {
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final SafetensorsFile file;
    private final TensorInfo table;
    private final int vocab;
    private final int hidden;

    /** {@code table} of {@code file}, already checked to be a {@code vocab × hidden} F16, BF16 or F32 matrix. */
    TokenEmbeddings(SafetensorsFile file, TensorInfo table, int vocab, int hidden) {
        this.file = file;
        this.table = table;
        this.vocab = vocab;
        this.hidden = hidden;
    }

    public int vocab() {
        return vocab;
    }

    public int hidden() {
        return hidden;
    }

    /**
     * The rows of {@code tokens}, one after the other: {@code half[tokens.length][hidden]} as FP16 bits.
     *
     * @throws IllegalArgumentException for a token outside {@code [0, vocab)}, or a row value beyond FP16's range
     * @throws IllegalStateException    once the checkpoint is closed
     */
    public short[] lookup(int... tokens) {
        Objects.requireNonNull(tokens, "tokens");
        short[] out = new short[Math.multiplyExact(tokens.length, hidden)];
        float[] row = new float[hidden];
        for (int i = 0; i < tokens.length; i++) {
            int token = tokens[i];
            if (token < 0 || token >= vocab) {
                throw new IllegalArgumentException("tokens[" + i + "] must be in [0, " + vocab + "), got " + token);
            }
            long first = (long) token * hidden;
            if (table.dtype() == Dtype.F16) {
                MemorySegment.copy(file.segment(table), I16, 2 * first, out, i * hidden, hidden);
                continue;
            }
            file.readFloats(table, first, row, 0, hidden);
            for (int e = 0; e < hidden; e++) {
                short h = Float.floatToFloat16(row[e]);
                if (Float.isInfinite(Float.float16ToFloat(h)) && Float.isFinite(row[e])) {
                    throw new IllegalArgumentException(table.name() + " row " + token + " holds " + row[e]
                            + " at column " + e + ", beyond FP16's range (the decoder's residual stream)");
                }
                out[i * hidden + e] = h;
            }
        }
        return out;
    }
}
