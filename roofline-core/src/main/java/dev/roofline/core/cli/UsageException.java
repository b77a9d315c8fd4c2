package dev.roofline.core.cli;

import java.io.Serial;

/** The command line is wrong (unknown option, missing or malformed value, missing operand): exit status 2 with usage. */
public final class UsageException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
