package dev.roofline.core.model;

/**
 * Sliding-window attention in some of a model's layers: each of {@code layers} layers attends to the last
 * {@code tokens} tokens only and keeps only those in its KV cache; the other layers attend to the whole context
 * (Gemma 3's local layers, gpt-oss's alternating ones). {@link #NONE}: every layer attends to the whole context.
 *
 * @param tokens the window, in tokens (0 with no windowed layer)
 * @param layers how many layers attend within it
 */
public record SlidingWindow(int tokens, int layers) {

    /** No windowed layer. */
    public static final SlidingWindow NONE = new SlidingWindow(0, 0);

    public SlidingWindow {
        if (tokens < 0 || layers < 0 || (tokens == 0) != (layers == 0)) {
            throw new IllegalArgumentException("a sliding window needs tokens and layers both positive (or both 0 for"
                    + " none), got " + tokens + " tokens in " + layers + " layers");
        }
    }

    /** Whether any layer attends within a window. */
    public boolean any() {
        return layers > 0;
    }

    /** Keys a windowed layer's query attends to at {@code contextTokens} tokens of context. */
    public long keys(long contextTokens) {
        return Math.min(contextTokens, tokens);
    }
}
