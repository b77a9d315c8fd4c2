package dev.roofline.cuda.kernels;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How the attention cuts the context, worked out by hand, and which kernels it launches; no GPU needed. */
class DecodeKernelsTest {

    @Test
    void everyDecodeKernelIsInTheFatbinOncePerCacheType() {
        // 6 kernels of FP16 activations only, then per cache type (f16, bf16, e4m3) one RoPE + append and 2 head
        // sizes x 4 group sizes of the attention's first pass: 6 + 3 x 9 = 33
        String image = new String(GemvKernels.embeddedFatbin(), java.nio.charset.StandardCharsets.ISO_8859_1);
        // the missing names, not the image, in a failure message: the image runs to megabytes
        assertThat(DecodeKernels.kernelNames()).hasSize(33).doesNotHaveDuplicates();
        assertThat(DecodeKernels.kernelNames().stream()
                        .filter(name -> !image.contains(name + "\0"))
                        .toList())
                .as("kernels the fatbin lacks")
                .isEmpty();
        assertThat(DecodeKernels.kernelNames())
                .contains(
                        "decode_rope_append_e4m3",
                        "decode_attention_split_d128_q4_bf16",
                        "decode_attention_split_d64_q8_e4m3");
    }

    @Test
    void longContextsTakeTheLargestChunk() {
        // 1 row x 8 KV heads x ceil(32768 / 256) = 1024 blocks >= 528
        assertThat(DecodeKernels.attentionChunk(1, 8, 32_768)).isEqualTo(256);
        assertThat(DecodeKernels.attentionSplits(1, 8, 32_768)).isEqualTo(128);
        // 32 x 8 x ceil(1024 / 256) = 1024 blocks
        assertThat(DecodeKernels.attentionChunk(32, 8, 1024)).isEqualTo(256);
    }

    @Test
    void shortContextsAreCutFinerDownTo32Tokens() {
        // 1 x 8 x ceil(8192 / 256) = 256 < 528; at 128: 512 < 528; at 64: 1024
        assertThat(DecodeKernels.attentionChunk(1, 8, 8192)).isEqualTo(64);
        // 1 x 8 x ceil(1024 / 32) = 256 blocks, still short of 528, but 32 is the floor
        assertThat(DecodeKernels.attentionChunk(1, 8, 1024)).isEqualTo(32);
        assertThat(DecodeKernels.attentionChunk(1, 8, 1)).isEqualTo(32);
    }

    @Test
    void theWorkspaceHoldsAMaxASumAndARowPerSplitAndHead() {
        // 2 rows x 32 heads x ceil(8192 / 128) = 64 splits (2 x 8 x 64 = 1024 blocks) x (128 + 2) floats x 4 B
        assertThat(DecodeKernels.attentionSplits(2, 8, 8192)).isEqualTo(64);
        assertThat(DecodeKernels.attentionWorkspaceBytes(2, 32, 8, 128, 8192)).isEqualTo(2L * 32 * 64 * 130 * 4);
        // 1 x 1 head x ceil(33 / 32) = 2 splits: max and sum 16 B (already aligned) + 2 x 64 floats
        assertThat(DecodeKernels.attentionWorkspaceBytes(1, 1, 1, 64, 33)).isEqualTo(16 + 2 * 64 * 4);
        // 1 x 3 heads x 1 split: max and sum 24 B rounded up to 32, then 3 x 64 floats
        assertThat(DecodeKernels.attentionWorkspaceBytes(1, 3, 3, 64, 20)).isEqualTo(32 + 3 * 64 * 4);
    }

    @Test
    void theWorkspaceForACapacityServesTheShorterRowsThatMakeMoreSplits() {
        // batch 1, 8 KV heads: up to 4160 tokens 8 x ceil(L / 64) < 528 keeps the chunk at 32, so 4160 tokens make
        // ceil(4160 / 32) = 130 splits; from 4161 the chunk is 64 (66 splits), and at 8192 still 64: 128 splits
        assertThat(DecodeKernels.attentionSplits(1, 8, 4160)).isEqualTo(130);
        assertThat(DecodeKernels.attentionSplits(1, 8, 8192)).isEqualTo(128);
        assertThat(DecodeKernels.maxAttentionSplits(1, 8, 8192)).isEqualTo(130);
        // 32 heads x 130 splits = 4160 partials: 8 x 4160 = 33,280 B of max and sum + 4160 x 128 x 4 B = 2,163,200 B
        assertThat(DecodeKernels.attentionWorkspaceBytes(1, 32, 8, 128, 8192)).isEqualTo(2_163_200L);
    }

    @Test
    void nonPositiveSizesAreNamed() {
        assertThatThrownBy(() -> DecodeKernels.attentionChunk(1, 0, 10)).hasMessage("kvHeads must be positive, got 0");
    }
}
