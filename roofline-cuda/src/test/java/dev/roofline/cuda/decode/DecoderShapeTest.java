package dev.roofline.cuda.decode;

import dev.roofline.core.model.MixtureOfExperts;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.cuda.kernels.AttentionGeometry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DecoderShapeTest {

    @Test
    void llama3ShapesAreThePresetsDimensions() {
        DecoderShape s = DecoderShape.of(Models.LLAMA_3_8B);
        assertThat(s).isEqualTo(new DecoderShape(32, 4096, 32, 8, 128, 14336, 128256));
        // (32 + 2 x 8) x 128 outputs of the merged q/k/v product, 32 x 128 into o
        assertThat(s.qkvWidth()).isEqualTo(6144);
        assertThat(s.attentionWidth()).isEqualTo(4096);
    }

    @Test
    void modelsTheDecoderCannotRunAreRefusedByName() {
        assertThatThrownBy(() -> DecoderShape.of(Models.QWEN2_5_7B))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Qwen2.5-7B: the decoder has no q/k/v bias (the model has one)");
        assertThatThrownBy(() -> DecoderShape.of(Models.QWEN3_8B))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Qwen3-8B: the decoder has no per-head query and key norms (the model has them)");
        assertThatThrownBy(() -> DecoderShape.of(dev.roofline.core.model.Model.newBuilder("windowed")
                        .hiddenSize(256)
                        .layers(2)
                        .vocabSize(1000)
                        .attention(4, 2)
                        .swiGlu(512)
                        .slidingWindow(128, 1)
                        .build()))
                .hasMessage("windowed: the decoder attends to the whole context in every layer (the model has a"
                        + " 128-token window in 1 layers)");
        assertThatThrownBy(() -> DecoderShape.of(Models.DEEPSEEK_V3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("DeepSeek-V3: the decoder runs models with multi-head or grouped-query");
        assertThatThrownBy(() -> new DecoderShape(2, 256, 6, 4, 64, 512, 1000))
                .hasMessage("heads (6) must be a multiple of kvHeads (4)");
    }

    @Test
    void anExpertParallelShardIsRefused() {
        // Mixtral under EP 2: 4 experts held, the router still scoring all 8
        Model shard = Model.newBuilder("mixtral shard")
                .hiddenSize(4096)
                .layers(2)
                .vocabSize(32000)
                .attention(32, 8)
                .mixtureOfExperts(new MixtureOfExperts(4, 1, 14336, 0, 0, 0, false, false, 8))
                .build();
        assertThatThrownBy(() -> DecoderShape.of(shard))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holds 4 of the 8 its router scores");
    }

    @Test
    void mixtralIsEightExpertsOfWhichEachTokenRunsTwo() {
        DecoderShape s = DecoderShape.of(Models.MIXTRAL_8X7B);
        assertThat(s).isEqualTo(new DecoderShape(32, 4096, 32, 8, 128, 14336, 32000, 8, 2));
        assertThat(s.hasExperts()).isTrue();
        assertThat(DecoderShape.of(Models.LLAMA_3_8B).hasExperts()).isFalse();
    }

    @Test
    void expertsWithSharedOnesDenseLayersOrARouterBiasAreRefusedByName() {
        Model shared = Model.newBuilder("shared")
                .hiddenSize(256)
                .layers(2)
                .vocabSize(1000)
                .attention(4, 2)
                .mixtureOfExperts(new MixtureOfExperts(4, 2, 512, 1, 0, 0, false))
                .build();
        assertThatThrownBy(() -> DecoderShape.of(shared))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shared: the decoder runs Mixtral-style experts (every layer routed, no shared experts, no"
                        + " router bias); the model has 1 shared experts, 0 dense layers");
        Model biased = Model.newBuilder("biased")
                .hiddenSize(256)
                .layers(2)
                .vocabSize(1000)
                .attention(4, 2)
                .mixtureOfExperts(new MixtureOfExperts(4, 2, 512, 0, 1, 512, true))
                .build();
        assertThatThrownBy(() -> DecoderShape.of(biased))
                .hasMessageEndingWith("the model has 0 shared experts, 1 dense layers and a router bias");
    }

    @Test
    void aTopKOutsideTheExpertsIsRefused() {
        assertThatThrownBy(() -> new DecoderShape(2, 256, 4, 2, 64, 512, 1000, 4, 5))
                .hasMessage("topK must be in [1, experts = 4], got 5");
        assertThatThrownBy(() -> new DecoderShape(2, 256, 4, 2, 64, 512, 1000, 0, 2))
                .hasMessage("experts must be positive, got 0");
    }

    @Test
    void aQRowStrideTheSixteenByteLoadsCannotReadIsRefused() {
        assertThat(AttentionGeometry.mergedQkv(2, 32, 8, 128, 1024).qRowStride())
                .isEqualTo(6144);
        assertThatThrownBy(() -> new AttentionGeometry(2, 4, 2, 64, 16, 260))
                .hasMessageContaining("qRowStride must be a multiple of 8 halves")
                .hasMessageContaining("260");
        assertThatThrownBy(() -> new AttentionGeometry(2, 4, 2, 64, 16, 248))
                .hasMessageContaining("at least heads x headDim = 256");
    }

    @Test
    void aTensorParallelShardSplitsHeadsColumnsAndVocabulary() {
        // Llama-3-8B over 4 GPUs: 32/4 heads, 8/4 KV heads, 14336/4 MLP columns, 128256/4 vocabulary; layers and hidden
        // whole
        DecoderShape llama = new DecoderShape(32, 4096, 32, 8, 128, 14336, 128256);
        assertThat(llama.shard(4)).isEqualTo(new DecoderShape(32, 4096, 8, 2, 128, 3584, 32064));
        assertThat(llama.shard(1)).isEqualTo(llama);
    }

    @Test
    void aShardThatDoesNotDivideIsRefusedByName() {
        DecoderShape s = new DecoderShape(2, 256, 4, 2, 64, 512, 1000);
        assertThatThrownBy(() -> s.shard(3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tensor parallelism 3 must divide heads (4) for every GPU to hold an equal part");
        assertThatThrownBy(() -> new DecoderShape(2, 256, 4, 2, 64, 512, 999).shard(2))
                .hasMessageContaining("divide vocab (999)");
        // 4 GPUs over 2 KV heads: one KV head each, replicated over 2 GPUs; 3 KV heads over 2 cannot be whole
        assertThat(s.shard(4)).isEqualTo(new DecoderShape(2, 256, 1, 1, 64, 128, 250));
        assertThatThrownBy(() -> new DecoderShape(2, 256, 6, 3, 64, 512, 1000).shard(2))
                .hasMessageContaining("must divide kvHeads (3)");
        assertThatThrownBy(() -> new DecoderShape(2, 256, 12, 3, 64, 512, 1200).shard(4))
                .hasMessage("tensor parallelism 4 must be a multiple of kvHeads (3) for each GPU to hold one whole KV"
                        + " head");
        assertThatThrownBy(() -> s.shard(0)).hasMessage("tensor parallelism must be >= 1, got 0");
        assertThatThrownBy(() -> new DecoderShape(2, 256, 4, 2, 64, 512, 1000, 8, 2).shard(2))
                .hasMessageContaining("dense shapes only; this one has 8 experts");
    }

    @Test
    void aSoftCappedModelIsRefusedByName() {
        Model capped = Model.newBuilder("capped")
                .hiddenSize(256)
                .layers(2)
                .vocabSize(1000)
                .attention(4, 2)
                .swiGlu(512)
                .softCapping(new dev.roofline.core.model.SoftCapping(50, 30))
                .build();
        assertThatThrownBy(() -> DecoderShape.of(capped))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("capped: the decoder does not soft-cap scores or logits (the model does)");
    }
}
