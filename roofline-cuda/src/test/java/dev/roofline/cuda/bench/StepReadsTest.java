package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Models;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.cuda.decode.DecoderOperator;
import dev.roofline.cuda.decode.DecoderShape;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.ToIntFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The read floor's reads for Llama-3-8B, against the decoder's launch order and the weights' bytes by hand. */
class StepReadsTest {
    private static final DecoderShape LLAMA = DecoderShape.of(Models.LLAMA_3_8B);

    private static ModelPrediction predict(WeightFormat f, int batch, int context) {
        return Transformer.of(Models.LLAMA_3_8B, Hardware.H200)
                .predict(DecodeStepBenchmark.workload(f, batch, context));
    }

    /** A step without fusions: every operator as {@link DecoderOperator#launches(int)} counts it. */
    private static final ToIntFunction<DecoderOperator> UNFUSED = o -> o.launches(32);
    /** The FP16 batch-1 step: one norm launch (layer 0's input) and RoPE inside the q/k/v product. */
    private static final ToIntFunction<DecoderOperator> FUSED = o -> o.launches(32, true, true);
    /** Every launch as the step's launch mode says. */
    private static final StepReads.StreamOrder NONE_IN_ORDER = (o, launch) -> false;

    @Test
    void anUnfusedStepReadsOncePerLaunchInTheDecodersOrder() {
        StepReads r = StepReads.of(LLAMA, predict(WeightFormat.FP8_E4M3, 1, 1024), UNFUSED, 1 << 20, NONE_IN_ORDER);
        // 10 launches a layer (2 norms, q/k/v, RoPE, split, merge, o, gate/up, SiLU, down), the final norm, lm_head
        assertThat(r.reads()).hasSize(32 * 10 + 2);
        assertThat(r.reads().subList(0, 10).stream().map(StepReads.Read::operator))
                .containsExactly(
                        DecoderOperator.ADD_RMSNORM,
                        DecoderOperator.QKV_PROJ,
                        DecoderOperator.ROPE_APPEND,
                        DecoderOperator.ATTENTION,
                        DecoderOperator.ATTENTION,
                        DecoderOperator.O_PROJ,
                        DecoderOperator.ADD_RMSNORM,
                        DecoderOperator.GATE_UP_PROJ,
                        DecoderOperator.SILU_MUL,
                        DecoderOperator.DOWN_PROJ);
        assertThat(r.reads().subList(320, 322).stream().map(StepReads.Read::operator))
                .containsExactly(DecoderOperator.ADD_RMSNORM, DecoderOperator.LM_HEAD);
        // from DRAM: the four products and the split pass of each layer, and lm_head
        assertThat(r.reads().stream().filter(StepReads.Read::fromDram)).hasSize(32 * 5 + 1);
    }

    @Test
    void aFusedStepLeavesOutTheLaunchesItsProductsTookIn() {
        StepReads r = StepReads.of(LLAMA, predict(WeightFormat.FP16, 1, 1024), FUSED, 1 << 20, NONE_IN_ORDER);
        // 7 launches a layer, layer 0's input norm, lm_head: the decoder's 226
        assertThat(r.reads()).hasSize(32 * 7 + 2);
        assertThat(r.reads().get(0).operator()).isEqualTo(DecoderOperator.ADD_RMSNORM);
        assertThat(r.reads().get(1).operator()).isEqualTo(DecoderOperator.QKV_PROJ);
        assertThat(r.reads().stream().filter(x -> x.operator() == DecoderOperator.ROPE_APPEND))
                .isEmpty();
    }

    @Test
    void aNormRunAloneReadsOneNormsBytes() {
        StepReads fused = StepReads.of(LLAMA, predict(WeightFormat.FP16, 1, 1024), FUSED, 1 << 20, NONE_IN_ORDER);
        StepReads unfused = StepReads.of(LLAMA, predict(WeightFormat.FP16, 1, 1024), UNFUSED, 1 << 20, NONE_IN_ORDER);
        // layer 0's input norm reads a residual row, a delta row and the weights, writes a row: at batch 1 a few
        // 8 KiB rows of 4096 FP16 values, the same whether the other 64 norms run in the products or not
        assertThat(fused.reads().getFirst().bytes())
                .isEqualTo(unfused.reads().getFirst().bytes())
                .isBetween(4L * 8192, 8L * 8192);
    }

    @Test
    void theLaunchesTheStepMakesInStreamOrderAreMarked() {
        // the merge (launch 1 of the attention) and the four products of tiled 4-bit weights, as a decoder of them
        // says (lm_head stays FP16)
        java.util.Set<DecoderOperator> products = java.util.Set.of(
                DecoderOperator.QKV_PROJ,
                DecoderOperator.O_PROJ,
                DecoderOperator.GATE_UP_PROJ,
                DecoderOperator.DOWN_PROJ);
        StepReads.StreamOrder order =
                (o, launch) -> (o == DecoderOperator.ATTENTION && launch == 1) || products.contains(o);
        StepReads r = StepReads.of(LLAMA, predict(WeightFormat.NVFP4, 1, 1024), UNFUSED, 1 << 20, order);
        // norm, q/k/v, RoPE, split, merge, o, norm, gate/up, SiLU, down
        assertThat(r.reads().subList(0, 10).stream().map(StepReads.Read::inStreamOrder))
                .containsExactly(false, true, false, false, true, true, false, true, false, true);
        // 32 merges and 4 x 32 products
        assertThat(r.reads().stream().filter(StepReads.Read::inStreamOrder)).hasSize(160);
    }

    @Test
    void eachDramReadHasItsOwnAlignedRangeOfItsOperatorsBytes() {
        StepReads r = StepReads.of(LLAMA, predict(WeightFormat.FP8_E4M3, 1, 1024), UNFUSED, 1 << 20, NONE_IN_ORDER);
        List<StepReads.Read> dram =
                r.reads().stream().filter(StepReads.Read::fromDram).toList();
        long end = 0;
        for (StepReads.Read d : dram) {
            assertThat(d.offset()).isEqualTo(end);
            end = d.offset() + Math.ceilDiv(d.bytes(), 256) * 256;
        }
        assertThat(r.extent()).isEqualTo(end);
        // FP8 o_proj: 4096 x 4096 weights of 1 byte (16,777,216 B) plus its activations, a few KiB at batch 1
        StepReads.Read o = dram.get(2);
        assertThat(o.operator()).isEqualTo(DecoderOperator.O_PROJ);
        assertThat(o.bytes()).isBetween(16_777_216L, 16_777_216L + 65_536);
        // the split pass reads its layer's K and V: 2 x 1024 tokens x 8 KV heads x 128 x 2 B = 4,194,304 B
        StepReads.Read split = dram.get(1);
        assertThat(split.operator()).isEqualTo(DecoderOperator.ATTENTION);
        assertThat(split.bytes()).isBetween(4_194_304L, 4_194_304L + 65_536);
        // lm_head in FP16: 128256 x 4096 x 2 B = 1,050,673,152 B
        assertThat(dram.getLast().bytes()).isBetween(1_050_673_152L, 1_050_673_152L + 1_048_576);
    }

    @Test
    void anL2ReadReReadsTheEndOfTheDramReadBeforeIt() {
        StepReads r = StepReads.of(LLAMA, predict(WeightFormat.FP8_E4M3, 1, 1024), UNFUSED, 1 << 20, NONE_IN_ORDER);
        StepReads.Read split = r.reads().get(3);
        StepReads.Read merge = r.reads().get(4);
        assertThat(merge.fromDram()).isFalse();
        assertThat(merge.bytes()).isEqualTo(1 << 20);
        // inside the split's range, ending within the 15 bytes a 16-byte word can round past it
        assertThat(merge.offset()).isGreaterThanOrEqualTo(split.offset()).isEqualTo(merge.offset() / 16 * 16);
        assertThat(merge.offset() + Math.ceilDiv(merge.bytes(), 16) * 16)
                .isBetween(split.offset() + split.bytes(), split.offset() + split.bytes() + 15);
        // the first launch, layer 0's norm, re-reads the end of the step's last DRAM read (lm_head's)
        StepReads.Read lmHead = r.reads().getLast();
        StepReads.Read first = r.reads().getFirst();
        assertThat(first.offset() + first.bytes())
                .isBetween(lmHead.offset() + lmHead.bytes() - 15, lmHead.offset() + lmHead.bytes());
        // a merge larger than the split before it reads the split's range, no more
        StepReads big = StepReads.of(LLAMA, predict(WeightFormat.FP8_E4M3, 1, 1024), UNFUSED, 1L << 30, NONE_IN_ORDER);
        assertThat(big.reads().get(4).offset()).isEqualTo(big.reads().get(3).offset());
        assertThat(big.reads().get(4).bytes()).isEqualTo(big.reads().get(3).bytes());
    }

    @Test
    void launchCountsNoDenseDecoderMakesAreRefused() {
        ToIntFunction<DecoderOperator> threeNorms = o -> o == DecoderOperator.ADD_RMSNORM ? 3 : o.launches(32);
        assertThatThrownBy(
                        () -> StepReads.of(LLAMA, predict(WeightFormat.FP16, 1, 1024), threeNorms, 1024, NONE_IN_ORDER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("launches 1 or 65 norms, got 3");
        ToIntFunction<DecoderOperator> oneAttention = o -> o == DecoderOperator.ATTENTION ? 32 : o.launches(32);
        assertThatThrownBy(() ->
                        StepReads.of(LLAMA, predict(WeightFormat.FP16, 1, 1024), oneAttention, 1024, NONE_IN_ORDER))
                .hasMessageContaining("attention 64 times, got 32");
        assertThatThrownBy(() -> StepReads.of(
                        DecoderShape.of(Models.MIXTRAL_8X7B),
                        Transformer.of(Models.MIXTRAL_8X7B, Hardware.H200)
                                .predict(DecodeStepBenchmark.workload(WeightFormat.FP16, 1, 1024)),
                        UNFUSED,
                        1024,
                        NONE_IN_ORDER))
                .hasMessageContaining("has experts");
    }
}
