package dev.roofline.cuda;

/**
 * A CUDA runtime call returned an error: carries the function, the numeric {@code cudaError_t}, its symbolic name
 * ({@code cudaGetErrorName}) and the runtime's own message ({@code cudaGetErrorString}).
 */
public final class CudaException extends RuntimeException {
    private final String function;
    private final int code;
    private final String errorName;
    private final String libraryMessage;

    public CudaException(String function, int code, String errorName, String libraryMessage) {
        super(function + " failed: " + errorName + " (" + code + "): " + libraryMessage);
        this.function = function;
        this.code = code;
        this.errorName = errorName;
        this.libraryMessage = libraryMessage;
    }

    /**
     * The exception for {@code code} returned by {@code function}, named and described by the runtime when it is
     * loaded (for code elsewhere in roofline-cuda that makes its own runtime calls, e.g. the kernel launcher).
     */
    public static CudaException of(String function, int code) {
        return CudaErrors.exception(function, code);
    }

    public String function() {
        return function;
    }

    public int code() {
        return code;
    }

    /** e.g. {@code cudaErrorMemoryAllocation}. */
    public String errorName() {
        return errorName;
    }

    /** e.g. {@code out of memory}. */
    public String libraryMessage() {
        return libraryMessage;
    }
}
