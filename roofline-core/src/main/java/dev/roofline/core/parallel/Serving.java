package dev.roofline.core.parallel;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.model.MixtureOfExperts;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.SoftCapping;
import dev.roofline.core.model.WeightMatrix;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.OperatorTime;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;

import java.util.Set;

/**
 * Prices serving a model on a {@link Deployment}: each GPU of a stage runs its {@link Shard} of the model (priced as
 * one GPU is), and the collectives the split adds run on the deployment's link, each by the fastest of NCCL's
 * algorithms the link offers.
 * <ul>
 *   <li>Tensor parallelism: two all-reduces of the layer's output ({@code tokens × hidden} activations) per layer,
 *       after attention and after the MLP; with experts split by expert parallelism the MLP's becomes an all-to-all
 *       that sends each token to its {@code k} experts and one that brings the results back; the head's vocabulary
 *       slices are all-gathered.</li>
 *   <li>Pipeline parallelism: {@code ⌈layers / stages⌉} layers a stage; each micro-batch's activations sent from stage
 *       to stage. A step of {@code m} micro-batches takes {@code (stages − 1) · stage + m · (stage + head)}: the
 *       pipeline filling, then the last stage (which also runs the head) once per micro-batch.</li>
 *   <li>Overlap off (default): a stage's computation and communication add; on: the longer of the two.</li>
 * </ul>
 * The embedding and the head are counted on the first and last stage; the weights of a GPU are its stage's layers
 * plus the larger of the two when there are several stages.
 */
public final class Serving {
    private Serving() {}

    /** Share of each GPU's memory left for activations and the runtime: 10 %, stated rather than assumed away. */
    public static final double ACTIVATION_MARGIN = 0.10;

    /** The steps outside the layers: the first stage's embedding, the last stage's norm, head and logit capping. */
    private static final Set<String> HEAD = Set.of("embedding", "final norm", "lm_head", SoftCapping.LOGITS_STEP);

    /**
     * {@code concurrency} requests per replica, {@code inputTokens} of prompt and {@code outputTokens} generated each,
     * with the precisions (and attention choice) of {@code base}.
     */
    public static ServingPrediction predict(
            Model model, Hardware hw, Deployment d, Workload base, int inputTokens, int outputTokens, int concurrency) {
        Checks.notNull("model", model);
        Checks.notNull("hardware", hw);
        Checks.notNull("deployment", d);
        Checks.notNull("workload", base);
        Checks.positive("inputTokens", inputTokens);
        Checks.positive("outputTokens", outputTokens);
        Checks.positive("concurrency", concurrency);
        if (d.microBatches() > concurrency) {
            throw new IllegalArgumentException(
                    "microBatches (" + d.microBatches() + ") must be <= concurrency (" + concurrency + ")");
        }
        int stageLayers = Math.ceilDiv(model.layers(), d.pipelineParallel());
        Model shard = Shard.of(model, d, stageLayers);
        Transformer t = Transformer.of(shard, hw);
        int perMicroBatch = Math.ceilDiv(concurrency, d.microBatches());

        double ttft = step(model, t, d, like(base, Workload.prefill(perMicroBatch, inputTokens)), stageLayers);
        Workload decode = like(base, Workload.decode(perMicroBatch, inputTokens + 1));
        double tpot = averageDecodeStep(model, t, d, decode, stageLayers, inputTokens + 1, inputTokens + outputTokens);
        double e2e = ttft + (outputTokens - 1) * tpot;
        double tokensPerSecond = (double) d.dataParallel() * concurrency / tpot;

        long weights = weightBytesPerGpu(t, decode, d);
        long kvPerSequence = shard.kvCacheBytes(base.kvCache(), (long) inputTokens + outputTokens);
        long usable = (long) (hw.memoryBytes() * (1 - ACTIVATION_MARGIN));
        long free = Math.max(0, usable - weights);
        return new ServingPrediction(
                model,
                hw,
                d,
                base.weights(),
                inputTokens,
                outputTokens,
                concurrency,
                ttft,
                tpot,
                e2e,
                tokensPerSecond,
                weights,
                Checks.multiply(kvPerSequence, concurrency, () -> "KV bytes per GPU"),
                free / kvPerSequence,
                free / shard.kvCacheBytesPerToken(base.kvCache()));
    }

    /** {@code w} with {@code base}'s precisions and attention choice. */
    private static Workload like(Workload base, Workload w) {
        return w.withWeights(base.weights())
                .withExpertWeights(base.expertWeights())
                .withActivations(base.activations())
                .withKvCache(base.kvCache())
                .withFlashAttention(base.flashAttention())
                .withQuantizedEmbeddings(base.quantizedEmbeddings());
    }

    /** The mean of the decode step from context {@code from} to {@code to}, exact for its piecewise-linear growth. */
    private static double averageDecodeStep(
            Model model, Transformer t, Deployment d, Workload w, int stageLayers, long from, long to) {
        if (from == to) {
            return step(model, t, d, w.withContext(from), stageLayers);
        }
        // linear in the context but for the windowed layers' bend at the window: integrate each straight piece
        long bend = model.slidingWindow().tokens();
        double sum = 0;
        long a = from;
        for (long b : bend > from && bend < to ? new long[] {bend, to} : new long[] {to}) {
            double ya = step(model, t, d, w.withContext(a), stageLayers);
            double yb = step(model, t, d, w.withContext(b), stageLayers);
            sum += (ya + yb) / 2 * (b - a);
            a = b;
        }
        return sum / (to - from);
    }

    /** One pipelined step of {@code w} (a micro-batch's workload) through every stage. */
    private static double step(Model model, Transformer t, Deployment d, Workload w, int stageLayers) {
        ModelPrediction p = t.predict(w);
        double head = 0;
        for (OperatorTime o : p.operators()) {
            if (HEAD.contains(o.step().name())) {
                head += o.timeSeconds();
            }
        }
        double body = p.timeSeconds() - head;
        long activationBytes = w.activations().storageBytes(w.tokens(), model.hiddenSize());
        int tp = d.tensorParallel();
        double comm = 0;
        if (tp > 1) {
            boolean allToAll = model.feedForward() instanceof MixtureOfExperts && d.expertParallel() > 1;
            double attention = fastestAllReduce(tp, activationBytes, d);
            double mlp;
            if (allToAll) {
                int k = ((MixtureOfExperts) model.feedForward()).topK();
                Collective a2a = new Collective(
                        Collective.Op.ALL_TO_ALL,
                        Collective.Algorithm.RING,
                        tp,
                        Checks.multiply(activationBytes, k, () -> "all-to-all bytes"));
                mlp = 2 * a2a.seconds(d.link());
            } else {
                mlp = fastestAllReduce(tp, activationBytes, d);
            }
            comm = stageLayers * (attention + mlp);
            long logits = w.activations().storageBytes(w.batch(), model.vocabSize());
            head += Collective.allGather(tp, logits).seconds(d.link());
            // each GPU looks up only its part of the vocabulary: an all-reduce makes every token's embedding whole
            head += fastestAllReduce(tp, activationBytes, d);
        }
        double stage = d.overlap() ? Math.max(body, comm) : body + comm;
        if (d.pipelineParallel() > 1) {
            stage += new Collective(Collective.Op.SEND_RECV, Collective.Algorithm.RING, 2, activationBytes)
                    .seconds(d.link());
        }
        return (d.pipelineParallel() - 1) * stage + d.microBatches() * (stage + head);
    }

    /** NCCL picks its fastest all-reduce: ring, tree, or in the switch where the link reduces. */
    private static double fastestAllReduce(int ranks, long bytes, Deployment d) {
        return allReduceSeconds(ranks, bytes, d.link());
    }

    /**
     * An all-reduce of {@code bytes} over {@code ranks} GPUs on {@code link} as NCCL's tuner prices its fastest choice:
     * ring, tree, or in the switch where the link reduces ({@link Collective#seconds}).
     */
    public static double allReduceSeconds(int ranks, long bytes, Interconnect link) {
        Checks.notNull("link", link);
        Collective ring = Collective.allReduce(ranks, bytes);
        double best = Math.min(
                ring.seconds(link), ring.with(Collective.Algorithm.TREE).seconds(link));
        if (link.inSwitchReduction()) {
            best = Math.min(best, ring.with(Collective.Algorithm.IN_SWITCH).seconds(link));
        }
        return best;
    }

    /** A GPU's weights: its stage's layers, plus the embedding and head (both with one stage, the larger with more). */
    private static long weightBytesPerGpu(Transformer t, Workload w, Deployment d) {
        long all = t.weightBytes(w);
        long embedding = 0;
        long head = 0;
        for (WeightMatrix m : t.model().matrices()) {
            if (m.role() == WeightMatrix.Role.EMBEDDING) {
                embedding += m.bytes(w.embeddings());
            } else if (m.name().equals("lm_head")) {
                head += m.bytes(w.embeddings());
            }
        }
        if (d.pipelineParallel() == 1) {
            return all;
        }
        // a tied head is the embedding table again, on the last stage
        long last = t.model().tiedEmbeddings() ? embedding : head;
        return all - embedding - head + Math.max(embedding, last);
    }
}
