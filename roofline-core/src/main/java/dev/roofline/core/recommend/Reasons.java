package dev.roofline.core.recommend;

import dev.roofline.core.roofline.Bound;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.OperatorTime;
import dev.roofline.core.transformer.Phase;
import dev.roofline.core.transformer.Workload;

import java.util.Locale;

/** The sentences a {@link Recommendation} gives as its reason, for the whole model and for one operator. */
final class Reasons {
    /** The step {@code Operators} names the LM head, which {@link Workload#embeddings()} stores. */
    private static final String LM_HEAD = "lm_head";

    private Reasons() {}

    /**
     * Why the model got {@code c}: where its FP16 time goes and what the choice cuts. {@code fp16} and {@code chosen}
     * hold the operators as priced; {@code speedup} is the whole pass's (launches included when calibrated).
     */
    static String model(ModelPrediction fp16, ModelPrediction chosen, Choice c, double speedup) {
        double memory = 0;
        for (OperatorTime o : fp16.operators()) {
            if (o.prediction().bound() == Bound.MEMORY) {
                memory += o.timeSeconds();
            }
        }
        double memoryShare = memory / fp16.timeSeconds();
        Workload w = fp16.workload();
        String what = String.format(
                Locale.ROOT,
                "%s at batch %d and context %d on %s spends %.0f%% of its FP16 time in %s operators",
                w.phase() == Phase.PREFILL ? "Prefill" : "Decode",
                w.batch(),
                w.contextTokens(),
                fp16.hardware().name(),
                100 * Math.max(memoryShare, 1 - memoryShare),
                memoryShare >= 0.5 ? "memory-bound" : "compute-bound");
        String why = memoryShare >= 0.5
                ? String.format(
                        Locale.ROOT,
                        "so cutting bytes %.2fx with %s matters most",
                        (double) fp16.bytes() / chosen.bytes(),
                        c.label())
                : String.format(
                        Locale.ROOT,
                        "so the %s tensor-core ceiling matters most",
                        fp16.hardware()
                                .computePath(c.weights(), c.activations())
                                .executedAs()
                                .displayName());
        return String.format(Locale.ROOT, "%s, %s, for a predicted %.2fx over FP16.", what, why, speedup);
    }

    /** Why one operator got the precision of {@code p}, against its FP16 pricing {@code base}. */
    static String operator(OperatorTime base, Prediction p) {
        Prediction fp16 = base.prediction();
        double speedup = fp16.timeSeconds() / p.timeSeconds();
        if (speedup < Recommender.TIE && base.name().equals(LM_HEAD)) {
            return "The LM head stays at 16 bits like the embedding table, as quantizers write it"
                    + " (Workload.withQuantizedEmbeddings prices both quantized).";
        }
        if (speedup < Recommender.TIE) {
            return String.format(
                    Locale.ROOT,
                    "No allowed format makes it faster (%s-bound at %.3g FLOP/B), so it stays at the highest precision.",
                    fp16.bound().name().toLowerCase(Locale.ROOT),
                    fp16.flopsPerByte());
        }
        if (fp16.bound() == Bound.MEMORY) {
            return String.format(
                    Locale.ROOT,
                    "Memory-bound at %.3g FLOP/B (ridge %.0f), so %.2fx fewer bytes give %.2fx.",
                    fp16.flopsPerByte(),
                    fp16.ridgeFlopsPerByte(),
                    (double) fp16.bytes() / p.bytes(),
                    speedup);
        }
        return String.format(
                Locale.ROOT,
                "Compute-bound at %.3g FLOP/B (ridge %.0f), so the %s ceiling (%.0f vs %.0f TFLOPS) gives %.2fx.",
                fp16.flopsPerByte(),
                fp16.ridgeFlopsPerByte(),
                p.computePath().executedAs().displayName(),
                p.peakFlopsPerSecond() / 1e12,
                fp16.peakFlopsPerSecond() / 1e12,
                speedup);
    }
}
