package dev.roofline.core.internal;

import java.util.function.Supplier;

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

    /**
     * {@code value} when it is finite and at least {@code floor}.
     *
     * @throws IllegalArgumentException naming {@code name}, the value and the floor ({@code floorText})
     */
    public static double atLeast(String name, double value, double floor, String floorText) {
        if (!Double.isFinite(value) || value < floor) {
            throw new IllegalArgumentException(
                    name + " must be a finite number of at least " + floorText + " (" + floor + "), got " + value);
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
            throw new IllegalArgumentException(
                    name + " must not be blank, got " + (value == null ? "null" : "'" + value + "'"));
        }
        return value;
    }

    /** {@code a * b}; the description of what overflowed is only built when it does. */
    public static long multiply(long a, long b, Supplier<String> what) {
        long r = a * b;
        if (Math.multiplyHigh(a, b) != (r >> 63)) {
            throw new IllegalArgumentException(what.get() + " overflows a long (" + a + " * " + b + ")");
        }
        return r;
    }

    /** {@code a + b}; the description of what overflowed is only built when it does. */
    public static long add(long a, long b, Supplier<String> what) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) {
            throw new IllegalArgumentException(what.get() + " overflows a long (" + a + " + " + b + ")");
        }
        return r;
    }
}
