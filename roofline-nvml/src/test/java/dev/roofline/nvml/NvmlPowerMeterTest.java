package dev.roofline.nvml;

import dev.roofline.core.energy.ClockLimitReason;
import dev.roofline.core.energy.EnergyReading;
import dev.roofline.core.energy.EnergySource;
import dev.roofline.core.energy.PowerMeters;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class NvmlPowerMeterTest {

    @Test
    void summariesBecomeEnergyReadings() {
        // 300 J from the counter over 2 s; one sample hit the software power cap at 1410 MHz
        PowerSummary s = PowerSummary.of(
                List.of(new PowerSample(0, 640, 1980, 0), new PowerSample(1_000_000_000L, 700, 1410, 0x4)),
                0,
                2_000_000_000L,
                OptionalLong.of(1_000_000),
                OptionalLong.of(1_300_000),
                Optional.empty());
        EnergyReading r = NvmlPowerMeter.toReading(s);
        assertThat(r.seconds()).isEqualTo(2);
        assertThat(r.joules()).isEqualTo(300);
        assertThat(r.averageWatts()).isEqualTo(150);
        assertThat(r.peakWatts()).isEqualTo(700);
        assertThat(r.energySource()).isEqualTo(EnergySource.COUNTER);
        assertThat(r.samples()).isEqualTo(2);
        assertThat(r.minSmClockMHz()).isEqualTo(1410);
        assertThat(r.throttled()).isTrue();
        assertThat(r.clockLimitReasons()).containsExactly(ClockLimitReason.SW_POWER_CAP);
    }

    @Test
    void roofLineCudaFindsItWithTheServiceLoader() {
        // the lookup roofline-cuda's benchmarks do (through roofline-core's PowerMeters); it works on the module path
        // (provides) and the class path (META-INF)
        assertThat(PowerMeters.installed())
                .hasValueSatisfying(m -> assertThat(m).isInstanceOf(NvmlPowerMeter.class));
        assertThat(PowerMeters.installed().orElseThrow().name()).isEqualTo("NVML");
    }
}
