package dev.roofline.core.recommend;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.model.Model;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Attention;
import dev.roofline.core.roofline.Bound;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.OperatorTime;
import dev.roofline.core.transformer.Phase;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Chooses weight, activation and KV-cache precisions for a model on a GPU by pricing every allowed combination with
 * the roofline model. Weight-only formats (W8A16, W4A16) run on any GPU through a costed dequantize-to-16-bit path;
 * W8A8 and W4A4 are proposed only where the GPU multiplies that format natively; an NVFP4 KV cache only where
 * NVFP4 is native. Among choices within 1% of the fastest, the one with the most bits wins.
 *
 * <pre>{@code
 * ModelRecommendation r = Recommender.on(Hardware.GB10)
 *         .withConstraint(AccuracyConstraint.allowing(Precision.FP16, Precision.FP8_E4M3, Precision.NVFP4))
 *         .recommend(Models.LLAMA_3_8B, Workload.decode(1, 4096));
 * r.model().choice();          // W NVFP4, A FP16, KV NVFP4
 * r.model().speedupVsFp16();
 * }</pre>
 */
public final class Recommender {

    static final List<Precision> WEIGHTS = List.of(
            Precision.FP16,
            Precision.BF16,
            Precision.FP8_E4M3,
            Precision.INT8,
            Precision.MXFP8_E4M3,
            Precision.INT4,
            Precision.NVFP4,
            Precision.MXFP4);
    static final List<Precision> KV = List.of(Precision.FP16, Precision.FP8_E4M3, Precision.NVFP4);
    private static final double TIE = 1.01;

    private final Roofline roofline;
    private final AccuracyConstraint constraint;

    private Recommender(Roofline roofline, AccuracyConstraint constraint) {
        this.roofline = Checks.notNull("roofline", roofline);
        this.constraint = Checks.notNull("constraint", constraint);
    }

    public static Recommender on(Roofline roofline) {
        return new Recommender(roofline, AccuracyConstraint.any());
    }

    public static Recommender on(Hardware hw) {
        return on(Roofline.on(hw));
    }

    public Recommender withConstraint(AccuracyConstraint c) {
        return new Recommender(roofline, c);
    }

    /** The combinations this GPU can run and the constraint allows; FP16 throughout is always among them. */
    public List<Choice> candidates() {
        Hardware hw = roofline.hardware();
        List<Choice> out = new ArrayList<>();
        out.add(Choice.FP16);
        for (Precision w : WEIGHTS) {
            for (Precision a : new Precision[] {Precision.FP16, w}) {
                if (a != Precision.FP16 && (a.elementBits() >= 16 || !hw.runsNatively(a))) {
                    continue;
                }
                for (Precision kv : KV) {
                    if (kv == Precision.NVFP4 && !hw.runsNatively(Precision.NVFP4)) {
                        continue;
                    }
                    Choice c = new Choice(w, a, kv);
                    if (!c.equals(Choice.FP16)
                            && !out.contains(c)
                            && constraint.allows(w)
                            && constraint.allows(a)
                            && constraint.allows(kv)) {
                        out.add(c);
                    }
                }
            }
        }
        return List.copyOf(out);
    }

    public ModelRecommendation recommend(Model model, Workload workload) {
        Checks.notNull("model", model);
        Checks.notNull("workload", workload);
        Transformer t = Transformer.of(model, roofline);
        ModelPrediction fp16 = t.predict(Choice.FP16.applyTo(workload));
        List<Choice> choices = candidates();
        List<ModelPrediction> predictions = new ArrayList<>(choices.size());
        for (Choice c : choices) {
            predictions.add(t.predict(c.applyTo(workload)));
        }
        List<ModelRecommendation.Ranked> ranked = new ArrayList<>();
        for (int i = 0; i < choices.size(); i++) {
            ranked.add(new ModelRecommendation.Ranked(
                    choices.get(i), fp16.timeSeconds() / predictions.get(i).timeSeconds()));
        }
        ranked.sort(Comparator.comparingDouble(ModelRecommendation.Ranked::speedupVsFp16)
                .reversed());
        int best = pick(choices, i -> fp16.timeSeconds() / predictions.get(i).timeSeconds());
        ModelPrediction chosen = predictions.get(best);
        Recommendation whole = new Recommendation(
                model.name(),
                choices.get(best),
                modelMethod(choices.get(best)),
                fp16.timeSeconds() / chosen.timeSeconds(),
                modelReason(fp16, chosen, choices.get(best)));
        List<Recommendation> perOperator = new ArrayList<>();
        for (int op = 0; op < fp16.operators().size(); op++) {
            int k = op;
            OperatorTime base = fp16.operators().get(k);
            int b = pick(
                    choices,
                    i -> base.timeSeconds()
                            / predictions.get(i).operators().get(k).timeSeconds());
            Prediction p = predictions.get(b).operators().get(k).prediction();
            String method = base.step().operator() instanceof Attention
                    ? kvMethod(choices.get(b))
                    : p.computePath().method();
            perOperator.add(new Recommendation(
                    base.name(),
                    choices.get(b),
                    method,
                    base.prediction().timeSeconds() / p.timeSeconds(),
                    operatorReason(base.prediction(), p)));
        }
        return new ModelRecommendation(whole, ranked, perOperator, fp16, chosen);
    }

    /** The fastest choice, or among those within 1% of it the one with the most bits. */
    private static int pick(List<Choice> choices, java.util.function.IntToDoubleFunction speedup) {
        double top = 0;
        for (int i = 0; i < choices.size(); i++) {
            top = Math.max(top, speedup.applyAsDouble(i));
        }
        int best = -1;
        for (int i = 0; i < choices.size(); i++) {
            if (speedup.applyAsDouble(i) * TIE >= top
                    && (best < 0 || choices.get(i).bits() > choices.get(best).bits())) {
                best = i;
            }
        }
        return best;
    }

    private String modelMethod(Choice c) {
        Hardware hw = roofline.hardware();
        String m =
                "projections: " + hw.computePath(c.weights(), c.activations()).method();
        return c.kvCache() == c.activations() ? m : m + "; attention: " + kvMethod(c);
    }

    private String kvMethod(Choice c) {
        Precision executed =
                roofline.hardware().computePath(c.kvCache(), c.activations()).executedAs();
        return c.kvCache().displayName() + " KV cache"
                + (executed == c.kvCache()
                        ? " on " + executed.displayName() + " tensor cores"
                        : " converted to " + executed.displayName() + ", " + executed.displayName() + " tensor cores");
    }

    private String modelReason(ModelPrediction fp16, ModelPrediction chosen, Choice c) {
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
        return String.format(
                Locale.ROOT,
                "%s, %s, for a predicted %.2fx over FP16.",
                what,
                why,
                fp16.timeSeconds() / chosen.timeSeconds());
    }

    private static String operatorReason(Prediction fp16, Prediction p) {
        double speedup = fp16.timeSeconds() / p.timeSeconds();
        if (speedup < TIE) {
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
