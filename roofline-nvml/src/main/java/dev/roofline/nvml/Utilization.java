package dev.roofline.nvml;

/**
 * NVML utilization over its last sample period.
 *
 * @param gpuPercent    percent of time a kernel was running
 * @param memoryPercent percent of time device memory was read or written
 */
public record Utilization(int gpuPercent, int memoryPercent) {
    public Utilization {
        if (gpuPercent < 0 || gpuPercent > 100 || memoryPercent < 0 || memoryPercent > 100) {
            throw new IllegalArgumentException(
                    "utilization must be in 0..100, got gpu " + gpuPercent + ", memory " + memoryPercent);
        }
    }
}
