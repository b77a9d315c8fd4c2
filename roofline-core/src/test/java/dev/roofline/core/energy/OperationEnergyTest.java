package dev.roofline.core.energy;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class OperationEnergyTest {
    static final EnergyReading READING = new EnergyReading(
            0.42, 300.0, 714.3, 731.0, EnergySource.COUNTER, 42, 1755, Set.of(ClockLimitReason.SW_POWER_CAP));

    @Test
    void joulesAreSharedOverTheLaunches() {
        // 300 J over 250 launches = 1.2 J each
        assertThat(new OperationEnergy("NVML", READING, 250, 0.40).joulesPerOperation())
                .isCloseTo(1.2, within(1e-12));
    }

    @Test
    void gigaflopsPerWattIsFlopsTimesLaunchesOverJoules() {
        // 8192^3 product: 2 x 8192^3 = 1 099 511 627 776 FLOPs; x 250 / 300 J / 1e9 = 916.259... GFLOP/J
        long flops = 2L * 8192 * 8192 * 8192;
        assertThat(flops).isEqualTo(1_099_511_627_776L);
        assertThat(new OperationEnergy("NVML", READING, 250, 0.40).gigaflopsPerWatt(flops))
                .isCloseTo(916.2597, within(1e-3));
    }

    @Test
    void aPhaseWithoutLaunchesOrGpuTimeIsRefused() {
        assertThatThrownBy(() -> new OperationEnergy("NVML", READING, 0, 0.4)).hasMessageContaining("operations >= 1");
        assertThatThrownBy(() -> new OperationEnergy("NVML", READING, 10, 0)).hasMessageContaining("gpuSeconds > 0");
    }
}
