package dev.roofline.nvml;

import dev.roofline.bindings.nvml.nvml_h;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClockEventReasonTest {

    @Test
    void bitsMatchTheConstantsGeneratedFromNvmlH() {
        assertThat(ClockEventReason.GPU_IDLE.bit()).isEqualTo(nvml_h.nvmlClocksEventReasonGpuIdle());
        assertThat(ClockEventReason.APPLICATIONS_CLOCKS_SETTING.bit())
                .isEqualTo(nvml_h.nvmlClocksEventReasonApplicationsClocksSetting());
        assertThat(ClockEventReason.SW_POWER_CAP.bit()).isEqualTo(nvml_h.nvmlClocksEventReasonSwPowerCap());
        assertThat(ClockEventReason.HW_SLOWDOWN.bit()).isEqualTo(nvml_h.nvmlClocksThrottleReasonHwSlowdown());
        assertThat(ClockEventReason.SYNC_BOOST.bit()).isEqualTo(nvml_h.nvmlClocksEventReasonSyncBoost());
        assertThat(ClockEventReason.SW_THERMAL_SLOWDOWN.bit())
                .isEqualTo(nvml_h.nvmlClocksEventReasonSwThermalSlowdown());
        assertThat(ClockEventReason.HW_THERMAL_SLOWDOWN.bit())
                .isEqualTo(nvml_h.nvmlClocksThrottleReasonHwThermalSlowdown());
        assertThat(ClockEventReason.HW_POWER_BRAKE_SLOWDOWN.bit())
                .isEqualTo(nvml_h.nvmlClocksThrottleReasonHwPowerBrakeSlowdown());
        assertThat(ClockEventReason.DISPLAY_CLOCK_SETTING.bit())
                .isEqualTo(nvml_h.nvmlClocksEventReasonDisplayClockSetting());
        // nvml.h's "All" mask is exactly the union of the reasons above
        assertThat(ClockEventReason.encode(EnumSet.allOf(ClockEventReason.class)))
                .isEqualTo(nvml_h.nvmlClocksEventReasonAll());
    }

    @Test
    void decodesAMaskIntoReasons() {
        // 0x1 idle + 0x4 power cap + 0x40 hardware thermal = 0x45
        assertThat(ClockEventReason.decode(0x45))
                .containsExactlyInAnyOrder(
                        ClockEventReason.GPU_IDLE, ClockEventReason.SW_POWER_CAP, ClockEventReason.HW_THERMAL_SLOWDOWN);
        assertThat(ClockEventReason.decode(0)).isEmpty();
        assertThat(ClockEventReason.decode(0x1000)).isEmpty(); // unknown future bit ignored
    }

    @Test
    void onlyLoadRelatedReasonsCountAsThrottling() {
        assertThat(ClockEventReason.GPU_IDLE.isThrottle()).isFalse();
        assertThat(ClockEventReason.SW_POWER_CAP.isThrottle()).isTrue();
        assertThat(ClockEventReason.HW_THERMAL_SLOWDOWN.isThrottle()).isTrue();
    }

    @Test
    void nullSetsAreRefusedByName() {
        assertThatThrownBy(() -> ClockEventReason.reasons(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("events must not be null");
        assertThatThrownBy(() -> ClockEventReason.encode(null)).hasMessage("reasons must not be null");
    }
}
