package dev.roofline.core.cli;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.precision.Precision;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The {@link Option.Converter}s commands share; each refusal names the option and the text it got. */
public final class Converters {
    private Converters() {}

    /** The text as typed. */
    public static Option.Converter<String> text() {
        return (option, value) -> value;
    }

    /** A file system path (not checked for existence: that is the command's data error). */
    public static Option.Converter<Path> path() {
        return (option, value) -> Path.of(value);
    }

    /** A registry hardware name or alias ({@link Hardware#byName}). */
    public static Option.Converter<Hardware> hardware() {
        return (option, value) -> Hardware.byName(value);
    }

    /** A precision name or alias ({@link Precision#parse}). */
    public static Option.Converter<Precision> precision() {
        return (option, value) -> Precision.parse(value);
    }

    /** Comma-separated precisions, e.g. {@code fp16,fp8,nvfp4}. */
    public static Option.Converter<List<Precision>> precisions() {
        return (option, value) -> {
            List<Precision> ps = new ArrayList<>();
            for (String s : value.split(",")) {
                ps.add(Precision.parse(s));
            }
            return List.copyOf(ps);
        };
    }

    /** An integer greater than zero. */
    public static Option.Converter<Long> positiveLong() {
        return (option, value) -> {
            try {
                long n = Long.parseLong(value.strip());
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(option + " must be a positive integer, got '" + value + "'");
        };
    }

    /** Comma-separated integers, each greater than zero and at most 2^31 - 1, e.g. {@code 1,8,32}. */
    public static Option.Converter<List<Integer>> positiveInts() {
        return (option, value) -> {
            List<Integer> list = new ArrayList<>();
            for (String s : value.split(",", -1)) {
                long n = positiveLong().convert(option, s);
                if (n > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException(
                            option + " must be at most " + Integer.MAX_VALUE + ", got '" + s.strip() + "'");
                }
                list.add((int) n);
            }
            return List.copyOf(list);
        };
    }

    /**
     * A size in bytes, at least 1: a whole number, optionally followed by K, M or G (binary: 1K = 1024 bytes), e.g.
     * {@code 8}, {@code 64K}, {@code 1G}.
     */
    public static Option.Converter<Long> bytes() {
        return (option, value) -> {
            String v = value.strip().toUpperCase(Locale.ROOT);
            int shift =
                    switch (v.isEmpty() ? ' ' : v.charAt(v.length() - 1)) {
                        case 'K' -> 10;
                        case 'M' -> 20;
                        case 'G' -> 30;
                        default -> 0;
                    };
            String digits = shift == 0 ? v : v.substring(0, v.length() - 1);
            try {
                long n = Long.parseLong(digits);
                if (n > 0 && n <= Long.MAX_VALUE >> shift) {
                    return n << shift;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException(
                    option + " must be a positive size in bytes such as 8, 64K, 1M or 1G, got '" + value + "'");
        };
    }

    /** An interconnect by its name in the registry ({@link Interconnect#byName}), e.g. {@code nvlink4}. */
    public static Option.Converter<Interconnect> interconnect() {
        return (option, value) -> {
            try {
                return Interconnect.byName(value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
            }
        };
    }

    /** A decimal number. */
    public static Option.Converter<Double> number() {
        return (option, value) -> {
            try {
                return Double.parseDouble(value.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + " must be a number, got '" + value + "'");
            }
        };
    }

    /** One of a few names, case-insensitive, e.g. {@code decode} or {@code prefill}: the name, in lower case. */
    public static Option.Converter<String> oneOf(String... names) {
        List<String> known = List.of(names);
        return (option, value) -> {
            String v = value.toLowerCase(Locale.ROOT);
            if (!known.contains(v)) {
                throw new IllegalArgumentException(option + " must be " + choices(known) + ", got '" + value + "'");
            }
            return v;
        };
    }

    /** "a", "a or b", "a, b or c". */
    static String choices(List<String> names) {
        if (names.size() == 1) {
            return names.getFirst();
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.getLast();
    }
}
