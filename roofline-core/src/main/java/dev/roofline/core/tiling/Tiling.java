package dev.roofline.core.tiling;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.roofline.Roofline;

import java.util.List;
import java.util.function.Supplier;

/**
 * Tile-level refinement of the roofline for one GEMM: the DRAM traffic a tiling causes and how well its tiles fill
 * the SMs.
 *
 * <pre>{@code
 * TiledGemm t = Tiling.of(Gemm.of(4096, 4096, 4096), new Tile(128, 128, 64), Hardware.H100_SXM);
 * t.waves();            // 1024 tiles over 132 SMs = 8 waves
 * t.waveEfficiency();   // 1024 / (8 * 132) = 0.97
 * TiledGemm best = Tiling.best(Gemm.of(4096, 4096, 4096), Hardware.H100_SXM);
 * }</pre>
 */
public final class Tiling {
    private Tiling() {}

    public static TiledGemm of(Gemm g, Tile t, Hardware hw) {
        Checks.notNull("hardware", hw);
        return of(g, t, hw.smCount(), Roofline.on(hw).predict(g));
    }

    /** The tile of {@link Tile#COMMON} with the lowest predicted time; ties go to the lower DRAM traffic. */
    public static TiledGemm best(Gemm g, Hardware hw) {
        return best(g, hw, Tile.COMMON);
    }

    public static TiledGemm best(Gemm g, Hardware hw, List<Tile> tiles) {
        Checks.notNull("hardware", hw);
        if (tiles == null || tiles.isEmpty()) {
            throw new IllegalArgumentException("tiles must list at least one tile, got " + tiles);
        }
        Prediction p = Roofline.on(hw).predict(g);
        TiledGemm best = null;
        for (Tile t : tiles) {
            TiledGemm c = of(g, t, hw.smCount(), p);
            if (best == null
                    || c.predictedSeconds() < best.predictedSeconds()
                    || (c.predictedSeconds() == best.predictedSeconds() && c.dramBytes() < best.dramBytes())) {
                best = c;
            }
        }
        return best;
    }

    private static TiledGemm of(Gemm g, Tile t, int sms, Prediction p) {
        Checks.notNull("gemm", g);
        Checks.notNull("tile", t);
        if (sms <= 0) {
            throw new IllegalArgumentException("smCount must be > 0 (unknown for this hardware?), got " + sms);
        }
        Supplier<String> what = () -> "tiled bytes of " + g.name();
        long tilesM = Math.ceilDiv(g.m(), t.bm());
        long tilesN = Math.ceilDiv(g.n(), t.bn());
        long tiles = Checks.multiply(Checks.multiply(g.batch(), tilesM, what), tilesN, what);
        long waves = Math.ceilDiv(tiles, sms);
        double efficiency = (double) tiles / ((double) waves * sms);
        double aPanel = (double) g.activations().storageBytes(g.m(), g.k()) / tilesM;
        double bPanel = (double) g.weights().storageBytes(g.n(), g.k()) / tilesN;
        long[] panels = panelReads(tilesM, tilesN, g.batch(), sms);
        double operands = panels[0] * aPanel + panels[1] * bPanel;
        long c = Checks.multiply(g.batch(), g.output().storageBytes(g.m(), g.n()), what);
        long dram = Checks.add((long) Math.ceil(operands), c, what);
        long stage = g.activations().storageBytes(t.bm(), t.bk()) + g.weights().storageBytes(t.bn(), t.bk());
        double seconds = Math.max(dram / p.bytesPerSecond(), g.flops() / (p.peakFlopsPerSecond() * efficiency));
        return new TiledGemm(g, t, sms, tilesM, tilesN, waves, efficiency, dram, stage, seconds);
    }

    /**
     * A and B panels read from DRAM, {@code {aPanels, bPanels}}: tiles run in row-major order (N fastest), {@code sms}
     * at a time, and the panels one wave shares stay in L2 for that wave only. Panel (batch, row) of A and panel
     * (batch, column) of B are read once per wave that touches them.
     */
    static long[] panelReads(long tilesM, long tilesN, long batch, long sms) {
        long tiles = batch * tilesM * tilesN;
        long aPanels = 0;
        long bPanels = 0;
        for (long start = 0; start < tiles; start += sms) {
            long end = Math.min(tiles, start + sms) - 1;
            long firstRow = start / tilesN;
            long lastRow = end / tilesN;
            aPanels += lastRow - firstRow + 1;
            // distinct B columns, counted per batch entry the wave touches
            for (long row = firstRow; row <= lastRow; ) {
                long b = row / tilesM;
                long segmentEnd = Math.min(lastRow, (b + 1) * tilesM - 1);
                long from = row == firstRow ? start % tilesN : 0;
                long to = segmentEnd == lastRow ? end % tilesN : tilesN - 1;
                long rows = segmentEnd - row + 1;
                bPanels +=
                        rows == 1 ? to - from + 1 : rows == 2 ? Math.min(tilesN, (tilesN - from) + (to + 1)) : tilesN;
                row = segmentEnd + 1;
            }
        }
        return new long[] {aPanels, bPanels};
    }
}
