package dev.roofline.core.transformer;

import dev.roofline.core.internal.Checks;

/**
 * Weights plus KV cache against device memory (activations and runtime overheads are not counted).
 *
 * @param weightBytes        all weights as the workload stores them ({@link Transformer#weightBytes})
 * @param kvCacheBytes       the cache of {@code batch} sequences of {@code contextTokens} tokens
 * @param kvBytesPerToken    cache bytes one token adds across all layers
 * @param deviceBytes        device memory, 0 when the hardware does not say
 */
public record MemoryFit(long weightBytes, long kvCacheBytes, long kvBytesPerToken, long deviceBytes) {

    public long totalBytes() {
        return Checks.add(weightBytes, kvCacheBytes, () -> "weights plus KV cache bytes");
    }

    public boolean fits() {
        requireDevice();
        return totalBytes() <= deviceBytes;
    }

    /** Tokens of KV cache (batch × context) that fit beside the weights; 0 when the weights alone do not fit. */
    public long maxCachedTokens() {
        requireDevice();
        return Math.max(0, deviceBytes - weightBytes) / kvBytesPerToken;
    }

    /** Longest context that fits at {@code batch} sequences. */
    public long maxContext(long batch) {
        if (batch <= 0) {
            throw new IllegalArgumentException("batch must be > 0, got " + batch);
        }
        return maxCachedTokens() / batch;
    }

    /** Largest batch that fits at {@code contextTokens} per sequence. */
    public long maxBatch(long contextTokens) {
        if (contextTokens <= 0) {
            throw new IllegalArgumentException("contextTokens must be > 0, got " + contextTokens);
        }
        return maxCachedTokens() / contextTokens;
    }

    private void requireDevice() {
        if (deviceBytes <= 0) {
            throw new IllegalStateException("device memory is unknown for this hardware; set memoryCapacity(...)");
        }
    }
}
