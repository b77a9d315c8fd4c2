package dev.roofline.core.report;

import dev.roofline.core.hardware.Ceiling;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Source;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Elementwise;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.OperatorTime;
import dev.roofline.core.transformer.Step;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Measured operators drawn as hollow circles beside their predictions, and a measured bandwidth labelled so. */
class MeasuredOverlayTest {

    /** 1 TB/s, FP16 100 TFLOPS (ridge 100), FP32 10 TFLOPS. */
    static final Hardware GPU = Hardware.newBuilder("test-gpu")
            .memoryBandwidth(1e12, Source.user("test"))
            .ceiling(Precision.FP16, 1e14, Ceiling.Unit.TENSOR_CORE, Source.user("test"))
            .ceiling(Precision.FP32, 1e13, Ceiling.Unit.CUDA_CORE, Source.user("test"))
            .build();

    /** One step: 1e10 FLOPs over 1e9 bytes (10 FLOP/B), predicted at min(10 TFLOPS, 10 x 1 TB/s) = 10 TFLOPS. */
    static final ModelPrediction ONE = new ModelPrediction(
            Models.LLAMA_3_8B,
            Workload.decode(1, 1),
            GPU,
            List.of(op(new Elementwise("norm", 10_000_000_000L, 1_000_000_000L)), op(new Elementwise("gather", 0, 8))));

    private static OperatorTime op(Elementwise e) {
        return new OperatorTime(new Step(e, 1, false), Roofline.on(GPU).predict(e));
    }

    @Test
    void aMeasuredOperatorIsAHollowCircleAtItsIntensityAndFlopsOverSeconds() {
        // 1e10 FLOPs in 2 ms = 5 TFLOPS. Axes: decades 10^0..10^3 of FLOP/B (ridge 100 x 4 = 400 -> 10^3) over
        // x 110..740 px, 10^12..10^15 FLOP/s (FP16 peak / 100 .. ceil(log10(1.01e14))) over y 590..50 px:
        // x(10) = 110 + 1/3 x 630 = 320.0; y(5e12) = 590 - log10(5)/3 x 540 = 464.2; y(1e13) = 590 - 1/3 x 540 = 410.0
        String svg = RooflineChart.of(GPU, List.of(Precision.FP16))
                .withPrediction(ONE)
                .withMeasuredOperators(ONE, Map.of("norm", 2e-3))
                .svg();
        assertThat(svg)
                .contains("<circle cx=\"320.0\" cy=\"410.0\" r=\"4\" fill=\"#444\"><title>norm\n")
                .contains(
                        "<circle cx=\"320.0\" cy=\"464.2\" r=\"5\" fill=\"none\" stroke=\"#444\" stroke-width=\"1.5\">")
                .contains("<line x1=\"320.0\" y1=\"410.0\" x2=\"320.0\" y2=\"464.2\" stroke=\"#444\"")
                .contains("measured (hollow)</text>")
                .doesNotContain(">measured</text>");
        // one label for the pair: the predicted point's
        assertThat(svg.split(">norm<", -1)).hasSize(2);
    }

    @Test
    void theOverlayAddsOnePointPerMeasuredOperatorWithFlops() {
        Map<String, Double> seconds = Map.of("norm", 2e-3, "gather", 1e-6);
        RooflineChart c = RooflineChart.of(GPU, List.of(Precision.FP16)).withMeasuredOperators(ONE, seconds);
        assertThat(c.points())
                .containsExactly(
                        new ChartPoint("norm", 10, 5e12, ChartPoint.Marker.MEASURED_OPERATOR, "measured: 2000.000 us"));
        assertThat(c.points().getFirst().measured()).isTrue();
        // without its prediction the hollow point carries its own label
        assertThat(c.svg()).contains(">norm<").contains("fill=\"none\"");
    }

    @Test
    void unknownOperatorsAndBadTimesAreRefusedByName() {
        RooflineChart c = RooflineChart.of(GPU, List.of(Precision.FP16));
        assertThatThrownBy(() -> c.withMeasuredOperators(ONE, Map.of("q_proj", 1e-3, "norm", 1e-3, "attn", 1e-3)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no operator [attn, q_proj] in Llama-3-8B; have [norm, gather]");
        assertThatThrownBy(() -> c.withMeasuredOperators(ONE, Map.of("norm", 0.0)))
                .hasMessage("measured seconds of norm must be a finite number > 0, got 0.0");
        Map<String, Double> nulls = new HashMap<>();
        nulls.put("norm", null);
        assertThat(c.withMeasuredOperators(ONE, nulls).points()).isEmpty();
        assertThatThrownBy(() -> c.withMeasuredOperators(null, Map.of())).hasMessage("prediction must not be null");
        assertThatThrownBy(() -> c.withMeasuredOperators(ONE, null)).hasMessage("measuredSeconds must not be null");
        assertThatThrownBy(() -> new ChartPoint("x", 1, 1, (ChartPoint.Marker) null))
                .hasMessage("marker must not be null");
    }

    @Test
    void aMeasuredBandwidthIsLabelledAsMeasured() {
        Hardware measured =
                GPU.withMemoryBandwidth(0.9e12, Source.measured("Test GPU", LocalDate.of(2026, 11, 24), "D2D copy"));
        assertThat(RooflineChart.of(measured, List.of(Precision.FP16)).svg())
                .contains(">DRAM 900 GB/s, measured copy</text>");
        assertThat(RooflineChart.of(GPU, List.of(Precision.FP16)).svg()).contains(">DRAM 1000 GB/s</text>");
    }
}
