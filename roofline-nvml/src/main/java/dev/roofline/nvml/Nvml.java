package dev.roofline.nvml;

import dev.roofline.bindings.nvml.nvml_h;
import dev.roofline.cuda.library.LibraryNotFoundException;
import dev.roofline.cuda.library.NativeAccessDeniedException;
import dev.roofline.cuda.library.NativeLibraries;
import dev.roofline.cuda.library.NativeLibrary;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.IntSupplier;

/** The checked layer: loads libnvidia-ml once and turns every {@code nvmlReturn_t} into an exception or a value. */
final class Nvml {
    private Nvml() {}

    static final int SUCCESS = nvml_h.NVML_SUCCESS();
    static final int NOT_SUPPORTED = nvml_h.NVML_ERROR_NOT_SUPPORTED();

    private static final Map<Integer, String> NAMES = names();

    private static Map<Integer, String> names() {
        Map<Integer, String> m = new LinkedHashMap<>();
        put(m, "NVML_SUCCESS", nvml_h::NVML_SUCCESS);
        put(m, "NVML_ERROR_UNINITIALIZED", nvml_h::NVML_ERROR_UNINITIALIZED);
        put(m, "NVML_ERROR_INVALID_ARGUMENT", nvml_h::NVML_ERROR_INVALID_ARGUMENT);
        put(m, "NVML_ERROR_NOT_SUPPORTED", nvml_h::NVML_ERROR_NOT_SUPPORTED);
        put(m, "NVML_ERROR_NO_PERMISSION", nvml_h::NVML_ERROR_NO_PERMISSION);
        put(m, "NVML_ERROR_ALREADY_INITIALIZED", nvml_h::NVML_ERROR_ALREADY_INITIALIZED);
        put(m, "NVML_ERROR_NOT_FOUND", nvml_h::NVML_ERROR_NOT_FOUND);
        put(m, "NVML_ERROR_INSUFFICIENT_SIZE", nvml_h::NVML_ERROR_INSUFFICIENT_SIZE);
        put(m, "NVML_ERROR_INSUFFICIENT_POWER", nvml_h::NVML_ERROR_INSUFFICIENT_POWER);
        put(m, "NVML_ERROR_DRIVER_NOT_LOADED", nvml_h::NVML_ERROR_DRIVER_NOT_LOADED);
        put(m, "NVML_ERROR_TIMEOUT", nvml_h::NVML_ERROR_TIMEOUT);
        put(m, "NVML_ERROR_IRQ_ISSUE", nvml_h::NVML_ERROR_IRQ_ISSUE);
        put(m, "NVML_ERROR_LIBRARY_NOT_FOUND", nvml_h::NVML_ERROR_LIBRARY_NOT_FOUND);
        put(m, "NVML_ERROR_FUNCTION_NOT_FOUND", nvml_h::NVML_ERROR_FUNCTION_NOT_FOUND);
        put(m, "NVML_ERROR_CORRUPTED_INFOROM", nvml_h::NVML_ERROR_CORRUPTED_INFOROM);
        put(m, "NVML_ERROR_GPU_IS_LOST", nvml_h::NVML_ERROR_GPU_IS_LOST);
        put(m, "NVML_ERROR_RESET_REQUIRED", nvml_h::NVML_ERROR_RESET_REQUIRED);
        put(m, "NVML_ERROR_OPERATING_SYSTEM", nvml_h::NVML_ERROR_OPERATING_SYSTEM);
        put(m, "NVML_ERROR_LIB_RM_VERSION_MISMATCH", nvml_h::NVML_ERROR_LIB_RM_VERSION_MISMATCH);
        put(m, "NVML_ERROR_IN_USE", nvml_h::NVML_ERROR_IN_USE);
        put(m, "NVML_ERROR_MEMORY", nvml_h::NVML_ERROR_MEMORY);
        put(m, "NVML_ERROR_NO_DATA", nvml_h::NVML_ERROR_NO_DATA);
        put(m, "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED", nvml_h::NVML_ERROR_VGPU_ECC_NOT_SUPPORTED);
        put(m, "NVML_ERROR_INSUFFICIENT_RESOURCES", nvml_h::NVML_ERROR_INSUFFICIENT_RESOURCES);
        put(m, "NVML_ERROR_FREQ_NOT_SUPPORTED", nvml_h::NVML_ERROR_FREQ_NOT_SUPPORTED);
        put(m, "NVML_ERROR_ARGUMENT_VERSION_MISMATCH", nvml_h::NVML_ERROR_ARGUMENT_VERSION_MISMATCH);
        put(m, "NVML_ERROR_DEPRECATED", nvml_h::NVML_ERROR_DEPRECATED);
        put(m, "NVML_ERROR_NOT_READY", nvml_h::NVML_ERROR_NOT_READY);
        put(m, "NVML_ERROR_GPU_NOT_FOUND", nvml_h::NVML_ERROR_GPU_NOT_FOUND);
        put(m, "NVML_ERROR_INVALID_STATE", nvml_h::NVML_ERROR_INVALID_STATE);
        put(m, "NVML_ERROR_RESET_TYPE_NOT_SUPPORTED", nvml_h::NVML_ERROR_RESET_TYPE_NOT_SUPPORTED);
        put(m, "NVML_ERROR_UNKNOWN", nvml_h::NVML_ERROR_UNKNOWN);
        return Map.copyOf(m);
    }

    private static void put(Map<Integer, String> m, String name, IntSupplier code) {
        m.put(code.getAsInt(), name);
    }

    /** The symbolic name of an {@code nvmlReturn_t}, or "NVML_RETURN_<code>" for one this header does not know. */
    static String name(int code) {
        return NAMES.getOrDefault(code, "NVML_RETURN_" + code);
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

    /** Loads libnvidia-ml, or says exactly why it cannot. */
    static void load() {
        try {
            NativeLibraries.load(NativeLibrary.NVML);
        } catch (LibraryNotFoundException e) {
            throw new NvmlUnavailableException("NVML library not found: " + e.getMessage(), e);
        } catch (NativeAccessDeniedException e) {
            throw new NvmlUnavailableException("native access denied: start the JVM with "
                    + "--enable-native-access=dev.roofline.bindings,dev.roofline.cuda,dev.roofline.nvml (or ALL-UNNAMED)", e);
        }
    }
}
