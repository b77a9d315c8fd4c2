package dev.roofline.core.model;

import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Parameter totals against independently published counts (Hugging Face model pages' safetensors totals, the
 * papers' headline figures), each also written out by hand from the config.
 */
class ModelsTest {

    @Test
    void llama3_8bHas8030261248ParametersIncludingEmbeddingsAndLmHead() {
        long h = 4096, kv = 8 * 128, ff = 14336, vocab = 128256;
        long layer = h * h
                + 2 * h * kv
                + h * h // q, k, v, o: under GQA K and V are H x d_kv, not H x H
                + 3 * h * ff // gate, up, down
                + 2 * h; // two RMSNorm weights
        long total = 32 * layer + 2 * vocab * h + h; // untied embedding and lm_head, final norm
        assertThat(total).isEqualTo(8_030_261_248L);
        assertThat(Models.LLAMA_3_8B.parameterCount()).isEqualTo(8_030_261_248L);
    }

    @Test
    void denseLlamaFamilyTotalsMatchPublishedCounts() {
        assertThat(Models.LLAMA_2_7B.parameterCount()).isEqualTo(6_738_415_616L);
        assertThat(Models.LLAMA_2_70B.parameterCount()).isEqualTo(68_976_648_192L);
        assertThat(Models.LLAMA_3_70B.parameterCount()).isEqualTo(70_553_706_496L);
        assertThat(Models.MISTRAL_7B.parameterCount()).isEqualTo(7_241_732_096L);
    }

    @Test
    void qwen25_7bCountsItsQkvBiases() {
        long h = 3584, kv = 4 * 128;
        long bias = h + 2 * kv;
        long layer = 2 * h * h + 2 * h * kv + bias + 3 * h * 18944 + 2 * h;
        assertThat(28 * layer + 2 * 152064 * h + h).isEqualTo(7_615_616_512L);
        assertThat(Models.QWEN2_5_7B.parameterCount()).isEqualTo(7_615_616_512L);
    }

    @Test
    void mixtralTotalAndActiveParameters() {
        long h = 4096, expert = 3 * h * 14336, attn = 2 * h * h + 2 * h * 1024, router = 8 * h;
        long total = 32 * (attn + 8 * expert + router + 2 * h) + 2 * 32000 * h + h;
        assertThat(Models.MIXTRAL_8X7B.parameterCount()).isEqualTo(total).isEqualTo(46_702_792_704L);
        long active = 32 * (attn + 2 * expert + router + 2 * h) + 2 * 32000 * h + h;
        // Mistral AI: "12.9B active parameters"
        assertThat(Models.MIXTRAL_8X7B.activeParameterCount()).isEqualTo(active).isEqualTo(12_879_925_248L);
    }

    @Test
    void deepSeekV3MainModelIs671BillionWith37BillionActive() {
        long h = 7168;
        long mla = h * 1536 + 1536 + 1536L * 128 * 192 + h * 576 + 512 + 512L * 128 * 256 + 128L * 128 * h;
        long dense = mla + 3 * h * 18432 + 2 * h;
        long routerAndShared = 256 * h + 256 + 3 * h * 2048 + 2 * h;
        long moe = mla + 256 * 3 * h * 2048 + routerAndShared;
        long total = 3 * dense + 58 * moe + 2 * 129280 * h + h;
        assertThat(Models.DEEPSEEK_V3.parameterCount()).isEqualTo(total).isEqualTo(671_026_419_200L);
        // DeepSeek-V3 technical report: 671B total, 37B activated per token
        long active = 3 * dense + 58 * (mla + 8 * 3 * h * 2048 + routerAndShared) + 2 * 129280 * h + h;
        assertThat(Models.DEEPSEEK_V3.activeParameterCount()).isEqualTo(active);
        assertThat(active / 1e9).isCloseTo(37, within(0.6));
    }

    @Test
    void fp16WeightsAreTwoBytesPerParameter() {
        assertThat(Models.LLAMA_3_8B.weightBytes(Precision.FP16)).isEqualTo(2 * 8_030_261_248L);
        // NVFP4 matrices: half a byte per element + one E4M3 scale per 16 + a FP32 tensor scale per matrix; BF16
        // vectors
        long h = 4096;
        long vectors = 65 * h;
        assertThat(Models.LLAMA_3_8B.weightBytes(Precision.NVFP4))
                .isEqualTo((8_030_261_248L - vectors) * 9 / 16 + 4L * (2 + 7 * 32) + 2 * vectors);
    }

    @Test
    void kvCacheBytesPerTokenUnderGqaAndMla() {
        assertThat(Models.LLAMA_3_8B.kvCacheBytesPerToken(Precision.FP16)).isEqualTo(32L * 2 * 8 * 128 * 2);
        assertThat(Models.LLAMA_2_7B.kvCacheBytesPerToken(Precision.FP16)).isEqualTo(32L * 2 * 32 * 128 * 2);
        assertThat(Models.DEEPSEEK_V3.kvCacheBytesPerToken(Precision.FP16)).isEqualTo(61L * (512 + 64) * 2);
    }

    @Test
    void expectedDistinctExpertsForABatch() {
        MixtureOfExperts moe = (MixtureOfExperts) Models.MIXTRAL_8X7B.feedForward();
        assertThat(moe.expectedDistinctExperts(1)).isCloseTo(2, within(1e-12));
        assertThat(moe.expectedDistinctExperts(2)).isCloseTo(8 * (1 - 0.75 * 0.75), within(1e-12));
        assertThat(moe.expectedDistinctExperts(64)).isCloseTo(8, within(1e-6));
        MixtureOfExperts ds = (MixtureOfExperts) Models.DEEPSEEK_V3.feedForward();
        assertThat(ds.expectedDistinctExperts(16)).isCloseTo(256 * (1 - Math.pow(1 - 8 / 256.0, 16)), within(1e-9));
    }

    @Test
    void presetsAreFoundByLooseNames() {
        assertThat(Models.byName("llama-3-8b")).isSameAs(Models.LLAMA_3_8B);
        assertThat(Models.byName("Qwen2.5_7B")).isSameAs(Models.QWEN2_5_7B);
        assertThat(Models.byName("deepseek-r1")).isSameAs(Models.DEEPSEEK_V3);
        assertThatThrownBy(() -> Models.byName("gpt-5"))
                .hasMessageContaining("unknown model 'gpt-5'")
                .hasMessageContaining("Llama-3-8B");
    }

    @Test
    void builderRefusesIncompleteOrInconsistentModels() {
        assertThatThrownBy(() -> Model.newBuilder("x")
                        .hiddenSize(64)
                        .layers(1)
                        .vocabSize(10)
                        .swiGlu(128)
                        .build())
                .hasMessageContaining("attention(heads, kvHeads)");
        assertThatThrownBy(() -> Model.newBuilder("x")
                        .hiddenSize(64)
                        .layers(1)
                        .vocabSize(10)
                        .attention(8, 3)
                        .swiGlu(128)
                        .build())
                .hasMessageContaining("heads must be a multiple of kvHeads, got 8 and 3");
        assertThatThrownBy(() -> Model.newBuilder("x").hiddenSize(0))
                .hasMessageContaining("hiddenSize must be > 0, got 0");
        assertThatThrownBy(() -> new MixtureOfExperts(8, 9, 128, 0, 0, 0, false))
                .hasMessageContaining("topK must be <= experts, got 9 > 8");
        // a router scores at least the experts a GPU holds
        assertThatThrownBy(() -> new MixtureOfExperts(8, 2, 128, 0, 0, 0, false, false, 4))
                .hasMessageContaining("routerExperts must be >= experts, got 4 < 8");
        assertThatThrownBy(() -> Model.newBuilder("x")
                        .hiddenSize(64)
                        .layers(2)
                        .vocabSize(10)
                        .attention(8, 8)
                        .mixtureOfExperts(new MixtureOfExperts(8, 2, 128, 0, 3, 256, false))
                        .build())
                .hasMessageContaining("denseLayers must be <= layers, got 3 > 2");
    }

    @Test
    void builtModelMatchesItsHandCount() {
        Model m = Model.newBuilder("tiny")
                .hiddenSize(64)
                .layers(2)
                .vocabSize(100)
                .tiedEmbeddings(true)
                .attention(4, 2)
                .swiGlu(128)
                .build();
        long layer = 64 * 64 + 2 * 64 * 32 + 64 * 64 + 3 * 64 * 128 + 2 * 64;
        assertThat(m.parameterCount()).isEqualTo(2 * layer + 100 * 64 + 64);
    }

    @Test
    void aBillionHeadsOfWidthOneCountExactly() {
        // H = layers = vocab = intermediate = 1, 10^9 query and KV heads of width 1, untied, with Q/K/V biases:
        // q, k, v 3·10^9·1 + o 1·10^9 = 4·10^9; biases (10^9 + 2·10^9)·1 = 3·10^9; norms 2·1 + final 1 = 3;
        // embedding 1 + lm_head 1 + MLP 3·1·1 = 5; total 7,000,000,008 (an int sum of the biases wrapped to -1.29e9)
        Model m = Model.newBuilder("wide")
                .hiddenSize(1)
                .layers(1)
                .vocabSize(1)
                .attention(1_000_000_000, 1_000_000_000)
                .headDim(1)
                .qkvBias(true)
                .swiGlu(1)
                .build();
        assertThat(m.parameterCount()).isEqualTo(7_000_000_008L);
        assertThat(m.activeParameterCount()).isEqualTo(7_000_000_008L);
    }

    @Test
    void aCountBeyondALongNamesWhatOverflowed() {
        int max = Integer.MAX_VALUE;
        // (2^31 - 1) + 2 · (2^31 - 1) heads' biases of width 2^31 - 1: 3 · (2^31 - 1)^2 > 2^63
        MultiHeadAttention wide = new MultiHeadAttention(max, max, max, true);
        assertThatThrownBy(() -> wide.vectorParameters(1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("q/k/v bias parameters (heads, kvHeads, headDim) overflows a long");
        // q_b_proj: (2^31 - 1) heads of width 2^32 - 2 (just below 2^63 rows) times a q_lora_rank of 2^31 - 1
        LatentAttention mla = new LatentAttention(max, max, 1, max, max, 1);
        WeightMatrix qb = mla.matrices(1, 1).get(1);
        assertThat(qb.outFeatures()).isEqualTo(2 * (long) max * max);
        assertThatThrownBy(qb::parameters).hasMessageStartingWith("parameters of q_b_proj overflows a long");
        // 4 · 2^31 · 2^31 · 2^31 parameters in q_proj alone
        Model huge = Model.newBuilder("huge")
                .hiddenSize(max)
                .layers(max)
                .vocabSize(1)
                .attention(max, 1)
                .headDim(max)
                .swiGlu(1)
                .build();
        assertThatThrownBy(huge::parameterCount)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("parameters of q_proj overflows a long");
    }

    @Test
    void theDefaultHeadWidthIsNeverTruncated() {
        // 4100 / 32 = 128.125 would have become 128
        assertThatThrownBy(() -> Model.newBuilder("x")
                        .hiddenSize(4100)
                        .layers(1)
                        .vocabSize(10)
                        .attention(32, 8)
                        .swiGlu(128)
                        .build())
                .hasMessage("model 'x': hiddenSize 4100 is not a multiple of heads 32; set headDim");
        assertThat(Model.newBuilder("x")
                        .hiddenSize(4100)
                        .layers(1)
                        .vocabSize(10)
                        .attention(32, 8)
                        .headDim(128)
                        .swiGlu(128)
                        .build()
                        .attention())
                .isEqualTo(new MultiHeadAttention(32, 8, 128, false));
    }

    @Test
    void kvHeadsBeyondTheHeadsAreRefused() {
        assertThatThrownBy(() -> new MultiHeadAttention(8, 16, 64, false))
                .hasMessage("kvHeads must be <= heads, got 16 > 8");
    }

    @Test
    void deepSeekV3CountsTheRouterBiasTransformersKeepsAsABuffer() {
        // 58 MoE layers x 256 experts of e_score_correction_bias: transformers' num_parameters() says 671,026,404,352
        long buffers = 58L * 256;
        assertThat(Models.DEEPSEEK_V3.parameterCount() - buffers).isEqualTo(671_026_404_352L);
        assertThat(Models.DEEPSEEK_V3.feedForward().vectorParameters(7168, 61)).isEqualTo(buffers);
    }
}
