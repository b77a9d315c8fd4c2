package dev.roofline.core.transformer;

import dev.roofline.core.internal.Checks;

/**
 * Weights plus KV cache against device memory (activations and runtime overheads are not counted).
 *
 * @param weightBytes                 all weights as the workload stores them ({@link Transformer#weightBytes})
 * @param kvCacheBytes                the cache of {@code batch} sequences of {@code contextTokens} tokens
 * @param kvBytesPerToken             cache bytes one token adds across all layers within every sliding window
 * @param kvBytesPerTokenBeyondWindow cache bytes one token adds past the window (the full-attention layers'); equal to
 *                                    {@code kvBytesPerToken} when no layer has a window
 * @param windowTokens                the sliding window, 0 when no layer has one
 * @param deviceBytes                 device memory, 0 when the hardware does not say
 * @param maxPositions                the model's longest context ({@code max_position_embeddings}), 0 when not stated:
 *                                    {@link #maxContext} reports no more
 */
public record MemoryFit(
        long weightBytes,
        long kvCacheBytes,
        long kvBytesPerToken,
        long kvBytesPerTokenBeyondWindow,
        long windowTokens,
        long deviceBytes,
        long maxPositions) {

    public MemoryFit {
        if (kvBytesPerToken <= 0 || kvBytesPerTokenBeyondWindow < 0 || kvBytesPerTokenBeyondWindow > kvBytesPerToken) {
            throw new IllegalArgumentException(
                    "KV bytes per token must be > 0 and at least those beyond the window, got " + kvBytesPerToken
                            + " and " + kvBytesPerTokenBeyondWindow);
        }
        if (maxPositions < 0) {
            throw new IllegalArgumentException("maxPositions must be >= 0 (0: not stated), got " + maxPositions);
        }
        if (windowTokens < 0 || (windowTokens == 0 && kvBytesPerTokenBeyondWindow != kvBytesPerToken)) {
            throw new IllegalArgumentException(
                    "a smaller KV share beyond the window needs a window > 0, got " + windowTokens);
        }
    }

    /** A model with no sliding window and no stated position limit: every token adds {@code kvBytesPerToken}. */
    public MemoryFit(long weightBytes, long kvCacheBytes, long kvBytesPerToken, long deviceBytes) {
        this(weightBytes, kvCacheBytes, kvBytesPerToken, kvBytesPerToken, 0, deviceBytes, 0);
    }

    public long totalBytes() {
        return Checks.add(weightBytes, kvCacheBytes, () -> "weights plus KV cache bytes");
    }

    public boolean fits() {
        requireDevice();
        return totalBytes() <= deviceBytes;
    }

    /**
     * Tokens of context one sequence can cache beside the weights (with no sliding window, also the batch × context
     * product that fits); 0 when the weights alone do not fit, {@link Long#MAX_VALUE} when every layer has a window
     * and the cache stops growing. Not bounded by {@link #maxPositions}.
     */
    public long maxCachedTokens() {
        return maxContextInMemory(1);
    }

    /**
     * Longest context that fits at {@code batch} sequences, at most {@link #maxPositions} when stated
     * ({@link Long#MAX_VALUE}: the cache stops growing and no limit is stated).
     */
    public long maxContext(long batch) {
        long fits = maxContextInMemory(batch);
        return maxPositions > 0 ? Math.min(fits, maxPositions) : fits;
    }

    private long maxContextInMemory(long batch) {
        if (batch <= 0) {
            throw new IllegalArgumentException("batch must be > 0, got " + batch);
        }
        requireDevice();
        long perSequence = Math.max(0, deviceBytes - weightBytes) / batch;
        long window = windowTokens == 0 ? Long.MAX_VALUE : windowTokens;
        if (perSequence / kvBytesPerToken < window) {
            return perSequence / kvBytesPerToken; // the context stays within the window
        }
        if (kvBytesPerTokenBeyondWindow == 0) {
            return Long.MAX_VALUE;
        }
        return window + (perSequence - window * kvBytesPerToken) / kvBytesPerTokenBeyondWindow;
    }

    /** Largest batch that fits at {@code contextTokens} per sequence. */
    public long maxBatch(long contextTokens) {
        if (contextTokens <= 0) {
            throw new IllegalArgumentException("contextTokens must be > 0, got " + contextTokens);
        }
        requireDevice();
        long within = windowTokens == 0 ? contextTokens : Math.min(contextTokens, windowTokens);
        long perSequence = Checks.add(
                Checks.multiply(within, kvBytesPerToken, () -> "KV bytes of one sequence"),
                Checks.multiply(contextTokens - within, kvBytesPerTokenBeyondWindow, () -> "KV bytes of one sequence"),
                () -> "KV bytes of one sequence");
        return Math.max(0, deviceBytes - weightBytes) / perSequence;
    }

    private void requireDevice() {
        if (deviceBytes <= 0) {
            throw new IllegalStateException("device memory is unknown for this hardware; set memoryCapacity(...)");
        }
    }
}
