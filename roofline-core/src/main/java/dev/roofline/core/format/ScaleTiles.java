package dev.roofline.core.format;

import dev.roofline.core.precision.BlockScaling;
import dev.roofline.core.precision.Precision;

/**
 * The tiled layout in which cuBLASLt and the Blackwell block-scaled tensor cores read block scales (NVFP4's UE4M3 per
 * 16 elements, MXFP8's UE8M0 per 32), for an operand of {@code rows} rows (M of A, N of B) and {@code columns} scales
 * along K per row. The scales are grouped into tiles of 128 rows × 4 scale columns, 512 bytes each; tiles run along K
 * first, then down the rows; rows are padded to a multiple of 128 and scale columns to a multiple of 4, the padding
 * left zero. Inside a tile, the scale of row {@code r} and column {@code c} (both within the tile) sits at
 * <pre>
 * (r mod 32) · 16 + ⌊r / 32⌋ · 4 + c
 * </pre>
 * so the 4 scales one row needs are adjacent and 32-row groups interleave (cuBLAS documentation, "1D block scaling
 * factors layout"; the same formula in NVIDIA's nvmath-python {@code get_block_scale_offset} and cuDNN's 128×4
 * layout note).
 *
 * <pre>{@code
 * ScaleTiles t = ScaleTiles.of(4096, 4096 / 16);            // an NVFP4 weight of 4096 x 4096
 * byte[] tiled = t.tile(rowMajorScales);                      // what the matmul's scale pointer takes
 * }</pre>
 *
 * @param rows    rows of the operand, at least 1
 * @param columns scales per row (K / block size), at least 1
 */
public record ScaleTiles(int rows, int columns) {
    /** Rows of one tile. */
    public static final int TILE_ROWS = 128;
    /** Scale columns of one tile. */
    public static final int TILE_COLUMNS = 4;
    /** Bytes of one tile: one byte a scale. */
    public static final int TILE_BYTES = TILE_ROWS * TILE_COLUMNS;

    public ScaleTiles {
        if (rows < 1 || columns < 1) {
            throw new IllegalArgumentException(
                    "a scale tensor needs at least 1 row and 1 column, got " + rows + " x " + columns);
        }
        long padded = ((long) rows + TILE_ROWS - 1)
                / TILE_ROWS
                * TILE_ROWS
                * (((long) columns + TILE_COLUMNS - 1) / TILE_COLUMNS * TILE_COLUMNS);
        if (padded > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "a scale tensor of " + rows + " x " + columns + " does not fit one array");
        }
    }

    /** The layout of {@code rows} rows of {@code columns} scales. */
    public static ScaleTiles of(int rows, int columns) {
        return new ScaleTiles(rows, columns);
    }

    /**
     * Bytes of {@code p}'s block scales for {@code rows} rows of {@code k} elements in this layout, padding included:
     * {@code ⌈k / block⌉} scales a row; 0 for a precision without block scales along its rows.
     */
    public static long scaleBytes(Precision p, int rows, long k) {
        BlockScaling s = p.blockScaling().orElse(null);
        if (s == null || s.layout() != BlockScaling.Layout.ROWS) {
            return 0;
        }
        return (long) of(rows, Math.toIntExact(Math.ceilDiv(k, s.blockSize()))).bytes()
                * s.scale().bytes();
    }

    /** Rows padded to whole tiles. */
    public int paddedRows() {
        return roundUp(rows, TILE_ROWS);
    }

    /** Scale columns padded to whole tiles. */
    public int paddedColumns() {
        return roundUp(columns, TILE_COLUMNS);
    }

    /**
     * Bytes of the tiled tensor, padding included: what the matmul reads, so what a prediction must price (at M = 1 an
     * activation's scales still take 128 rows).
     */
    public int bytes() {
        return paddedRows() * paddedColumns();
    }

    /** Where the scale of {@code row} and {@code column} sits in the tiled tensor. */
    public int offset(int row, int column) {
        if (row < 0 || row >= rows || column < 0 || column >= columns) {
            throw new IndexOutOfBoundsException(
                    "scale (" + row + ", " + column + ") is outside " + rows + " x " + columns);
        }
        return position(row, column);
    }

    /**
     * The row and column whose scale sits at {@code offset}, as {@code {row, column}}; {@code null} for a padding byte.
     */
    public int[] at(int offset) {
        if (offset < 0 || offset >= bytes()) {
            throw new IndexOutOfBoundsException("offset " + offset + " is outside the " + bytes() + " tiled bytes");
        }
        int tile = offset / TILE_BYTES;
        int within = offset % TILE_BYTES;
        int tilesAlongK = paddedColumns() / TILE_COLUMNS;
        int row = tile / tilesAlongK * TILE_ROWS + within / 16 + within % 16 / TILE_COLUMNS * 32;
        int column = tile % tilesAlongK * TILE_COLUMNS + within % TILE_COLUMNS;
        return row < rows && column < columns ? new int[] {row, column} : null;
    }

    /** {@code rowMajor} ({@code rows × columns} scales, one byte each) in the tiled layout, padding zero. */
    public byte[] tile(byte[] rowMajor) {
        requireLength("rowMajor", rowMajor, (long) rows * columns);
        byte[] tiled = new byte[bytes()];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < columns; c++) {
                tiled[position(r, c)] = rowMajor[r * columns + c];
            }
        }
        return tiled;
    }

    /** The row-major scales back from {@code tiled}; the padding is dropped. */
    public byte[] untile(byte[] tiled) {
        requireLength("tiled", tiled, bytes());
        byte[] rowMajor = new byte[rows * columns];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < columns; c++) {
                rowMajor[r * columns + c] = tiled[position(r, c)];
            }
        }
        return rowMajor;
    }

    private int position(int row, int column) {
        int tile = row / TILE_ROWS * (paddedColumns() / TILE_COLUMNS) + column / TILE_COLUMNS;
        int r = row % TILE_ROWS;
        return tile * TILE_BYTES + r % 32 * 16 + r / 32 * 4 + column % TILE_COLUMNS;
    }

    private static int roundUp(int n, int multiple) {
        return (n + multiple - 1) / multiple * multiple;
    }

    private void requireLength(String name, byte[] a, long expected) {
        if (a == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        if (a.length != expected) {
            throw new IllegalArgumentException(
                    name + " must hold " + expected + " scales for " + rows + " x " + columns + ", got " + a.length);
        }
    }
}
