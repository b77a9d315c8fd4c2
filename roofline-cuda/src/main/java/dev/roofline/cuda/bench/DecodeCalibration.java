package dev.roofline.cuda.bench;

import dev.roofline.core.calibration.CalibratedPrediction;
import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.model.Model;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import dev.roofline.cuda.decode.DecoderOperator;

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
 *       one ratio of sums); kept within (0, {@link Calibration#MAX_EFFICIENCY}].
 * </ul>
 * The kernels per layer and per model are the engine's ({@link DecoderOperator#launches}).
 */
public final class DecodeCalibration {
    private static final double MIN_EFFICIENCY = 1e-3;

    private DecodeCalibration() {}

    /**
     * Fits a calibration to {@code profiled} (measured, each with its operators).
     *
     * @throws IllegalArgumentException when a result was not measured or not profiled
     */
    public static Calibration fit(
            List<DecodeStepResult> profiled, DeviceCeilings ceilings, String device, LocalDate date, String source) {
        if (profiled.isEmpty()) {
            throw new IllegalArgumentException("a calibration needs at least one profiled decode step");
        }
        double elementwiseSeconds = 0;
        long elementwiseLaunches = 0;
        for (DecodeStepResult r : profiled) {
            if (!r.measured() || r.operators().isEmpty()) {
                throw new IllegalArgumentException("a calibration is fitted to measured, profiled steps; "
                        + DecodeStepReport.title(r) + " is " + (r.measured() ? "not profiled" : r.notRun()));
            }
            for (DecodeStepResult.OperatorTiming o : r.operators()) {
                if (classOf(r.predicted(), o.operator()) == OperatorClass.ELEMENTWISE) {
                    elementwiseSeconds += o.measuredSeconds();
                    elementwiseLaunches += o.launches();
                }
            }
        }
        double launch = elementwiseSeconds / elementwiseLaunches;
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
        int perModel = DecoderOperator.LM_HEAD.launches(layers) + 1; // lm_head and the final norm
        int perLayer = (DecoderOperator.stepLaunches(layers) - perModel) / layers;
        return new Calibration(
                new Calibration.Provenance(device, date, source),
                ceilings.copyBytesPerSecond(),
                launch,
                perLayer,
                perModel,
                efficiencies);
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
     * without it); {@code fittedTo} are the results the calibration was fitted to.
     */
    public static List<Check> check(
            Model model, Calibration calibration, List<DecodeStepResult> results, List<DecodeStepResult> fittedTo) {
        List<Check> checks = new ArrayList<>();
        for (DecodeStepResult r : results) {
            if (!r.measured()) {
                continue;
            }
            Workload w = r.datasheet().workload();
            CalibratedPrediction c =
                    calibration.predict(Transformer.of(model, r.datasheet().hardware()), w);
            double calibrated = c.timeSeconds();
            for (String name : DecodeStepBenchmark.NOT_IN_STEP) {
                calibrated -= c.calibrated().operator(name).timeSeconds();
            }
            checks.add(new Check(
                    r,
                    DecodeStepResult.stepPrediction(r.datasheet()),
                    DecodeStepResult.stepPrediction(r.predicted()),
                    calibrated,
                    fittedTo.contains(r)));
        }
        return checks;
    }

    private static double clamp(double e) {
        return Math.max(MIN_EFFICIENCY, Math.min(Calibration.MAX_EFFICIENCY, e));
    }
}
