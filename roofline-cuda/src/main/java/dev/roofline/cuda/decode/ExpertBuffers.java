package dev.roofline.cuda.decode;

import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.MoeKernels;
import dev.roofline.cuda.kernels.WeightFormat;

/**
 * A {@link DenseDecoder}'s working memory for a mixture of experts, owned with the kernels that use it: the router's
 * logits {@code half[batch][experts]}; each layer's routing, {@code int[batch][topK]} expert ids and
 * {@code float[batch][topK]} weights, kept per layer so a step's routing can be read back afterwards; the chosen
 * experts' gate/up outputs {@code half[batch·topK][2·intermediate]}, their SiLU·up {@code half[batch·topK]
 * [intermediate]} and their weighted down outputs {@code float[batch·topK][hidden]}.
 */
final class ExpertBuffers implements AutoCloseable {
    private final OwnedResources owned;
    private final MoeKernels kernels;
    private final DeviceBuffer logits;
    private final DeviceBuffer ids;
    private final DeviceBuffer weights;
    private final DeviceBuffer gateUp;
    private final DeviceBuffer activated;
    private final DeviceBuffer out;
    private final DeviceBuffer[] idsByLayer;
    private final DeviceBuffer[] weightsByLayer;

    private ExpertBuffers(OwnedResources owned, MoeKernels kernels, DecoderShape s, int batch) {
        this.owned = owned;
        this.kernels = kernels;
        long slots = (long) batch * s.topK();
        long routingBytes = 4L * slots;
        logits = owned.add(DeviceBuffer.allocate(2L * batch * s.experts()));
        ids = owned.add(DeviceBuffer.allocate(routingBytes * s.layers()));
        weights = owned.add(DeviceBuffer.allocate(routingBytes * s.layers()));
        idsByLayer = new DeviceBuffer[s.layers()];
        weightsByLayer = new DeviceBuffer[s.layers()];
        for (int l = 0; l < s.layers(); l++) {
            idsByLayer[l] = ids.slice(l * routingBytes, routingBytes);
            weightsByLayer[l] = weights.slice(l * routingBytes, routingBytes);
        }
        gateUp = owned.add(DeviceBuffer.allocate(4L * slots * s.intermediate()));
        activated = owned.add(DeviceBuffer.allocate(2L * slots * s.intermediate()));
        out = owned.add(DeviceBuffer.allocate(4L * slots * s.hidden()));
    }

    /** The buffers for {@code shape} (which has experts) at {@code batch}; nothing stays allocated on failure. */
    static ExpertBuffers allocate(DecoderShape shape, int batch, KernelLaunch launch) {
        OwnedResources owned = new OwnedResources();
        try {
            return new ExpertBuffers(owned, owned.add(MoeKernels.load(launch)), shape, batch);
        } catch (RuntimeException e) {
            try {
                owned.close();
            } catch (RuntimeException c) {
                e.addSuppressed(c);
            }
            throw e;
        }
    }

    /** Whether the experts run {@code format} weights at {@code batch}: the grouped GEMVs' formats, up to 16 rows. */
    static boolean runs(WeightFormat format, int batch) {
        return batch <= MoeKernels.MAX_ROWS && MoeKernels.FORMATS.contains(format);
    }

    /** Refuses a batch the grouped GEMVs cannot route, or a top-k above theirs, naming the limit. */
    static void checkBatch(DecoderShape shape, int batch) {
        if (batch > MoeKernels.MAX_ROWS) {
            throw new IllegalArgumentException("batch " + batch + ": the experts' grouped GEMVs take up to "
                    + MoeKernels.MAX_ROWS + " tokens per step");
        }
        if (shape.experts() > MoeKernels.MAX_EXPERTS) {
            throw new IllegalArgumentException(
                    shape.experts() + " experts: the grouped GEMVs choose among up to " + MoeKernels.MAX_EXPERTS);
        }
        if (shape.topK() > MoeKernels.MAX_TOP_K) {
            throw new IllegalArgumentException("top-" + shape.topK() + " routing: the top-k kernel picks up to "
                    + MoeKernels.MAX_TOP_K + " experts per token");
        }
    }

    MoeKernels kernels() {
        return kernels;
    }

    DeviceBuffer logits() {
        return logits;
    }

    DeviceBuffer ids(int layer) {
        return idsByLayer[layer];
    }

    DeviceBuffer weights(int layer) {
        return weightsByLayer[layer];
    }

    DeviceBuffer gateUp() {
        return gateUp;
    }

    DeviceBuffer activated() {
        return activated;
    }

    DeviceBuffer out() {
        return out;
    }

    /** Frees the buffers and the kernels, last made first. */
    @Override
    public void close() {
        owned.close();
    }
}
