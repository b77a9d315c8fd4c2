package dev.roofline.cuda.bench;

import dev.roofline.core.model.Models;
import dev.roofline.cuda.decode.DecoderShape;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DecodeStepBenchmarkTest {

    @Test
    void llama3With16BitWeightsReadsEveryLinearAndLmHeadOnce() {
        // per layer: q 4096x4096, k and v 1024x4096, o 4096x4096, gate+up 28672x4096, down 4096x14336, 2 B each
        // = 33,554,432 + 2 x 8,388,608 + 33,554,432 + 234,881,024 + 117,440,512 = 436,207,616 B; x 32 layers
        // = 13,958,643,712 B; lm_head 128256 x 4096 x 2 B = 1,050,673,152 B; total 15,009,316,864 B
        assertThat(DecodeStepBenchmark.weightBytes(DecoderShape.of(Models.LLAMA_3_8B), WeightFormat.FP16))
                .isEqualTo(15_009_316_864L);
    }

    @Test
    void llama3KvBytesAreBothCachesOfEveryLayer() {
        // K and V x 32 layers x batch 8 x 1024 tokens x 8 KV heads x 128 x 2 B = 1,073,741,824 B
        assertThat(DecodeStepBenchmark.kvBytes(DecoderShape.of(Models.LLAMA_3_8B), 8, 1024))
                .isEqualTo(1_073_741_824L);
    }
}
