package dev.roofline.nvml;

import dev.roofline.bindings.loader.LibraryNotFoundException;
import dev.roofline.bindings.loader.NativeAccessDeniedException;
import dev.roofline.bindings.loader.NativeLibraries;
import dev.roofline.bindings.loader.NativeLibrary;
import dev.roofline.bindings.loader.StatusNames;
import dev.roofline.bindings.nvml.nvml_h;

import java.lang.foreign.MemorySegment;

/** The checked layer: loads libnvidia-ml once and turns every {@code nvmlReturn_t} into an exception or a value. */
final class Nvml {
    private Nvml() {}

    static final int SUCCESS = nvml_h.NVML_SUCCESS();
    static final int NOT_SUPPORTED = nvml_h.NVML_ERROR_NOT_SUPPORTED();

    /** The one {@code nvmlReturn_t} table, from the constants generated from nvml.h. */
    private static final StatusNames NAMES = StatusNames.of(nvml_h.class,
            n -> n.equals("NVML_SUCCESS") || n.startsWith("NVML_ERROR_"), "NVML_RETURN_");

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

    /** Loads libnvidia-ml, or says exactly why it cannot. */
    static void load() {
        try {
            NativeLibraries.load(NativeLibrary.NVML);
        } catch (LibraryNotFoundException e) {
            throw new NvmlUnavailableException("NVML library not found: " + e.getMessage(), e);
        } catch (NativeAccessDeniedException e) {
            throw new NvmlUnavailableException("native access denied: start the JVM with "
                    + "--enable-native-access=dev.roofline.bindings,dev.roofline.nvml (or ALL-UNNAMED)", e);
        }
    }
}
