package dev.roofline.cuda.decode;

import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.MoeKernels;

import java.util.List;
import java.util.Objects;

/**
 * One layer's mixture of experts on the device, owned: the router and every expert's projections, one allocation per
 * kind of tensor with the experts stacked row-wise, as the grouped GEMVs read them ({@link MoeKernels}). Expert e's
 * rows of {@code gateUp} are {@code e·2·intermediate …}, its gate rows then its up rows; its rows of {@code down}
 * are {@code e·hidden …}. The experts are in one of {@link MoeKernels#FORMATS} (NVFP4 with one global scale for
 * the stack); the router is FP16.
 *
 * @param router {@code experts × hidden}, FP16
 * @param gateUp {@code experts·2·intermediate × hidden}
 * @param down   {@code experts·hidden × intermediate}
 */
public record ExpertWeights(DeviceWeights router, DeviceWeights gateUp, DeviceWeights down) implements AutoCloseable {

    public ExpertWeights {
        Objects.requireNonNull(router, "router");
        Objects.requireNonNull(gateUp, "gateUp");
        Objects.requireNonNull(down, "down");
    }

    /** Throws naming the tensor, its layer and the expected shape or format when this does not fit {@code shape}. */
    void check(DecoderShape shape, String at) {
        int e = shape.experts();
        int h = shape.hidden();
        int inter = shape.intermediate();
        requireShape("router" + at, router, e, h);
        if (router.format() != dev.roofline.cuda.kernels.WeightFormat.FP16) {
            throw new IllegalArgumentException("router" + at + " must be FP16, got " + router.format());
        }
        requireShape("experts' gate_up" + at, gateUp, e * 2 * inter, h);
        requireShape("experts' down" + at, down, e * h, inter);
        for (DeviceWeights w : List.of(gateUp, down)) {
            MoeKernels.requireFormat(w.format());
        }
    }

    private static void requireShape(String name, DeviceWeights w, long rows, long cols) {
        if (w.rows() != rows || w.cols() != cols) {
            throw new IllegalArgumentException(
                    name + " must be " + rows + " x " + cols + ", got " + w.rows() + " x " + w.cols());
        }
    }

    /** Frees the three matrices, last first. */
    @Override
    public void close() {
        try (OwnedResources owned = new OwnedResources()) {
            owned.add(router);
            owned.add(gateUp);
            owned.add(down);
        }
    }
}
