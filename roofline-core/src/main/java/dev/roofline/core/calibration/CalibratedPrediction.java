package dev.roofline.core.calibration;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.OperatorTime;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A whole forward pass priced with a {@link Calibration}: each operator at the fraction of the copy bandwidth its
 * class was measured to reach plus its class's fixed time, then the engine's kernel launches. Made by
 * {@link Calibration#predict}.
 *
 * @param calibration what was measured
 * @param base        the plain roofline on the measured copy bandwidth (every class at efficiency 1, no fixed time, no
 *                    launches)
 * @param calibrated  the same operators, each priced at its class's efficiency with its class's fixed time as latency;
 *                    its total leaves the launches out
 */
public record CalibratedPrediction(Calibration calibration, ModelPrediction base, ModelPrediction calibrated) {

    public CalibratedPrediction {
        Checks.notNull("calibration", calibration);
        Checks.notNull("base", base);
        Checks.notNull("calibrated", calibrated);
        if (!base.workload().equals(calibrated.workload())
                || !base.model().equals(calibrated.model())
                || !base.operators().stream()
                        .map(OperatorTime::step)
                        .toList()
                        .equals(calibrated.operators().stream()
                                .map(OperatorTime::step)
                                .toList())) {
            throw new IllegalArgumentException(
                    "base and calibrated must price the same steps of the same model and workload");
        }
    }

    /** Kernels the measured engine launches for this forward pass (see {@link Calibration#launches}). */
    public long launches() {
        return calibration.launches(base.model(), base.workload());
    }

    /** launches × the measured cost of one launch. */
    public double launchSeconds() {
        return launches() * calibration.launchSeconds();
    }

    /** The calibrated operators' time plus the launches': what one forward pass is predicted to take. */
    public double timeSeconds() {
        return calibrated.timeSeconds() + launchSeconds();
    }

    public double timeMillis() {
        return timeSeconds() * 1e3;
    }

    /** Tokens processed (prefill) or generated (decode) per second over the whole batch. */
    public double tokensPerSecond() {
        return base.workload().tokens() / timeSeconds();
    }

    /** The calibrated step named {@code name} ({@link ModelPrediction#operator}). */
    public OperatorTime operator(String name) {
        return calibrated.operator(name);
    }

    /** Operators of class {@code c} in this pass, each step's count included (32 attentions for a 32-layer decode). */
    public long count(OperatorClass c) {
        Checks.notNull("class", c);
        long n = 0;
        for (OperatorTime o : base.operators()) {
            if (calibration.classOf(o.step().operator()).equals(c)) {
                n = Checks.add(n, o.count(), () -> "operators of class " + c);
            }
        }
        return n;
    }

    /** Fraction of {@link #timeSeconds()}, launches included, spent in the calibrated operator {@code o}. */
    public double share(OperatorTime o) {
        return Checks.notNull("operator", o).timeSeconds() / timeSeconds();
    }

    /** The classes of this pass's operators that the calibration has no efficiency for (priced at 1), by key. */
    public List<OperatorClass> uncalibratedClasses() {
        List<OperatorClass> out = new ArrayList<>();
        for (OperatorTime o : base.operators()) {
            OperatorClass c = calibration.classOf(o.step().operator());
            if (!calibration.calibrates(c) && !out.contains(c)) {
                out.add(c);
            }
        }
        out.sort(Comparator.comparing(OperatorClass::key));
        return List.copyOf(out);
    }

    /** How far this prediction is from a measured time, in percent: (measured / predicted − 1) × 100. */
    public double errorPercent(double measuredSeconds) {
        Checks.positive("measuredSeconds", measuredSeconds);
        return (measuredSeconds / timeSeconds() - 1) * 100;
    }
}
