package dev.roofline.core.tiling;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.roofline.Gemm;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class TilingTest {

    @Test
    void square4096On132SmsTakesEightWaves() {
        TiledGemm t = Tiling.of(Gemm.of(4096, 4096, 4096), new Tile(128, 128, 64), Hardware.H100_SXM);
        assertThat(t.tilesM()).isEqualTo(32);
        assertThat(t.tilesN()).isEqualTo(32);
        assertThat(t.waves()).isEqualTo(8); // ceil(1024 / 132)
        assertThat(t.waveEfficiency()).isCloseTo(1024.0 / (8 * 132), within(1e-12));
        // wave w runs tiles 132w..132w+131 in rows of 32, i.e. tile rows floor(132w/32)..floor((132w+131)/32): waves
        // 0-6 touch 5 A panels each, wave 7 (tiles 924-1023) rows 28-31; every wave touches all 32 B panels.
        // One panel is 128 x 4096 FP16 = 1 MiB
        long panel = 128L * 4096 * 2;
        long[] aPerWave = {5, 5, 5, 5, 5, 5, 5, 4}; // rows 0-4, 4-8, 8-12, 12-16, 16-20, 20-24, 24-28, 28-31
        long a = 0;
        for (long w : aPerWave) {
            a += w;
        }
        assertThat(t.dramBytes()).isEqualTo(a * panel + 8 * 32 * panel + 4096L * 4096 * 2);
        assertThat(t.stageBytes()).isEqualTo((128 + 128) * 64 * 2);
        // compute-bound: FLOPs over the peak scaled by the wave efficiency
        assertThat(t.predictedSeconds()).isCloseTo(2.0 * Math.pow(4096, 3) / (989.5e12 * 1024 / 1056), within(1e-12));
        assertThat(t.trafficAmplification()).isGreaterThan(1);
    }

    @Test
    void gemvTrafficIsTheRooflineMinimumWithOneTileRow() {
        TiledGemm t = Tiling.of(Gemm.gemv(4096, 4096), new Tile(64, 128, 64), Hardware.GB10);
        assertThat(t.tilesM()).isEqualTo(1);
        // 32 tiles fit one wave on 48 SMs: every operand read once
        assertThat(t.dramBytes()).isEqualTo(Gemm.gemv(4096, 4096).bytes());
        assertThat(t.waveEfficiency()).isCloseTo(32.0 / 48, within(1e-12));
    }

    @Test
    void bestTileAvoidsABadLastWave() {
        // M = N = 1664: 128x128 gives 169 tiles = 2 waves on 132 SMs (64%); 128x256 gives 91 tiles in one wave (69%)
        TiledGemm best = Tiling.best(Gemm.of(1664, 1664, 8192), Hardware.H100_SXM);
        for (Tile t : Tile.COMMON) {
            assertThat(best.predictedSeconds())
                    .isLessThanOrEqualTo(Tiling.of(Gemm.of(1664, 1664, 8192), t, Hardware.H100_SXM)
                            .predictedSeconds());
        }
        assertThat(best.waveEfficiency()).isGreaterThan(169.0 / 264);
    }

    @Test
    void misuseIsRefused() {
        assertThatThrownBy(() -> new Tile(0, 64, 64)).hasMessageContaining("BM must be > 0, got 0");
        assertThatThrownBy(() -> Tiling.best(Gemm.of(64, 64, 64), Hardware.GB10, java.util.List.of()))
                .hasMessageContaining("at least one tile");
    }
}
