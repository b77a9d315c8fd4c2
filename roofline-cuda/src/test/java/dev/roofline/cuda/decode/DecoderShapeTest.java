package dev.roofline.cuda.decode;

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
        assertThatThrownBy(() -> DecoderShape.of(Models.MIXTRAL_8X7B))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Mixtral-8x7B: the decoder runs dense models");
        assertThatThrownBy(() -> new DecoderShape(2, 256, 6, 4, 64, 512, 1000))
                .hasMessage("heads (6) must be a multiple of kvHeads (4)");
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
}
