package dev.roofline.quant.recommend;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Workload;
import dev.roofline.quant.checkpoint.LinearSelector;
import dev.roofline.quant.checkpoint.TinyLlama;
import dev.roofline.quant.safetensors.ShardedCheckpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class PrecisionAdvisorTest {
    static final int N = 256, K = 512;

    static float[] weights() {
        Random r = new Random(21);
        float[] w = new float[N * K];
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) (r.nextGaussian() * 0.02 * (r.nextInt(300) == 0 ? 25 : 1));
        }
        return w;
    }

    @Test
    void picksTheFastestFormatThatMeetsTheBudget() {
        PrecisionAdvisor advisor =
                PrecisionAdvisor.on(Hardware.H100_SXM, Workload.decode(1, 4096)).minimumSqnrDb(15);
        LayerChoice c = advisor.choose("mlp.down_proj.weight", weights(), N, K);
        assertThat(c.sqnrDb()).isGreaterThanOrEqualTo(15);
        for (FormatError f : c.measured()) {
            if (f.error().sqnrDb() >= 15) {
                assertThat(f.timeMicros()).as(f.format().name()).isGreaterThanOrEqualTo(c.timeMicros());
            }
        }
        // decode on H100 is memory-bound: the time is the bytes over 3.35 TB/s (FP16 activations and output)
        long bytes = c.chosen().storageBytes(N, K) + 2L * K + 2L * N;
        assertThat(c.timeMicros()).isCloseTo(bytes / 3.35e12 * 1e6, within(1e-9));
        assertThat(c.fp16TimeMicros()).isCloseTo((2.0 * N * K + 2 * K + 2 * N) / 3.35e12 * 1e6, within(1e-9));
        assertThat(c.reason()).contains("fastest format at or above 15.0 dB");
    }

    @Test
    void int4IsPricedWithItsGroupScales() {
        // K = 512: the quantizer writes groups of 128, so INT4 stores 256*512/2 + 256*4 FP32 scales = 69,632 bytes, as
        // many as MXFP4 (256*512/2 + 256*16 E8M0 scales): neither is faster, 4.25 bits each
        LayerChoice c = PrecisionAdvisor.on(Hardware.H100_SXM, Workload.decode(1, 4096))
                .minimumSqnrDb(0)
                .compareWith(List.of(Precision.INT4, Precision.MXFP4))
                .choose("w", weights(), N, K);
        double expected = (65_536 + 4_096 + 2.0 * K + 2.0 * N) / 3.35e12 * 1e6;
        assertThat(c.measured())
                .extracting(FormatError::format)
                .containsExactly(Precision.FP8_E4M3, Precision.NVFP4, Precision.INT4, Precision.MXFP4);
        assertThat(c.measured().subList(2, 4))
                .allSatisfy(f -> assertThat(f.timeMicros()).isCloseTo(expected, within(1e-9)));
    }

    @Test
    void aStrictBudgetKeepsMoreBits() {
        PrecisionAdvisor loose =
                PrecisionAdvisor.on(Hardware.GB10, Workload.decode(1, 4096)).minimumSqnrDb(10);
        PrecisionAdvisor strict = loose.minimumSqnrDb(30);
        float[] w = weights();
        LayerChoice a = loose.choose("w", w, N, K);
        LayerChoice b = strict.choose("w", w, N, K);
        assertThat(a.chosen().effectiveBitsPerElement()).isLessThan(5);
        assertThat(b.chosen().effectiveBitsPerElement()).isGreaterThanOrEqualTo(8);
        assertThat(b.speedupVsFp16()).isLessThan(a.speedupVsFp16());
    }

    @Test
    void anUnreachableBudgetStaysFp16() {
        LayerChoice c = PrecisionAdvisor.on(Hardware.GB10, Workload.decode(1, 1))
                .minimumSqnrDb(120)
                .choose("w", weights(), N, K);
        assertThat(c.chosen()).isEqualTo(Precision.FP16);
        assertThat(c.speedupVsFp16()).isEqualTo(1.0);
        assertThat(c.reason()).contains("no candidate reached 120.0 dB");
    }

    @Test
    void advisesEveryLinearLayerOfACheckpointAndPrintsATable(@TempDir Path dir) throws IOException {
        Path model = dir.resolve("tiny");
        TinyLlama.write(model);
        List<String> lines = new ArrayList<>();
        try (ShardedCheckpoint ckpt = ShardedCheckpoint.open(model)) {
            List<LayerChoice> choices = PrecisionAdvisor.on(Hardware.GB10, Workload.decode(1, 4096))
                    .minimumSqnrDb(18)
                    .choose(ckpt, LinearSelector.defaults(), lines::add);
            assertThat(choices).hasSize(14);
            assertThat(lines).hasSize(14);
            String table = PrecisionAdvisor.table(choices);
            assertThat(table)
                    .contains("| model.layers.1.mlp.down_proj.weight | 64 x 128 |")
                    .contains("**all layers**");
        }
    }

    @Test
    void rejectsBadOptions() {
        PrecisionAdvisor a = PrecisionAdvisor.on(Hardware.GB10, Workload.decode(1, 1));
        assertThatThrownBy(() -> a.minimumSqnrDb(Double.NaN))
                .hasMessageContaining("minimumSqnrDb must be finite, got NaN");
        assertThatThrownBy(() -> a.candidates(List.of(Precision.TF32)))
                .hasMessageContaining("no weight quantizer for candidate TF32");
        assertThatThrownBy(() -> PrecisionAdvisor.on(null, Workload.decode(1, 1)))
                .hasMessageContaining("must not be null");
    }

    @Test
    void onlyFormatsQuantizeWritesAreRecommended() {
        // K = 512: INT4 g128 (4.25 bits) and NF4 (4.5 bits, FP32 absmax per 64) read no more bytes than NVFP4
        // (4.5 bits), and the old advisor chose them; quantize writes NVFP4 and FP8 only
        assertThat(PrecisionAdvisor.WRITABLE).containsExactly(Precision.FP8_E4M3, Precision.NVFP4);
        LayerChoice c = PrecisionAdvisor.on(Hardware.GB10, Workload.decode(1, 4096))
                .minimumSqnrDb(0)
                .compareWith(List.of(Precision.INT4, Precision.NF4))
                .choose("w", weights(), N, K);
        assertThat(c.chosen()).isEqualTo(Precision.NVFP4);
        FormatError int4 = c.measured().stream()
                .filter(f -> f.format() == Precision.INT4)
                .findFirst()
                .orElseThrow();
        assertThat(int4.timeMicros()).isLessThan(c.timeMicros());
        assertThatThrownBy(() -> PrecisionAdvisor.on(Hardware.GB10, Workload.decode(1, 1))
                        .candidates(List.of(Precision.NF4)))
                .hasMessageContaining("candidate NF4 cannot be recommended: quantize does not write it")
                .hasMessageContaining("it writes FP8 E4M3, NVFP4");
    }

    @Test
    void aCheckpointGetsOneFormatAsQuantizeWritesIt(@TempDir Path dir) throws IOException {
        Path model = dir.resolve("tiny");
        TinyLlama.write(model);
        try (ShardedCheckpoint ckpt = ShardedCheckpoint.open(model)) {
            // a per-layer choice could mix FP8 and NVFP4, which no single quantize run writes
            for (double budget : new double[] {0, 18, 25, 35}) {
                List<LayerChoice> choices = PrecisionAdvisor.on(Hardware.GB10, Workload.decode(1, 4096))
                        .minimumSqnrDb(budget)
                        .choose(ckpt, LinearSelector.defaults(), s -> {});
                assertThat(choices.stream()
                                .map(LayerChoice::chosen)
                                .filter(p -> p != Precision.FP16)
                                .distinct())
                        .as("budget " + budget)
                        .hasSizeLessThanOrEqualTo(1);
                assertThat(choices).allSatisfy(ch -> assertThat(ch.chosen())
                        .isIn(Precision.FP16, Precision.FP8_E4M3, Precision.NVFP4));
            }
        }
    }
}
