package dev.roofline.core.recommend;

import dev.roofline.core.calibration.CalibratedPrediction;
import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.model.Model;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Attention;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.OperatorTime;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Chooses weight, activation and KV-cache precisions for a model on a GPU by pricing every allowed combination with
 * the roofline model. Each role has its own {@link AccuracyConstraint} (one for all three with
 * {@link #withConstraint}); FP16, the baseline, is always a candidate. Weights may take any format of 16 bits or fewer
 * (weight-only formats run on any GPU through a costed dequantize-to-16-bit path); quantized activations only a format
 * the GPU multiplies natively, paired with weights that then run in it (W8A8, W4A8, W4A4); the KV cache only FP16,
 * BF16, FP8 or NVFP4 (NVFP4 where it is native). A format the caller named that cannot take a role is reported with
 * the reason ({@link ModelRecommendation#excluded()}). Among choices within 1% of the fastest, the one with the most
 * bits wins. {@link #withCalibration} prices the candidates as a measured engine runs them instead of on the datasheet.
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

    /** Choices within this factor of the fastest count as equally fast. */
    static final double TIE = 1.01;

    private final Roofline roofline;
    private final Candidates.Roles roles;
    /** Measurements to price candidates with; null prices them on the roofline alone. */
    private final Calibration calibration;

    private Recommender(Roofline roofline, Candidates.Roles roles, Calibration calibration) {
        this.roofline = Checks.notNull("roofline", roofline);
        this.roles = roles;
        this.calibration = calibration;
    }

    /** No constraint on any role. */
    public static Recommender on(Roofline roofline) {
        AccuracyConstraint any = AccuracyConstraint.any();
        return new Recommender(roofline, new Candidates.Roles(any, any, any), null);
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
        return new Recommender(roofline, new Candidates.Roles(weights, activations, kvCache), calibration);
    }

    /**
     * Prices every candidate with {@code c} ({@link Calibration#predict}): each operator at its class's measured
     * fraction of the copy bandwidth plus its class's fixed time, then the engine's launches, so speedups are those of
     * the measured engine.
     */
    public Recommender withCalibration(Calibration c) {
        return new Recommender(roofline, roles, Checks.notNull("calibration", c));
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
        Priced fp16 = price(t, Choice.FP16.applyTo(workload));
        List<Choice> choices = candidates();
        List<Priced> priced = new ArrayList<>(choices.size());
        Set<OperatorClass> uncalibrated = new TreeSet<>(Comparator.comparing(OperatorClass::key));
        for (Choice c : choices) {
            Priced p = price(t, c.applyTo(workload));
            priced.add(p);
            uncalibrated.addAll(p.uncalibrated());
        }
        List<ModelRecommendation.Ranked> ranked = new ArrayList<>();
        for (int i = 0; i < choices.size(); i++) {
            ranked.add(new ModelRecommendation.Ranked(
                    choices.get(i), fp16.timeSeconds() / priced.get(i).timeSeconds()));
        }
        ranked.sort(Comparator.comparingDouble(ModelRecommendation.Ranked::speedupVsFp16)
                .reversed());
        int best = pick(choices, i -> fp16.timeSeconds() / priced.get(i).timeSeconds());
        Priced chosen = priced.get(best);
        double speedup = fp16.timeSeconds() / chosen.timeSeconds();
        Recommendation whole = new Recommendation(
                model.name(),
                choices.get(best),
                modelMethod(choices.get(best)),
                speedup,
                Reasons.model(fp16.prediction(), chosen.prediction(), choices.get(best), speedup));
        List<Recommendation> perOperator = new ArrayList<>();
        for (int op = 0; op < fp16.prediction().operators().size(); op++) {
            int k = op;
            OperatorTime base = fp16.prediction().operators().get(k);
            int b = pick(
                    choices,
                    i -> base.timeSeconds()
                            / priced.get(i).prediction().operators().get(k).timeSeconds());
            Prediction p = priced.get(b).prediction().operators().get(k).prediction();
            String method = base.step().operator() instanceof Attention
                    ? kvMethod(choices.get(b))
                    : p.computePath().method();
            perOperator.add(new Recommendation(
                    base.name(),
                    choices.get(b),
                    method,
                    base.prediction().timeSeconds() / p.timeSeconds(),
                    Reasons.operator(base, p)));
        }
        Candidates rules = rules();
        List<RoleChoice> roleChoices = new ArrayList<>();
        for (TensorRole role : TensorRole.values()) {
            roleChoices.add(roleChoice(role, rules.of(role), whole, ranked));
        }
        return new ModelRecommendation(
                whole,
                ranked,
                roleChoices,
                rules.exclusions(),
                perOperator,
                fp16.prediction(),
                chosen.prediction(),
                List.copyOf(uncalibrated));
    }

    /**
     * One candidate as priced: its operators ({@code prediction}, calibrated when there is a calibration), the whole
     * pass's time, which with a calibration includes the launches, and the classes the calibration had no figure for.
     */
    private record Priced(ModelPrediction prediction, double timeSeconds, List<OperatorClass> uncalibrated) {}

    private Priced price(Transformer t, Workload w) {
        if (calibration == null) {
            ModelPrediction p = t.predict(w);
            return new Priced(p, p.timeSeconds(), List.of());
        }
        CalibratedPrediction p = calibration.predict(t, w);
        return new Priced(p.calibrated(), p.timeSeconds(), p.uncalibratedClasses());
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
}
