package dev.roofline.nvml;

/** NVML cannot be used here: library missing, driver not loaded, no permission, or native access denied. */
public class NvmlUnavailableException extends RuntimeException {
    public NvmlUnavailableException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
