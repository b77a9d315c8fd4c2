package dev.roofline.core.calibration;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.model.MixtureOfExperts;
import dev.roofline.core.model.Model;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Phase;
import dev.roofline.core.transformer.Workload;

/**
 * How many kernels the measured engine launches for the forward passes a plan matches: its fusions depend on the
 * weights' precision and the activation rows of each product (roofline-cuda's decoder runs the norms and RoPE inside
 * FP16 products of one row only) and on whether the model has a mixture of experts. A {@link Calibration} lists its
 * engine's plans; the first that matches a pass counts its launches.
 *
 * @param weights         the weights' precision the plan is for; null for any
 * @param maxBatch        the most activation rows a product of the pass has that the plan is for, &gt;= 1: the batch
 *                        of a decode step, batch × prompt tokens of a prefill
 * @param experts         whether it is for models whose feed-forward is a mixture of experts (else for dense ones)
 * @param kernelsPerLayer kernels per decoder layer, &gt;= 0
 * @param kernelsPerModel kernels outside the layers, &gt;= 0
 */
public record LaunchPlan(Precision weights, int maxBatch, boolean experts, int kernelsPerLayer, int kernelsPerModel) {

    public LaunchPlan {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be >= 1, got " + maxBatch);
        }
        checkKernels(kernelsPerLayer, kernelsPerModel);
    }

    /** Kernel counts a plan or a calibration holds: none negative. */
    static void checkKernels(int kernelsPerLayer, int kernelsPerModel) {
        if (kernelsPerLayer < 0) {
            throw new IllegalArgumentException("kernelsPerLayer must be >= 0, got " + kernelsPerLayer);
        }
        if (kernelsPerModel < 0) {
            throw new IllegalArgumentException("kernelsPerModel must be >= 0, got " + kernelsPerModel);
        }
    }

    /** Whether this plan is the one for {@code model} at {@code w}. */
    public boolean matches(Model model, Workload w) {
        Checks.notNull("model", model);
        Checks.notNull("workload", w);
        long rows = w.phase() == Phase.DECODE ? w.batch() : w.tokens();
        return (weights == null || weights == w.weights())
                && rows <= maxBatch
                && experts == (model.feedForward() instanceof MixtureOfExperts);
    }

    /** Kernels one forward pass of {@code model} launches under this plan: kernelsPerLayer × layers + kernelsPerModel. */
    public long launches(Model model) {
        Checks.notNull("model", model);
        return launches(kernelsPerLayer, kernelsPerModel, model);
    }

    static long launches(int perLayer, int perModel, Model model) {
        return Checks.add(
                Checks.multiply(perLayer, model.layers(), () -> "kernel launches of " + model.name()),
                perModel,
                () -> "kernel launches of " + model.name());
    }
}
