package dev.roofline.nvml.internal;

import dev.roofline.bindings.loader.LibraryNotFoundException;
import dev.roofline.bindings.loader.NativeAccessDeniedException;
import dev.roofline.bindings.loader.NativeLibraries;
import dev.roofline.bindings.loader.NativeLibrary;
import dev.roofline.bindings.loader.StatusNames;
import dev.roofline.bindings.nvml.nvmlUtilization_st;
import dev.roofline.bindings.nvml.nvml_h;
import dev.roofline.nvml.NvmlException;
import dev.roofline.nvml.NvmlUnavailableException;
import dev.roofline.nvml.Utilization;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The checked layer over {@code nvml_h}: loads libnvidia-ml once and turns every {@code nvmlReturn_t} into an
 * exception or a value. Queries a GPU may not support return an empty optional on {@code NVML_ERROR_NOT_SUPPORTED};
 * other errors throw {@link NvmlException}. roofline-nvml's exported classes reach NVML only through here.
 */
public final class Nvml {
    private Nvml() {}

    static final int SUCCESS = nvml_h.NVML_SUCCESS();
    static final int NOT_SUPPORTED = nvml_h.NVML_ERROR_NOT_SUPPORTED();

    /** The one {@code nvmlReturn_t} table, from the constants generated from nvml.h. */
    private static final StatusNames NAMES =
            StatusNames.of(nvml_h.class, n -> n.equals("NVML_SUCCESS") || n.startsWith("NVML_ERROR_"), "NVML_RETURN_");

    /** A clock NVML reports. */
    public enum Clock {
        SM,
        MEMORY;

        int type() {
            return this == SM ? nvml_h.NVML_CLOCK_SM() : nvml_h.NVML_CLOCK_MEM();
        }
    }

    /** The symbolic name of an {@code nvmlReturn_t}, or "NVML_RETURN_<code>" for one this header does not know. */
    static String name(int code) {
        return NAMES.name(code);
    }

    /** NVML's own message for {@code code}; empty when the library is not loaded. */
    static String message(int code) {
        if (!NativeLibraries.isLoaded(NativeLibrary.NVML)) {
            return "";
        }
        MemorySegment s = nvml_h.nvmlErrorString(code);
        return s.equals(MemorySegment.NULL) ? "" : s.reinterpret(256).getString(0);
    }

    static NvmlException error(String function, int code) {
        return new NvmlException(function, code, name(code), message(code));
    }

    /** Throws unless {@code code} is NVML_SUCCESS. */
    static void check(String function, int code) {
        if (code != SUCCESS) {
            throw error(function, code);
        }
    }

    /** True on success, false on NVML_ERROR_NOT_SUPPORTED; throws on any other error. */
    static boolean supported(String function, int code) {
        if (code == NOT_SUPPORTED) {
            return false;
        }
        check(function, code);
        return true;
    }

    /**
     * Loads libnvidia-ml if needed and initializes NVML ({@code nvmlInit_v2}).
     *
     * @throws NvmlUnavailableException naming why: the library is missing or is not NVML (the path and the functions
     *                                  it lacks), native access is denied, or NVML refused to start (driver not
     *                                  loaded, no permission)
     */
    public static void init() {
        try {
            NativeLibraries.load(NativeLibrary.NVML);
        } catch (LibraryNotFoundException e) {
            throw new NvmlUnavailableException("NVML library not found: " + e.getMessage(), e);
        } catch (NativeAccessDeniedException e) {
            throw new NvmlUnavailableException(e.getMessage(), e);
        }
        int rc;
        try {
            rc = nvml_h.nvmlInit_v2();
        } catch (IllegalCallerException e) {
            throw new NvmlUnavailableException(
                    new NativeAccessDeniedException(NativeLibrary.NVML, "calling nvmlInit_v2", e).getMessage(), e);
        }
        if (rc != SUCCESS) {
            throw new NvmlUnavailableException(
                    "NVML could not start: " + error("nvmlInit_v2", rc).getMessage(), null);
        }
    }

    public static void shutdown() {
        check("nvmlShutdown", nvml_h.nvmlShutdown());
    }

    public static int deviceCount() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            check("nvmlDeviceGetCount_v2", nvml_h.nvmlDeviceGetCount_v2(count));
            return count.get(ValueLayout.JAVA_INT, 0);
        }
    }

    /** The {@code nvmlDevice_t} of device {@code index}; valid while NVML is initialized. */
    public static MemorySegment deviceHandle(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment handle = arena.allocate(nvml_h.nvmlDevice_t);
            check("nvmlDeviceGetHandleByIndex_v2", nvml_h.nvmlDeviceGetHandleByIndex_v2(index, handle));
            return handle.get(nvml_h.nvmlDevice_t, 0);
        }
    }

    public static String driverVersion() {
        try (Arena arena = Arena.ofConfined()) {
            int size = nvml_h.NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE();
            MemorySegment buf = arena.allocate(size);
            check("nvmlSystemGetDriverVersion", nvml_h.nvmlSystemGetDriverVersion(buf, size));
            return buf.getString(0);
        }
    }

    public static String name(MemorySegment device) {
        return string("nvmlDeviceGetName", device, nvml_h.NVML_DEVICE_NAME_V2_BUFFER_SIZE(), nvml_h::nvmlDeviceGetName);
    }

    public static String uuid(MemorySegment device) {
        return string("nvmlDeviceGetUUID", device, nvml_h.NVML_DEVICE_UUID_V2_BUFFER_SIZE(), nvml_h::nvmlDeviceGetUUID);
    }

    public static OptionalLong powerMilliwatts(MemorySegment device) {
        return unsignedInt("nvmlDeviceGetPowerUsage", device, nvml_h::nvmlDeviceGetPowerUsage);
    }

    public static OptionalLong enforcedPowerLimitMilliwatts(MemorySegment device) {
        return unsignedInt("nvmlDeviceGetEnforcedPowerLimit", device, nvml_h::nvmlDeviceGetEnforcedPowerLimit);
    }

    public static OptionalLong temperatureCelsius(MemorySegment device) {
        return unsignedInt(
                "nvmlDeviceGetTemperature",
                device,
                (h, out) -> nvml_h.nvmlDeviceGetTemperature(h, nvml_h.NVML_TEMPERATURE_GPU(), out));
    }

    public static OptionalLong clockMHz(MemorySegment device, Clock clock) {
        return unsignedInt(
                "nvmlDeviceGetClockInfo", device, (h, out) -> nvml_h.nvmlDeviceGetClockInfo(h, clock.type(), out));
    }

    public static OptionalLong maxClockMHz(MemorySegment device, Clock clock) {
        return unsignedInt(
                "nvmlDeviceGetMaxClockInfo",
                device,
                (h, out) -> nvml_h.nvmlDeviceGetMaxClockInfo(h, clock.type(), out));
    }

    public static Optional<Utilization> utilization(MemorySegment device) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment u = nvmlUtilization_st.allocate(arena);
            if (!supported("nvmlDeviceGetUtilizationRates", nvml_h.nvmlDeviceGetUtilizationRates(device, u))) {
                return Optional.empty();
            }
            return Optional.of(new Utilization(nvmlUtilization_st.gpu(u), nvmlUtilization_st.memory(u)));
        }
    }

    /** The clock-event reason bits now set ({@code nvmlDeviceGetCurrentClocksEventReasons}). */
    public static OptionalLong clockEventMask(MemorySegment device) {
        return unsignedLong(
                "nvmlDeviceGetCurrentClocksEventReasons", device, nvml_h::nvmlDeviceGetCurrentClocksEventReasons);
    }

    public static OptionalLong totalEnergyMillijoules(MemorySegment device) {
        return unsignedLong("nvmlDeviceGetTotalEnergyConsumption", device, nvml_h::nvmlDeviceGetTotalEnergyConsumption);
    }

    private interface Query {
        int call(MemorySegment handle, MemorySegment out);
    }

    private interface StringQuery {
        int call(MemorySegment handle, MemorySegment buffer, int length);
    }

    /** An {@code unsigned int} out-parameter; empty on NVML_ERROR_NOT_SUPPORTED. */
    private static OptionalLong unsignedInt(String function, MemorySegment device, Query q) {
        OptionalLong v = query(function, device, q, ValueLayout.JAVA_INT);
        return v.isPresent() ? OptionalLong.of(Integer.toUnsignedLong((int) v.getAsLong())) : v;
    }

    /** An {@code unsigned long long} out-parameter (values stay below 2^63 in practice); empty on NOT_SUPPORTED. */
    private static OptionalLong unsignedLong(String function, MemorySegment device, Query q) {
        return query(function, device, q, ValueLayout.JAVA_LONG);
    }

    private static OptionalLong query(String function, MemorySegment device, Query q, ValueLayout layout) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(layout);
            if (!supported(function, q.call(device, out))) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(
                    layout == ValueLayout.JAVA_INT
                            ? out.get(ValueLayout.JAVA_INT, 0)
                            : out.get(ValueLayout.JAVA_LONG, 0));
        }
    }

    private static String string(String function, MemorySegment device, int size, StringQuery q) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buf = arena.allocate(size);
            check(function, q.call(device, buf, size));
            return buf.getString(0);
        }
    }
}
