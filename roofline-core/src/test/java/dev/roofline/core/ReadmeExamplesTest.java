package dev.roofline.core;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Source;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Bound;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.roofline.Roofline;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The README's Java example is compiled and run here, and the README must show exactly these lines. */
class ReadmeExamplesTest {

    @Test
    void readmeExampleRunsAndGivesTheNumbersItsCommentsState() {
        // README:BEGIN
        Roofline gb10 = Roofline.on(Hardware.GB10);
        Prediction fp16 = gb10.predict(Gemm.gemv(4096, 4096));                             // decode: M = 1
        Prediction nvfp4 = gb10.predict(Gemm.gemv(4096, 4096).withWeights(Precision.NVFP4)); // W4A16
        double micros = fp16.timeMicros();              // 122.97: 33,570,816 B at 273 GB/s
        double speedup = nvfp4.speedupOver(fp16);       // 3.55: 4.5 bits per weight instead of 16
        Bound bound = nvfp4.bound();                    // MEMORY
        String how = nvfp4.computePath().method();      // "W NVFP4 x A FP16: NVFP4 weights converted to FP16, ..."

        Prediction prefill = Roofline.on(Hardware.H100_SXM)
                .predict(Gemm.of(8192, 8192, 8192).in(Precision.FP8_E4M3));                // COMPUTE-bound, 0.556 ms

        Hardware measured = Hardware.H200.withMemoryBandwidth(4.26e12,
                Source.measured("NVIDIA H200", LocalDate.of(2026, 11, 22), "D2D copy, read + write"));
        long nvfp4Bytes = Precision.NVFP4.storageBytes(4096, 4096); // 9,437,188 = N*K/2 + N*K/16 + 4
        // README:END

        assertThat(micros).isCloseTo(122.97, within(0.005));
        assertThat(speedup).isCloseTo(3.55, within(0.005));
        assertThat(bound).isEqualTo(Bound.MEMORY);
        assertThat(how).startsWith("W NVFP4 x A FP16: NVFP4 weights converted to FP16, ");
        assertThat(prefill.bound()).isEqualTo(Bound.COMPUTE);
        assertThat(prefill.timeSeconds() * 1e3).isCloseTo(0.556, within(0.0005));
        assertThat(measured.memoryBytesPerSecond()).isEqualTo(4.26e12);
        assertThat(nvfp4Bytes).isEqualTo(9_437_188L);
    }

    @Test
    void readmeShowsTheExampleVerbatim() throws IOException {
        Path readme = Path.of("..", "README.md");
        Path self = Path.of("src/test/java/dev/roofline/core/ReadmeExamplesTest.java");
        String example = between(Files.readString(self), "// README:BEGIN\n", "        // README:END");
        Matcher m = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(Files.readString(readme));
        assertThat(m.find()).as("README has a ```java block").isTrue();
        assertThat(strip(m.group(1))).isEqualTo(strip(example));
    }

    private static String between(String s, String begin, String end) {
        int b = s.indexOf(begin) + begin.length();
        return s.substring(b, s.indexOf(end, b));
    }

    private static List<String> strip(String block) {
        return block.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }
}
