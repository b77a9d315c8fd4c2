package dev.roofline.core.hardware;

import dev.roofline.core.internal.Checks;

import java.time.LocalDate;

/**
 * Where a hardware figure comes from. Every figure roofline prints can be traced to one of these.
 *
 * @param kind      datasheet, derived from a datasheet figure, or measured
 * @param citation  the document (title and address) or the measurement (GPU and date)
 * @param note      how a derived figure was obtained, or a caveat; empty when there is none
 * @param uncertain true when the figure is not published as such and may be off
 */
public record Source(Kind kind, String citation, String note, boolean uncertain) {

    public enum Kind {
        DATASHEET,
        DERIVED,
        MEASURED,
        USER
    }

    public Source {
        Checks.notNull("kind", kind);
        Checks.notBlank("citation", citation);
        note = note == null ? "" : note;
    }

    public static Source datasheet(String citation) {
        return new Source(Kind.DATASHEET, citation, "", false);
    }

    /** A figure computed from a published one, e.g. dense = with-sparsity / 2. */
    public static Source derived(String citation, String how) {
        return new Source(Kind.DERIVED, citation, how, false);
    }

    /** A figure that is not published as such and may be off; {@code why} says so. */
    public static Source estimate(String citation, String why) {
        return new Source(Kind.DERIVED, citation, why, true);
    }

    public static Source measured(String gpu, LocalDate date, String how) {
        Checks.notBlank("gpu", gpu);
        Checks.notNull("date", date);
        return new Source(Kind.MEASURED, "measured on " + gpu + ", " + date, how, false);
    }

    /** A figure the caller supplied (custom hardware). */
    public static Source user(String what) {
        return new Source(Kind.USER, what, "", false);
    }

    @Override
    public String toString() {
        String s = citation + (note.isEmpty() ? "" : " (" + note + ")");
        return uncertain ? s + " [uncertain]" : s;
    }
}
