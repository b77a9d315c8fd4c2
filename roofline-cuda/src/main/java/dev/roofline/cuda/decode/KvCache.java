package dev.roofline.cuda.decode;

/**
 * One layer's keys and values for every row of a batch, each {@code [batch][kvHeads][capacity][headDim]} as
 * {@link DecodeReference#attention} reads them: slot {@code p} of row {@code b} holds the token at position {@code p}.
 * Slots never written hold zeros.
 */
final class KvCache {
    final double[] keys;
    final double[] values;
    private final int batch;
    private final int kvHeads;
    private final int capacity;
    private final int headDim;

    /** @throws IllegalArgumentException when the cache does not fit a Java array */
    KvCache(int batch, int kvHeads, int capacity, int headDim) {
        long size = (long) batch * kvHeads * capacity * headDim;
        if (size > Integer.MAX_VALUE - 8) { // the JVM's largest array, with its header
            throw new IllegalArgumentException("a KV cache of batch " + batch + " x kvHeads " + kvHeads
                    + " x capacity " + capacity + " x headDim " + headDim + " = " + size
                    + " values does not fit a Java array");
        }
        this.keys = new double[(int) size];
        this.values = new double[(int) size];
        this.batch = batch;
        this.kvHeads = kvHeads;
        this.capacity = capacity;
        this.headDim = headDim;
    }

    /** Writes row b's {@code k} and {@code v} ({@code [batch][kvHeads][headDim]}) into slot {@code positions[b]}. */
    void append(double[] k, double[] v, int[] positions) {
        for (int b = 0; b < batch; b++) {
            for (int g = 0; g < kvHeads; g++) {
                int from = (b * kvHeads + g) * headDim;
                int to = ((b * kvHeads + g) * capacity + positions[b]) * headDim;
                System.arraycopy(k, from, keys, to, headDim);
                System.arraycopy(v, from, values, to, headDim);
            }
        }
    }
}
