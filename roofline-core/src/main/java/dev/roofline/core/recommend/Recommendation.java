package dev.roofline.core.recommend;

import dev.roofline.core.internal.Checks;

/**
 * A precision choice for a whole model or one operator.
 *
 * @param subject        the model or operator it is for
 * @param choice         precisions to use (for one operator only the ones it touches matter)
 * @param method         how the hardware runs it, e.g. "W NVFP4 x A FP16: NVFP4 weights converted to FP16, FP16 tensor cores"
 * @param speedupVsFp16  predicted FP16 time / time with this choice
 * @param reason         one sentence saying why
 */
public record Recommendation(String subject, Choice choice, String method, double speedupVsFp16, String reason) {

    public Recommendation {
        Checks.notBlank("subject", subject);
        Checks.notNull("choice", choice);
        Checks.notBlank("method", method);
        Checks.positive("speedupVsFp16", speedupVsFp16);
        Checks.notBlank("reason", reason);
    }
}
