package dev.roofline.bindings.error;

/**
 * A native library call returned a status other than success: the function, the numeric status, its symbolic name
 * (from the library or its status-name table) and the library's own message. roofline-cuda's
 * {@code CudaException} and {@code CublasException} and roofline-nvml's {@code NvmlException} extend it, so the three
 * libraries' errors carry the same fields and read the same: {@code "cudaMalloc failed: cudaErrorMemoryAllocation (2):
 * out of memory"}, the message part left out when the library gave none.
 *
 * <p>It lives in its own package, exported to every module, so that users of roofline-cuda and roofline-nvml can catch
 * any native failure in one clause:
 *
 * <pre>{@code
 * try {
 *     runOnTheGpu();
 * } catch (NativeCallException e) {
 *     log(e.function() + " returned " + e.symbolicName());
 * }
 * }</pre>
 */
public abstract class NativeCallException extends RuntimeException {
    private final String function;
    private final int code;
    private final String symbolicName;
    private final String libraryMessage;

    /**
     * @param function       the native function called, e.g. {@code cudaMalloc}
     * @param code           the status it returned
     * @param symbolicName   the status's name, e.g. {@code cudaErrorMemoryAllocation}
     * @param libraryMessage the library's description of the status; null or empty when it gave none
     */
    protected NativeCallException(String function, int code, String symbolicName, String libraryMessage) {
        super(function + " failed: " + symbolicName + " (" + code + ")"
                + (libraryMessage == null || libraryMessage.isEmpty() ? "" : ": " + libraryMessage));
        this.function = function;
        this.code = code;
        this.symbolicName = symbolicName;
        this.libraryMessage = libraryMessage == null ? "" : libraryMessage;
    }

    /** The native function that failed. */
    public String function() {
        return function;
    }

    /** The numeric status it returned. */
    public int code() {
        return code;
    }

    /** The status's symbolic name, e.g. {@code cudaErrorMemoryAllocation}, {@code NVML_ERROR_NO_PERMISSION}. */
    public String symbolicName() {
        return symbolicName;
    }

    /** The library's own description of the status, e.g. {@code out of memory}; empty when it gave none. */
    public String libraryMessage() {
        return libraryMessage;
    }
}
