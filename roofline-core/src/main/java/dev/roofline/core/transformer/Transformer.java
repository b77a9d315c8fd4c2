package dev.roofline.core.transformer;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.model.MixtureOfExperts;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.SlidingWindow;
import dev.roofline.core.model.WeightMatrix;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Roofline;

import java.util.ArrayList;
import java.util.List;

/**
 * A model on a GPU: whole-model predictions, memory fit, the KV-cache crossover and sweeps. Operators are priced by the
 * roofline alone: a {@link Hardware#kernelLatencySeconds() kernel latency} of measured hardware is left out, because
 * the model's operators are not kernel launches one for one (engines fuse norms, residual adds, rotary embeddings and
 * sibling projections into fewer kernels), so a per-operator latency would be charged too often.
 *
 * <pre>{@code
 * Transformer t = Transformer.of(Models.LLAMA_3_8B, Roofline.on(Hardware.GB10));
 * ModelPrediction p = t.predict(Workload.decode(1, 4096));
 * p.tokensPerSecond();
 * t.memory(Workload.decode(1, 4096)).fits();
 * }</pre>
 */
public record Transformer(Model model, Roofline roofline) {

    /** The name {@link Model#matrices()} gives the untied LM head. */
    private static final String LM_HEAD = "lm_head";

    public Transformer {
        Checks.notNull("model", model);
        Checks.notNull("roofline", roofline);
    }

    public static Transformer of(Model model, Roofline roofline) {
        return new Transformer(model, roofline);
    }

    /** Datasheet ceilings of {@code hw}. */
    public static Transformer of(Model model, Hardware hw) {
        return new Transformer(model, Roofline.on(hw));
    }

    public Hardware hardware() {
        return roofline.hardware();
    }

    /** Every operator of the forward pass priced on this GPU. */
    public ModelPrediction predict(Workload w) {
        List<Step> steps = Operators.of(model, w);
        List<OperatorTime> times = new ArrayList<>(steps.size());
        for (Step s : steps) {
            times.add(new OperatorTime(s, roofline.predict(s.operator()).withoutLatency()));
        }
        return new ModelPrediction(model, w, roofline.hardware(), times);
    }

    /** Weights as the workload stores them ({@link #weightBytes}) plus its KV cache, against device memory. */
    public MemoryFit memory(Workload w) {
        Checks.notNull("workload", w);
        long cache =
                Checks.multiply(model.kvCacheBytes(w.kvCache(), w.contextTokens()), w.batch(), () -> "KV-cache bytes");
        return new MemoryFit(
                weightBytes(w),
                cache,
                model.kvCacheBytesPerToken(w.kvCache()),
                model.kvCacheBytesPerTokenBeyondWindow(w.kvCache()),
                model.slidingWindow().tokens(),
                hardware().memoryBytes(),
                model.maxPositions());
    }

    /**
     * Bytes of every weight as the workload stores them: vectors in {@link Model#VECTOR_PRECISION}, the embedding table
     * and LM head in {@link Workload#embeddings()}, every other matrix in the weight precision.
     */
    public long weightBytes(Workload w) {
        Checks.notNull("workload", w);
        long total = Model.VECTOR_PRECISION.storageBytes(model.vectorParameters());
        for (WeightMatrix m : model.matrices()) {
            total = Checks.add(total, m.bytes(precisionOf(m, w)), () -> "weight bytes of " + model.name());
        }
        return total;
    }

    /** The embedding table and the LM head in the workload's embedding precision, routed experts in the experts'. */
    private static Precision precisionOf(WeightMatrix m, Workload w) {
        if (m.role() == WeightMatrix.Role.EMBEDDING || m.name().equals(LM_HEAD)) {
            return w.embeddings();
        }
        return m.role() == WeightMatrix.Role.ROUTED_EXPERT ? w.expertWeights() : w.weights();
    }

    /**
     * Weight bytes one decode step of {@code batch} sequences reads: every matrix whole, except the embedding (one row
     * per token) and routed experts (the expected distinct experts touched, {@link MixtureOfExperts#expectedDistinctExperts});
     * a head tied to the embedding is the table read whole once more, as {@code lm_head}.
     */
    public double decodeWeightBytes(Workload w) {
        Checks.notNull("workload", w);
        double touchedFraction = model.feedForward() instanceof MixtureOfExperts moe
                ? moe.expectedDistinctExperts(w.batch()) / moe.experts()
                : 1;
        double total = Model.VECTOR_PRECISION.storageBytes(model.vectorParameters());
        for (WeightMatrix m : model.matrices()) {
            Precision p = precisionOf(m, w);
            total += switch (m.role()) {
                case EMBEDDING -> p.storageBytes(w.batch(), m.inFeatures()) + (model.tiedEmbeddings() ? m.bytes(p) : 0);
                case DENSE -> m.bytes(p);
                case ROUTED_EXPERT -> m.bytes(p) * touchedFraction;
            };
        }
        return total;
    }

    /**
     * The context length at which one decode step reads as many KV-cache bytes (batch × context × bytes per token) as
     * weight bytes ({@link #decodeWeightBytes}); beyond it, decode time is dominated by the cache. Layers with a
     * sliding window read at most the window; when every layer has one and the cache at the window still weighs less
     * than the weights, the cache never overtakes them: {@link Double#POSITIVE_INFINITY}.
     */
    public double kvCrossoverContext(Workload w) {
        double perSequence = decodeWeightBytes(w) / w.batch();
        double within = model.kvCacheBytesPerToken(w.kvCache());
        SlidingWindow window = model.slidingWindow();
        if (!window.any() || perSequence <= within * window.tokens()) {
            return perSequence / within;
        }
        // past the window only the full-attention layers' cache grows; with none, the KV reads never catch up
        double beyond = model.kvCacheBytesPerTokenBeyondWindow(w.kvCache());
        return beyond == 0
                ? Double.POSITIVE_INFINITY
                : window.tokens() + (perSequence - within * window.tokens()) / beyond;
    }

    /** One prediction per (batch, context) pair, batches outermost. */
    public List<ModelPrediction> sweep(Workload base, long[] batches, long[] contexts) {
        Checks.notNull("workload", base);
        if (batches == null || contexts == null || batches.length == 0 || contexts.length == 0) {
            throw new IllegalArgumentException("batches and contexts must each have at least one value");
        }
        List<ModelPrediction> out = new ArrayList<>(batches.length * contexts.length);
        for (long b : batches) {
            for (long c : contexts) {
                out.add(predict(base.withBatch(b).withContext(c)));
            }
        }
        return List.copyOf(out);
    }
}
