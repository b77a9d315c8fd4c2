package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Models;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.cuda.decode.DecoderOperator;
import dev.roofline.cuda.decode.DecoderShape;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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
    void mixtralHoldsEveryExpertAndReadsTheTwoABatchOfOnePicks() {
        // per layer: q 4096x4096, k and v 1024x4096, o 4096x4096 = 83,886,080 B; router 8x4096 = 65,536 B; one
        // expert's gate+up 28672x4096 and down 4096x14336 = 352,321,536 B; lm_head 32000 x 4096 = 262,144,000 B (2 B
        // each). Held: 32 x (83,886,080 + 65,536 + 8 x 352,321,536) + 262,144,000 = 93,142,908,928 B
        DecoderShape mixtral = DecoderShape.of(Models.MIXTRAL_8X7B);
        assertThat(DecodeStepBenchmark.weightBytes(mixtral, WeightFormat.FP16)).isEqualTo(93_142_908_928L);
        // batch 1 reads its 2 experts: 32 x (83,951,616 + 2 x 352,321,536) + 262,144,000 = 25,497,174,016 B
        assertThat(DecodeStepBenchmark.stepWeightBytes(mixtral, WeightFormat.FP16, 1))
                .isEqualTo(25_497_174_016L);
        // batch 4 reads the 8 x (1 - (6/8)^4) = 5.46875 experts expected: + 3.46875 x 32 x 352,321,536 B
        assertThat(DecodeStepBenchmark.stepWeightBytes(mixtral, WeightFormat.FP16, 4))
                .isEqualTo(25_497_174_016L + 39_107_690_496L);
    }

    @Test
    void aMixturesResultSaysHowManyExpertsItsStepReadBesideThePredictions() {
        ModelPrediction p = Transformer.of(Models.MIXTRAL_8X7B, Hardware.H200)
                .predict(DecodeStepBenchmark.workload(WeightFormat.FP16, 4, 1024));
        DecodeStepResult r = new DecodeStepResult(
                "Mixtral-8x7B",
                new DecodeStepBenchmark.Config(WeightFormat.FP16, 4, 1024, KernelLaunch.PROGRAMMATIC),
                1e-3,
                p,
                p,
                1,
                1,
                List.of(),
                Optional.empty(),
                null,
                5.25);
        // 4 tokens x top 2 of 8: 8 x (1 - (6/8)^4) = 5.46875 expected
        assertThat(r.toString()).contains("; 5.25 experts read per layer (the prediction assumes 5.47)");
    }

    @Test
    void eachOperatorAndTheStepStandBesideTheirReadFloors() {
        // q/k/v measured 350 us against reads of its bytes taking 250 us; o 200 us against 160 us, and in the step
        // 180 us against its reads' 120 us in the floor; the rest not profiled; the step 2700 us against a read floor
        // of 2200 us
        List<DecodeStepResult.OperatorTiming> ops = List.of(
                new DecodeStepResult.OperatorTiming(DecoderOperator.QKV_PROJ, 32, 1e-4, 1e-4, 350e-6, 250e-6),
                new DecodeStepResult.OperatorTiming(
                        DecoderOperator.O_PROJ, 32, 1e-4, 1e-4, 200e-6, 160e-6, 180e-6, 120e-6));
        DecodeStepResult r = fp8Step(ops, 322);
        List<DecodeStepReport.Row> rows = DecodeStepReport.rows(r);
        assertThat(rows)
                .extracting(DecodeStepReport.Row::operator)
                .containsExactly("qkv_proj", "o_proj", "sum of operators", "step (graph)");
        // 350 / 250 = 1.40x, 200 / 160 = 1.25x; their sum 550 us over 410 us; the step 2700 / 2200 = 1.227x
        assertThat(rows.get(0).timesReadFloor()).isCloseTo(1.4, within(1e-12));
        assertThat(rows.get(1).timesReadFloor()).isCloseTo(1.25, within(1e-12));
        assertThat(rows.get(2).readFloorSeconds()).isCloseTo(410e-6, within(1e-15));
        assertThat(rows.get(3).timesReadFloor()).isCloseTo(2700.0 / 2200, within(1e-12));
        // 180 / 120 = 1.50x in the step; q/k/v was not timed in the step
        assertThat(rows.get(1).inStepTimesFloor()).isCloseTo(1.5, within(1e-12));
        assertThat(rows.get(0).inStepTimesFloor()).isNull();
        assertThat(r.toString())
                .contains("; read floor 2200.0 us (322 launches, each reading its bytes), 81.5 % of it");
        String text = DecodeStepReport.render(
                new DecodeStepBenchmark.Results(
                        "NVIDIA H200",
                        new DeviceCeilings(
                                "H200",
                                java.time.LocalDate.of(2026, 11, 26),
                                4.3e12,
                                1.7e-6,
                                "test copy",
                                java.util.Map.of(),
                                "none",
                                java.util.Map.of()),
                        List.of(r)),
                ReportFormat.TEXT);
        assertThat(text)
                .contains("read floor us")
                .contains("vs floor")
                .contains("1.40x")
                .contains("1.23x")
                .contains("in step us")
                .contains("180.0")
                .contains("1.50x");
    }

    @Test
    void theOperatorsInTheStepSumBesideTheStep() {
        // in the step q/k/v adds 1500 us (its reads 1200 us to the floor) and o 1100 us (its reads 900 us): 2600 us
        // against a step of 2700 us is -3.7 %, their reads 2100 us; an operator with no launch of its own counts
        // nothing
        List<DecodeStepResult.OperatorTiming> ops = List.of(
                new DecodeStepResult.OperatorTiming(
                        DecoderOperator.QKV_PROJ, 32, 1e-4, 1e-4, 1600e-6, 1250e-6, 1500e-6, 1200e-6),
                new DecodeStepResult.OperatorTiming(DecoderOperator.ROPE_APPEND, 0, 1e-7, 1e-7, 0),
                new DecodeStepResult.OperatorTiming(
                        DecoderOperator.O_PROJ, 32, 1e-4, 1e-4, 1200e-6, 950e-6, 1100e-6, 900e-6));
        DecodeStepResult r = fp8Step(ops, 64);
        assertThat(r.inStepSeconds()).isCloseTo(2600e-6, within(1e-15));
        assertThat(r.inStepFloorSeconds()).isCloseTo(2100e-6, within(1e-15));
        DecodeStepReport.Row sum = DecodeStepReport.rows(r).get(3);
        assertThat(sum.operator()).isEqualTo("sum of operators");
        assertThat(sum.inStepTimesFloor()).isCloseTo(2600.0 / 2100, within(1e-12));
        assertThat(r.toString()).contains("; its operators in the step sum to 2600.0 us (-3.7 %)");
    }

    /** Llama-3-8B FP8 at batch 1 × 1k: a step of 2700 us with {@code ops}, {@code launches} and a read floor of 2200 us. */
    private static DecodeStepResult fp8Step(List<DecodeStepResult.OperatorTiming> ops, int launches) {
        ModelPrediction p = Transformer.of(Models.LLAMA_3_8B, Hardware.H200)
                .predict(DecodeStepBenchmark.workload(WeightFormat.FP8_E4M3, 1, 1024));
        return new DecodeStepResult(
                "Llama-3-8B",
                new DecodeStepBenchmark.Config(WeightFormat.FP8_E4M3, 1, 1024, KernelLaunch.PROGRAMMATIC),
                2700e-6,
                p,
                p,
                1,
                1,
                ops,
                Optional.empty(),
                null,
                Double.NaN,
                launches,
                2200e-6);
    }

    @Test
    void benchmarkRowsDifferFromSequenceToSequence() {
        short[] rows = DecodeStepBenchmark.distinctRows(3, 8);
        assertThat(java.util.Arrays.copyOfRange(rows, 0, 8))
                .isNotEqualTo(java.util.Arrays.copyOfRange(rows, 8, 16))
                .isNotEqualTo(java.util.Arrays.copyOfRange(rows, 16, 24));
    }

    @Test
    void llama3KvBytesAreBothCachesOfEveryLayer() {
        // K and V x 32 layers x batch 8 x 1024 tokens x 8 KV heads x 128 x 2 B = 1,073,741,824 B
        assertThat(DecodeStepBenchmark.kvBytes(DecoderShape.of(Models.LLAMA_3_8B), 8, 1024))
                .isEqualTo(1_073_741_824L);
    }
}
