package dev.roofline.cuda.decode;

import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.DeviceWeights;

import java.util.ArrayList;
import java.util.List;

/**
 * A dense decoder's weights on the host, arranged as {@link DecoderWeights} holds them on the device: norms as FP16
 * bits, matrices as {@link HostWeights}, the merged projections as their parts. {@link #upload} is the only step that
 * needs a GPU.
 */
record HostDecoderWeights(List<Layer> layers, short[] finalNorm, HostWeights lmHead) {

    /** One layer's weights: {@code qkv} and {@code gateUp} in row order, as few parts as their bytes allow. */
    record Layer(
            short[] inputNorm,
            List<HostWeights> qkv,
            HostWeights o,
            short[] postNorm,
            List<HostWeights> gateUp,
            HostWeights down) {
        Layer {
            qkv = List.copyOf(qkv);
            gateUp = List.copyOf(gateUp);
        }
    }

    HostDecoderWeights {
        layers = List.copyOf(layers);
    }

    /** The weights on the device; what was uploaded is freed again if any copy fails. */
    DecoderWeights upload() {
        try (OwnedResources partial = new OwnedResources()) {
            List<DecoderWeights.Layer> onDevice = new ArrayList<>(layers.size());
            for (Layer l : layers) {
                onDevice.add(new DecoderWeights.Layer(
                        vector(l.inputNorm(), partial),
                        stacked(l.qkv(), partial),
                        partial.add(l.o().upload()),
                        vector(l.postNorm(), partial),
                        stacked(l.gateUp(), partial),
                        partial.add(l.down().upload())));
            }
            DecoderWeights w = new DecoderWeights(onDevice, vector(finalNorm, partial), partial.add(lmHead.upload()));
            partial.release();
            return w;
        }
    }

    private static StackedWeights stacked(List<HostWeights> parts, OwnedResources partial) {
        List<DeviceWeights> onDevice = new ArrayList<>(parts.size());
        for (HostWeights p : parts) {
            onDevice.add(partial.add(p.upload()));
        }
        return new StackedWeights(onDevice);
    }

    private static DeviceBuffer vector(short[] fp16, OwnedResources partial) {
        DeviceBuffer b = partial.add(DeviceBuffer.allocate(2L * fp16.length));
        b.copyFrom(fp16);
        return b;
    }
}
