package dev.roofline.quant.checkpoint;

import dev.roofline.quant.block.QuantizedTensor;

import java.io.IOException;

/**
 * One weight's quantization, shared by the tensors it is written as: computed when the first of them is written and
 * dropped after the last, so only one weight's worth of data is held at a time.
 */
final class QuantizedLayer {
    /** Reads and quantizes the weight. */
    @FunctionalInterface
    interface Computation {
        QuantizedTensor compute() throws IOException;
    }

    private final Computation compute;
    int uses;
    private QuantizedTensor value;

    QuantizedLayer(Computation compute) {
        this.compute = compute;
    }

    synchronized byte[] bytes(LayerTensors.Output o) throws IOException {
        if (value == null) {
            value = compute.compute();
        }
        byte[] b = LayerTensors.bytes(value, o.part());
        if (--uses == 0) {
            value = null;
        }
        return b;
    }
}
