package dev.roofline.nvml;

/**
 * NVML cannot be used here; the message says why: library missing or not NVML, driver not loaded, no permission, or
 * native access denied. An {@link IllegalStateException}, as roofline-cuda's {@code CudaUnavailableException} is.
 */
public final class NvmlUnavailableException extends IllegalStateException {
    public NvmlUnavailableException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
