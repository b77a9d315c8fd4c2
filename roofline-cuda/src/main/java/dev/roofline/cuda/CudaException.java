package dev.roofline.cuda;

import dev.roofline.bindings.error.NativeCallException;

/**
 * A CUDA runtime call returned an error: carries the function, the numeric {@code cudaError_t}, its symbolic name
 * ({@code cudaGetErrorName}) and the runtime's own message ({@code cudaGetErrorString}).
 */
public final class CudaException extends NativeCallException {

    /**
     * @param function       the runtime function, e.g. {@code cudaMalloc}
     * @param code           the {@code cudaError_t} it returned
     * @param errorName      its name, e.g. {@code cudaErrorMemoryAllocation}
     * @param libraryMessage the runtime's message, e.g. {@code out of memory}
     */
    public CudaException(String function, int code, String errorName, String libraryMessage) {
        super(function, code, errorName, libraryMessage);
    }

    /** e.g. {@code cudaErrorMemoryAllocation}; the same as {@link #symbolicName()}. */
    public String errorName() {
        return symbolicName();
    }
}
