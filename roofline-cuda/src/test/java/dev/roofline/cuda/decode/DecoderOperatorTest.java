package dev.roofline.cuda.decode;

import dev.roofline.core.model.Models;
import org.junit.jupiter.api.Test;

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
    void theExpertsCoverTheModelsExpertOperators() {
        assertThat(DecoderOperator.EXPERTS_GATE_UP.modelOperators())
                .containsExactly("experts gate_proj", "experts up_proj");
        assertThat(DecoderOperator.EXPERTS_DOWN.modelOperators()).containsExactly("experts down_proj");
    }
}
