package dev.roofline.core.energy;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EnergyReadingTest {

    private static EnergyReading reading(Set<ClockLimitReason> reasons) {
        return new EnergyReading(2, 300, 150, 700, EnergySource.COUNTER, 2, 1410, reasons);
    }

    @Test
    void aPowerCapIsThrottling() {
        assertThat(reading(Set.of(ClockLimitReason.SW_POWER_CAP)).throttled()).isTrue();
    }

    @Test
    void idleAndUserSettingsAreNotThrottling() {
        assertThat(reading(EnumSet.of(ClockLimitReason.GPU_IDLE, ClockLimitReason.APPLICATIONS_CLOCKS_SETTING))
                        .throttled())
                .isFalse();
        assertThat(reading(Set.of()).throttled()).isFalse();
    }

    @Test
    void reasonNamesFollowDeclarationOrderWhateverTheInputOrder() {
        Set<ClockLimitReason> backwards =
                new LinkedHashSet<>(List.of(ClockLimitReason.HW_SLOWDOWN, ClockLimitReason.SW_POWER_CAP));
        assertThat(reading(backwards).clockLimitReasonNames()).isEqualTo("SW_POWER_CAP|HW_SLOWDOWN");
        assertThat(reading(Set.of()).clockLimitReasonNames()).isEmpty();
    }

    @Test
    void theReasonsCannotBeChangedAfterwards() {
        EnergyReading r = reading(EnumSet.of(ClockLimitReason.SW_POWER_CAP));
        assertThatThrownBy(() -> r.clockLimitReasons().add(ClockLimitReason.GPU_IDLE))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aSourceIsRequired() {
        assertThatThrownBy(() -> new EnergyReading(2, 300, 150, 700, null, 2, 1410, Set.of()))
                .hasMessageContaining("energySource");
    }
}
