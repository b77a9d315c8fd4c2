package dev.roofline.cuda.bench;

import dev.roofline.core.calibration.CalibratedPrediction;
import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Model;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import dev.roofline.cuda.decode.DecoderOperator;
import dev.roofline.cuda.decode.DenseDecoder;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link Calibration} fitted to profiled decode steps ({@link DecodeStepBenchmark} with a profile), and the check of
 * its predictions against measured steps. The fit, per the calibration's model (each operator at its class's share of
 * the copy bandwidth, plus a fixed cost per kernel launch):
 *
 * <ul>
 *   <li>launch cost: the elementwise operators' measured time over their launches. Their bytes are a few KiB, so their
 *       time is their launches' (their class's efficiency is left at 1);
 *   <li>every other class: the roofline time of its operators on the measured copy bandwidth over their measured time
 *       less their launches' cost, summed over the profiled steps (so a class seen at several precisions or steps is
 *       one ratio of sums); kept within (0, {@link Calibration#MAX_EFFICIENCY}];
 *   <li>attention, given the step's attention timed alone at a second, longer context ({@link AttentionPoint}): two
 *       points of measured time against KV bytes, so a line: its slope is the efficiency, its intercept less the
 *       launches a fixed time per layer (split passes and the merge cost microseconds whatever the context).
 *   <li>the attention at more sequences ({@link #withAttentionAt}): the same line through two points timed alone at
 *       each number of sequences, as the class {@code attention h<HEADS>} of its KV heads.
 * </ul>
 * The kernels per layer and per model are those the engine launched in the first profiled step
 * ({@link DecodeStepResult#launches}), and beside them the engine's plans ({@link DenseDecoder#launchPlans}): a dense
 * step launches 10 kernels a layer, 7 with FP16 weights at batch 1 (norms and RoPE inside the products), 8 with FP8
 * weights at batch 1 (the norms), a mixture of experts 13, or 12; 2 per model (lm_head, and the final norm or layer
 * 0's input norm). A pass priced away from the fitted configuration is charged its plan's launches; a measured one is
 * checked ({@link #check}) with its own.
 */
public final class DecodeCalibration {
    private static final double MIN_EFFICIENCY = 1e-3;

    private DecodeCalibration() {}

    /**
     * The step's attention ({@link DecoderOperator#ATTENTION}, every layer) timed alone at a context other than the
     * profiled steps': its measured time and its roofline time on the measured copy bandwidth, in seconds.
     */
    public record AttentionPoint(int context, double measuredSeconds, double predictedSeconds) {
        public AttentionPoint {
            if (context < 1 || !(measuredSeconds > 0) || !(predictedSeconds > 0)) {
                throw new IllegalArgumentException("an attention point needs a positive context and times, got "
                        + context + ", " + measuredSeconds + " s, " + predictedSeconds + " s");
            }
        }
    }

    /** {@link #fit(List, AttentionPoint, DeviceCeilings, String, LocalDate, String)} without a second attention point. */
    public static Calibration fit(
            List<DecodeStepResult> profiled, DeviceCeilings ceilings, String device, LocalDate date, String source) {
        return fit(profiled, null, ceilings, device, date, source);
    }

    /**
     * Fits a calibration to {@code profiled} (measured, each with its operators) and, when {@code attention} is given,
     * the attention's efficiency and fixed time to the two contexts.
     *
     * @throws IllegalArgumentException when a result was not measured or not profiled
     */
    public static Calibration fit(
            List<DecodeStepResult> profiled,
            AttentionPoint attention,
            DeviceCeilings ceilings,
            String device,
            LocalDate date,
            String source) {
        if (profiled.isEmpty()) {
            throw new IllegalArgumentException("a calibration needs at least one profiled decode step");
        }
        for (DecodeStepResult r : profiled) {
            if (!r.measured() || r.operators().isEmpty()) {
                throw new IllegalArgumentException("a calibration is fitted to measured, profiled steps; "
                        + DecodeStepReport.title(r) + " is " + (r.measured() ? "not profiled" : r.notRun()));
            }
        }
        double launch = launchSeconds(profiled);
        Map<OperatorClass, double[]> sums = new LinkedHashMap<>(); // class -> {roofline s, measured s less launches}
        for (DecodeStepResult r : profiled) {
            for (DecodeStepResult.OperatorTiming o : r.operators()) {
                OperatorClass c = classOf(r.predicted(), o.operator());
                if (c != OperatorClass.ELEMENTWISE) {
                    double[] s = sums.computeIfAbsent(c, k -> new double[2]);
                    s[0] += o.predictedSeconds();
                    s[1] += o.measuredSeconds() - o.launches() * launch;
                }
            }
        }
        Map<OperatorClass, Double> efficiencies = new LinkedHashMap<>();
        efficiencies.put(OperatorClass.ELEMENTWISE, 1.0);
        sums.forEach((c, s) -> efficiencies.put(c, s[1] <= 0 ? Calibration.MAX_EFFICIENCY : clamp(s[0] / s[1])));
        int layers = profiled.getFirst().predicted().model().layers();
        Map<OperatorClass, Double> fixed = new LinkedHashMap<>();
        if (attention != null) {
            DecodeStepResult.OperatorTiming near = profiled.getFirst().operators().stream()
                    .filter(o -> o.operator() == DecoderOperator.ATTENTION)
                    .findFirst()
                    .orElseThrow();
            double[] line = line(
                    new AttentionPoint(
                            profiled.getFirst().config().context(), near.measuredSeconds(), near.predictedSeconds()),
                    attention,
                    near.launches() * launch,
                    layers);
            efficiencies.put(OperatorClass.ATTENTION, line[0]);
            fixed.put(OperatorClass.ATTENTION, line[1]);
        }
        int perModel = DecoderOperator.LM_HEAD.launches(layers) + 1; // lm_head and one norm
        int perLayer = (profiled.getFirst().launches() - perModel) / layers;
        return new Calibration(
                new Calibration.Provenance(device, date, source),
                ceilings.copyBytesPerSecond(),
                launch,
                perLayer,
                perModel,
                efficiencies,
                fixed,
                List.of(),
                DenseDecoder.launchPlans());
    }

    /**
     * The attention timed alone at {@code sequences} sequences a step, at two contexts ({@code near} the shorter): its
     * points for {@code attention h<HEADS>} ({@link #withAttentionAt}).
     */
    public record AttentionAtBatch(int sequences, AttentionPoint near, AttentionPoint far) {
        public AttentionAtBatch {
            if (sequences < 1 || near == null || far == null || far.context() <= near.context()) {
                throw new IllegalArgumentException(
                        "attention at a batch needs sequences >= 1 and two points, the second"
                                + " at the longer context; got " + sequences + ", " + near + ", " + far);
            }
        }
    }

    /**
     * {@code c} with, for each of {@code points}, the class {@code attention h<HEADS>} of its sequences × {@code kvHeads}
     * (the model's KV heads): the efficiency and fixed time per layer of the line through its two points, as the
     * attention's own at the fitted batch ({@link #fit(List, AttentionPoint, DeviceCeilings, String, LocalDate,
     * String)}); each point's measured time holds {@code launchesPerStep} launches at the calibration's launch cost, over
     * a model of {@code layers} layers.
     *
     * @throws IllegalArgumentException when a far point reads no more or takes no longer than its near one
     */
    public static Calibration withAttentionAt(
            Calibration c, List<AttentionAtBatch> points, int kvHeads, int launchesPerStep, int layers) {
        if (kvHeads < 1 || launchesPerStep < 0 || layers < 1) {
            throw new IllegalArgumentException("attention at more sequences needs kvHeads >= 1, launchesPerStep >= 0"
                    + " and layers >= 1, got " + kvHeads + ", " + launchesPerStep + ", " + layers);
        }
        if (points.stream().map(AttentionAtBatch::sequences).distinct().count() != points.size()) {
            throw new IllegalArgumentException("attention points name a number of sequences twice: " + points);
        }
        Map<OperatorClass, Double> efficiencies = new LinkedHashMap<>(c.efficiencies());
        Map<OperatorClass, Double> fixed = new LinkedHashMap<>(c.fixedSeconds());
        for (AttentionAtBatch p : points) {
            double[] line = line(p.near(), p.far(), launchesPerStep * c.launchSeconds(), layers);
            OperatorClass a = new OperatorClass.Attention(Math.multiplyExact(p.sequences(), kvHeads));
            efficiencies.put(a, line[0]);
            fixed.put(a, line[1]);
        }
        return new Calibration(
                c.provenance(),
                c.copyBytesPerSecond(),
                c.launchSeconds(),
                c.kernelsPerLayer(),
                c.kernelsPerModel(),
                efficiencies,
                fixed,
                c.collectives(),
                c.plans());
    }

    /**
     * The line through two attention points, each's time less {@code launches} seconds of launches: {efficiency (its
     * slope against the roofline time), fixed time per layer (its intercept, at least 0)}.
     */
    private static double[] line(AttentionPoint near, AttentionPoint far, double launches, int layers) {
        double work1 = near.measuredSeconds() - launches;
        double work2 = far.measuredSeconds() - launches;
        double bytesTime = far.predictedSeconds() - near.predictedSeconds();
        if (bytesTime <= 0 || work2 <= work1) {
            throw new IllegalArgumentException(
                    "the second attention point must read more and take longer than the first: " + far + " against "
                            + near);
        }
        double e = clamp(bytesTime / (work2 - work1));
        return new double[] {e, Math.max(0, (work1 - near.predictedSeconds() / e) / layers)};
    }

    /**
     * What one kernel launch costs inside the graphed step: the elementwise operators' measured time over their
     * launches, summed over {@code profiled} (their bytes are a few KiB, so their time is their launches'); NaN when
     * none of them ran an elementwise operator.
     */
    static double launchSeconds(List<DecodeStepResult> profiled) {
        double seconds = 0;
        long launches = 0;
        for (DecodeStepResult r : profiled) {
            for (DecodeStepResult.OperatorTiming o : r.operators()) {
                if (classOf(r.predicted(), o.operator()) == OperatorClass.ELEMENTWISE) {
                    seconds += o.measuredSeconds();
                    launches += o.launches();
                }
            }
        }
        return launches == 0 ? Double.NaN : seconds / launches;
    }

    /** The class of the model operators {@code o} covers (they share one: the first's). */
    static OperatorClass classOf(ModelPrediction p, DecoderOperator o) {
        return OperatorClass.of(p.operator(o.modelOperators().getFirst()).step());
    }

    /**
     * One measured step beside its predictions.
     *
     * @param calibrationPoint whether the calibration was fitted to this configuration (else it is held out)
     */
    public record Check(
            DecodeStepResult result,
            double datasheetSeconds,
            double rooflineSeconds,
            double calibratedSeconds,
            boolean calibrationPoint) {

        public double datasheetErrorPercent() {
            return error(datasheetSeconds);
        }

        public double rooflineErrorPercent() {
            return error(rooflineSeconds);
        }

        public double calibratedErrorPercent() {
            return error(calibratedSeconds);
        }

        private double error(double predicted) {
            return (result.seconds() / predicted - 1) * 100;
        }
    }

    /**
     * Every measured result of {@code results} beside the datasheet, the roofline on the measured ceilings and
     * {@code calibration}'s prediction on {@code model} (the embedding lookup left out of each, as the step runs
     * without it), its launches counted as the engine made them for that configuration ({@link
     * DecodeStepResult#launches} in place of the calibration's count for it, {@link Calibration#launches(Model,
     * Workload)}); {@code fittedTo} are the
     * results the calibration was fitted to.
     */
    public static List<Check> check(
            Model model, Calibration calibration, List<DecodeStepResult> results, List<DecodeStepResult> fittedTo) {
        List<Check> checks = new ArrayList<>();
        for (DecodeStepResult r : results) {
            if (!r.measured()) {
                continue;
            }
            double calibrated = stepSeconds(
                    calibration, model, r.datasheet().hardware(), r.datasheet().workload(), r.launches());
            checks.add(new Check(
                    r,
                    DecodeStepResult.stepPrediction(r.datasheet()),
                    DecodeStepResult.stepPrediction(r.predicted()),
                    calibrated,
                    fittedTo.contains(r)));
        }
        return checks;
    }

    /**
     * {@code calibration}'s prediction of one decode step of {@code model} at {@code w} on {@code hw}, the embedding
     * lookup left out as the step runs without it, and {@code launches} kernels (as the engine launched them for this
     * configuration) in place of the calibration's count for it ({@link Calibration#launches(Model, Workload)}).
     */
    public static double stepSeconds(Calibration calibration, Model model, Hardware hw, Workload w, long launches) {
        CalibratedPrediction c = calibration.predict(Transformer.of(model, hw), w);
        double seconds = c.timeSeconds() + (launches - calibration.launches(model, w)) * calibration.launchSeconds();
        for (String name : DecodeStepBenchmark.NOT_IN_STEP) {
            seconds -= c.calibrated().operator(name).timeSeconds();
        }
        return seconds;
    }

    static double clamp(double e) {
        return Math.max(MIN_EFFICIENCY, Math.min(Calibration.MAX_EFFICIENCY, e));
    }
}
