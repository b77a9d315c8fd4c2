package dev.roofline.core.recommend;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;

/**
 * A format the caller named that was not a candidate for one role, and why (e.g. INT8 for the KV cache: not a format
 * KV caches are stored in).
 */
public record Exclusion(TensorRole role, Precision format, String reason) {

    public Exclusion {
        Checks.notNull("role", role);
        Checks.notNull("format", format);
        Checks.notBlank("reason", reason);
    }

    /** e.g. "INT8 for the KV cache: ...". */
    public String label() {
        return format.displayName() + " for the " + role.displayName() + ": " + reason;
    }
}
