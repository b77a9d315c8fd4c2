package dev.roofline.core.roofline;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.model.SoftCapping;
import dev.roofline.core.precision.Precision;

import java.util.function.Supplier;

/**
 * Fused (Flash-style) attention: {@code softmax(Q·Kᵀ)·V} without materialising the score matrix. One
 * {@code batch} entry is one KV head of one sequence; its {@code queries} rows are the query tokens times the query
 * heads sharing that KV head (GQA groups stacked as rows), so K and V are read once per KV head.
 *
 * <pre>{@code
 * // Llama-3-8B decode, batch 1, 4096 cached tokens: 8 KV heads, 4 query heads each, d_head 128
 * Attention a = Attention.of("attention", 8, 4, 4096, 128, 128, Precision.FP16, Precision.FP16);
 * a.matmulFlops();   // 2 * 8 * 4 * 4096 * (128 + 128) = 4 * S * n_heads * d_head
 * }</pre>
 *
 * @param batch          sequences × KV heads
 * @param queries        query rows per batch entry (tokens × query heads per KV head)
 * @param keys           cached tokens attended to (S)
 * @param keyDim         width of a query/key row
 * @param valueDim       width of a value/output row
 * @param sharedKeyValue true when V is a slice of the K rows already read (MLA's absorbed latent cache)
 * @param activations    precision of Q and the output
 * @param kvCache        precision of K and V as stored
 * @param softCapped     every score is soft-capped before the softmax ({@code cap · tanh(s / cap)}, Gemma):
 *                       {@link SoftCapping#FLOPS_PER_VALUE} more FLOPs a score, in the same pass
 */
public record Attention(
        String name,
        long batch,
        long queries,
        long keys,
        long keyDim,
        long valueDim,
        boolean sharedKeyValue,
        Precision activations,
        Precision kvCache,
        boolean softCapped)
        implements Operator {

    /** FLOPs per score for the online softmax: max, subtract, exp, sum and the final rescale. */
    public static final int SOFTMAX_FLOPS_PER_SCORE = 5;

    public Attention {
        Checks.notBlank("name", name);
        Checks.positive("batch", batch);
        Checks.positive("queries", queries);
        Checks.positive("keys", keys);
        Checks.positive("keyDim", keyDim);
        Checks.positive("valueDim", valueDim);
        Checks.notNull("activations", activations);
        Checks.notNull("kvCache", kvCache);
        if (sharedKeyValue && valueDim > keyDim) {
            throw new IllegalArgumentException(
                    "valueDim must be <= keyDim when V shares K's rows, got " + valueDim + " > " + keyDim);
        }
        // validate once that FLOPs and bytes fit, so the accessors never fail later
        flops(batch, queries, keys, keyDim, valueDim, softCapped);
        bytes(batch, queries, keys, keyDim, valueDim, sharedKeyValue, activations, kvCache);
    }

    /** Attention whose scores are not soft-capped. */
    public Attention(
            String name,
            long batch,
            long queries,
            long keys,
            long keyDim,
            long valueDim,
            boolean sharedKeyValue,
            Precision activations,
            Precision kvCache) {
        this(name, batch, queries, keys, keyDim, valueDim, sharedKeyValue, activations, kvCache, false);
    }

    /** Separate K and V rows of width {@code headDim}-style dimensions. */
    public static Attention of(
            String name,
            long batch,
            long queries,
            long keys,
            long keyDim,
            long valueDim,
            Precision activations,
            Precision kvCache) {
        return new Attention(name, batch, queries, keys, keyDim, valueDim, false, activations, kvCache);
    }

    /** Q·Kᵀ plus score·V: {@code 2·batch·queries·keys·(keyDim + valueDim)}. */
    public long matmulFlops() {
        Supplier<String> what = this::describe;
        long s = Checks.multiply(Checks.multiply(Checks.multiply(2, batch, what), queries, what), keys, what);
        return Checks.multiply(s, Checks.add(keyDim, valueDim, what), what);
    }

    /** {@link #SOFTMAX_FLOPS_PER_SCORE} per score, and {@link SoftCapping#FLOPS_PER_VALUE} more when soft-capped. */
    public long softmaxFlops() {
        return Checks.multiply(scores(batch, queries, keys), perScore(softCapped), this::describe);
    }

    @Override
    public long flops() {
        return flops(batch, queries, keys, keyDim, valueDim, softCapped);
    }

    /** FLOPs per score beside the two products: the softmax's, and the cap's when soft-capped. */
    public static int perScore(boolean softCapped) {
        return SOFTMAX_FLOPS_PER_SCORE + (softCapped ? SoftCapping.FLOPS_PER_VALUE : 0);
    }

    /** Q read, K and V read once per batch entry, output written; no score matrix. */
    @Override
    public long bytes() {
        return bytes(batch, queries, keys, keyDim, valueDim, sharedKeyValue, activations, kvCache);
    }

    private static long scores(long batch, long queries, long keys) {
        Supplier<String> what = () -> "scores of attention batch=" + batch + " queries=" + queries + " keys=" + keys;
        return Checks.multiply(Checks.multiply(batch, queries, what), keys, what);
    }

    private static long flops(long batch, long queries, long keys, long keyDim, long valueDim, boolean softCapped) {
        Supplier<String> what = () -> "FLOPs of attention batch=" + batch + " queries=" + queries + " keys=" + keys;
        long s = scores(batch, queries, keys);
        long matmul = Checks.multiply(Checks.multiply(2, s, what), Checks.add(keyDim, valueDim, what), what);
        return Checks.add(matmul, Checks.multiply(s, perScore(softCapped), what), what);
    }

    private static long bytes(
            long batch,
            long queries,
            long keys,
            long keyDim,
            long valueDim,
            boolean shared,
            Precision a,
            Precision kv) {
        Supplier<String> what = () -> "bytes of attention batch=" + batch + " queries=" + queries + " keys=" + keys;
        long q = a.storageBytes(queries, keyDim);
        long o = a.storageBytes(queries, valueDim);
        long k = kv.storageBytes(keys, keyDim);
        long v = shared ? 0 : kv.storageBytes(keys, valueDim);
        long one = Checks.add(Checks.add(q, o, what), Checks.add(k, v, what), what);
        return Checks.multiply(batch, one, what);
    }

    private String describe() {
        return "FLOPs of attention '" + name + "'";
    }
}
