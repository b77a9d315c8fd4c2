package dev.roofline.nvml;

/** An NVML call returned an error: the function, the numeric {@code nvmlReturn_t}, its symbolic name and NVML's message. */
public class NvmlException extends RuntimeException {
    private final String function;
    private final int code;
    private final String codeName;

    public NvmlException(String function, int code, String codeName, String message) {
        super(function + " failed: " + codeName + " (" + code + ")" + (message == null || message.isEmpty() ? "" : ": " + message));
        this.function = function;
        this.code = code;
        this.codeName = codeName;
    }

    public String function() {
        return function;
    }

    public int code() {
        return code;
    }

    /** e.g. "NVML_ERROR_NO_PERMISSION". */
    public String codeName() {
        return codeName;
    }
}
