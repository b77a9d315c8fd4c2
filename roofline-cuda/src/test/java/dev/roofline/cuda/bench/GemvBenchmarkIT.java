package dev.roofline.cuda.bench;

import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The GEMV benchmark's API on a GPU, small: one shape, two formats, few samples. */
@RequiresGpu
class GemvBenchmarkIT {

    @Test
    void eachKernelIsTimedBesideCublasACopyAndItsPredictions() {
        GemvBenchmarkOptions o = GemvBenchmarkOptions.defaults()
                .withShapes(List.of(new GemvBenchmarkOptions.Shape(4096, 4096)))
                .withFormats(List.of(WeightFormat.FP16, WeightFormat.NVFP4))
                .withRepetitions(10)
                .withDecodeLayer(false);
        List<Measurement> seen = new ArrayList<>();
        GemvBenchmarkResults r = GemvBenchmark.run(Cuda.device(0), o, seen::add);
        System.out.print(r.render(ReportFormat.TEXT));
        assertThat(r.kernels()).extracting(Measurement::label).containsExactly("FP16", "NVFP4");
        assertThat(seen).hasSize(3); // the cuBLASLt baseline, then the two kernels
        for (Measurement m : r.kernels()) {
            assertThat(m.time().samples()).isEqualTo(10);
            assertThat(m.baseline()).isPresent();
            assertThat(m.datasheet()).isPresent();
            // no kernel streams its bytes faster than the device copies them, give or take timing noise
            assertThat(m.percentOfCopy().getAsDouble()).isBetween(5.0, 130.0);
            assertThat(m.prediction().latencySeconds()).isEqualTo(r.ceilings().kernelLatencySeconds());
        }
        // the 4-bit weights are a quarter of FP16's bytes: the NVFP4 kernel is faster
        assertThat(r.kernels().get(1).time().medianMicros())
                .isLessThan(r.kernels().get(0).time().medianMicros());
        assertThat(r.render(ReportFormat.CSV).lines()).hasSize(3);
        assertThat(r.decodeLayer()).isEmpty();
    }
}
