package dev.roofline.core.transformer;

import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.core.model.SoftCapping;
import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Llama-3-8B (H 4096, 32 heads, 8 KV heads, d_head 128, d_ff 14336, vocab 128256), FLOPs and bytes by hand. */
class DenseOperatorsTest {

    static final long H = 4096, HEADS = 32, KV_HEADS = 8, D = 128, FF = 14336, VOCAB = 128256, LAYERS = 32;
    /** q, k, v, o, gate, up, down. */
    static final long LAYER_MATRIX_PARAMS = 2 * H * H + 2 * H * KV_HEADS * D + 3 * H * FF;

    static Map<String, Step> steps(Workload w) {
        return Operators.of(Models.LLAMA_3_8B, w).stream().collect(Collectors.toMap(Step::name, Function.identity()));
    }

    @Test
    void decodeProjectionsAndAttentionAtBatch1Context4096() {
        long s = 4096;
        Map<String, Step> st = steps(Workload.decode(1, s));
        assertThat(st.get("q_proj").operator().flops()).isEqualTo(2 * H * H);
        assertThat(st.get("q_proj").operator().bytes()).isEqualTo((H * H + H + H) * 2);
        assertThat(st.get("k_proj").operator().bytes()).isEqualTo((1024 * H + H + 1024) * 2);
        assertThat(st.get("gate_proj").operator().bytes()).isEqualTo((FF * H + H + FF) * 2);
        assertThat(st.get("down_proj").operator().flops()).isEqualTo(2 * H * FF);
        // Flash attention: per KV head, 4 query rows against 4096 keys; K and V read once per KV head
        assertThat(st.get("attention").operator().flops())
                .isEqualTo(2 * KV_HEADS * 4 * s * (D + D) + 5 * KV_HEADS * 4 * s);
        assertThat(st.get("attention").operator().bytes())
                .isEqualTo(KV_HEADS * (4 * D * 2 + 4 * D * 2 + s * D * 2 * 2));
        assertThat(st.get("attention").count()).isEqualTo(LAYERS);
        assertThat(st.get("rmsnorm").count()).isEqualTo(2 * LAYERS);
        assertThat(st.get("rmsnorm").operator().flops()).isEqualTo(4 * H);
        assertThat(st.get("rmsnorm").operator().bytes()).isEqualTo(3 * H * 2);
        assertThat(st.get("rope").operator().flops()).isEqualTo(3 * (HEADS + KV_HEADS) * D);
        assertThat(st.get("rope").operator().bytes()).isEqualTo(2 * (HEADS + KV_HEADS) * D * 2);
        assertThat(st.get("residual add").operator().bytes()).isEqualTo(3 * H * 2);
        assertThat(st.get("silu*up").operator().flops()).isEqualTo(4 * FF);
        assertThat(st.get("embedding").operator().bytes()).isEqualTo(2 * H * 2);
        assertThat(st.get("lm_head").operator().flops()).isEqualTo(2 * VOCAB * H);
        assertThat(st.get("lm_head").operator().bytes()).isEqualTo((VOCAB * H + H + VOCAB) * 2);
    }

    @Test
    void softCappingAddsThreeFlopsAScoreAndAPassOverTheLogits() {
        // Llama-3-8B's shapes with Gemma-2-style caps (50 on the scores, 30 on the logits), batch 2 at 4096 tokens
        Model capped = Model.newBuilder("capped")
                .hiddenSize((int) H)
                .layers((int) LAYERS)
                .vocabSize((int) VOCAB)
                .attention((int) HEADS, (int) KV_HEADS)
                .swiGlu((int) FF)
                .softCapping(new SoftCapping(50, 30))
                .build();
        long s = 4096;
        Map<String, Step> st = Operators.of(capped, Workload.decode(2, s)).stream()
                .collect(Collectors.toMap(Step::name, Function.identity()));
        long scores = 2 * KV_HEADS * 4 * s;
        // flash attention: softmax's 5 FLOPs and the cap's 3 per score, in the same pass (no more bytes)
        assertThat(st.get("attention").operator().flops()).isEqualTo(scores * 2 * (D + D) + (5 + 3) * scores);
        assertThat(st.get("attention").operator().bytes())
                .isEqualTo(Operators.of(Models.LLAMA_3_8B, Workload.decode(2, s)).stream()
                        .filter(x -> x.name().equals("attention"))
                        .findFirst()
                        .orElseThrow()
                        .operator()
                        .bytes());
        // the logits: 2 x 128256 FP16 values read and written once, 3 FLOPs each
        assertThat(st.get("logit soft-capping").operator().flops()).isEqualTo(3 * 2 * VOCAB);
        assertThat(st.get("logit soft-capping").operator().bytes()).isEqualTo(2 * 2 * VOCAB * 2);
        assertThat(st.get("logit soft-capping").count()).isEqualTo(1);
        assertThat(steps(Workload.decode(2, s))).doesNotContainKey("logit soft-capping");
        // unfused: the cap rides the softmax's pass over the stored scores
        Map<String, Step> unfused = Operators.of(capped, Workload.decode(2, s).withFlashAttention(false)).stream()
                .collect(Collectors.toMap(Step::name, Function.identity()));
        assertThat(unfused.get("attention softmax").operator().flops()).isEqualTo(8 * scores);
    }

    @Test
    void qwen3NormalisesEachQueryAndKeyHeadBeforeRope() {
        // Qwen3-8B at batch 2: 2 x 32 query heads and 2 x 8 key heads of 128, each RMS-normalised (4 FLOPs an element),
        // read and written in FP16 with its 128-wide weight; Llama-3-8B has no such step
        Map<String, Step> st = Operators.of(Models.QWEN3_8B, Workload.decode(2, 1024)).stream()
                .collect(Collectors.toMap(Step::name, Function.identity()));
        assertThat(st.get("q norm").count()).isEqualTo(36);
        assertThat(st.get("q norm").operator().flops()).isEqualTo(4 * 2 * 32 * D);
        assertThat(st.get("q norm").operator().bytes()).isEqualTo((2 * 2 * 32 * D + D) * 2);
        assertThat(st.get("k norm").operator().flops()).isEqualTo(4 * 2 * 8 * D);
        assertThat(st.get("k norm").operator().bytes()).isEqualTo((2 * 2 * 8 * D + D) * 2);
        assertThat(steps(Workload.decode(2, 1024))).doesNotContainKeys("q norm", "k norm");
    }

    @Test
    void decodeMatmulFlopsPerLayerAreTwiceTheWeightsPlusFourSHd() {
        for (long s : new long[] {1, 4096, 131072}) {
            long matmul = layerMatmulFlops(Operators.of(Models.LLAMA_3_8B, Workload.decode(1, s)));
            assertThat(matmul).as("S=" + s).isEqualTo(2 * LAYER_MATRIX_PARAMS + 4 * s * HEADS * D);
        }
    }

    @Test
    void prefillMatmulFlopsPerLayerCarryTheS2Term() {
        long s = 2048;
        long matmul = layerMatmulFlops(Operators.of(Models.LLAMA_3_8B, Workload.prefill(1, s)));
        assertThat(matmul).isEqualTo(2 * s * LAYER_MATRIX_PARAMS + 4 * s * s * HEADS * D);
    }

    @Test
    void wholeLayerFlopsAddTheVectorWorkCountedByHand() {
        long s = 4096;
        List<Step> steps = Operators.of(Models.LLAMA_3_8B, Workload.decode(1, s));
        long perLayer = steps.stream()
                        .filter(x -> x.count() >= LAYERS)
                        .mapToLong(Step::flops)
                        .sum()
                / LAYERS;
        long vector = 2 * 4 * H // two RMSNorms, 4 FLOPs per element
                + 3 * (HEADS + KV_HEADS) * D // RoPE on q and k
                + 5 * HEADS * s // softmax, 5 per score
                + 2 * H // two residual adds
                + 4 * FF; // silu(gate) * up
        assertThat(perLayer).isEqualTo(2 * LAYER_MATRIX_PARAMS + 4 * s * HEADS * D + vector);
    }

    @Test
    void withoutFlashTheScoresGoThroughDram() {
        long s = 4096;
        Map<String, Step> st = steps(Workload.prefill(1, s).withFlashAttention(false));
        // scores: 32 heads x S x S in FP16, written by QK^T, read and written by softmax, read by score*V
        long scoreBytes = HEADS * s * s * 2;
        assertThat(st.get("attention softmax").operator().bytes()).isEqualTo(2 * scoreBytes);
        assertThat(st.get("attention QK^T").operator().bytes())
                .isEqualTo(KV_HEADS * (4 * s * D * 2 + s * D * 2) + scoreBytes);
        assertThat(st.get("attention score*V").operator().bytes())
                .isEqualTo(scoreBytes + KV_HEADS * (D * s * 2 + 4 * s * D * 2));
        assertThat(st).doesNotContainKey("attention");
    }

    @Test
    void separatePrecisionsForWeightsActivationsAndKv() {
        Workload w = Workload.decode(1, 1024)
                .withWeights(Precision.NVFP4)
                .withActivations(Precision.FP8_E4M3)
                .withKvCache(Precision.FP8_E4M3);
        Map<String, Step> st = steps(w);
        long nvfp4 = H * H / 2 + H * H / 16 + 4;
        assertThat(st.get("q_proj").operator().bytes()).isEqualTo(nvfp4 + H + H);
        // K projection writes FP8 into the cache
        assertThat(st.get("k_proj").operator().bytes()).isEqualTo(1024 * H / 2 + 1024 * H / 16 + 4 + H + 1024);
        assertThat(st.get("attention").operator().bytes()).isEqualTo(KV_HEADS * (4 * D + 4 * D + 1024 * D * 2));
    }

    @Test
    void qwenAddsOneBiasStepReadingTheBiasVector() {
        Map<String, Step> st = Operators.of(Models.QWEN2_5_7B, Workload.decode(1, 16)).stream()
                .collect(Collectors.toMap(Step::name, Function.identity()));
        long out = 3584 + 2 * 512;
        assertThat(st.get("qkv bias").operator().flops()).isEqualTo(out);
        assertThat(st.get("qkv bias").operator().bytes()).isEqualTo(out * 2);
    }

    static long layerMatmulFlops(List<Step> steps) {
        long total = 0;
        for (Step s : steps) {
            if (s.matmul() && s.count() == LAYERS) {
                total += s.operator() instanceof dev.roofline.core.roofline.Attention a
                        ? a.matmulFlops()
                        : s.operator().flops();
            }
        }
        return total;
    }
}
