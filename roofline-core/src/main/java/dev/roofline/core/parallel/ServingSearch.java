package dev.roofline.core.parallel;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.model.MixtureOfExperts;
import dev.roofline.core.model.Model;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.Workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The serving setups of a model on {@code gpus} GPUs that meet a TTFT and a time-per-output-token target: every split
 * of the GPUs into identical replicas (data parallel) of tensor × pipeline stages that the model divides into, for a
 * mixture of experts with its experts split like the layers or whole on each GPU (expert parallel), every weight
 * precision asked for, and concurrencies 1, 2, 4, … per replica up to what fits; then the Pareto set of
 * the ones that meet both targets, throughput per GPU against time per output token, and the winner: the most tokens
 * per second per GPU.
 *
 * <pre>{@code
 * ServingSearch.Result r = ServingSearch.run(Models.LLAMA_3_70B, Hardware.H200, Interconnect.NVLINK_4, 8,
 *         2048, 256, 0.5, 0.030, List.of(Precision.FP16, Precision.FP8_E4M3));
 * }</pre>
 */
public final class ServingSearch {
    private ServingSearch() {}

    /** The largest concurrency tried per setup. */
    static final int MAX_CONCURRENCY = 1024;

    /**
     * What a search found.
     *
     * @param tried   setups priced
     * @param pareto  the setups meeting both targets that no other beats on both throughput per GPU and time per output
     *                token, fastest token first
     * @param winner  the most tokens per second per GPU among those meeting the targets, or null when none does
     */
    public record Result(int tried, List<ServingPrediction> pareto, ServingPrediction winner) {
        public Result {
            pareto = List.copyOf(pareto);
        }
    }

    /**
     * Searches as the class comment says.
     *
     * @param ttftSeconds the time-to-first-token target
     * @param tpotSeconds the time-per-output-token target
     * @param weights     the weight precisions to try
     */
    public static Result run(
            Model model,
            Hardware hw,
            Interconnect link,
            int gpus,
            int inputTokens,
            int outputTokens,
            double ttftSeconds,
            double tpotSeconds,
            List<Precision> weights) {
        Checks.notNull("model", model);
        Checks.notNull("hardware", hw);
        Checks.notNull("link", link);
        Checks.positive("gpus", gpus);
        Checks.notNull("weights", weights);
        if (weights.isEmpty()) {
            throw new IllegalArgumentException("weights must name at least one precision");
        }
        if (!(ttftSeconds > 0 && tpotSeconds > 0)) {
            throw new IllegalArgumentException(
                    "the targets must be positive, got TTFT " + ttftSeconds + " s and TPOT " + tpotSeconds + " s");
        }
        List<ServingPrediction> meeting = new ArrayList<>();
        int tried = 0;
        for (int tp = 1; tp <= gpus; tp++) {
            for (int pp = 1; tp * pp <= gpus; pp++) {
                if (gpus % (tp * pp) != 0 || pp > model.layers()) {
                    continue;
                }
                tried += tryReplicas(
                        model,
                        hw,
                        link,
                        new Replica(tp, pp, gpus / (tp * pp)),
                        inputTokens,
                        outputTokens,
                        ttftSeconds,
                        tpotSeconds,
                        weights,
                        meeting);
            }
        }
        List<ServingPrediction> pareto = pareto(meeting);
        ServingPrediction winner = meeting.stream()
                .max(Comparator.comparingDouble(ServingPrediction::tokensPerSecondPerGpu))
                .orElse(null);
        return new Result(tried, pareto, winner);
    }

    /** One way to split the GPUs: replicas of {@code tp × pp} GPUs, {@code dp} of them. */
    private record Replica(int tp, int pp, int dp) {}

    /** Prices every expert split, precision and concurrency of {@code r}; adds those meeting the targets; the count. */
    private static int tryReplicas(
            Model model,
            Hardware hw,
            Interconnect link,
            Replica r,
            int inputTokens,
            int outputTokens,
            double ttftSeconds,
            double tpotSeconds,
            List<Precision> weights,
            List<ServingPrediction> meeting) {
        int tried = 0;
        int tp = r.tp();
        // experts whole on each GPU (expert parallel) or split like the layers, for a mixture
        int[] eps = model.feedForward() instanceof MixtureOfExperts && tp > 1 ? new int[] {1, tp} : new int[] {1};
        for (int ep : eps) {
            Deployment d = new Deployment(tp, r.pp(), ep, r.dp(), 1, link, false);
            for (Precision p : weights) {
                Workload base = Workload.decode(1, 1).withWeights(p);
                for (int b = 1; b <= MAX_CONCURRENCY; b *= 2) {
                    ServingPrediction s;
                    try {
                        s = Serving.predict(model, hw, d, base, inputTokens, outputTokens, b);
                    } catch (IllegalArgumentException e) {
                        break; // this split does not divide the model's heads or columns: no batch will
                    }
                    tried++;
                    if (!s.fits()) {
                        break;
                    }
                    if (s.ttftSeconds() <= ttftSeconds && s.tpotSeconds() <= tpotSeconds) {
                        meeting.add(s);
                    }
                }
            }
        }
        return tried;
    }

    /** The setups no other beats on both throughput per GPU (higher) and time per output token (lower). */
    static List<ServingPrediction> pareto(List<ServingPrediction> all) {
        List<ServingPrediction> byTpot = new ArrayList<>(all);
        byTpot.sort(Comparator.comparingDouble(ServingPrediction::tpotSeconds)
                .thenComparing(Comparator.comparingDouble(ServingPrediction::tokensPerSecondPerGpu)
                        .reversed()));
        List<ServingPrediction> front = new ArrayList<>();
        double best = Double.NEGATIVE_INFINITY;
        for (ServingPrediction s : byTpot) {
            if (s.tokensPerSecondPerGpu() > best) {
                front.add(s);
                best = s.tokensPerSecondPerGpu();
            }
        }
        return front;
    }
}
