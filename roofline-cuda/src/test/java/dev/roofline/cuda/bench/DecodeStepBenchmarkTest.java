package dev.roofline.cuda.bench;

import dev.roofline.core.model.Models;
import dev.roofline.core.model.MultiHeadAttention;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DecodeStepBenchmarkTest {

    @Test
    void llama3With16BitWeightsReadsEveryLinearAndLmHeadOnce() {
        // per layer: q 4096x4096, k and v 1024x4096, o 4096x4096, gate+up 28672x4096, down 4096x14336, 2 B each
        // = 33,554,432 + 2 x 8,388,608 + 33,554,432 + 234,881,024 + 117,440,512 = 436,207,616 B; x 32 layers
        // = 13,958,643,712 B; lm_head 128256 x 4096 x 2 B = 1,050,673,152 B; total 15,009,316,864 B
        MultiHeadAttention a = (MultiHeadAttention) Models.LLAMA_3_8B.attention();
        assertThat(DecodeStepBenchmark.weightBytes(Models.LLAMA_3_8B, a, 14_336, WeightFormat.FP16))
                .isEqualTo(15_009_316_864L);
    }
}
