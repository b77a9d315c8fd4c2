package dev.roofline.cuda.decode;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.OperatorTime;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which operators a step runs, and how many launches, counted by hand. */
class DecoderOperatorTest {

    @Test
    void aDenseStepRunsTheMlpsThreeOperators() {
        DecoderShape llama = DecoderShape.of(Models.LLAMA_3_8B);
        assertThat(DecoderOperator.of(llama))
                .contains(DecoderOperator.GATE_UP_PROJ, DecoderOperator.SILU_MUL, DecoderOperator.DOWN_PROJ)
                .doesNotContain(DecoderOperator.ROUTER);
        // per layer 2 norms, qkv, rope, 2 attention, o, gate/up, silu, down = 10; + final norm + lm_head
        assertThat(DecoderOperator.stepLaunches(llama)).isEqualTo(10 * 32 + 2);
    }

    @Test
    void aMixtureRunsRouterTopKAndTheExpertsInsteadOfTheMlp() {
        DecoderShape mixtral = DecoderShape.of(Models.MIXTRAL_8X7B);
        assertThat(DecoderOperator.of(mixtral))
                .containsExactly(
                        DecoderOperator.ADD_RMSNORM,
                        DecoderOperator.QKV_PROJ,
                        DecoderOperator.ROPE_APPEND,
                        DecoderOperator.ATTENTION,
                        DecoderOperator.O_PROJ,
                        DecoderOperator.ROUTER,
                        DecoderOperator.TOP_K,
                        DecoderOperator.EXPERTS_GATE_UP,
                        DecoderOperator.EXPERTS_SILU_MUL,
                        DecoderOperator.EXPERTS_DOWN,
                        DecoderOperator.EXPERTS_COMBINE,
                        DecoderOperator.LM_HEAD);
        // per layer 2 norms, qkv, rope, 2 attention, o, router, top-k, gate/up, silu, down, combine = 13
        assertThat(DecoderOperator.stepLaunches(mixtral)).isEqualTo(13 * 32 + 2);
    }

    @Test
    void aPredictionCountsTheLaunchesOfTheFusedPlan() {
        DecoderShape llama = DecoderShape.of(Models.LLAMA_3_8B);
        DecoderShape mixtral = DecoderShape.of(Models.MIXTRAL_8X7B);
        // FP16 at batch 1: norms and RoPE in the products, so per layer qkv, 2 attention, o, gate/up, silu, down = 7;
        // + layer 0's input norm + lm_head
        assertThat(planned(llama, WeightFormat.FP16, 1)).isEqualTo(7 * 32 + 2);
        assertThat(DenseDecoder.launches(DecoderOperator.ADD_RMSNORM, llama, WeightFormat.FP16, 1))
                .isEqualTo(1);
        assertThat(DenseDecoder.launches(DecoderOperator.ROPE_APPEND, llama, WeightFormat.FP16, 1))
                .isZero();
        // FP8 at batch 1 the same
        assertThat(planned(llama, WeightFormat.FP8_E4M3, 1)).isEqualTo(7 * 32 + 2);
        assertThat(DenseDecoder.launches(DecoderOperator.ADD_RMSNORM, llama, WeightFormat.FP8_E4M3, 1))
                .isEqualTo(1);
        assertThat(DenseDecoder.launches(DecoderOperator.ROPE_APPEND, llama, WeightFormat.FP8_E4M3, 1))
                .isZero();
        // FP16 above one row runs cuBLASLt, the other formats their own GEMVs: nothing fused
        assertThat(planned(llama, WeightFormat.FP16, 8)).isEqualTo(10 * 32 + 2);
        assertThat(planned(llama, WeightFormat.FP8_E4M3, 2)).isEqualTo(10 * 32 + 2);
        assertThat(planned(llama, WeightFormat.NVFP4, 1)).isEqualTo(10 * 32 + 2);
        // experts keep their norms, RoPE still runs in an FP16 or FP8 q/k/v product: 13 - 1 a layer
        assertThat(planned(mixtral, WeightFormat.FP16, 1)).isEqualTo(12 * 32 + 2);
        assertThat(planned(mixtral, WeightFormat.FP8_E4M3, 1)).isEqualTo(12 * 32 + 2);
        assertThat(planned(mixtral, WeightFormat.FP16, 2)).isEqualTo(13 * 32 + 2);
    }

    private static int planned(DecoderShape shape, WeightFormat format, int batch) {
        return shape.operators().stream()
                .mapToInt(o -> DenseDecoder.launches(o, shape, format, batch))
                .sum();
    }

    @Test
    void aMixturesStepCoversEveryPredictedOperatorButTheEmbeddingOnce() {
        ModelPrediction p = Transformer.of(Models.MIXTRAL_8X7B, Hardware.H200)
                .predict(Workload.decode(4, 1024).withWeights(Precision.FP16));
        List<String> covered = new ArrayList<>();
        for (DecoderOperator o : DecoderOperator.of(DecoderShape.of(Models.MIXTRAL_8X7B))) {
            covered.addAll(o.modelOperators());
        }
        List<String> predicted = new ArrayList<>();
        for (OperatorTime o : p.operators()) {
            if (!o.name().equals("embedding")) {
                predicted.add(o.name());
            }
        }
        assertThat(covered).containsExactlyInAnyOrderElementsOf(predicted);
    }

    @Test
    void theExpertsCoverTheModelsExpertOperators() {
        assertThat(DecoderOperator.EXPERTS_GATE_UP.modelOperators())
                .containsExactly("experts gate_proj", "experts up_proj");
        assertThat(DecoderOperator.EXPERTS_DOWN.modelOperators()).containsExactly("experts down_proj");
    }
}
