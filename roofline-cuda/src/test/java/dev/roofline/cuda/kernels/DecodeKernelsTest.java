package dev.roofline.cuda.kernels;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How the attention cuts the context, worked out by hand, and which kernels it launches; no GPU needed. */
class DecodeKernelsTest {

    @Test
    void theLauncherNamesEveryDecodeKernelOncePerCacheType() {
        // 8 kernels of FP16 activations only (4 of them the merge: 2 head sizes x 2 column widths), then per cache type
        // (f16, bf16, e4m3) one RoPE + append, three q/k/v products with RoPE + append (FP16 weights, FP8 weights on
        // the CUDA cores and on the tensor cores) and 2 head sizes x 4 group sizes of the attention's first pass:
        // 8 + 3 x 12 = 44.
        // The fatbin's entries are compressed, so the names are checked where the library is loaded: DecodeKernels.load
        // looks every one up (DecodeKernelsIT)
        assertThat(DecodeKernels.kernelNames())
                .hasSize(44)
                .doesNotHaveDuplicates()
                .contains("decode_qkv_rope_append_f16", "decode_qkv_rope_append_bf16", "decode_qkv_rope_append_e4m3")
                .contains("decode_qkv_rope_append_fp8_f16", "decode_qkv_rope_append_fp8_tc_e4m3");
        assertThat(DecodeKernels.kernelNames())
                .contains(
                        "decode_rope_append_e4m3",
                        "decode_attention_split_d128_q4_bf16",
                        "decode_attention_split_d64_q8_e4m3");
        assertThat(DecodeKernels.kernelNames())
                .contains(
                        "decode_attention_merge_d64_c8",
                        "decode_attention_merge_d64_c16",
                        "decode_attention_merge_d128_c8",
                        "decode_attention_merge_d128_c16");
    }

    @Test
    void theMergeTakesSixteenColumnsAWarpUpToThirtyTwoSplitsAndEightAbove() {
        assertThat(DecodeKernels.attentionMergeKernel(128, 1)).isEqualTo("decode_attention_merge_d128_c16");
        assertThat(DecodeKernels.attentionMergeKernel(128, 32)).isEqualTo("decode_attention_merge_d128_c16");
        assertThat(DecodeKernels.attentionMergeKernel(128, 33)).isEqualTo("decode_attention_merge_d128_c8");
        assertThat(DecodeKernels.attentionMergeKernel(64, 74)).isEqualTo("decode_attention_merge_d64_c8");
        // 1 row x 32 heads at head size 128: 74 splits, 8 columns a warp, 16 warps a head, 512 warps in blocks of 4;
        // 10 splits, 16 columns, 8 warps a head, 256 warps
        assertThat(DecodeKernels.attentionMergeBlocks(32, 128, 74)).isEqualTo(128);
        assertThat(DecodeKernels.attentionMergeBlocks(32, 128, 10)).isEqualTo(64);
        // 3 rows x 1 head at head size 64: 4 warps a head at 16 columns (one block a head), 8 at 8 columns
        assertThat(DecodeKernels.attentionMergeBlocks(3, 64, 21)).isEqualTo(3);
        assertThat(DecodeKernels.attentionMergeBlocks(3, 64, 33)).isEqualTo(6);
        assertThatThrownBy(() -> DecodeKernels.attentionMergeColumns(0)).hasMessageContaining("splits");
        assertThatThrownBy(() -> DecodeKernels.attentionMergeBlocks(32, 96, 74)).hasMessageContaining("got 96");
    }

    // an H200 or H100: 132 SMs of 228 KiB shared memory (cudaDevAttrMaxSharedMemoryPerMultiprocessor), 5 resident
    // blocks each for groups of 4 query heads = 660 slots a wave
    private static final int SMS = 132;
    private static final int HOPPER_SHARED = 228 * 1024;
    // compute capability 12.x (GB10): 100 KiB of shared memory per SM
    private static final int SM12_SHARED = 100 * 1024;

    @Test
    void theMergeReadsEachHeadsPartialsOfTheStepsSplits() {
        // 1 row x 8 KV heads at 8192 tokens: 82 splits fill a wave of 660 (660 / 8), chunks of ceil(8192 / 82) = 100
        // rounded up to 112 tokens, so ceil(8192 / 112) = 74 splits; 32 heads x 74 = 2368 partials of a max and a sum
        // (8 B each, 18,944 B, a multiple of 16) and 128 FP32 outputs (1,212,416 B): 1,231,360 B
        assertThat(DecodeKernels.attentionPartialBytes(SMS, HOPPER_SHARED, 1, 32, 8, 128, 8192))
                .isEqualTo(1_231_360L)
                .isLessThanOrEqualTo(DecodeKernels.attentionWorkspaceBytes(SMS, HOPPER_SHARED, 1, 32, 8, 128, 8192));
    }

    @Test
    void longContextsOfLargeBatchesTakeTheLargestChunk() {
        // 32 rows x 8 KV heads x ceil(32768 / 512) = 16384 blocks: 25 waves of 660 hold 16500, 16500 / 256 KV rows =
        // 64 splits, which is the fewest already: chunk 512
        assertThat(DecodeKernels.attentionChunk(SMS, HOPPER_SHARED, 32, 32, 8, 32_768))
                .isEqualTo(512);
        assertThat(DecodeKernels.attentionSplits(SMS, HOPPER_SHARED, 32, 32, 8, 32_768))
                .isEqualTo(64);
    }

    @Test
    void theSplitsFillWholeWavesOfResidentBlocks() {
        // 1 x 8 KV heads, 8192 tokens: at least 16 splits (128 blocks, one wave); one wave holds 660 / 8 = 82 splits,
        // ceil(8192 / 82) = 100 tokens, rounded up to 112: ceil(8192 / 112) = 74 splits, 592 blocks
        assertThat(DecodeKernels.attentionChunk(SMS, HOPPER_SHARED, 1, 32, 8, 8192))
                .isEqualTo(112);
        assertThat(DecodeKernels.attentionSplits(SMS, HOPPER_SHARED, 1, 32, 8, 8192))
                .isEqualTo(74);
        // 32768 tokens: at least 64 splits, 512 blocks, one wave; 82 splits, ceil(32768 / 82) = 400 tokens (a multiple
        // of 16): 82 splits, 656 blocks
        assertThat(DecodeKernels.attentionChunk(SMS, HOPPER_SHARED, 1, 32, 8, 32_768))
                .isEqualTo(400);
        assertThat(DecodeKernels.attentionSplits(SMS, HOPPER_SHARED, 1, 32, 8, 32_768))
                .isEqualTo(82);
        // 131072 tokens: at least 256 splits, 2048 blocks, 4 waves of 660 hold 2640, 2640 / 8 = 330 splits,
        // ceil(131072 / 330) = 398 tokens, rounded up to 400: ceil(131072 / 400) = 328 splits
        assertThat(DecodeKernels.attentionSplits(SMS, HOPPER_SHARED, 1, 32, 8, 131_072))
                .isEqualTo(328);
        // 32 rows, 1024 tokens: 2 splits = 512 blocks, one wave; 660 / 256 = 2 splits: chunk 512
        assertThat(DecodeKernels.attentionChunk(SMS, HOPPER_SHARED, 32, 32, 8, 1024))
                .isEqualTo(512);
        // 32 rows, 8192 tokens: 16 splits = 4096 blocks, 7 waves of 660 hold 4620, 4620 / 256 = 18 splits,
        // ceil(8192 / 18) = 456 tokens, rounded up to 464: ceil(8192 / 464) = 18 splits
        assertThat(DecodeKernels.attentionChunk(SMS, HOPPER_SHARED, 32, 32, 8, 8192))
                .isEqualTo(464);
        assertThat(DecodeKernels.attentionSplits(SMS, HOPPER_SHARED, 32, 32, 8, 8192))
                .isEqualTo(18);
        // groups of 8 query heads: 3 blocks an SM, 396 slots, chunks of at most 256 tokens; 396 / 8 = 49 splits,
        // ceil(8192 / 49) = 168 -> 176
        assertThat(DecodeKernels.attentionChunk(SMS, HOPPER_SHARED, 1, 64, 8, 8192))
                .isEqualTo(176);
        // ... and at 32 rows x 32768 tokens the 256-token ceiling: 128 splits, 32768 blocks, 83 waves of 396 hold
        // 32868, 32868 / 256 = 128 splits
        assertThat(DecodeKernels.attentionChunk(SMS, HOPPER_SHARED, 32, 64, 8, 32_768))
                .isEqualTo(256);
        // a GPU of 48 SMs (240 slots): the fewest 16 splits make 128 blocks, one wave; 240 / 8 = 30 splits,
        // ceil(8192 / 30) = 274 -> 288 tokens, 29 splits, 232 blocks
        assertThat(DecodeKernels.attentionChunk(48, HOPPER_SHARED, 1, 32, 8, 8192))
                .isEqualTo(288);
        assertThat(DecodeKernels.attentionSplits(48, HOPPER_SHARED, 1, 32, 8, 8192))
                .isEqualTo(29);
    }

    @Test
    void shortContextsAreCutDownTo32Tokens() {
        // 1 x 8 KV heads x 1024 tokens: 82 splits would be 13 tokens (16 rounded), below the floor of 32
        assertThat(DecodeKernels.attentionChunk(SMS, HOPPER_SHARED, 1, 32, 8, 1024))
                .isEqualTo(32);
        assertThat(DecodeKernels.attentionSplits(SMS, HOPPER_SHARED, 1, 32, 8, 1024))
                .isEqualTo(32);
        assertThat(DecodeKernels.attentionChunk(SMS, HOPPER_SHARED, 1, 32, 8, 1))
                .isEqualTo(32);
    }

    @Test
    void theSplitPassFillsAtMostHalfAWaveUpTo41SplitsOf8KvHeads() {
        // 132 SMs x 5 blocks = 660 slots, half 330; batch 1, 8 KV heads, chunks of 32 tokens up to 2624 tokens:
        // 1024 tokens 32 splits (256 blocks), 1312 tokens 41 (328), 1313 tokens 42 (336), 2048 tokens 64 (512)
        assertThat(DecodeKernels.attentionSplitFillsHalfAWave(SMS, HOPPER_SHARED, 1, 32, 8, 1024))
                .isTrue();
        assertThat(DecodeKernels.attentionSplitFillsHalfAWave(SMS, HOPPER_SHARED, 1, 32, 8, 1312))
                .isTrue();
        assertThat(DecodeKernels.attentionSplitFillsHalfAWave(SMS, HOPPER_SHARED, 1, 32, 8, 1313))
                .isFalse();
        assertThat(DecodeKernels.attentionSplitFillsHalfAWave(SMS, HOPPER_SHARED, 1, 32, 8, 2048))
                .isFalse();
        // batch 8 x 1024: 64 KV rows, max(2, 660 / 64) = 10 splits, 640 blocks
        assertThat(DecodeKernels.attentionSplitFillsHalfAWave(SMS, HOPPER_SHARED, 8, 32, 8, 1024))
                .isFalse();
        // 100 KiB an SM (compute capability 12.x): 2 blocks an SM, 48 SMs = 96 slots; 1 x 8 x 6 splits = 48 blocks
        // at 192 tokens (chunk max(ceil(192 / 12), 32) = 32), 7 splits = 56 blocks at 224
        assertThat(DecodeKernels.attentionSplitFillsHalfAWave(48, SM12_SHARED, 1, 32, 8, 192))
                .isTrue();
        assertThat(DecodeKernels.attentionSplitFillsHalfAWave(48, SM12_SHARED, 1, 32, 8, 224))
                .isFalse();
    }

    @Test
    void theWorkspaceHoldsAMaxASumAndARowPerSplitAndHead() {
        // 1 x 1 head x ceil(33 / 32) = 2 splits: max and sum 16 B (already aligned) + 2 x 64 floats
        assertThat(DecodeKernels.attentionWorkspaceBytes(SMS, HOPPER_SHARED, 1, 1, 1, 64, 33))
                .isEqualTo(16 + 2 * 64 * 4);
        // 1 x 3 heads x 1 split: max and sum 24 B rounded up to 32, then 3 x 64 floats
        assertThat(DecodeKernels.attentionWorkspaceBytes(SMS, HOPPER_SHARED, 1, 3, 3, 64, 20))
                .isEqualTo(32 + 3 * 64 * 4);
    }

    @Test
    void theWorkspaceForACapacityServesTheShorterRowsThatMakeMoreSplits() {
        // batch 1, 8 KV heads: up to 2624 = 82 x 32 tokens the chunk is 32, so 2624 tokens make 82 splits; 2625 make
        // 55 (chunk ceil(2625 / 82) = 33 -> 48), and 8192 make 74; no length up to 8192 makes more than 82 (a length
        // of 82 x 16k splits into 82 chunks of 16k tokens, and the chunk never falls below L / 82)
        assertThat(DecodeKernels.attentionSplits(SMS, HOPPER_SHARED, 1, 32, 8, 2624))
                .isEqualTo(82);
        assertThat(DecodeKernels.attentionSplits(SMS, HOPPER_SHARED, 1, 32, 8, 2625))
                .isEqualTo(55);
        assertThat(DecodeKernels.maxAttentionSplits(SMS, HOPPER_SHARED, 1, 32, 8, 8192))
                .isEqualTo(82);
        // 32 heads x 82 splits = 2624 partials: 8 x 2624 = 20,992 B of max and sum + 2624 x 128 x 4 B = 1,343,488 B
        assertThat(DecodeKernels.attentionWorkspaceBytes(SMS, HOPPER_SHARED, 1, 32, 8, 128, 8192))
                .isEqualTo(1_364_480L);
    }

    @Test
    void aBlockTakesTheSharedMemoryPtxasReportsAndTheSmHoldsWhatItsSharedMemoryAndRegistersAllow() {
        // 32 KiB of tiles + 4 B x 4 heads x 512 tokens + 8 rows x 128 columns x 4 B + 2 x 4 warps x 4 heads x 4 B
        assertThat(DecodeKernels.attentionBlockSharedBytes(4))
                .isEqualTo(32768 + 8192 + 4096 + 128)
                .isEqualTo(45_184);
        // groups of 8: 256 tokens at most, 8 heads
        assertThat(DecodeKernels.attentionBlockSharedBytes(8))
                .isEqualTo(32768 + 8192 + 4096 + 256)
                .isEqualTo(45_312);
        // 228 KiB = 233,472 B over 45,184 + 1,024 reserved = 5.05: five blocks, as the registers allow
        assertThat(DecodeKernels.attentionBlocksPerSm(4, HOPPER_SHARED)).isEqualTo(5);
        // groups of 8: the registers hold 3, the shared memory 5
        assertThat(DecodeKernels.attentionBlocksPerSm(8, HOPPER_SHARED)).isEqualTo(3);
        // 100 KiB = 102,400 B over 46,208: two blocks, over 46,336: two
        assertThat(DecodeKernels.attentionBlocksPerSm(4, SM12_SHARED)).isEqualTo(2);
        assertThat(DecodeKernels.attentionBlocksPerSm(8, SM12_SHARED)).isEqualTo(2);
        // a block fits where one does not fit twice
        assertThat(DecodeKernels.attentionBlocksPerSm(4, 46_208)).isEqualTo(1);
        assertThat(DecodeKernels.attentionBlocksPerSm(4, 2 * 46_208 - 1)).isEqualTo(1);
    }

    @Test
    void theWavesOfAGpuWithLessSharedMemoryHoldTwoBlocksAnSm() {
        // 48 SMs of 100 KiB (GB10): 96 slots. 1 x 8 KV heads x 8192 tokens: the fewest 16 splits make 128 blocks, two
        // waves; 192 / 8 = 24 splits, ceil(8192 / 24) = 342 -> 352 tokens, 24 splits (23 x 352 = 8096 < 8192)
        assertThat(DecodeKernels.attentionChunk(48, SM12_SHARED, 1, 32, 8, 8192))
                .isEqualTo(352);
        assertThat(DecodeKernels.attentionSplits(48, SM12_SHARED, 1, 32, 8, 8192))
                .isEqualTo(24);
        // the same GPU sized as if it held 5 blocks an SM (240 slots, one wave) would take 288 tokens and 29 splits:
        // 232 blocks in 96 slots, a third wave of 40
        assertThat(DecodeKernels.attentionChunk(48, HOPPER_SHARED, 1, 32, 8, 8192))
                .isEqualTo(288);
    }

    @Test
    void nonPositiveSizesAreNamed() {
        assertThatThrownBy(() -> DecodeKernels.attentionChunk(SMS, HOPPER_SHARED, 1, 4, 0, 10))
                .hasMessage("kvHeads must be positive, got 0");
        assertThatThrownBy(() -> DecodeKernels.attentionChunk(0, HOPPER_SHARED, 1, 4, 4, 10))
                .hasMessage("smCount must be positive, got 0");
        assertThatThrownBy(() -> DecodeKernels.attentionChunk(SMS, 0, 1, 4, 4, 10))
                .hasMessage("sharedPerSm must be positive, got 0");
    }
}
