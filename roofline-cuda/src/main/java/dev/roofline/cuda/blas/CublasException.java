package dev.roofline.cuda.blas;

import dev.roofline.bindings.error.NativeCallException;

/**
 * A cuBLASLt call returned a status other than success: carries the function, the numeric {@code cublasStatus_t},
 * its name ({@code cublasLtGetStatusName}) and the library's message ({@code cublasLtGetStatusString}).
 */
public final class CublasException extends NativeCallException {

    /**
     * @param function       the cuBLASLt function, e.g. {@code cublasLtMatmul}
     * @param status         the {@code cublasStatus_t} it returned
     * @param statusName     its name, e.g. {@code CUBLAS_STATUS_NOT_SUPPORTED}
     * @param libraryMessage the library's message
     */
    public CublasException(String function, int status, String statusName, String libraryMessage) {
        super(function, status, statusName, libraryMessage);
    }

    /** The {@code cublasStatus_t}; the same as {@link #code()}. */
    public int status() {
        return code();
    }

    /** e.g. {@code CUBLAS_STATUS_NOT_SUPPORTED}; the same as {@link #symbolicName()}. */
    public String statusName() {
        return symbolicName();
    }
}
