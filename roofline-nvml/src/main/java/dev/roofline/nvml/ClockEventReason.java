package dev.roofline.nvml;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Why the GPU's clocks are below their maximum, as NVML reports them in one bit mask
 * ({@code nvmlDeviceGetCurrentClocksEventReasons}; bit values from {@code nvml.h}, CUDA 13.0).
 */
public enum ClockEventReason {
    GPU_IDLE(0x1L, "GPU idle"),
    APPLICATIONS_CLOCKS_SETTING(0x2L, "application clocks setting"),
    SW_POWER_CAP(0x4L, "software power cap"),
    HW_SLOWDOWN(0x8L, "hardware slowdown (thermal or power brake)"),
    SYNC_BOOST(0x10L, "sync boost"),
    SW_THERMAL_SLOWDOWN(0x20L, "software thermal slowdown"),
    HW_THERMAL_SLOWDOWN(0x40L, "hardware thermal slowdown"),
    HW_POWER_BRAKE_SLOWDOWN(0x80L, "hardware power brake slowdown"),
    DISPLAY_CLOCK_SETTING(0x100L, "display clock setting");

    private final long bit;
    private final String description;

    ClockEventReason(long bit, String description) {
        this.bit = bit;
        this.description = description;
    }

    /** The NVML bit of this reason. */
    public long bit() {
        return bit;
    }

    public String description() {
        return description;
    }

    /** True for reasons that mean the GPU ran slower than it could under load (not idle or a user setting). */
    public boolean isThrottle() {
        return this == SW_POWER_CAP || this == HW_SLOWDOWN || this == SW_THERMAL_SLOWDOWN
                || this == HW_THERMAL_SLOWDOWN || this == HW_POWER_BRAKE_SLOWDOWN;
    }

    /** The reasons set in an NVML mask; bits NVML may add later are ignored. */
    public static Set<ClockEventReason> decode(long mask) {
        EnumSet<ClockEventReason> set = EnumSet.noneOf(ClockEventReason.class);
        for (ClockEventReason r : values()) {
            if ((mask & r.bit) != 0) {
                set.add(r);
            }
        }
        return Collections.unmodifiableSet(set);
    }

    /** The NVML mask of a set of reasons. */
    public static long encode(Set<ClockEventReason> reasons) {
        long mask = 0;
        for (ClockEventReason r : reasons) {
            mask |= r.bit;
        }
        return mask;
    }
}
