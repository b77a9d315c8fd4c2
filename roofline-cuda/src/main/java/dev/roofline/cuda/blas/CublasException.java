package dev.roofline.cuda.blas;

/**
 * A cuBLASLt call returned a status other than success: carries the function, the numeric {@code cublasStatus_t},
 * its name ({@code cublasLtGetStatusName}) and the library's message ({@code cublasLtGetStatusString}).
 */
public final class CublasException extends RuntimeException {
    private final String function;
    private final int status;
    private final String statusName;
    private final String libraryMessage;

    public CublasException(String function, int status, String statusName, String libraryMessage) {
        super(function + " failed: " + statusName + " (" + status + "): " + libraryMessage);
        this.function = function;
        this.status = status;
        this.statusName = statusName;
        this.libraryMessage = libraryMessage;
    }

    public String function() {
        return function;
    }

    public int status() {
        return status;
    }

    public String statusName() {
        return statusName;
    }

    public String libraryMessage() {
        return libraryMessage;
    }
}
