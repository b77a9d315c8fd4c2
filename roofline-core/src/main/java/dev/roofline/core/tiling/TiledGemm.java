package dev.roofline.core.tiling;

import dev.roofline.core.roofline.Gemm;

/**
 * A GEMM cut into tiles and scheduled one tile per SM at a time.
 *
 * @param tilesM            ceil(M / BM)
 * @param tilesN            ceil(N / BN)
 * @param waves             ceil(batch · tilesM · tilesN / SMs)
 * @param waveEfficiency    tiles / (waves · SMs): the fraction of SM slots the last-wave tail does not waste
 * @param dramBytes         A and B panels read once per wave that touches them (a wave's panels share L2), C written once
 * @param stageBytes        shared memory of one pipeline stage: (BM + BN) · BK operand elements
 * @param predictedSeconds  max(dramBytes / bandwidth, FLOPs / (peak · waveEfficiency))
 */
public record TiledGemm(
        Gemm gemm,
        Tile tile,
        int smCount,
        long tilesM,
        long tilesN,
        long waves,
        double waveEfficiency,
        long dramBytes,
        long stageBytes,
        double predictedSeconds) {

    public long tiles() {
        return gemm.batch() * tilesM * tilesN;
    }

    /** DRAM bytes over the roofline's minimum (every operand read once). */
    public double trafficAmplification() {
        return (double) dramBytes / gemm.bytes();
    }
}
