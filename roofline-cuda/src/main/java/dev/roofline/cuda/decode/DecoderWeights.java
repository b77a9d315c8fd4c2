package dev.roofline.cuda.decode;

import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.WeightFormat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A decoder's weights on the device, owned: closing this frees them all. Norm weights are FP16 vectors of
 * {@code hidden}; matrices are {@link DeviceWeights} in any GEMV format, rows are output features. {@link
 * CheckpointWeights} loads them from a safetensors checkpoint.
 *
 * @param layers    per layer, in order
 * @param finalNorm the norm before {@code lm_head}
 * @param lmHead    {@code vocab × hidden}
 */
public record DecoderWeights(List<Layer> layers, DeviceBuffer finalNorm, DeviceWeights lmHead)
        implements AutoCloseable {

    /**
     * One layer's weights: a dense MLP ({@code gateUp} and {@code down}, {@code experts} null) or a mixture of
     * experts ({@code experts}, {@code gateUp} and {@code down} null).
     *
     * @param qkv     q, k and v projections stacked: {@code (heads + 2·kvHeads)·headDim × hidden}, q rows first, in one
     *                or more parts
     * @param o       {@code hidden × heads·headDim}
     * @param gateUp  gate and up stacked: {@code 2·intermediate × hidden}, gate rows first, in one or more parts
     * @param down    {@code hidden × intermediate}
     * @param experts the router and the experts
     */
    public record Layer(
            DeviceBuffer inputNorm,
            StackedWeights qkv,
            DeviceWeights o,
            DeviceBuffer postNorm,
            StackedWeights gateUp,
            DeviceWeights down,
            ExpertWeights experts) {

        public Layer {
            if ((experts == null) == (gateUp == null || down == null) || (gateUp == null) != (down == null)) {
                throw new IllegalArgumentException(
                        "a layer has either a dense MLP (gateUp and down) or experts, not both nor neither");
            }
        }

        /** A layer with a dense MLP. */
        public Layer(
                DeviceBuffer inputNorm,
                StackedWeights qkv,
                DeviceWeights o,
                DeviceBuffer postNorm,
                StackedWeights gateUp,
                DeviceWeights down) {
            this(inputNorm, qkv, o, postNorm, gateUp, down, null);
        }

        /** A layer with a dense MLP whose merged projections are one matrix each. */
        public Layer(
                DeviceBuffer inputNorm,
                DeviceWeights qkv,
                DeviceWeights o,
                DeviceBuffer postNorm,
                DeviceWeights gateUp,
                DeviceWeights down) {
            this(inputNorm, StackedWeights.of(qkv), o, postNorm, StackedWeights.of(gateUp), down, null);
        }

        /** A layer with a mixture of experts, its q/k/v projection one matrix. */
        public Layer(
                DeviceBuffer inputNorm,
                DeviceWeights qkv,
                DeviceWeights o,
                DeviceBuffer postNorm,
                ExpertWeights experts) {
            this(inputNorm, StackedWeights.of(qkv), o, postNorm, null, null, experts);
        }
    }

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
            stacked("qkv" + at, w.qkv(), shape.qkvWidth(), h);
            matrix("o" + at, w.o(), h, shape.attentionWidth());
            vector("post-attention norm" + at, w.postNorm(), h);
            if (shape.hasExperts() != (w.experts() != null)) {
                throw new IllegalArgumentException(
                        "layer " + l + " has " + (w.experts() == null ? "a dense MLP" : "experts") + "; the shape "
                                + (shape.hasExperts() ? "has " + shape.experts() + " experts" : "is dense"));
            }
            if (w.experts() != null) {
                w.experts().check(shape, at);
            } else {
                stacked("gate_up" + at, w.gateUp(), 2 * shape.intermediate(), h);
                matrix("down" + at, w.down(), h, shape.intermediate());
            }
        }
        vector("final norm", finalNorm, h);
        matrix("lm_head", lmHead, shape.vocab(), h);
    }

    /** The formats of the matrices, each once, in the order the step first reads them ({@code lm_head} last). */
    Set<WeightFormat> formats() {
        Set<WeightFormat> formats = new LinkedHashSet<>();
        for (DeviceWeights w : matrices()) {
            formats.add(w.format());
        }
        return formats;
    }

    private List<DeviceWeights> matrices() {
        List<DeviceWeights> all = new ArrayList<>();
        for (Layer w : layers) {
            all.addAll(w.qkv().parts());
            all.add(w.o());
            if (w.experts() != null) {
                all.add(w.experts().router());
                all.add(w.experts().gateUp());
                all.add(w.experts().down());
            } else {
                all.addAll(w.gateUp().parts());
                all.add(w.down());
            }
        }
        all.add(lmHead);
        return all;
    }

    private static void vector(String name, DeviceBuffer b, int hidden) {
        if (b == null || b.byteSize() < 2L * hidden) {
            throw new IllegalArgumentException(name + " must hold " + hidden + " FP16 values (" + 2L * hidden
                    + " bytes), got " + (b == null ? "null" : b.byteSize() + " bytes"));
        }
    }

    private static void stacked(String name, StackedWeights w, int rows, int cols) {
        requireShape(name, w != null, w == null ? 0 : w.rows(), w == null ? 0 : w.cols(), rows, cols);
    }

    private static void matrix(String name, DeviceWeights w, int rows, int cols) {
        requireShape(name, w != null, w == null ? 0 : w.rows(), w == null ? 0 : w.cols(), rows, cols);
    }

    private static void requireShape(String name, boolean present, int gotRows, int gotCols, int rows, int cols) {
        if (!present || gotRows != rows || gotCols != cols) {
            throw new IllegalArgumentException(name + " must be " + rows + " x " + cols + ", got "
                    + (present ? gotRows + " x " + gotCols : "null"));
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
                if (w.experts() != null) {
                    owned.add(w.experts());
                } else {
                    owned.add(w.gateUp());
                    owned.add(w.down());
                }
            }
            owned.add(finalNorm);
            owned.add(lmHead);
        }
    }
}
