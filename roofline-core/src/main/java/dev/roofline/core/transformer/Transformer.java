package dev.roofline.core.transformer;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.model.MixtureOfExperts;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.WeightMatrix;
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

    /** Weights in the workload's weight precision plus its KV cache, against device memory. */
    public MemoryFit memory(Workload w) {
        Checks.notNull("workload", w);
        long perToken = model.kvCacheBytesPerToken(w.kvCache());
        long cache = Checks.multiply(
                Checks.multiply(perToken, w.batch(), () -> "KV-cache bytes"),
                w.contextTokens(),
                () -> "KV-cache bytes");
        return new MemoryFit(
                model.weightBytes(w.weights()), cache, perToken, hardware().memoryBytes());
    }

    /**
     * Weight bytes one decode step of {@code batch} sequences reads: every matrix whole, except the embedding (one row
     * per token) and routed experts (the expected distinct experts touched, {@link MixtureOfExperts#expectedDistinctExperts}).
     */
    public double decodeWeightBytes(Workload w) {
        Checks.notNull("workload", w);
        double touchedFraction = model.feedForward() instanceof MixtureOfExperts moe
                ? moe.expectedDistinctExperts(w.batch()) / moe.experts()
                : 1;
        double total = Model.VECTOR_PRECISION.storageBytes(model.vectorParameters());
        for (WeightMatrix m : model.matrices()) {
            total += switch (m.role()) {
                case EMBEDDING -> w.weights().storageBytes(w.batch(), m.inFeatures());
                case DENSE -> m.bytes(w.weights());
                case ROUTED_EXPERT -> m.bytes(w.weights()) * touchedFraction;
            };
        }
        return total;
    }

    /**
     * The context length at which one decode step reads as many KV-cache bytes (batch × context × bytes per token) as
     * weight bytes ({@link #decodeWeightBytes}); beyond it, decode time is dominated by the cache.
     */
    public double kvCrossoverContext(Workload w) {
        return decodeWeightBytes(w) / ((double) w.batch() * model.kvCacheBytesPerToken(w.kvCache()));
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
