package dev.roofline.cuda.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReportRenderTest {
    /** A row of the test table: a name, a value (null: none) and a failure (null: none). */
    private record Row(String name, Double value, String note, String failure) {}

    private static final Table<Row> TABLE = new Table<>(
            List.of(
                    Column.text("name", "name", Row::name),
                    Column.number(
                            "value",
                            "value",
                            "%.2f",
                            "%.3f",
                            r -> r.value() == null ? OptionalDouble.empty() : OptionalDouble.of(r.value())),
                    Column.text(null, "note", Row::note),
                    Column.number("x", null, "%.1fx", "%.1f", Row::value)),
            1,
            Row::failure);

    @Test
    void textPadsEachColumnToItsWidestCellAndRightAlignsNumbers() {
        // widths: name max("name", "alpha", "b") = 5; value max("value", "1.50", "12.25") = 5; x max("x", "1.5x",
        // "12.3x") = 5
        String text = Report.render(
                TABLE, List.of(new Row("alpha", 1.5, "", null), new Row("b", 12.25, "", null)), ReportFormat.TEXT);
        assertThat(text).isEqualTo("""
                name   value      x
                alpha   1.50   1.5x
                b      12.25  12.3x
                """);
    }

    @Test
    void aFailedRowKeepsItsNameAndSaysWhyInText() {
        String text = Report.render(
                TABLE,
                List.of(new Row("alpha", 1.5, "", null), new Row("gamma", null, "", "no algorithm")),
                ReportFormat.TEXT);
        assertThat(text.split("\n")[2]).isEqualTo("gamma  failed: no algorithm");
    }

    @Test
    void csvQuotesCommasQuotesAndLineBreaksAndDoublesQuotes() {
        String csv = Report.render(
                TABLE,
                List.of(new Row("a,b", 1.5, "say \"hi\"", null), new Row("two\nlines", null, "plain", null)),
                ReportFormat.CSV);
        assertThat(csv)
                .isEqualTo("name,value,note\n" + "\"a,b\",1.500,\"say \"\"hi\"\"\"\n" + "\"two\nlines\",,plain\n");
    }

    @Test
    void csvEscapingFollowsRfc4180() {
        assertThat(Report.csvEscape("plain")).isEqualTo("plain");
        assertThat(Report.csvEscape("")).isEqualTo("");
        assertThat(Report.csvEscape("1,2")).isEqualTo("\"1,2\"");
        assertThat(Report.csvEscape("a \"b\"")).isEqualTo("\"a \"\"b\"\"\"");
        assertThat(Report.csvEscape("a\r\nb")).isEqualTo("\"a\r\nb\"");
    }

    @Test
    void markdownAlignsNumbersRightAndEscapesPipes() {
        String md = Report.render(
                TABLE,
                List.of(new Row("a|b", 2.0, "", null), new Row("c", null, "", "no\nGPU")),
                ReportFormat.MARKDOWN);
        assertThat(md).isEqualTo("""
                | name | value | x |
                | --- | ---: | ---: |
                | a\\|b | 2.00 | 2.0x |
                | c | failed: no GPU |  |
                """);
    }

    @Test
    void headingsAndNotesFollowTheFormat() {
        assertThat(Report.heading("GEMV", ReportFormat.TEXT)).isEqualTo("GEMV\n");
        assertThat(Report.heading("GEMV", ReportFormat.MARKDOWN)).isEqualTo("### GEMV\n\n");
        assertThat(Report.heading("GEMV", ReportFormat.CSV)).isEmpty();
        assertThat(Report.notes(List.of("a", "b"), ReportFormat.TEXT)).isEqualTo("a\nb\n");
        assertThat(Report.notes(List.of("a", "b"), ReportFormat.MARKDOWN)).isEqualTo("\na\n\nb\n");
        assertThat(Report.notes(List.of("a"), ReportFormat.CSV)).isEmpty();
    }

    @Test
    void formatsParseInAnyCaseAndUnknownOnesAreNamed() {
        assertThat(ReportFormat.parse("csv")).isEqualTo(ReportFormat.CSV);
        assertThat(ReportFormat.parse("Markdown")).isEqualTo(ReportFormat.MARKDOWN);
        assertThat(ReportFormat.parse("md")).isEqualTo(ReportFormat.MARKDOWN);
        assertThatThrownBy(() -> ReportFormat.parse("html"))
                .hasMessageContaining("'html'")
                .hasMessageContaining("text, csv or markdown");
    }

    @Test
    void aColumnNeedsATitleOrACsvNameAndATableItsKeys() {
        assertThatThrownBy(() -> Column.text(null, null, Row::name)).hasMessageContaining("title, a CSV name or both");
        assertThatThrownBy(() -> new Table<>(List.of(Column.<Row>text("name", "name", Row::name)), 2, Row::failure))
                .hasMessageContaining("keyColumns 2");
    }
}
