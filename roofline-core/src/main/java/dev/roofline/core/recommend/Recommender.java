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
 * the roofline model. Each role has its own {@link AccuracyConstraint} (one for all three with
 * {@link #withConstraint}); FP16, the baseline, is always a candidate. Weights may take any format of 16 bits or fewer
 * (weight-only formats run on any GPU through a costed dequantize-to-16-bit path); quantized activations only a format
 * the GPU multiplies natively, paired with weights that then run in it (W8A8, W4A8, W4A4); the KV cache only FP16,
 * BF16, FP8 or NVFP4 (NVFP4 where it is native). A format the caller named that cannot take a role is reported with
 * the reason ({@link ModelRecommendation#excluded()}). Among choices within 1% of the fastest, the one with the most
 * bits wins.
 *
 * <pre>{@code
 * ModelRecommendation r = Recommender.on(Hardware.GB10)
 *         .withConstraint(AccuracyConstraint.allowing(Precision.FP16, Precision.FP8_E4M3, Precision.NVFP4))
 *         .recommend(Models.LLAMA_3_8B, Workload.decode(1, 4096));
 * r.model().choice();          // W NVFP4, A FP16, KV NVFP4
 * r.model().speedupVsFp16();
 * r.roles();                   // why the weights, activations and KV cache got their precisions
 * }</pre>
 */
public final class Recommender {

    private static final double TIE = 1.01;
    /** The step {@code Operators} names the LM head, which {@link Workload#embeddings()} stores. */
    private static final String LM_HEAD = "lm_head";

    private final Roofline roofline;
    private final Candidates.Roles roles;

    private Recommender(Roofline roofline, Candidates.Roles roles) {
        this.roofline = Checks.notNull("roofline", roofline);
        this.roles = roles;
    }

    /** No constraint on any role. */
    public static Recommender on(Roofline roofline) {
        AccuracyConstraint any = AccuracyConstraint.any();
        return new Recommender(roofline, new Candidates.Roles(any, any, any));
    }

    public static Recommender on(Hardware hw) {
        return on(Roofline.on(hw));
    }

    /** One constraint for weights, activations and the KV cache alike. */
    public Recommender withConstraint(AccuracyConstraint c) {
        return withConstraints(c, c, c);
    }

    /** A constraint per role, e.g. INT4 or NVFP4 weights with only FP8 activations and KV cache. */
    public Recommender withConstraints(
            AccuracyConstraint weights, AccuracyConstraint activations, AccuracyConstraint kvCache) {
        Checks.notNull("weights", weights);
        Checks.notNull("activations", activations);
        Checks.notNull("kvCache", kvCache);
        return new Recommender(roofline, new Candidates.Roles(weights, activations, kvCache));
    }

    /** The combinations this GPU can run and the constraints allow; FP16 throughout is always the first. */
    public List<Choice> candidates() {
        return rules().choices();
    }

    private Candidates rules() {
        return new Candidates(roles, roofline.hardware());
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
                    operatorReason(base, p)));
        }
        Candidates rules = rules();
        List<RoleChoice> roleChoices = new ArrayList<>();
        for (TensorRole role : TensorRole.values()) {
            roleChoices.add(roleChoice(role, rules.of(role), whole, ranked));
        }
        return new ModelRecommendation(whole, ranked, roleChoices, rules.exclusions(), perOperator, fp16, chosen);
    }

    /** Why {@code role} got its precision: the speedup against the best choice that gives it another. */
    private RoleChoice roleChoice(
            TensorRole role,
            List<Precision> candidates,
            Recommendation whole,
            List<ModelRecommendation.Ranked> ranked) {
        Precision chosen = role.of(whole.choice());
        String reason;
        ModelRecommendation.Ranked other = ranked.stream()
                .filter(r -> role.of(r.choice()) != chosen)
                .findFirst()
                .orElse(null);
        if (candidates.size() == 1) {
            reason = String.format(
                    Locale.ROOT,
                    "%s is the only candidate: no allowed format can hold the %s on %s.",
                    chosen.displayName(),
                    role.displayName(),
                    roofline.hardware().name());
        } else if (other == null) {
            reason = String.format(
                    Locale.ROOT,
                    "%s is the only %s precision among the combinations this GPU runs.",
                    chosen.displayName(),
                    role.displayName());
        } else {
            reason = String.format(
                    Locale.ROOT,
                    "%s gives %.2fx over FP16; the best with the %s in %s, %s, gives %.2fx%s.",
                    chosen.displayName(),
                    whole.speedupVsFp16(),
                    role.displayName(),
                    role.of(other.choice()).displayName(),
                    other.choice().label(),
                    other.speedupVsFp16(),
                    other.speedupVsFp16() > whole.speedupVsFp16() ? " (within 1%, so the more bits win)" : "");
        }
        // quantized activations run only with weights the GPU then multiplies in them; say which found no such pair
        List<String> unpaired = candidates.stream()
                .filter(p -> ranked.stream().noneMatch(r -> role.of(r.choice()) == p))
                .map(Precision::displayName)
                .toList();
        if (!unpaired.isEmpty()) {
            reason += " Not priced: " + String.join(", ", unpaired)
                    + ", since no allowed weight format is multiplied in it on "
                    + roofline.hardware().name() + ".";
        }
        return new RoleChoice(role, chosen, candidates, reason);
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

    private static String operatorReason(OperatorTime base, Prediction p) {
        Prediction fp16 = base.prediction();
        double speedup = fp16.timeSeconds() / p.timeSeconds();
        if (speedup < TIE && base.name().equals(LM_HEAD)) {
            return "The LM head stays at 16 bits like the embedding table, as quantizers write it"
                    + " (Workload.withQuantizedEmbeddings prices both quantized).";
        }
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
