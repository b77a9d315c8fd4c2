package dev.roofline.core.energy;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Why a GPU's clocks were below their maximum while a {@link PowerMeter} measured. The categories are those the
 * driver reports (NVML's clock-event reasons); a meter maps its own codes onto them.
 */
public enum ClockLimitReason {
    GPU_IDLE("GPU idle"),
    APPLICATIONS_CLOCKS_SETTING("application clocks setting"),
    SW_POWER_CAP("software power cap"),
    HW_SLOWDOWN("hardware slowdown (thermal or power brake)"),
    SYNC_BOOST("sync boost"),
    SW_THERMAL_SLOWDOWN("software thermal slowdown"),
    HW_THERMAL_SLOWDOWN("hardware thermal slowdown"),
    HW_POWER_BRAKE_SLOWDOWN("hardware power brake slowdown"),
    DISPLAY_CLOCK_SETTING("display clock setting");

    private final String description;

    ClockLimitReason(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** True for reasons that mean the GPU ran slower than it could under load (not idle or a user setting). */
    public boolean isThrottle() {
        return this == SW_POWER_CAP
                || this == HW_SLOWDOWN
                || this == SW_THERMAL_SLOWDOWN
                || this == HW_THERMAL_SLOWDOWN
                || this == HW_POWER_BRAKE_SLOWDOWN;
    }

    /** An unmodifiable copy of {@code reasons} that iterates in declaration order. */
    public static Set<ClockLimitReason> setOf(Set<ClockLimitReason> reasons) {
        return Collections.unmodifiableSet(
                reasons.isEmpty() ? EnumSet.noneOf(ClockLimitReason.class) : EnumSet.copyOf(reasons));
    }

    /** For reports: the names in declaration order joined by {@code |}, e.g. "SW_POWER_CAP|HW_SLOWDOWN"; "" for none. */
    public static String names(Set<ClockLimitReason> reasons) {
        return setOf(reasons).stream().map(Enum::name).collect(Collectors.joining("|"));
    }
}
