package dev.roofline.core.model;

/**
 * Logit soft-capping, {@code cap · tanh(x / cap)} (Gemma 2, and Gemma 3 configs that set it): on the attention scores
 * before the softmax ({@code attn_logit_softcapping}) and on the LM head's logits ({@code final_logit_softcapping}).
 * The caps change no shape; they cost {@link #FLOPS_PER_VALUE} FLOPs on each capped value (divide, tanh, multiply).
 *
 * @param attentionScores the cap on the attention scores, 0 when uncapped
 * @param finalLogits     the cap on the logits, 0 when uncapped
 */
public record SoftCapping(double attentionScores, double finalLogits) {

    /** No capping anywhere. */
    public static final SoftCapping NONE = new SoftCapping(0, 0);

    /** Divide by the cap, tanh, multiply by it. */
    public static final int FLOPS_PER_VALUE = 3;

    /** The name of the model step that caps the logits, a pass of its own after the LM head. */
    public static final String LOGITS_STEP = "logit soft-capping";

    public SoftCapping {
        check("attentionScores", attentionScores);
        check("finalLogits", finalLogits);
    }

    /** Whether the attention scores are capped. */
    public boolean capsScores() {
        return attentionScores > 0;
    }

    /** Whether the logits are capped. */
    public boolean capsLogits() {
        return finalLogits > 0;
    }

    /** Whether anything is capped. */
    public boolean any() {
        return capsScores() || capsLogits();
    }

    private static void check(String name, double cap) {
        if (!(cap >= 0) || Double.isInfinite(cap)) {
            throw new IllegalArgumentException(name + " must be a finite cap >= 0 (0: none), got " + cap);
        }
    }
}
