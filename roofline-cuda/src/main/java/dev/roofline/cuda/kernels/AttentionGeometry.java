package dev.roofline.cuda.kernels;

/**
 * The shape of one decode attention call ({@link DecodeKernels#attention}): {@code rows} sequences, {@code heads}
 * query heads sharing {@code kvHeads} KV heads of {@code headDim}, caches of {@code capacity} tokens per KV head, and
 * the distance in halves from one row's q to the next.
 *
 * @param qRowStride halves from the start of row b's q to row b + 1's: {@code heads · headDim} for a packed
 *                   {@code half[rows][heads][headDim]}, {@code (heads + 2·kvHeads) · headDim} to read q in place from
 *                   the merged q/k/v projection's output
 */
public record AttentionGeometry(int rows, int heads, int kvHeads, int headDim, int capacity, int qRowStride) {

    public AttentionGeometry {
        DecodeKernels.heads(heads, kvHeads, headDim);
        DecodeKernels.positive("rows", rows);
        DecodeKernels.positive("capacity", capacity);
        if (qRowStride % 8 != 0) {
            throw new IllegalArgumentException(
                    "qRowStride must be a multiple of 8 halves (rows of q are read 16 bytes at a time), got "
                            + qRowStride);
        }
        if (qRowStride < heads * headDim) {
            throw new IllegalArgumentException("qRowStride must be at least heads x headDim = " + heads * headDim
                    + " (the rows of q would overlap), got " + qRowStride);
        }
    }

    /** q packed as {@code half[rows][heads][headDim]}. */
    public static AttentionGeometry packed(int rows, int heads, int kvHeads, int headDim, int capacity) {
        return new AttentionGeometry(rows, heads, kvHeads, headDim, capacity, heads * headDim);
    }

    /** q read in place from the merged q/k/v projection's output {@code half[rows][(heads + 2·kvHeads)·headDim]}. */
    public static AttentionGeometry mergedQkv(int rows, int heads, int kvHeads, int headDim, int capacity) {
        return new AttentionGeometry(rows, heads, kvHeads, headDim, capacity, (heads + 2 * kvHeads) * headDim);
    }

    /** Query heads per KV head. */
    public int group() {
        return heads / kvHeads;
    }

    /** Bytes q spans: every row's stride but the last, which ends after its heads. */
    long qBytes() {
        return 2L * ((long) (rows - 1) * qRowStride + (long) heads * headDim);
    }

    /** Elements of each cache: rows × kvHeads × capacity × headDim. */
    long cacheElements() {
        return (long) rows * kvHeads * capacity * headDim;
    }
}
