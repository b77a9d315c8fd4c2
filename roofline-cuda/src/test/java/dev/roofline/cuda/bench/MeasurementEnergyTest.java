package dev.roofline.cuda.bench;

import dev.roofline.core.energy.ClockLimitReason;
import dev.roofline.core.energy.EnergyReading;
import dev.roofline.core.energy.EnergySource;
import dev.roofline.core.energy.OperationEnergy;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Roofline;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The benchmark's use of {@link OperationEnergy}; the record's own arithmetic is tested in roofline-core. */
class MeasurementEnergyTest {
    static final EnergyReading READING = new EnergyReading(
            0.42, 300.0, 714.3, 731.0, EnergySource.COUNTER, 42, 1755, Set.of(ClockLimitReason.SW_POWER_CAP));

    @Test
    void aMeasurementDerivesItsEnergyFiguresFromItsOperator() {
        Gemm g = Sweep.gemmFor(Gemm.of(8192, 8192, 8192), Precision.BF16);
        Measurement m = new Measurement(
                "BF16 -> BF16",
                g,
                TimingStats.of(1600),
                Roofline.on(Hardware.H200).predict(g));
        assertThat(m.energy()).isEmpty();
        assertThat(m.gigaflopsPerWatt()).isEmpty();
        Measurement e = m.withEnergy(new OperationEnergy("NVML", READING, 250, 0.40));
        assertThat(e.joulesPerOperation().getAsDouble()).isCloseTo(1.2, within(1e-12));
        assertThat(e.gigaflopsPerWatt().getAsDouble()).isCloseTo(916.2597, within(1e-3));
        assertThat(e.against(m.prediction()).energy()).isEqualTo(e.energy());
    }

    @Test
    void theEnergyPhaseCoversItsGpuTimeWithTenPercentToSpare() {
        // 0.3 s at 1.6 ms per launch, 10 launches a chunk: 1.1 x 0.3 / 1.6e-3 / 10 = 20.6 -> 21 chunks
        assertThat(Benchmark.chunksFor(0.3, 1.6e-3, 10)).isEqualTo(21);
        // a GEMV of 34 us in graphs of 20: 1.1 x 0.3 / 34e-6 / 20 = 485.3 -> 486 chunks
        assertThat(Benchmark.chunksFor(0.3, 34e-6, 20)).isEqualTo(486);
        // longer than the phase: still one chunk
        assertThat(Benchmark.chunksFor(0.3, 2.0, 1)).isEqualTo(1);
        assertThatThrownBy(() -> Benchmark.chunksFor(0.3, 0, 1)).hasMessageContaining("secondsPerLaunch > 0");
    }
}
