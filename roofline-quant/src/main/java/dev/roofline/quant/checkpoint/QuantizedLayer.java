package dev.roofline.quant.checkpoint;

import dev.roofline.quant.block.QuantizedTensor;

import java.util.function.Supplier;

/**
 * One weight's quantization, shared by the tensors it is written as: computed when the first of them is written and
 * dropped after the last, so only one weight's worth of data is held at a time.
 */
final class QuantizedLayer {
    private final Supplier<QuantizedTensor> compute;
    int uses;
    private QuantizedTensor value;

    QuantizedLayer(Supplier<QuantizedTensor> compute) {
        this.compute = compute;
    }

    synchronized byte[] bytes(LayerTensors.Output o) {
        if (value == null) {
            value = compute.get();
        }
        byte[] b = LayerTensors.bytes(value, o.part());
        if (--uses == 0) {
            value = null;
        }
        return b;
    }
}
