package dev.roofline.quant.checkpoint;

import java.nio.file.Path;

/**
 * What a {@link CheckpointQuantizer} run wrote.
 *
 * @param output          the new checkpoint directory
 * @param quantized       linear weights quantized
 * @param copied          tensors copied unchanged
 * @param inputBytes      tensor bytes read
 * @param outputBytes     tensor bytes written
 * @param worstSqnrDb     lowest SQNR of any quantized weight
 * @param meanSqnrDb      mean SQNR over the quantized weights
 */
public record CheckpointResult(
        Path output,
        int quantized,
        int copied,
        long inputBytes,
        long outputBytes,
        double worstSqnrDb,
        double meanSqnrDb) {}
