package dev.roofline.core.recommend;

import dev.roofline.core.precision.Precision;

/** The three tensors a {@link Choice} gives a precision to. */
public enum TensorRole {
    WEIGHTS("weights"),
    ACTIVATIONS("activations"),
    KV_CACHE("KV cache");

    private final String displayName;

    TensorRole(String displayName) {
        this.displayName = displayName;
    }

    /** e.g. "KV cache". */
    public String displayName() {
        return displayName;
    }

    /** This role's precision in {@code c}. */
    public Precision of(Choice c) {
        return switch (this) {
            case WEIGHTS -> c.weights();
            case ACTIVATIONS -> c.activations();
            case KV_CACHE -> c.kvCache();
        };
    }

    @Override
    public String toString() {
        return displayName;
    }
}
