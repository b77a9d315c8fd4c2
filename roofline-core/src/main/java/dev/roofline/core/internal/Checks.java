package dev.roofline.core.internal;

/** Argument checks whose messages name the argument and the value that was refused. */
public final class Checks {
    private Checks() {}

    public static long positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, got " + value);
        }
        return value;
    }

    public static int positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, got " + value);
        }
        return value;
    }

    /** A finite value strictly greater than zero. */
    public static double positive(String name, double value) {
        if (!Double.isFinite(value) || value <= 0) {
            throw new IllegalArgumentException(name + " must be a finite number > 0, got " + value);
        }
        return value;
    }

    /** A finite value in (0, 1]. */
    public static double fraction(String name, double value) {
        if (!Double.isFinite(value) || value <= 0 || value > 1) {
            throw new IllegalArgumentException(name + " must be in (0, 1], got " + value);
        }
        return value;
    }

    public static <T> T notNull(String name, T value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        return value;
    }

    public static String notBlank(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank, got " + (value == null ? "null" : "'" + value + "'"));
        }
        return value;
    }

    /** {@code a * b}, or an error naming what was being computed when it does not fit in a long. */
    public static long multiply(String what, long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(what + " overflows a long (" + a + " * " + b + ")", e);
        }
    }

    public static long add(String what, long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(what + " overflows a long (" + a + " + " + b + ")", e);
        }
    }
}
