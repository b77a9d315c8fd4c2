package dev.roofline.core.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The presets of the models people run on GB10s today (Llama 3.x, Qwen3, Phi-4, Mistral Small, the DeepSeek-R1
 * distills): each total written out by hand from the published config.json, then set beside the model card's figure
 * (Qwen3's cards give the parameters without embeddings to two or three digits; Meta's the total).
 */
class PresetFamiliesTest {

    /** One decoder layer of multi-head attention and a SwiGLU MLP, written out: q, k, v, o, gate, up, down, norms. */
    private static long layer(long h, long heads, long kvHeads, long d, long ff, boolean qkNorm, boolean qkvBias) {
        long attention = h * heads * d + 2 * h * kvHeads * d + heads * d * h;
        long mlp = 3 * h * ff;
        long vectors = 2 * h + (qkNorm ? 2 * d : 0) + (qkvBias ? (heads + 2 * kvHeads) * d : 0);
        return attention + mlp + vectors;
    }

    private static long nonEmbedding(Model m) {
        long table = (long) m.vocabSize() * m.hiddenSize();
        return m.parameterCount() - (m.tiedEmbeddings() ? table : 2 * table);
    }

    @Test
    void llama3_1And3_3ShareLlama3sShapes() {
        assertThat(Models.LLAMA_3_1_8B.parameterCount()).isEqualTo(8_030_261_248L);
        assertThat(Models.LLAMA_3_1_70B.parameterCount()).isEqualTo(70_553_706_496L);
        assertThat(Models.LLAMA_3_3_70B.parameterCount()).isEqualTo(70_553_706_496L);
        assertThat(Models.DEEPSEEK_R1_DISTILL_LLAMA_8B.parameterCount()).isEqualTo(8_030_261_248L);
        assertThat(Models.DEEPSEEK_R1_DISTILL_LLAMA_70B.parameterCount()).isEqualTo(70_553_706_496L);
    }

    @Test
    void llama3_1_405bIs405_85Billion() {
        long h = 16384;
        long total = 126 * layer(h, 128, 8, 128, 53248, false, false) + 2 * 128256 * h + h;
        assertThat(total).isEqualTo(405_853_388_800L);
        assertThat(Models.LLAMA_3_1_405B.parameterCount()).isEqualTo(total);
    }

    @Test
    void llama3_2SmallModelsTieTheirEmbeddings() {
        // 1B: 32 heads of 64 in a hidden size of 2048; the tied table is counted once
        long oneB = 16 * layer(2048, 32, 8, 64, 8192, false, false) + 128256L * 2048 + 2048;
        assertThat(oneB).isEqualTo(1_235_814_400L);
        assertThat(Models.LLAMA_3_2_1B.parameterCount()).isEqualTo(oneB);
        long threeB = 28 * layer(3072, 24, 8, 128, 8192, false, false) + 128256L * 3072 + 3072;
        assertThat(threeB).isEqualTo(3_212_749_824L);
        assertThat(Models.LLAMA_3_2_3B.parameterCount()).isEqualTo(threeB);
    }

    @Test
    void qwen3DenseModelsCountTheirQueryAndKeyNorms() {
        // every layer: the two RMSNorms, then q_norm and k_norm of one head width (128) each
        long sixHundredM = 28 * layer(1024, 16, 8, 128, 3072, true, false) + 151936L * 1024 + 1024;
        assertThat(Models.QWEN3_0_6B.parameterCount()).isEqualTo(sixHundredM).isEqualTo(596_049_920L);
        long eightB = 36 * layer(4096, 32, 8, 128, 12288, true, false) + 2 * 151936L * 4096 + 4096;
        assertThat(Models.QWEN3_8B.parameterCount()).isEqualTo(eightB).isEqualTo(8_190_735_360L);
        assertThat(Models.QWEN3_1_7B.parameterCount())
                .isEqualTo(28 * layer(2048, 16, 8, 128, 6144, true, false) + 151936L * 2048 + 2048);
        assertThat(Models.QWEN3_4B.parameterCount())
                .isEqualTo(36 * layer(2560, 32, 8, 128, 9728, true, false) + 151936L * 2560 + 2560);
        assertThat(Models.QWEN3_14B.parameterCount())
                .isEqualTo(40 * layer(5120, 40, 8, 128, 17408, true, false) + 2 * 151936L * 5120 + 5120);
        assertThat(Models.QWEN3_32B.parameterCount())
                .isEqualTo(64 * layer(5120, 64, 8, 128, 25600, true, false) + 2 * 151936L * 5120 + 5120);
        // the model cards' "Number of Parameters (Non-Embedding)"
        assertThat(nonEmbedding(Models.QWEN3_0_6B) / 1e9).isCloseTo(0.44, within(0.005));
        assertThat(nonEmbedding(Models.QWEN3_1_7B) / 1e9).isCloseTo(1.4, within(0.05));
        assertThat(nonEmbedding(Models.QWEN3_4B) / 1e9).isCloseTo(3.6, within(0.05));
        assertThat(nonEmbedding(Models.QWEN3_8B) / 1e9).isCloseTo(6.95, within(0.005));
        assertThat(nonEmbedding(Models.QWEN3_14B) / 1e9).isCloseTo(13.2, within(0.05));
        assertThat(nonEmbedding(Models.QWEN3_32B) / 1e9).isCloseTo(31.2, within(0.05));
    }

    @Test
    void qwen3MixturesRouteEveryLayerWithoutASharedExpert() {
        long h = 2048;
        long attention = layer(h, 32, 4, 128, 1, true, false) - 3 * h; // the layer less its (1-wide) MLP
        long router = 128 * h;
        long expert = 3 * h * 768;
        long total = 48 * (attention + router + 128 * expert) + 2 * 151936L * h + h;
        assertThat(Models.QWEN3_30B_A3B.parameterCount()).isEqualTo(total).isEqualTo(30_532_122_624L);
        long active = 48 * (attention + router + 8 * expert) + 2 * 151936L * h + h;
        assertThat(Models.QWEN3_30B_A3B.activeParameterCount()).isEqualTo(active);
        // model card: 30.5B total, 3.3B activated (3.35B here: embedding table and head included), 29.9B non-embedding
        assertThat(active / 1e9).isCloseTo(3.3, within(0.06));
        assertThat(nonEmbedding(Models.QWEN3_30B_A3B) / 1e9).isCloseTo(29.9, within(0.05));

        long big = 4096;
        long bigAttention = layer(big, 64, 4, 128, 1, true, false) - 3 * big;
        long bigTotal = 94 * (bigAttention + 128 * big + 128 * 3 * big * 1536) + 2 * 151936L * big + big;
        assertThat(Models.QWEN3_235B_A22B.parameterCount()).isEqualTo(bigTotal);
        long bigActive = 94 * (bigAttention + 128 * big + 8 * 3 * big * 1536) + 2 * 151936L * big + big;
        assertThat(Models.QWEN3_235B_A22B.activeParameterCount()).isEqualTo(bigActive);
        // model card: 235B total, 22B activated, 234B non-embedding
        assertThat(bigTotal / 1e9).isCloseTo(235, within(0.5));
        assertThat(bigActive / 1e9).isCloseTo(22, within(0.5));
        assertThat(nonEmbedding(Models.QWEN3_235B_A22B) / 1e9).isCloseTo(234, within(0.5));
    }

    @Test
    void phi4AndMistralSmall() {
        long phi = 40 * layer(5120, 40, 10, 128, 17920, false, false) + 2 * 100352L * 5120 + 5120;
        assertThat(Models.PHI_4.parameterCount()).isEqualTo(phi).isEqualTo(14_659_507_200L);
        long mistral = 40 * layer(5120, 32, 8, 128, 32768, false, false) + 2 * 131072L * 5120 + 5120;
        assertThat(Models.MISTRAL_SMALL_24B.parameterCount()).isEqualTo(mistral).isEqualTo(23_572_403_200L);
    }

    @Test
    void r1QwenDistillsAreQwen2_5WithBiases() {
        assertThat(Models.DEEPSEEK_R1_DISTILL_QWEN_7B.parameterCount()).isEqualTo(7_615_616_512L);
        long fourteen = 48 * layer(5120, 40, 8, 128, 13824, false, true) + 2 * 152064L * 5120 + 5120;
        assertThat(Models.DEEPSEEK_R1_DISTILL_QWEN_14B.parameterCount())
                .isEqualTo(fourteen)
                .isEqualTo(14_770_033_664L);
        long thirtyTwo = 64 * layer(5120, 40, 8, 128, 27648, false, true) + 2 * 152064L * 5120 + 5120;
        assertThat(Models.DEEPSEEK_R1_DISTILL_QWEN_32B.parameterCount())
                .isEqualTo(thirtyTwo)
                .isEqualTo(32_763_876_352L);
    }

    @Test
    void gptOssCountsItsBiasesAndSinksAndWindowsHalfItsLayers() {
        long h = 2880, q = 64 * 64, kv = 8 * 64, ff = 2880;
        long attention = h * q + 2 * h * kv + q * h + (q + 2 * kv) + h + 64; // q/k/v/o, their biases, 64 sinks
        long expert = 3 * h * ff + 2 * ff + h; // gate, up, down and their biases
        long twenty = 24 * (attention + 32 * h + 32 + 32 * expert + 2 * h) + 2 * 201088L * h + h;
        // OpenAI's model card: 20.91B parameters, 116.83B for the 120b
        assertThat(Models.GPT_OSS_20B.parameterCount()).isEqualTo(twenty).isEqualTo(20_914_757_184L);
        long oneTwenty = 36 * (attention + 128 * h + 128 + 128 * expert + 2 * h) + 2 * 201088L * h + h;
        assertThat(Models.GPT_OSS_120B.parameterCount()).isEqualTo(oneTwenty).isEqualTo(116_829_156_672L);
        // active: 4 experts (and their biases) a layer; OpenAI's 3.61B and 5.13B leave out the embedding table
        long active = 24 * (attention + 32 * h + 32 + 4 * expert + 2 * h) + 2 * 201088L * h + h;
        assertThat(Models.GPT_OSS_20B.activeParameterCount()).isEqualTo(active);
        assertThat((active - 201088L * h) / 1e9).isCloseTo(3.61, within(0.005));
        assertThat((Models.GPT_OSS_120B.activeParameterCount() - 201088L * h) / 1e9)
                .isCloseTo(5.13, within(0.005));
        assertThat(Models.GPT_OSS_20B.slidingWindow()).isEqualTo(new SlidingWindow(128, 12));
        assertThat(Models.GPT_OSS_120B.slidingWindow()).isEqualTo(new SlidingWindow(128, 18));
    }

    @Test
    void gemma3CountsFourNormsAndItsQueryAndKeyNormsInEveryLayer() {
        // per layer: the layer of a 2-norm model plus 2 more norms of the hidden size (after attention and the MLP)
        long oneB = 26 * (layer(1152, 4, 1, 256, 6912, true, false) + 2 * 1152) + 262144L * 1152 + 1152;
        // Hugging Face's count for google/gemma-3-1b-pt
        assertThat(Models.GEMMA_3_1B.parameterCount()).isEqualTo(oneB).isEqualTo(999_885_952L);
        assertThat(Models.GEMMA_3_4B.parameterCount())
                .isEqualTo(34 * (layer(2560, 8, 4, 256, 10240, true, false) + 2 * 2560) + 262208L * 2560 + 2560);
        assertThat(Models.GEMMA_3_12B.parameterCount())
                .isEqualTo(48 * (layer(3840, 16, 8, 256, 15360, true, false) + 2 * 3840) + 262208L * 3840 + 3840);
        assertThat(Models.GEMMA_3_27B.parameterCount())
                .isEqualTo(62 * (layer(5376, 32, 16, 128, 21504, true, false) + 2 * 5376) + 262208L * 5376 + 5376);
        // every sixth layer global: 26 - 4, 34 - 5, 48 - 8, 62 - 10 windowed
        assertThat(Models.GEMMA_3_1B.slidingWindow()).isEqualTo(new SlidingWindow(512, 22));
        assertThat(Models.GEMMA_3_4B.slidingWindow()).isEqualTo(new SlidingWindow(1024, 29));
        assertThat(Models.GEMMA_3_12B.slidingWindow()).isEqualTo(new SlidingWindow(1024, 40));
        assertThat(Models.GEMMA_3_27B.slidingWindow()).isEqualTo(new SlidingWindow(1024, 52));
        assertThat(Models.GEMMA_3_27B.feedForward()).isEqualTo(new SwiGlu(21504, true));
    }

    @Test
    void presetsKnowThePositionsTheirConfigsState() {
        // max_position_embeddings: Llama 3's 8k grew to 128k in 3.1 with the same weights
        assertThat(Models.LLAMA_3_8B.maxPositions()).isEqualTo(8192);
        assertThat(Models.LLAMA_3_1_8B.maxPositions()).isEqualTo(131072);
        assertThat(Models.QWEN3_8B.maxPositions()).isEqualTo(40960);
        assertThat(Models.GEMMA_3_1B.maxPositions()).isEqualTo(32768);
        assertThat(Models.GPT_OSS_20B.maxPositions()).isEqualTo(131072);
        assertThat(Models.presets())
                .allSatisfy(m -> assertThat(m.maxPositions()).isPositive());
        assertThat(ConfigJson.parse("x", ConfigJsonTest.QWEN3_8B).maxPositions())
                .isEqualTo(40960);
        assertThat(ConfigJson.parse("x", ConfigJsonTest.GEMMA_3_4B).maxPositions())
                .isEqualTo(131072);
    }

    @Test
    void aTiedHeadIsTheTableReadWholeInEveryDecodeStep() {
        // Llama-3.2-1B at batch 1 in FP16: every parameter once (the tied table as lm_head), plus the token's row
        double read = dev.roofline.core.transformer.Transformer.of(
                        Models.LLAMA_3_2_1B, dev.roofline.core.hardware.Hardware.GB10)
                .decodeWeightBytes(dev.roofline.core.transformer.Workload.decode(1, 1024));
        assertThat(read).isEqualTo(2.0 * 1_235_814_400L + 2 * 2048);
    }

    @Test
    void everyPresetIsFoundByItsName() {
        for (Model m : Models.presets()) {
            assertThat(Models.byName(m.name())).isSameAs(m);
            assertThat(Models.byName(m.name().toLowerCase(java.util.Locale.ROOT).replace('-', '_')))
                    .isSameAs(m);
        }
        assertThat(Models.presets()).extracting(Model::name).doesNotHaveDuplicates();
    }
}
