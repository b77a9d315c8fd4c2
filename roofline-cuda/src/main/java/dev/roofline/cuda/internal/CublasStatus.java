package dev.roofline.cuda.internal;

import dev.roofline.bindings.cublaslt.cublaslt_h;
import dev.roofline.bindings.loader.NativeLibraries;
import dev.roofline.bindings.loader.NativeLibrary;
import dev.roofline.bindings.loader.StatusNames;
import dev.roofline.cuda.blas.CublasException;

/**
 * The one {@code cublasStatus_t} table: names and messages from cuBLASLt when it is loaded, else the name from the
 * generated constants. The only place a {@link CublasException} is made from a status.
 */
public final class CublasStatus {
    private static final int SUCCESS = cublaslt_h.CUBLAS_STATUS_SUCCESS();
    private static final StatusNames NAMES =
            StatusNames.of(cublaslt_h.class, n -> n.startsWith("CUBLAS_STATUS_"), "cublasStatus ");

    private CublasStatus() {}

    /** Throws the {@link CublasException} for {@code status} unless it is {@code CUBLAS_STATUS_SUCCESS}. */
    public static void check(String function, int status) {
        if (status != SUCCESS) {
            boolean loaded = NativeLibraries.isLoaded(NativeLibrary.CUBLASLT);
            throw new CublasException(function, status, name(status, loaded), message(status, loaded));
        }
    }

    /** {@code CUBLAS_STATUS_NOT_SUPPORTED} from {@code function}, with roofline's own explanation. */
    static CublasException notSupported(String function, String message) {
        int status = cublaslt_h.CUBLAS_STATUS_NOT_SUPPORTED();
        return new CublasException(function, status, NAMES.name(status), message);
    }

    static String name(int status, boolean libraryLoaded) {
        return libraryLoaded
                ? cublaslt_h.cublasLtGetStatusName(status).reinterpret(256).getString(0)
                : NAMES.name(status);
    }

    static String message(int status, boolean libraryLoaded) {
        return libraryLoaded
                ? cublaslt_h.cublasLtGetStatusString(status).reinterpret(1024).getString(0)
                : "(no message: " + NativeLibrary.CUBLASLT.soname() + " not loaded)";
    }
}
