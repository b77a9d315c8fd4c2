package dev.roofline.nvml;

import dev.roofline.bindings.error.NativeCallException;

/** An NVML call returned an error: the function, the numeric {@code nvmlReturn_t}, its symbolic name and NVML's message. */
public final class NvmlException extends NativeCallException {

    /**
     * @param function the NVML function, e.g. {@code nvmlDeviceGetPowerUsage}
     * @param code     the {@code nvmlReturn_t} it returned
     * @param codeName its name, e.g. {@code NVML_ERROR_NO_PERMISSION}
     * @param message  {@code nvmlErrorString}; null or empty when NVML gave none
     */
    public NvmlException(String function, int code, String codeName, String message) {
        super(function, code, codeName, message);
    }

    /** e.g. "NVML_ERROR_NO_PERMISSION"; the same as {@link #symbolicName()}. */
    public String codeName() {
        return symbolicName();
    }
}
