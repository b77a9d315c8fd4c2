package dev.roofline.nvml;

import dev.roofline.core.energy.ClockLimitReason;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Why the GPU's clocks are below their maximum, as NVML reports them in one bit mask
 * ({@code nvmlDeviceGetCurrentClocksEventReasons}; bit values from {@code nvml.h}, CUDA 13.0). Each bit is one
 * {@link ClockLimitReason}, the form energy readings carry.
 */
public enum ClockEventReason {
    GPU_IDLE(0x1L, ClockLimitReason.GPU_IDLE),
    APPLICATIONS_CLOCKS_SETTING(0x2L, ClockLimitReason.APPLICATIONS_CLOCKS_SETTING),
    SW_POWER_CAP(0x4L, ClockLimitReason.SW_POWER_CAP),
    HW_SLOWDOWN(0x8L, ClockLimitReason.HW_SLOWDOWN),
    SYNC_BOOST(0x10L, ClockLimitReason.SYNC_BOOST),
    SW_THERMAL_SLOWDOWN(0x20L, ClockLimitReason.SW_THERMAL_SLOWDOWN),
    HW_THERMAL_SLOWDOWN(0x40L, ClockLimitReason.HW_THERMAL_SLOWDOWN),
    HW_POWER_BRAKE_SLOWDOWN(0x80L, ClockLimitReason.HW_POWER_BRAKE_SLOWDOWN),
    DISPLAY_CLOCK_SETTING(0x100L, ClockLimitReason.DISPLAY_CLOCK_SETTING);

    private final long bit;
    private final ClockLimitReason reason;

    ClockEventReason(long bit, ClockLimitReason reason) {
        this.bit = bit;
        this.reason = reason;
    }

    /** The NVML bit of this reason. */
    public long bit() {
        return bit;
    }

    /** The reason this bit stands for. */
    public ClockLimitReason reason() {
        return reason;
    }

    public String description() {
        return reason.description();
    }

    /** True for reasons that mean the GPU ran slower than it could under load ({@link ClockLimitReason#isThrottle()}). */
    public boolean isThrottle() {
        return reason.isThrottle();
    }

    /** The reasons {@code events} stand for, in declaration order. */
    public static Set<ClockLimitReason> reasons(Set<ClockEventReason> events) {
        Objects.requireNonNull(events, "events must not be null");
        EnumSet<ClockLimitReason> set = EnumSet.noneOf(ClockLimitReason.class);
        for (ClockEventReason e : events) {
            set.add(e.reason);
        }
        return Collections.unmodifiableSet(set);
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
        Objects.requireNonNull(reasons, "reasons must not be null");
        long mask = 0;
        for (ClockEventReason r : reasons) {
            mask |= r.bit;
        }
        return mask;
    }
}
