package dev.roofline.core.parallel;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class ServingSearchTest {

    /** A setup that serves at {@code tpot} seconds a token and {@code perGpu} tokens/s a GPU (one GPU). */
    static ServingPrediction setup(double tpot, double perGpu) {
        return new ServingPrediction(
                Models.LLAMA_3_8B,
                Hardware.H100_SXM,
                Deployment.single(),
                Precision.FP16,
                1,
                1,
                1,
                0,
                tpot,
                tpot,
                perGpu,
                0,
                0,
                1,
                1);
    }

    @Test
    void theParetoSetKeepsWhatNothingBeatsOnBothAxes() {
        ServingPrediction fast = setup(0.010, 100);
        ServingPrediction slowButBusy = setup(0.030, 900);
        ServingPrediction dominated = setup(0.020, 90); // slower than fast and not busier
        ServingPrediction middle = setup(0.020, 400);
        assertThat(ServingSearch.pareto(List.of(slowButBusy, dominated, middle, fast)))
                .containsExactly(fast, middle, slowButBusy);
    }

    @Test
    void llama70bOnEightH100sMeetsItsTargetsWithAParetoSetAndAWinner() {
        double ttft = 2.0, tpot = 0.050;
        ServingSearch.Result r = ServingSearch.run(
                Models.LLAMA_3_70B,
                Hardware.H100_SXM,
                Interconnect.NVLINK_4,
                8,
                2048,
                256,
                ttft,
                tpot,
                List.of(Precision.FP16, Precision.FP8_E4M3));
        assertThat(r.tried()).isGreaterThan(20);
        assertThat(r.pareto()).isNotEmpty().allSatisfy(s -> {
            assertThat(s.ttftSeconds()).isLessThanOrEqualTo(ttft);
            assertThat(s.tpotSeconds()).isLessThanOrEqualTo(tpot);
            assertThat(s.fits()).isTrue();
            assertThat(s.deployment().gpus()).isEqualTo(8);
        });
        for (int i = 1; i < r.pareto().size(); i++) {
            // along the front a slower token buys more throughput per GPU
            assertThat(r.pareto().get(i).tpotSeconds())
                    .isGreaterThanOrEqualTo(r.pareto().get(i - 1).tpotSeconds());
            assertThat(r.pareto().get(i).tokensPerSecondPerGpu())
                    .isGreaterThan(r.pareto().get(i - 1).tokensPerSecondPerGpu());
        }
        assertThat(r.winner()).isEqualTo(r.pareto().getLast());
    }

    @Test
    void replicasServeAModelThatFitsFewerGpusThanTheSearchHas() {
        // Llama-3-8B on 8 H100s: one or two GPUs hold it, so the most tokens per GPU come from several replicas of a
        // small split (data parallel), each priced as that split alone; no 8-GPU tensor-parallel split beats them
        ServingSearch.Result r = ServingSearch.run(
                Models.LLAMA_3_8B,
                Hardware.H100_SXM,
                Interconnect.NVLINK_4,
                8,
                512,
                128,
                2.0,
                0.100,
                List.of(Precision.FP16));
        Deployment best = r.winner().deployment();
        assertThat(best.dataParallel()).isGreaterThan(1);
        assertThat(best.gpus()).isEqualTo(8);
        Deployment one = new Deployment(
                best.tensorParallel(), best.pipelineParallel(), best.expertParallel(), 1, 1, best.link(), false);
        ServingPrediction alone = Serving.predict(
                Models.LLAMA_3_8B,
                Hardware.H100_SXM,
                one,
                Workload.decode(1, 1).withWeights(Precision.FP16),
                512,
                128,
                r.winner().concurrency());
        assertThat(r.winner().tpotSeconds()).isEqualTo(alone.tpotSeconds());
        assertThat(r.winner().tokensPerSecond()).isCloseTo(best.dataParallel() * alone.tokensPerSecond(), within(1e-6));
        assertThat(r.winner().tokensPerSecondPerGpu()).isCloseTo(alone.tokensPerSecondPerGpu(), within(1e-9));
        assertThat(r.pareto()).allSatisfy(s -> assertThat(s.deployment().gpus()).isEqualTo(8));
    }

    @Test
    void targetsNothingMeetsLeaveNoWinner() {
        ServingSearch.Result r = ServingSearch.run(
                Models.LLAMA_3_8B,
                Hardware.H100_SXM,
                Interconnect.NVLINK_4,
                2,
                512,
                64,
                1.0,
                1e-6,
                List.of(Precision.FP16));
        assertThat(r.pareto()).isEmpty();
        assertThat(r.winner()).isNull();
        assertThatThrownBy(() -> ServingSearch.run(
                        Models.LLAMA_3_8B,
                        Hardware.H100_SXM,
                        Interconnect.NVLINK_4,
                        2,
                        512,
                        64,
                        0,
                        1,
                        List.of(Precision.FP16)))
                .hasMessageStartingWith("the targets must be positive");
        assertThatThrownBy(() -> ServingSearch.run(
                        Models.LLAMA_3_8B, Hardware.H100_SXM, Interconnect.NVLINK_4, 2, 512, 64, 1, 1, List.of()))
                .hasMessage("weights must name at least one precision");
    }
}
