package dev.roofline.cuda;

/** A GPU resource was used after {@code close()}: "buffer already closed", "stream already closed". */
public final class ClosedResourceException extends IllegalStateException {
    public ClosedResourceException(String what) {
        super(what + " already closed");
    }
}
