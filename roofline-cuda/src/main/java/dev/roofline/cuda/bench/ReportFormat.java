package dev.roofline.cuda.bench;

import java.util.Locale;

/** How a {@link Report} renders a table: aligned text for a terminal, RFC 4180 CSV, or a GitHub Markdown table. */
public enum ReportFormat {
    /** Columns padded to their widest cell, numbers right-aligned, notes as lines below. */
    TEXT,
    /** A header of machine names, then one record per row; cells quoted when they hold a comma, quote or line break. */
    CSV,
    /** A pipe table with a heading per section and notes as paragraphs; pipes in cells escaped. */
    MARKDOWN;

    /**
     * The format named {@code name}, in any case ("text", "csv", "markdown", or "md").
     *
     * @throws IllegalArgumentException naming the value and the formats there are
     */
    public static ReportFormat parse(String name) {
        String n = name.strip().toUpperCase(Locale.ROOT);
        if (n.equals("MD")) {
            return MARKDOWN;
        }
        for (ReportFormat f : values()) {
            if (f.name().equals(n)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown report format '" + name + "': use text, csv or markdown");
    }
}
