package dev.roofline.cuda.bench;

import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.cuda.decode.DecoderOperator;
import dev.roofline.cuda.decode.DecoderShape;
import dev.roofline.cuda.decode.DenseDecoder;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * The reads that stand in for a dense decoder's step in its read floor ({@link DecodeStepBenchmark}): one per launch of
 * the step, in the step's order ({@link DenseDecoder#denseLayerOrder}), each of the bytes the model's operators it
 * runs move (its operator's bytes in the prediction over its launches). The products read their weights from DRAM, and so does
 * the attention's split pass its layer's KV cache: each such read has a range of its own in one buffer. The norms,
 * RoPE with the KV append, SiLU·up and the attention's merge read what the kernel before them wrote, which L2 holds:
 * each re-reads the last bytes of the DRAM read before it (the first, of the step's last), which L2 still holds. A
 * projection whose weights are kept in several parts (a checkpoint's, each part its own launch) is one read, as
 * {@code DenseDecoder.launches} counts it; norms run inside the products add no bytes to their reads (about 48 kB
 * each at one sequence, a few MB a step, all from L2).
 *
 * @param reads  in launch order
 * @param extent bytes of the buffer the DRAM reads cover
 */
record StepReads(List<Read> reads, long extent) {
    /** DRAM reads start at multiples of this many bytes. */
    static final int ALIGN = 256;

    StepReads {
        reads = List.copyOf(reads);
    }

    /**
     * One launch's read: {@code bytes} from {@code offset}.
     *
     * @param fromDram      whether it has a range of its own (else it re-reads the end of the DRAM read before it)
     * @param inStreamOrder whether the step makes this launch in plain stream order whatever its launch mode
     */
    record Read(DecoderOperator operator, long offset, long bytes, boolean fromDram, boolean inStreamOrder) {}

    /** Which launches of a step are made in plain stream order: launch {@code launch} of {@code o} in a layer. */
    @FunctionalInterface
    interface StreamOrder {
        boolean inStreamOrder(DecoderOperator o, int launch);
    }

    /**
     * The reads of a step of {@code shape} whose operators make {@code launches} launches a step
     * ({@code DenseDecoder.launches}), priced by {@code predicted}: a launch reads its operator's bytes over the
     * launches it makes unfused ({@link DecoderOperator#launches(int)}), so a norm run alone while the others run in
     * the products reads one norm's bytes. The attention's merge reads {@code mergeBytes}; {@code order} says which
     * launches the step makes in stream order.
     *
     * @throws IllegalArgumentException for a mixture of experts, or launch counts no one-GPU dense decoder makes
     */
    static StepReads of(
            DecoderShape shape,
            ModelPrediction predicted,
            ToIntFunction<DecoderOperator> launches,
            long mergeBytes,
            StreamOrder order) {
        if (shape.hasExperts()) {
            throw new IllegalArgumentException("a read floor is built for dense decoders; this shape has experts");
        }
        int layers = shape.layers();
        int norms = launches.applyAsInt(DecoderOperator.ADD_RMSNORM);
        boolean fusedNorms = norms == 1;
        if (!fusedNorms && norms != DecoderOperator.ADD_RMSNORM.launches(layers)) {
            throw new IllegalArgumentException("a dense step launches 1 or "
                    + DecoderOperator.ADD_RMSNORM.launches(layers) + " norms, got " + norms);
        }
        requireLaunches(launches, DecoderOperator.ATTENTION, 2 * layers);
        Builder b = new Builder(predicted, launches, layers, order);
        for (int l = 0; l < layers; l++) {
            if (!fusedNorms || l == 0) {
                b.add(DecoderOperator.ADD_RMSNORM, false);
            }
            for (DecoderOperator o : DenseDecoder.denseLayerOrder()) {
                switch (o) {
                    case ATTENTION -> {
                        b.addRead(o, b.bytes(o) / layers, true, 0); // the split pass: this layer's K and V
                        b.addRead(o, mergeBytes, false, 1);
                    }
                    case ADD_RMSNORM -> {
                        if (!fusedNorms) {
                            b.add(o, false);
                        }
                    }
                    default -> b.add(o, readsWeights(o));
                }
            }
        }
        if (!fusedNorms) {
            b.add(DecoderOperator.ADD_RMSNORM, false);
        }
        b.add(DecoderOperator.LM_HEAD, true);
        return b.build();
    }

    /** Whether {@code o}'s kernels stream weights from DRAM (the products), rather than activations from L2. */
    private static boolean readsWeights(DecoderOperator o) {
        return switch (o) {
            case QKV_PROJ, O_PROJ, GATE_UP_PROJ, DOWN_PROJ, LM_HEAD -> true;
            default -> false;
        };
    }

    private static void requireLaunches(ToIntFunction<DecoderOperator> launches, DecoderOperator o, int expected) {
        int n = launches.applyAsInt(o);
        if (n != expected) {
            throw new IllegalArgumentException(
                    "a dense step launches " + o.label() + " " + expected + " times, got " + n);
        }
    }

    /** Collects the reads in order; a read from L2 takes its range from the DRAM read before it, once both are known. */
    private static final class Builder {
        private final ModelPrediction predicted;
        private final ToIntFunction<DecoderOperator> launches;
        private final int layers;
        private final StreamOrder order;
        /** The reads in order, each a DRAM read's offset still 0 and an L2 read's range still its own bytes. */
        private final List<Read> pending = new ArrayList<>();

        Builder(ModelPrediction predicted, ToIntFunction<DecoderOperator> launches, int layers, StreamOrder order) {
            this.predicted = predicted;
            this.launches = launches;
            this.layers = layers;
            this.order = order;
        }

        /** The bytes the model's operators {@code o} covers move in one step. */
        long bytes(DecoderOperator o) {
            long b = 0;
            for (String name : o.modelOperators()) {
                b += predicted.operator(name).bytes();
            }
            return b;
        }

        /** One launch of {@code o}, if it launches at all: its bytes a step over its unfused launches. */
        void add(DecoderOperator o, boolean fromDram) {
            if (launches.applyAsInt(o) > 0) {
                addRead(o, bytes(o) / o.launches(layers), fromDram, 0);
            }
        }

        void addRead(DecoderOperator o, long bytes, boolean fromDram, int launch) {
            pending.add(new Read(o, 0, Math.max(16, bytes), fromDram, order.inStreamOrder(o, launch)));
        }

        StepReads build() {
            List<Read> reads = new ArrayList<>(pending.size());
            long extent = 0;
            for (Read r : pending) {
                if (!r.fromDram()) {
                    reads.add(r);
                    continue;
                }
                reads.add(new Read(r.operator(), extent, r.bytes(), true, r.inStreamOrder()));
                extent += Math.ceilDiv(r.bytes(), ALIGN) * ALIGN;
            }
            Read before = reads.reversed().stream()
                    .filter(Read::fromDram)
                    .findFirst() // the step's last DRAM read comes before its first launch, a replay earlier
                    .orElseThrow(() ->
                            new IllegalArgumentException("a step without a read from DRAM has no floor to measure"));
            for (int i = 0; i < reads.size(); i++) {
                Read r = reads.get(i);
                if (r.fromDram()) {
                    before = r;
                    continue;
                }
                long bytes = Math.min(r.bytes(), before.bytes());
                long offset = Math.max(before.offset(), (before.offset() + before.bytes() - bytes) / 16 * 16);
                reads.set(i, new Read(r.operator(), offset, bytes, false, r.inStreamOrder()));
            }
            return new StepReads(reads, extent);
        }
    }
}
