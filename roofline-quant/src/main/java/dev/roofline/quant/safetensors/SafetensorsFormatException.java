package dev.roofline.quant.safetensors;

import java.io.IOException;
import java.util.Objects;

/**
 * A file or checkpoint index that breaks the safetensors format. Like {@link java.util.zip.ZipException}, it is an
 * {@link IOException}: the bytes on disk are not what the format promises. {@link #violation()} says which rule
 * broke; the message names the file, the tensor, the field and the bad value.
 */
public final class SafetensorsFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final FormatViolation violation;

    public SafetensorsFormatException(FormatViolation violation, String message) {
        super(message);
        this.violation = Objects.requireNonNull(violation, "violation");
    }

    public SafetensorsFormatException(FormatViolation violation, String message, Throwable cause) {
        super(message, cause);
        this.violation = Objects.requireNonNull(violation, "violation");
    }

    /** Which format rule the file breaks. */
    public FormatViolation violation() {
        return violation;
    }
}
