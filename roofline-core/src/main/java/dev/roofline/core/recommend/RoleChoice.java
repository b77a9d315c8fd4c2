package dev.roofline.core.recommend;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;

import java.util.List;

/**
 * The precision recommended for one role, the candidates it was chosen from and why.
 *
 * @param role       weights, activations or KV cache
 * @param chosen     the recommended precision for it
 * @param candidates every precision the recommender priced for it, FP16 (the baseline) first
 * @param reason     one sentence
 */
public record RoleChoice(TensorRole role, Precision chosen, List<Precision> candidates, String reason) {

    public RoleChoice {
        Checks.notNull("role", role);
        Checks.notNull("chosen", chosen);
        candidates = List.copyOf(candidates);
        Checks.notBlank("reason", reason);
    }
}
