package dev.roofline.cuda.bench;

import dev.roofline.core.energy.OperationEnergy;
import dev.roofline.core.model.MixtureOfExperts;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.cuda.decode.DecoderOperator;
import dev.roofline.cuda.decode.DecoderShape;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What one decode-step configuration measured, beside its predictions; or why it was not measured.
 *
 * @param seconds     the step's median time (NaN when not measured)
 * @param predicted   the roofline prediction on the measured copy bandwidth and peaks (no kernel latency: the model's
 *                    operators are not kernel launches one for one); null when not measured
 * @param datasheet   the prediction on the datasheet; null when not measured
 * @param weightBytes bytes of weights the step reads
 * @param kvBytes     bytes of K and V the step's attention reads
 * @param operators   per operator, when profiled (else empty)
 * @param energy      the step back to back for at least a second inside one meter session, when a meter is installed
 * @param notRun      why the configuration was not measured, or null
 * @param expertsRead for a model with experts, the distinct experts a layer of the timed step read, averaged over the
 *                    layers (the prediction assumes {@link MixtureOfExperts#expectedDistinctExperts}); else NaN
 * @param launches    the kernels one step launched (fewer than the shape's {@link DecoderOperator#stepLaunches} when
 *                    the engine fused norms or RoPE into the products); 0 when not measured
 * @param readFloorSeconds the step's read floor ({@link StepReads}): each of its launches a kernel that only reads
 *                    that launch's bytes, the chain graphed and launched like the step; NaN when not measured
 */
public record DecodeStepResult(
        String model,
        DecodeStepBenchmark.Config config,
        double seconds,
        ModelPrediction predicted,
        ModelPrediction datasheet,
        long weightBytes,
        long kvBytes,
        List<OperatorTiming> operators,
        Optional<OperationEnergy> energy,
        String notRun,
        double expertsRead,
        int launches,
        double readFloorSeconds) {

    public DecodeStepResult {
        operators = List.copyOf(operators);
    }

    /**
     * A result without a read floor whose launches are its profiled operators' (when profiled) or the shape's unfused
     * count (when measured); {@link DecodeStepBenchmark} passes the decoder's own count instead.
     */
    public DecodeStepResult(
            String model,
            DecodeStepBenchmark.Config config,
            double seconds,
            ModelPrediction predicted,
            ModelPrediction datasheet,
            long weightBytes,
            long kvBytes,
            List<OperatorTiming> operators,
            Optional<OperationEnergy> energy,
            String notRun,
            double expertsRead) {
        this(
                model,
                config,
                seconds,
                predicted,
                datasheet,
                weightBytes,
                kvBytes,
                operators,
                energy,
                notRun,
                expertsRead,
                defaultLaunches(predicted, operators, notRun),
                Double.NaN);
    }

    private static int defaultLaunches(ModelPrediction predicted, List<OperatorTiming> operators, String notRun) {
        if (notRun != null || predicted == null) {
            return 0;
        }
        return operators.isEmpty()
                ? DecoderOperator.stepLaunches(DecoderShape.of(predicted.model()))
                : operators.stream().mapToInt(OperatorTiming::launches).sum();
    }

    /** A result without experts read (a dense model's, or one not measured). */
    public DecodeStepResult(
            String model,
            DecodeStepBenchmark.Config config,
            double seconds,
            ModelPrediction predicted,
            ModelPrediction datasheet,
            long weightBytes,
            long kvBytes,
            List<OperatorTiming> operators,
            Optional<OperationEnergy> energy,
            String notRun) {
        this(model, config, seconds, predicted, datasheet, weightBytes, kvBytes, operators, energy, notRun, Double.NaN);
    }

    /**
     * One operator of the step timed on its own: all its launches of one step, replayed as a graph.
     *
     * @param datasheetSeconds the model's operators it covers, predicted on the datasheet
     * @param predictedSeconds the same on the measured ceilings
     * @param measuredSeconds  the median of its launches of one step
     * @param readFloorSeconds its launches' reads in the step's read floor ({@link StepReads}), timed the same way; NaN
     *                         when not measured
     * @param inStepSeconds    what it adds to the step: the step's median less the median of the step without its
     *                         launches ({@code DenseDecoder.stepWithout}); NaN when not measured
     * @param inStepFloorSeconds what its reads add to the read floor, likewise; NaN when not measured
     */
    public record OperatorTiming(
            DecoderOperator operator,
            int launches,
            double datasheetSeconds,
            double predictedSeconds,
            double measuredSeconds,
            double readFloorSeconds,
            double inStepSeconds,
            double inStepFloorSeconds) {

        /** An operator timed on its own beside its read floor, not in the step. */
        public OperatorTiming(
                DecoderOperator operator,
                int launches,
                double datasheetSeconds,
                double predictedSeconds,
                double measuredSeconds,
                double readFloorSeconds) {
            this(
                    operator,
                    launches,
                    datasheetSeconds,
                    predictedSeconds,
                    measuredSeconds,
                    readFloorSeconds,
                    Double.NaN,
                    Double.NaN);
        }

        /** An operator timed without its read floor. */
        public OperatorTiming(
                DecoderOperator operator,
                int launches,
                double datasheetSeconds,
                double predictedSeconds,
                double measuredSeconds) {
            this(operator, launches, datasheetSeconds, predictedSeconds, measuredSeconds, Double.NaN);
        }

        /** (measured / predicted on measured ceilings − 1) × 100. */
        public double errorPercent() {
            return (measuredSeconds / predictedSeconds - 1) * 100;
        }
    }

    static DecodeStepResult skipped(String model, DecodeStepBenchmark.Config c, long weightBytes, long kvBytes) {
        return notRun(
                model,
                c,
                weightBytes,
                kvBytes,
                String.format(
                        Locale.ROOT,
                        "not run: %.1f GB of weights and %.1f GB of KV cache do not fit in the %.1f GB of free device"
                                + " memory",
                        weightBytes / 1e9,
                        kvBytes / 1e9,
                        dev.roofline.cuda.Cuda.freeMemoryBytes() / 1e9));
    }

    static DecodeStepResult unsupported(String model, DecodeStepBenchmark.Config c, long weightBytes, long kvBytes) {
        return notRun(
                model,
                c,
                weightBytes,
                kvBytes,
                "not run: batch " + c.batch() + " with " + c.format()
                        + " weights needs a weight-only matrix product of that many rows, which roofline does not have yet");
    }

    static DecodeStepResult unsupported(
            String model, DecodeStepBenchmark.Config c, long weightBytes, long kvBytes, String why) {
        return notRun(model, c, weightBytes, kvBytes, why);
    }

    private static DecodeStepResult notRun(
            String model, DecodeStepBenchmark.Config c, long weightBytes, long kvBytes, String why) {
        return new DecodeStepResult(
                model, c, Double.NaN, null, null, weightBytes, kvBytes, List.of(), Optional.empty(), why);
    }

    public boolean measured() {
        return notRun == null;
    }

    public double micros() {
        return seconds * 1e6;
    }

    /** Sequences × steps per second. */
    public double tokensPerSecond() {
        return config.batch() / seconds;
    }

    /** Share of the roofline (measured ceilings) the step reaches: predicted / measured, in %. */
    public double percentOfRoofline() {
        return stepPrediction(predicted) / seconds * 100;
    }

    /** (measured / predicted on measured ceilings − 1) × 100. */
    public double errorPercent() {
        return (seconds / stepPrediction(predicted) - 1) * 100;
    }

    /**
     * The step's floor on its own measurements: each operator at least its roofline time on the measured ceilings and
     * at least {@link DecodeCalibration#launchSeconds what one launch costs} in this graph, per launch:
     * {@code Σ launches × max(predicted / launches, launch)}. NaN without a profile or without an elementwise operator
     * in it. The roofline charges no launch; this floor is what a step of this many kernels can reach.
     */
    public double launchFloorSeconds() {
        return launchFloorSeconds(DecodeCalibration.launchSeconds(List.of(this)));
    }

    /** {@link #launchFloorSeconds()} with {@code launch} the cost of one launch (NaN: none measured). */
    private double launchFloorSeconds(double launch) {
        if (Double.isNaN(launch)) {
            return Double.NaN;
        }
        double floor = 0;
        for (OperatorTiming o : operators) {
            floor += o.launches() == 0
                    ? o.predictedSeconds()
                    : o.launches() * Math.max(o.predictedSeconds() / o.launches(), launch);
        }
        return floor;
    }

    /** Weight and KV bytes over the median time. */
    public double bytesPerSecond() {
        return (weightBytes + kvBytes) / seconds;
    }

    /** Sum of the profiled operators' medians, or NaN without a profile. */
    public double profiledSeconds() {
        return operators.isEmpty()
                ? Double.NaN
                : operators.stream()
                        .mapToDouble(OperatorTiming::measuredSeconds)
                        .sum();
    }

    /**
     * Sum of what the launched operators add to the step ({@link OperatorTiming#inStepSeconds}), or NaN where they were
     * not timed in the step.
     */
    public double inStepSeconds() {
        return sumOfLaunched(OperatorTiming::inStepSeconds);
    }

    /** Sum of what the launched operators' reads add to the read floor, or NaN where not timed. */
    public double inStepFloorSeconds() {
        return sumOfLaunched(OperatorTiming::inStepFloorSeconds);
    }

    /** {@code seconds} summed over the operators with launches of their own; NaN if any is NaN or none has one. */
    double sumOfLaunched(java.util.function.ToDoubleFunction<OperatorTiming> seconds) {
        List<OperatorTiming> launched =
                operators.stream().filter(o -> o.launches() > 0).toList();
        return launched.isEmpty()
                ? Double.NaN
                : launched.stream().mapToDouble(seconds).sum();
    }

    /** A prediction's time without the operators the step does not run (the embedding lookup). */
    public static double stepPrediction(ModelPrediction p) {
        double t = p.timeSeconds();
        for (String name : DecodeStepBenchmark.NOT_IN_STEP) {
            t -= p.operator(name).timeSeconds();
        }
        return t;
    }

    private String launchFloorNote() {
        double launch = DecodeCalibration.launchSeconds(List.of(this));
        double floor = launchFloorSeconds(launch);
        return Double.isNaN(floor)
                ? ""
                : String.format(
                        Locale.ROOT,
                        "; floor with %.2f us a launch %.1f us, %.1f %% of it",
                        launch * 1e6,
                        floor * 1e6,
                        floor / seconds * 100);
    }

    private String expertsNote() {
        double expected = predicted.model().feedForward() instanceof MixtureOfExperts moe
                ? moe.expectedDistinctExperts(config.batch())
                : Double.NaN;
        return String.format(
                Locale.ROOT, "; %.2f experts read per layer (the prediction assumes %.2f)", expertsRead, expected);
    }

    @Override
    public String toString() {
        String head = String.format(
                Locale.ROOT,
                "%s %s%s batch %d context %d %s: ",
                model,
                config.format(),
                DecodeStepReport.kvLabel(config.kv(), " KV "),
                config.batch(),
                config.context(),
                config.launch().name().toLowerCase(Locale.ROOT));
        if (!measured()) {
            return head + notRun;
        }
        return head
                + String.format(
                        Locale.ROOT,
                        "%.1f us/step (%.1f tokens/s); roofline %.1f us (measured ceilings), %.1f us (datasheet);"
                                + " %.1f %% of the roofline, err %+.1f %%; weights + KV %.0f GB/s",
                        micros(),
                        tokensPerSecond(),
                        stepPrediction(predicted) * 1e6,
                        stepPrediction(datasheet) * 1e6,
                        percentOfRoofline(),
                        errorPercent(),
                        bytesPerSecond() / 1e9)
                + launchFloorNote()
                + (Double.isNaN(readFloorSeconds)
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                "; read floor %.1f us (%d launches, each reading its bytes), %.1f %% of it",
                                readFloorSeconds * 1e6,
                                launches,
                                readFloorSeconds / seconds * 100))
                + (Double.isNaN(inStepSeconds())
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                "; its operators in the step sum to %.1f us (%+.1f %%)",
                                inStepSeconds() * 1e6,
                                (inStepSeconds() / seconds - 1) * 100))
                + (Double.isNaN(expertsRead) ? "" : expertsNote())
                + energy.map(e -> String.format(
                                Locale.ROOT,
                                "; %.3f J/token at %.0f W average",
                                e.joulesPerOperation() / config.batch(),
                                e.reading().averageWatts()))
                        .orElse("");
    }
}
