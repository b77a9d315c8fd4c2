package dev.roofline.nvml;

import dev.roofline.core.energy.EnergySource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class PowerSummaryTest {
    private static final long S = 1_000_000_000L;

    private static PowerSample at(double seconds, double watts, int clock, long mask) {
        return new PowerSample((long) (seconds * S), watts, clock, mask);
    }

    @Test
    void integratesSamplesWithTrapezoids() {
        // 100 W at 0 s, 200 W at 1 s, 200 W at 2 s, 100 W at 3 s over [0 s, 3 s]:
        // (100+200)/2*1 + (200+200)/2*1 + (200+100)/2*1 = 150 + 200 + 150 = 500 J
        List<PowerSample> samples =
                List.of(at(0, 100, 1980, 0), at(1, 200, 1755, 0), at(2, 200, 1500, 0x4), at(3, 100, 1980, 0x1));
        PowerSummary s =
                PowerSummary.of(samples, 0, 3 * S, OptionalLong.empty(), OptionalLong.empty(), Optional.empty());
        assertThat(s.energyJoules()).isCloseTo(500, within(1e-9));
        assertThat(s.energySource()).isEqualTo(EnergySource.INTEGRATED);
        assertThat(s.averageWatts()).isCloseTo(500.0 / 3, within(1e-9));
        assertThat(s.peakWatts()).isEqualTo(200);
        assertThat(s.durationSeconds()).isEqualTo(3);
        assertThat(s.sampleCount()).isEqualTo(4);
        assertThat(s.minSmClockMHz()).isEqualTo(1500);
        assertThat(s.averageSmClockMHz()).isCloseTo((1980 + 1755 + 1500 + 1980) / 4.0, within(1e-9));
        assertThat(s.reasonsSeen()).containsExactlyInAnyOrder(ClockEventReason.SW_POWER_CAP, ClockEventReason.GPU_IDLE);
        assertThat(s.throttled()).isTrue();
    }

    @Test
    void holdsTheEdgeSamplesToTheIntervalEnds() {
        // samples at 1 s (300 W) and 2 s (100 W) over [0 s, 4 s]: 300*1 + (300+100)/2*1 + 100*2 = 300 + 200 + 200 = 700
        // J
        List<PowerSample> samples = List.of(at(1, 300, -1, 0), at(2, 100, -1, 0));
        PowerSummary s =
                PowerSummary.of(samples, 0, 4 * S, OptionalLong.empty(), OptionalLong.empty(), Optional.empty());
        assertThat(s.energyJoules()).isCloseTo(700, within(1e-9));
        assertThat(s.averageWatts()).isCloseTo(175, within(1e-9));
        assertThat(s.minSmClockMHz()).isEqualTo(PowerSample.NOT_SUPPORTED);
        assertThat(s.averageSmClockMHz()).isNaN();
        assertThat(s.throttled()).isFalse();
    }

    @Test
    void aCounterThatWentBackFallsBackToTheIntegralWithTheReason() {
        // counter 5,000,000 mJ at start, 1,000 mJ at end (reset): not -4999 J; 100 W held over [0 s, 2 s] = 200 J
        List<PowerSample> samples = List.of(at(0, 100, 1000, 0), at(1, 100, 1000, 0), at(2, 100, 1000, 0));
        PowerSummary s = PowerSummary.of(
                samples, 0, 2 * S, OptionalLong.of(5_000_000), OptionalLong.of(1_000), Optional.empty());
        assertThat(s.energySource()).isEqualTo(EnergySource.INTEGRATED);
        assertThat(s.energyJoules()).isCloseTo(200, within(1e-9));
        assertThat(s.averageWatts()).isCloseTo(100, within(1e-9));
        assertThat(s.error())
                .hasValue("energy counter went back from 5000000 mJ to 1000 mJ (wrapped or reset): energy integrated"
                        + " from the samples");
    }

    @Test
    void aCounterThatWentBackKeepsAnEarlierErrorAndWithoutSamplesMeasuresNothing() {
        PowerSummary s = PowerSummary.of(
                List.of(),
                0,
                S,
                OptionalLong.of(10),
                OptionalLong.of(9),
                Optional.of("sampling stopped after 0 samples"));
        assertThat(s.energySource()).isEqualTo(EnergySource.NONE);
        assertThat(s.energyJoules()).isZero();
        assertThat(s.error())
                .hasValue("sampling stopped after 0 samples; energy counter went back from 10 mJ to 9 mJ (wrapped or"
                        + " reset): energy integrated from the samples");
    }

    @Test
    void nullArgumentsAreRefusedByName() {
        OptionalLong none = OptionalLong.empty();
        assertThatThrownBy(() -> PowerSummary.of(null, 0, S, none, none, Optional.empty()))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("samples must not be null");
        assertThatThrownBy(() -> PowerSummary.of(List.of(), 0, S, null, none, Optional.empty()))
                .hasMessage("energyStartMj must not be null");
        assertThatThrownBy(() -> PowerSummary.of(List.of(), 0, S, none, null, Optional.empty()))
                .hasMessage("energyEndMj must not be null");
        assertThatThrownBy(() -> PowerSummary.of(List.of(), 0, S, none, none, null))
                .hasMessage("error must not be null");
    }

    @Test
    void theEnergyCounterWinsOverTheIntegral() {
        // counter 1,000,000 mJ -> 1,250,000 mJ: 250 J over 2 s = 125 W average, whatever the samples say
        List<PowerSample> samples = List.of(at(0, 90, 1000, 0), at(1, 500, 1000, 0));
        PowerSummary s = PowerSummary.of(
                samples, 0, 2 * S, OptionalLong.of(1_000_000), OptionalLong.of(1_250_000), Optional.empty());
        assertThat(s.energySource()).isEqualTo(EnergySource.COUNTER);
        assertThat(s.energyJoules()).isEqualTo(250);
        assertThat(s.averageWatts()).isEqualTo(125);
        assertThat(s.peakWatts()).isEqualTo(500);
    }

    @Test
    void perOperationAndPerWattFigures() {
        PowerSummary s =
                PowerSummary.of(List.of(), 0, 2 * S, OptionalLong.of(0), OptionalLong.of(1_400_000), Optional.empty());
        // 1400 J for 700 operations = 2 J each; 2.8e15 FLOP / 1400 J = 2e12 FLOP/J = 2000 GFLOPS/W
        assertThat(s.joulesPer(700)).isEqualTo(2);
        assertThat(s.gflopsPerWatt(2.8e15)).isCloseTo(2000, within(1e-9));
        assertThatThrownBy(() -> s.joulesPer(0)).hasMessageContaining("operations must be > 0, got 0");
        assertThatThrownBy(() -> s.gflopsPerWatt(Double.NaN))
                .hasMessageContaining("flops must be a finite number > 0, got NaN");
    }

    @Test
    void noSamplesAndNoCounterMeansNoEnergy() {
        PowerSummary s =
                PowerSummary.of(List.of(), 0, S, OptionalLong.empty(), OptionalLong.empty(), Optional.of("boom"));
        assertThat(s.energySource()).isEqualTo(EnergySource.NONE);
        assertThat(s.energyJoules()).isZero();
        assertThat(s.error()).contains("boom");
        assertThatThrownBy(() -> s.gflopsPerWatt(1e12)).hasMessageContaining("no energy measured");
    }

    @Test
    void rejectsBadInput() {
        assertThatThrownBy(() ->
                        PowerSummary.of(List.of(), 5, 4, OptionalLong.empty(), OptionalLong.empty(), Optional.empty()))
                .hasMessageContaining("endNanos must be >= startNanos");
        assertThatThrownBy(() -> new PowerSample(0, -1, 0, 0))
                .hasMessageContaining("watts must be a finite number >= 0, got -1.0");
        assertThatThrownBy(() -> new PowerSample(0, 1, -2, 0)).hasMessageContaining("smClockMHz");
    }
}
