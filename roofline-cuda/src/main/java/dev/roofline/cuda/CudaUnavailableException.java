package dev.roofline.cuda;

/** CUDA cannot be used in this process; the message says why (no library, no device, native access denied). */
public final class CudaUnavailableException extends IllegalStateException {
    public CudaUnavailableException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
