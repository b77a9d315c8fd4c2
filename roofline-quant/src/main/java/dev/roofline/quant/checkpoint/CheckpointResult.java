package dev.roofline.quant.checkpoint;

import java.nio.file.Path;
import java.util.List;

/**
 * What a {@link CheckpointQuantizer} run wrote.
 *
 * @param output          the new checkpoint directory
 * @param quantized       linear weights quantized
 * @param copied          tensors copied unchanged
 * @param skipped         modules whose weights the format cannot hold (NVFP4: K not a multiple of 16), copied
 *                        unchanged and listed with the excluded modules
 * @param inputBytes      tensor bytes read
 * @param outputBytes     tensor bytes written
 * @param worstSqnrDb     lowest SQNR of any quantized weight
 * @param meanSqnrDb      mean SQNR over the quantized weights
 */
public record CheckpointResult(
        Path output,
        int quantized,
        int copied,
        List<String> skipped,
        long inputBytes,
        long outputBytes,
        double worstSqnrDb,
        double meanSqnrDb) {
    public CheckpointResult {
        skipped = List.copyOf(skipped);
    }
}
