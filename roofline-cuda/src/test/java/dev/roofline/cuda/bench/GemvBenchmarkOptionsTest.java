package dev.roofline.cuda.bench;

import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GemvBenchmarkOptionsTest {

    @Test
    void defaultsAreTheHeadlineRun() {
        GemvBenchmarkOptions o = GemvBenchmarkOptions.defaults();
        assertThat(o.shapes())
                .extracting(GemvBenchmarkOptions.Shape::toString)
                .containsExactly("8192x8192", "28672x8192", "8192x28672");
        assertThat(o.formats()).containsExactly(WeightFormat.values());
        assertThat(o.rows()).containsExactly(1);
        assertThat(o.timing()).isEqualTo(BenchmarkOptions.defaults().withGraph(20));
        assertThat(o.timing().repetitions()).isEqualTo(50);
        assertThat(o.timing().warmup()).isEqualTo(10);
        assertThat(o.timing().launchesPerSample()).isEqualTo(20);
        assertThat(o.timing().l2Cold()).isTrue();
        assertThat(o.cublasBaseline()).isTrue();
        assertThat(o.decodeLayer()).isTrue();
    }

    @Test
    void withersChangeOneThing() {
        GemvBenchmarkOptions o = GemvBenchmarkOptions.defaults()
                .withRepetitions(5)
                .withWarmup(1)
                .withL2Cold(false)
                .withCublasBaseline(false)
                .withDecodeLayer(false);
        assertThat(o.timing()).isEqualTo(new BenchmarkOptions(1, 5, false, true, 20, true));
        assertThat(o.cublasBaseline()).isFalse();
        assertThat(o.decodeLayer()).isFalse();
        assertThat(o.shapes()).isEqualTo(GemvBenchmarkOptions.DEFAULT_SHAPES);
    }

    @Test
    void shapesAndFormatsParseAndBadOnesAreNamed() {
        assertThat(GemvBenchmarkOptions.Shape.parse("8192x28672"))
                .isEqualTo(new GemvBenchmarkOptions.Shape(8192, 28672));
        assertThat(GemvBenchmarkOptions.Shape.parse(" 16X32 ")).isEqualTo(new GemvBenchmarkOptions.Shape(16, 32));
        assertThatThrownBy(() -> GemvBenchmarkOptions.Shape.parse("8192"))
                .hasMessageContaining("'8192'")
                .hasMessageContaining("NxK");
        assertThatThrownBy(() -> GemvBenchmarkOptions.Shape.parse("0x32")).hasMessageContaining("0x32");
        assertThat(GemvBenchmarkOptions.parseFormats("nvfp4,MXFP4"))
                .containsExactly(WeightFormat.NVFP4, WeightFormat.MXFP4);
        assertThatThrownBy(() -> GemvBenchmarkOptions.parseFormat("fp4"))
                .hasMessageContaining("'fp4'")
                .hasMessageContaining("NVFP4");
    }

    @Test
    void rowsParseAndStayWithinTheKernelsThirtyTwo() {
        assertThat(GemvBenchmarkOptions.defaults()
                        .withRows(GemvBenchmarkOptions.parseRows("1, 2,4,8,16"))
                        .rows())
                .containsExactly(1, 2, 4, 8, 16);
        assertThatThrownBy(() -> GemvBenchmarkOptions.parseRows("1,two"))
                .hasMessageContaining("'two'")
                .hasMessageContaining("activation rows");
        assertThatThrownBy(() -> GemvBenchmarkOptions.defaults().withRows(List.of(1, 33)))
                .hasMessageContaining("1..32")
                .hasMessageContaining("33");
        assertThatThrownBy(() -> GemvBenchmarkOptions.defaults().withRows(List.of(0)))
                .hasMessageContaining("got 0");
        assertThatThrownBy(() -> GemvBenchmarkOptions.defaults().withRows(List.of()))
                .hasMessageContaining("one M");
    }

    @Test
    void everyFormatMustFitEveryShapesK() {
        // INT4 scales groups of 128 along K: K = 8192 + 64 is not a whole number of groups
        assertThatThrownBy(() ->
                        GemvBenchmarkOptions.defaults().withShapes(List.of(new GemvBenchmarkOptions.Shape(4096, 8256))))
                .hasMessageContaining("INT4")
                .hasMessageContaining("multiple of 128")
                .hasMessageContaining("4096x8256");
        assertThatThrownBy(() -> GemvBenchmarkOptions.defaults().withFormats(List.of()))
                .hasMessageContaining("at least one");
    }
}
