package dev.roofline.nvml;

import dev.roofline.nvml.internal.Nvml;

import java.lang.foreign.MemorySegment;
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
        session.ensureOpen();
        return Nvml.name(handle);
    }

    /** e.g. "GPU-5c3b…"; the same UUID CUDA reports, so NVML and CUDA devices can be matched. */
    public String uuid() {
        session.ensureOpen();
        return Nvml.uuid(handle);
    }

    /** Board power draw (NVML reports milliwatts). */
    public OptionalDouble powerWatts() {
        session.ensureOpen();
        return watts(Nvml.powerMilliwatts(handle));
    }

    /** The power limit the driver enforces. */
    public OptionalDouble powerLimitWatts() {
        session.ensureOpen();
        return watts(Nvml.enforcedPowerLimitMilliwatts(handle));
    }

    public OptionalInt temperatureCelsius() {
        session.ensureOpen();
        return toInt(Nvml.temperatureCelsius(handle));
    }

    public OptionalInt smClockMHz() {
        session.ensureOpen();
        return toInt(Nvml.clockMHz(handle, Nvml.Clock.SM));
    }

    public OptionalInt memoryClockMHz() {
        session.ensureOpen();
        return toInt(Nvml.clockMHz(handle, Nvml.Clock.MEMORY));
    }

    public OptionalInt maxSmClockMHz() {
        session.ensureOpen();
        return toInt(Nvml.maxClockMHz(handle, Nvml.Clock.SM));
    }

    public OptionalInt maxMemoryClockMHz() {
        session.ensureOpen();
        return toInt(Nvml.maxClockMHz(handle, Nvml.Clock.MEMORY));
    }

    public Optional<Utilization> utilization() {
        session.ensureOpen();
        return Nvml.utilization(handle);
    }

    /** Why clocks are below maximum now; empty when the GPU does not report it. */
    public Optional<Set<ClockEventReason>> clockEventReasons() {
        OptionalLong mask = clockEventMask();
        return mask.isPresent() ? Optional.of(ClockEventReason.decode(mask.getAsLong())) : Optional.empty();
    }

    private OptionalLong clockEventMask() {
        session.ensureOpen();
        return Nvml.clockEventMask(handle);
    }

    /** Energy used since the driver loaded, in millijoules (Volta and newer). A read takes milliseconds. */
    @Override
    public OptionalLong totalEnergyMillijoules() {
        session.ensureOpen();
        return Nvml.totalEnergyMillijoules(handle);
    }

    /** Power, SM clock and clock-event reasons, for {@link PowerTracker}. */
    @Override
    public PowerSample sample(long nowNanos) {
        OptionalDouble w = powerWatts();
        if (w.isEmpty()) {
            throw new UnsupportedOperationException(
                    "GPU " + index + " does not report power draw (nvmlDeviceGetPowerUsage: NOT_SUPPORTED)");
        }
        return new PowerSample(
                nowNanos,
                w.getAsDouble(),
                smClockMHz().orElse(PowerSample.NOT_SUPPORTED),
                clockEventMask().orElse(0));
    }

    private static OptionalDouble watts(OptionalLong milliwatts) {
        return milliwatts.isPresent() ? OptionalDouble.of(milliwatts.getAsLong() / 1000.0) : OptionalDouble.empty();
    }

    private static OptionalInt toInt(OptionalLong v) {
        return v.isPresent() ? OptionalInt.of((int) v.getAsLong()) : OptionalInt.empty();
    }

    @Override
    public String toString() {
        return "NvmlDevice[" + index + "]";
    }
}
