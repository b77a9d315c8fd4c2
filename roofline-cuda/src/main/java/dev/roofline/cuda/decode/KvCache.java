package dev.roofline.cuda.decode;

import dev.roofline.cuda.kernels.KvCacheFormat;

/**
 * One layer's keys and values for every row of a batch, each {@code [batch][kvHeads][capacity][headDim]} as
 * {@link DecodeReference#attention} reads them: slot {@code p} of row {@code b} holds the token at position {@code p},
 * exactly or, with a {@link KvCacheFormat}, as that format stores it. Slots never written hold zeros.
 */
final class KvCache {
    final double[] keys;
    final double[] values;
    private final int batch;
    private final int kvHeads;
    private final int capacity;
    private final int headDim;
    private final KvCacheFormat format;

    /**
     * @param format how stored keys and values are rounded, or null to hold them exactly
     * @throws IllegalArgumentException when the cache does not fit a Java array
     */
    KvCache(int batch, int kvHeads, int capacity, int headDim, KvCacheFormat format) {
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
        this.format = format;
    }

    /** Writes row b's {@code k} and {@code v} ({@code [batch][kvHeads][headDim]}) into slot {@code positions[b]}. */
    void append(double[] k, double[] v, int[] positions) {
        for (int b = 0; b < batch; b++) {
            for (int g = 0; g < kvHeads; g++) {
                int from = (b * kvHeads + g) * headDim;
                int to = ((b * kvHeads + g) * capacity + positions[b]) * headDim;
                for (int i = 0; i < headDim; i++) {
                    keys[to + i] = format == null ? k[from + i] : format.roundKey(k[from + i]);
                    values[to + i] = format == null ? v[from + i] : format.roundValue(v[from + i]);
                }
            }
        }
    }
}
