package dev.roofline.core.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table with aligned columns: text left-aligned, numeric columns right-aligned, a dashed rule under the
 * header.
 *
 * <pre>{@code
 * TextTable t = new TextTable("precision", "time us");
 * t.add("FP16", "122.97");
 * String text = t.render();
 * }</pre>
 */
public final class TextTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(String... header) {
        this.header = List.of(header);
    }

    /** Adds a row of as many cells as the header has. */
    public void add(String... cells) {
        if (cells.length != header.size()) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, header has " + header.size());
        }
        rows.add(List.of(cells));
    }

    /** The table, one line per row, each ending in a newline. */
    public String render() {
        int[] width = new int[header.size()];
        boolean[] numeric = new boolean[header.size()];
        for (int c = 0; c < width.length; c++) {
            width[c] = header.get(c).length();
            numeric[c] = true;
            for (List<String> r : rows) {
                width[c] = Math.max(width[c], r.get(c).length());
                numeric[c] &= r.get(c).matches("[-+0-9.,eE x]+");
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, header, width, numeric);
        for (int c = 0; c < width.length; c++) {
            sb.append(c == 0 ? "" : "  ").append("-".repeat(width[c]));
        }
        sb.append('\n');
        for (List<String> r : rows) {
            line(sb, r, width, numeric);
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, List<String> cells, int[] width, boolean[] numeric) {
        StringBuilder l = new StringBuilder();
        for (int c = 0; c < width.length; c++) {
            String cell = cells.get(c);
            String pad = " ".repeat(width[c] - cell.length());
            l.append(c == 0 ? "" : "  ").append(numeric[c] ? pad + cell : cell + pad);
        }
        sb.append(l.toString().stripTrailing()).append('\n');
    }
}
