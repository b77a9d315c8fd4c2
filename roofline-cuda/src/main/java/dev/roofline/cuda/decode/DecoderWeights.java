package dev.roofline.cuda.decode;

import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.DeviceWeights;

import java.util.List;

/**
 * A dense decoder's weights on the device, owned: closing this frees them all. Norm weights are FP16 vectors of
 * {@code hidden}; matrices are {@link DeviceWeights} in any GEMV format, rows are output features:
 *
 * @param layers    per layer, in order
 * @param finalNorm the norm before {@code lm_head}
 * @param lmHead    {@code vocab × hidden}
 */
public record DecoderWeights(List<Layer> layers, DeviceBuffer finalNorm, DeviceWeights lmHead)
        implements AutoCloseable {

    /**
     * One layer's weights.
     *
     * @param qkv    q, k and v projections stacked: {@code (heads + 2·kvHeads)·headDim × hidden}, q rows first
     * @param o      {@code hidden × heads·headDim}
     * @param gateUp gate and up stacked: {@code 2·intermediate × hidden}, gate rows first
     * @param down   {@code hidden × intermediate}
     */
    public record Layer(
            DeviceBuffer inputNorm,
            DeviceWeights qkv,
            DeviceWeights o,
            DeviceBuffer postNorm,
            DeviceWeights gateUp,
            DeviceWeights down) {}

    public DecoderWeights {
        layers = List.copyOf(layers);
    }

    /** Throws naming the tensor and layer when a weight's shape is not what {@code shape} needs. */
    void check(DecoderShape shape) {
        if (layers.size() != shape.layers()) {
            throw new IllegalArgumentException(
                    "the shape has " + shape.layers() + " layers, the weights " + layers.size());
        }
        int h = shape.hidden();
        for (int l = 0; l < layers.size(); l++) {
            Layer w = layers.get(l);
            String at = " of layer " + l;
            vector("input norm" + at, w.inputNorm(), h);
            matrix("qkv" + at, w.qkv(), shape.qkvWidth(), h);
            matrix("o" + at, w.o(), h, shape.attentionWidth());
            vector("post-attention norm" + at, w.postNorm(), h);
            matrix("gate_up" + at, w.gateUp(), 2 * shape.intermediate(), h);
            matrix("down" + at, w.down(), h, shape.intermediate());
        }
        vector("final norm", finalNorm, h);
        matrix("lm_head", lmHead, shape.vocab(), h);
    }

    private static void vector(String name, DeviceBuffer b, int hidden) {
        if (b == null || b.byteSize() < 2L * hidden) {
            throw new IllegalArgumentException(name + " must hold " + hidden + " FP16 values (" + 2L * hidden
                    + " bytes), got " + (b == null ? "null" : b.byteSize() + " bytes"));
        }
    }

    private static void matrix(String name, DeviceWeights w, int rows, int cols) {
        if (w == null || w.rows() != rows || w.cols() != cols) {
            throw new IllegalArgumentException(name + " must be " + rows + " x " + cols + ", got "
                    + (w == null ? "null" : w.rows() + " x " + w.cols()));
        }
    }

    /** Frees every weight, last allocated first. */
    @Override
    public void close() {
        try (OwnedResources owned = new OwnedResources()) {
            for (Layer w : layers) {
                owned.add(w.inputNorm());
                owned.add(w.qkv());
                owned.add(w.o());
                owned.add(w.postNorm());
                owned.add(w.gateUp());
                owned.add(w.down());
            }
            owned.add(finalNorm);
            owned.add(lmHead);
        }
    }
}
