package dev.roofline.cuda.bench;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * What a {@link Report} shows of rows of type {@code T}: the columns, how many of them name the row (kept on a row that
 * failed), and the failure of a row, if any. In text and Markdown a failed row shows its naming columns and then
 * "failed: why" in place of the others; in CSV it shows every column, its values empty (give the reason a column of its
 * own to keep it there).
 *
 * @param columns    in order
 * @param keyColumns how many of the first columns name the row
 * @param failure    why a row has no values, or null when it has them
 * @param <T>        the row type
 */
public record Table<T>(List<Column<T>> columns, int keyColumns, Function<? super T, String> failure) {

    public Table {
        columns = List.copyOf(columns);
        Objects.requireNonNull(failure, "failure");
        if (columns.isEmpty() || keyColumns < 0 || keyColumns > columns.size()) {
            throw new IllegalArgumentException("need at least one column and 0 <= keyColumns <= " + columns.size()
                    + ", got " + columns.size() + " columns and keyColumns " + keyColumns);
        }
    }

    /** A table whose rows never fail. */
    public static <T> Table<T> of(List<Column<T>> columns) {
        return new Table<>(columns, 0, row -> null);
    }

    /** The columns shown in {@code format}: all with a title in text and Markdown, all with a CSV name in CSV. */
    List<Column<T>> columnsIn(ReportFormat format) {
        return columns.stream()
                .filter(c -> (format == ReportFormat.CSV ? c.csvName() : c.title()) != null)
                .toList();
    }

    /** Of {@link #columnsIn}, how many name the row. */
    int keyColumnsIn(ReportFormat format) {
        return (int) columns.subList(0, keyColumns).stream()
                .filter(c -> (format == ReportFormat.CSV ? c.csvName() : c.title()) != null)
                .count();
    }
}
