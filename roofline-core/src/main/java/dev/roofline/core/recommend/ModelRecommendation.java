package dev.roofline.core.recommend;

import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.transformer.ModelPrediction;

import java.util.List;

/**
 * The recommendation for a model, the candidates it was chosen from (fastest first), why each role got its precision,
 * the named formats that were not candidates and the choice for each operator taken alone.
 *
 * @param model      the choice for the whole model
 * @param ranked     every allowed candidate with its whole-model speedup over FP16, fastest first
 * @param roles      weights, activations and KV cache: the precision chosen, its candidates and the reason
 * @param excluded   formats the caller named that were not candidates for a role, with the reason
 * @param operators  one recommendation per operator of the forward pass, in the order of {@code fp16.operators()}
 * @param fp16       the FP16 baseline prediction (its operators calibrated when the recommender has a calibration)
 * @param chosen     the prediction with the recommended precisions (likewise)
 * @param uncalibratedClasses the operator classes among all candidates priced that the calibration has no efficiency
 *                   for (priced at the copy bandwidth), by key; empty without a calibration
 */
public record ModelRecommendation(
        Recommendation model,
        List<Ranked> ranked,
        List<RoleChoice> roles,
        List<Exclusion> excluded,
        List<Recommendation> operators,
        ModelPrediction fp16,
        ModelPrediction chosen,
        List<OperatorClass> uncalibratedClasses) {

    /** A candidate and its whole-model speedup over FP16. */
    public record Ranked(Choice choice, double speedupVsFp16) {}

    public ModelRecommendation {
        ranked = List.copyOf(ranked);
        roles = List.copyOf(roles);
        excluded = List.copyOf(excluded);
        operators = List.copyOf(operators);
        uncalibratedClasses = List.copyOf(uncalibratedClasses);
    }
}
