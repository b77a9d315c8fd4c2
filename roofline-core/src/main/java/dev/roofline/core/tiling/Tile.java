package dev.roofline.core.tiling;

import dev.roofline.core.internal.Checks;

import java.util.List;

/** The output block one thread block computes ({@code bm × bn}), stepping through K in slices of {@code bk}. */
public record Tile(int bm, int bn, int bk) {

    /** Shapes CUTLASS-style kernels commonly instantiate. */
    public static final List<Tile> COMMON = List.of(
            new Tile(64, 64, 64),
            new Tile(128, 64, 64),
            new Tile(64, 128, 64),
            new Tile(128, 128, 64),
            new Tile(128, 256, 64),
            new Tile(256, 128, 64));

    public Tile {
        Checks.positive("BM", bm);
        Checks.positive("BN", bn);
        Checks.positive("BK", bk);
    }

    @Override
    public String toString() {
        return bm + "x" + bn + "x" + bk;
    }
}
