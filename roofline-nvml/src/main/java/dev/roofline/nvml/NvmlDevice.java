package dev.roofline.nvml;

import dev.roofline.bindings.nvml.nvmlUtilization_st;
import dev.roofline.bindings.nvml.nvml_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * One GPU as NVML sees it. Queries the GPU does not support return an empty optional; other NVML errors throw
 * {@link NvmlException}; every query after the session closed throws {@link IllegalStateException}.
 */
public final class NvmlDevice implements PowerSource {
    private final NvmlMonitor session;
    private final int index;
    private final MemorySegment handle;

    NvmlDevice(NvmlMonitor session, int index, MemorySegment handle) {
        this.session = session;
        this.index = index;
        this.handle = handle;
    }

    public int index() {
        return index;
    }

    public String name() {
        return string("nvmlDeviceGetName", nvml_h.NVML_DEVICE_NAME_V2_BUFFER_SIZE(), nvml_h::nvmlDeviceGetName);
    }

    /** e.g. "GPU-5c3b…"; the same UUID CUDA reports, so NVML and CUDA devices can be matched. */
    public String uuid() {
        return string("nvmlDeviceGetUUID", nvml_h.NVML_DEVICE_UUID_V2_BUFFER_SIZE(), nvml_h::nvmlDeviceGetUUID);
    }

    /** Board power draw (NVML reports milliwatts). */
    public OptionalDouble powerWatts() {
        OptionalLong mw = unsignedInt("nvmlDeviceGetPowerUsage", nvml_h::nvmlDeviceGetPowerUsage);
        return mw.isPresent() ? OptionalDouble.of(mw.getAsLong() / 1000.0) : OptionalDouble.empty();
    }

    /** The power limit the driver enforces. */
    public OptionalDouble powerLimitWatts() {
        OptionalLong mw = unsignedInt("nvmlDeviceGetEnforcedPowerLimit", nvml_h::nvmlDeviceGetEnforcedPowerLimit);
        return mw.isPresent() ? OptionalDouble.of(mw.getAsLong() / 1000.0) : OptionalDouble.empty();
    }

    public OptionalInt temperatureCelsius() {
        return toInt(unsignedInt("nvmlDeviceGetTemperature",
                (h, out) -> nvml_h.nvmlDeviceGetTemperature(h, nvml_h.NVML_TEMPERATURE_GPU(), out)));
    }

    public OptionalInt smClockMHz() {
        return toInt(unsignedInt("nvmlDeviceGetClockInfo", (h, out) -> nvml_h.nvmlDeviceGetClockInfo(h, nvml_h.NVML_CLOCK_SM(), out)));
    }

    public OptionalInt memoryClockMHz() {
        return toInt(unsignedInt("nvmlDeviceGetClockInfo", (h, out) -> nvml_h.nvmlDeviceGetClockInfo(h, nvml_h.NVML_CLOCK_MEM(), out)));
    }

    public OptionalInt maxSmClockMHz() {
        return toInt(unsignedInt("nvmlDeviceGetMaxClockInfo", (h, out) -> nvml_h.nvmlDeviceGetMaxClockInfo(h, nvml_h.NVML_CLOCK_SM(), out)));
    }

    public OptionalInt maxMemoryClockMHz() {
        return toInt(unsignedInt("nvmlDeviceGetMaxClockInfo", (h, out) -> nvml_h.nvmlDeviceGetMaxClockInfo(h, nvml_h.NVML_CLOCK_MEM(), out)));
    }

    public Optional<Utilization> utilization() {
        session.ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment u = nvmlUtilization_st.allocate(arena);
            if (!Nvml.supported("nvmlDeviceGetUtilizationRates", nvml_h.nvmlDeviceGetUtilizationRates(handle, u))) {
                return Optional.empty();
            }
            return Optional.of(new Utilization(nvmlUtilization_st.gpu(u), nvmlUtilization_st.memory(u)));
        }
    }

    /** Why clocks are below maximum now; empty when the GPU does not report it. */
    public Optional<Set<ClockEventReason>> clockEventReasons() {
        OptionalLong mask = clockEventMask();
        return mask.isPresent() ? Optional.of(ClockEventReason.decode(mask.getAsLong())) : Optional.empty();
    }

    private OptionalLong clockEventMask() {
        return unsignedLong("nvmlDeviceGetCurrentClocksEventReasons", nvml_h::nvmlDeviceGetCurrentClocksEventReasons);
    }

    /** Energy used since the driver loaded, in millijoules (Volta and newer). A read takes milliseconds. */
    @Override
    public OptionalLong totalEnergyMillijoules() {
        return unsignedLong("nvmlDeviceGetTotalEnergyConsumption", nvml_h::nvmlDeviceGetTotalEnergyConsumption);
    }

    /** Power, SM clock and clock-event reasons, for {@link PowerTracker}. */
    @Override
    public PowerSample sample(long nowNanos) {
        OptionalDouble w = powerWatts();
        if (w.isEmpty()) {
            throw new UnsupportedOperationException("GPU " + index + " does not report power draw (nvmlDeviceGetPowerUsage: NOT_SUPPORTED)");
        }
        return new PowerSample(nowNanos, w.getAsDouble(), smClockMHz().orElse(PowerSample.NOT_SUPPORTED), clockEventMask().orElse(0));
    }

    private interface Query {
        int call(MemorySegment handle, MemorySegment out);
    }

    private interface StringQuery {
        int call(MemorySegment handle, MemorySegment buffer, int length);
    }

    /** An {@code unsigned int} out-parameter; empty on NVML_ERROR_NOT_SUPPORTED. */
    private OptionalLong unsignedInt(String function, Query q) {
        OptionalLong v = query(function, q, ValueLayout.JAVA_INT);
        return v.isPresent() ? OptionalLong.of(Integer.toUnsignedLong((int) v.getAsLong())) : v;
    }

    /** An {@code unsigned long long} out-parameter (values stay below 2^63 in practice); empty on NOT_SUPPORTED. */
    private OptionalLong unsignedLong(String function, Query q) {
        return query(function, q, ValueLayout.JAVA_LONG);
    }

    private OptionalLong query(String function, Query q, ValueLayout layout) {
        session.ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(layout);
            if (!Nvml.supported(function, q.call(handle, out))) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(layout == ValueLayout.JAVA_INT ? out.get(ValueLayout.JAVA_INT, 0) : out.get(ValueLayout.JAVA_LONG, 0));
        }
    }

    private static OptionalInt toInt(OptionalLong v) {
        return v.isPresent() ? OptionalInt.of((int) v.getAsLong()) : OptionalInt.empty();
    }

    private String string(String function, int size, StringQuery q) {
        session.ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(size);
            Nvml.check(function, q.call(handle, buf, size));
            return buf.getString(0);
        }
    }

    @Override
    public String toString() {
        return "NvmlDevice[" + index + "]";
    }
}
