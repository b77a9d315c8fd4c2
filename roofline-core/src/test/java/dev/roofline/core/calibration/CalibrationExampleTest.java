package dev.roofline.core.calibration;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The example proposed for the README's calibration paragraph, run with the numbers its comments state. The figures
 * are an example, not a fit to a GPU run.
 */
class CalibrationExampleTest {

    @Test
    void exampleRunsAndGivesTheNumbersItsCommentsState() throws IOException {
        // EXAMPLE:BEGIN
        var run = new Calibration.Provenance("NVIDIA H200", LocalDate.of(2026, 11, 24), "decode-bench, FP16, 1k");
        var gemvFp16 = new OperatorClass.Gemv(Precision.FP16); // key "gemv FP16"
        var efficiencies = Map.of(gemvFp16, 0.97, OperatorClass.ATTENTION, 0.37, OperatorClass.ELEMENTWISE, 0.25);
        // copy at 4.291 TB/s, 4 µs a launch, 10 kernels a layer and 2 outside the layers
        Calibration h200 = new Calibration(run, 4.291e12, 4e-6, 10, 2, efficiencies);
        Path file = Files.createTempFile("h200", ".json");
        h200.write(file); // Calibration.read(file) reads it back
        Transformer t = Transformer.of(Models.LLAMA_3_8B, Hardware.H200);
        CalibratedPrediction p = Calibration.read(file).predict(t, Workload.decode(1, 1024));
        double ms = p.timeMillis(); // 4.986: 3.698 ms of operators + 322 launches x 4 µs
        double plain = p.base().timeMillis(); // 3.532: the roofline on the measured copy alone
        double error = p.errorPercent(5.5e-3); // +10.3: (measured / predicted - 1) x 100
        var nvfp4 = h200.predict(t, Workload.decode(1, 1024).withWeights(Precision.NVFP4));
        List<OperatorClass> missing = nvfp4.uncalibratedClasses(); // [gemv NVFP4], priced at the copy bandwidth
        // EXAMPLE:END

        Files.delete(file);
        assertThat(ms).isCloseTo(4.986, within(0.0005));
        assertThat(p.calibrated().timeMillis()).isCloseTo(3.698, within(0.0005));
        assertThat(p.launches()).isEqualTo(322);
        assertThat(plain).isCloseTo(3.532, within(0.0005));
        assertThat(error).isCloseTo(10.3, within(0.05));
        assertThat(missing).hasToString("[gemv NVFP4]");
    }
}
