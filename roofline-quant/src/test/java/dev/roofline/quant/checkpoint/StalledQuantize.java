package dev.roofline.quant.checkpoint;

import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code StalledQuantize <model-dir> <out-dir>}: quantizes to NVFP4 and stalls after the first weight (printing
 * "stalled"), so that a test can stop this JVM with a signal while the partial output exists.
 */
public final class StalledQuantize {
    private StalledQuantize() {}

    public static void main(String[] args) throws IOException {
        CheckpointQuantizer.newBuilder(QuantTarget.NVFP4_MODELOPT)
                .progress(line -> {
                    System.out.println("stalled");
                    System.out.flush();
                    try {
                        Thread.sleep(Long.MAX_VALUE);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                })
                .build()
                .quantize(Path.of(args[0]), Path.of(args[1]));
    }
}
