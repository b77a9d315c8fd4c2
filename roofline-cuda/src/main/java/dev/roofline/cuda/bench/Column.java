package dev.roofline.cuda.bench;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * One column of a {@link Table}: its title in text and Markdown, its name in CSV, and how a row's value is written in
 * each. The value function returns a number, string or boolean, or null (or an empty optional) for an empty cell.
 * A column without a title appears only in CSV; one without a CSV name only in text and Markdown.
 *
 * <pre>{@code
 * Column<Measurement> median = Column.number("median us", "median_us", "%.2f", "%.3f", m -> m.time().medianMicros());
 * }</pre>
 *
 * @param title      heading in text and Markdown, or null for a CSV-only column
 * @param csvName    CSV header name, or null for a text-only column
 * @param textFormat {@link String#format} pattern for text and Markdown cells, e.g. {@code "%+.1f"} or {@code "%.2fx"}
 * @param csvFormat  pattern for CSV cells, plain numbers without units, e.g. {@code "%.3f"}
 * @param value      the row's value, null when the cell is empty
 * @param <T>        the row type
 */
public record Column<T>(
        String title, String csvName, String textFormat, String csvFormat, Function<? super T, ?> value) {

    public Column {
        if (title == null && csvName == null) {
            throw new IllegalArgumentException("a column needs a title, a CSV name or both");
        }
        Objects.requireNonNull(textFormat, "textFormat");
        Objects.requireNonNull(csvFormat, "csvFormat");
        Objects.requireNonNull(value, "value");
    }

    /** A column of text, left-aligned. */
    public static <T> Column<T> text(String title, String csvName, Function<? super T, ?> value) {
        return new Column<>(title, csvName, "%s", "%s", value);
    }

    /** A column of numbers, right-aligned, formatted for text and for CSV. */
    public static <T> Column<T> number(
            String title, String csvName, String textFormat, String csvFormat, Function<? super T, ?> value) {
        return new Column<>(title, csvName, textFormat, csvFormat, value);
    }

    /** Text and Markdown put text columns on the left and numbers on the right. */
    public boolean leftAligned() {
        return textFormat.equals("%s");
    }

    /** The row's cell in text and Markdown; empty when there is no value. */
    public String textCell(T row) {
        return cell(textFormat, row);
    }

    /** The row's cell in CSV, not yet quoted; empty when there is no value. */
    public String csvCell(T row) {
        return cell(csvFormat, row);
    }

    private String cell(String format, T row) {
        Object v = unwrap(value.apply(row));
        return v == null ? "" : String.format(Locale.ROOT, format, v);
    }

    private static Object unwrap(Object v) {
        return switch (v) {
            case null -> null;
            case Optional<?> o -> o.orElse(null);
            case OptionalDouble o -> o.isPresent() ? o.getAsDouble() : null;
            case OptionalLong o -> o.isPresent() ? o.getAsLong() : null;
            case OptionalInt o -> o.isPresent() ? o.getAsInt() : null;
            default -> v;
        };
    }
}
