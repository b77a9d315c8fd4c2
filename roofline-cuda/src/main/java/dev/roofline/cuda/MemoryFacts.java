package dev.roofline.cuda;

/**
 * How a GPU holds memory, as the CUDA runtime reports it. On GB10 the GPU shares the system's LPDDR5X with the CPU:
 * {@code integrated} is true and {@code totalBytes} is what CUDA may use of it, less than the 128 GB the system has.
 *
 * @param integrated           cudaDevAttrIntegrated: the GPU shares the host's memory
 * @param pageableMemoryAccess cudaDevAttrPageableMemoryAccess: kernels may read pageable host memory directly
 * @param freeBytes            free memory (cudaMemGetInfo)
 * @param totalBytes           total memory (cudaMemGetInfo)
 */
public record MemoryFacts(boolean integrated, boolean pageableMemoryAccess, long freeBytes, long totalBytes) {
    public MemoryFacts {
        if (freeBytes < 0 || totalBytes <= 0 || freeBytes > totalBytes) {
            throw new IllegalArgumentException("memory must satisfy 0 <= free <= total, total > 0; got free "
                    + freeBytes + ", total " + totalBytes);
        }
    }
}
