package dev.roofline.core.parallel;

import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.model.Model;

/**
 * How a model is spread over GPUs: {@code tensorParallel} GPUs share every layer (Megatron's column- and row-parallel
 * projections, attention heads and the vocabulary split between them), {@code pipelineParallel} stages hold a run of
 * layers each, {@code expertParallel} GPUs of a stage split the routed experts, {@code dataParallel} copies serve
 * requests side by side. GPUs: tensor × pipeline × data.
 *
 * <pre>{@code
 * Deployment tp8 = Deployment.tensorParallel(8, Interconnect.NVLINK_4);
 * }</pre>
 *
 * @param tensorParallel   GPUs sharing each layer
 * @param pipelineParallel stages
 * @param expertParallel   GPUs of a stage splitting the routed experts: 1 (every GPU holds every expert, each split
 *                         by tensor parallelism) or {@code tensorParallel} (each holds whole experts, tokens sent to
 *                         them by all-to-all)
 * @param dataParallel     replicas
 * @param microBatches     micro-batches a pipeline step is cut into (1 without pipelining)
 * @param link             what the collectives run over
 * @param overlap          communication hidden behind computation up to the computation's time (a stated
 *                         assumption, off by default: then they add)
 */
public record Deployment(
        int tensorParallel,
        int pipelineParallel,
        int expertParallel,
        int dataParallel,
        int microBatches,
        Interconnect link,
        boolean overlap) {

    public Deployment {
        Checks.positive("tensorParallel", tensorParallel);
        Checks.positive("pipelineParallel", pipelineParallel);
        Checks.positive("expertParallel", expertParallel);
        Checks.positive("dataParallel", dataParallel);
        Checks.positive("microBatches", microBatches);
        Checks.notNull("link", link);
        if (expertParallel != 1 && expertParallel != tensorParallel) {
            throw new IllegalArgumentException(
                    "expertParallel must be 1 or tensorParallel (" + tensorParallel + "), got " + expertParallel);
        }
        if (microBatches > 1 && pipelineParallel == 1) {
            throw new IllegalArgumentException(
                    "micro-batches need pipeline stages, got " + microBatches + " micro-batches on 1 stage");
        }
    }

    /** {@code gpus} GPUs sharing every layer, no pipeline, experts split with the layers. */
    public static Deployment tensorParallel(int gpus, Interconnect link) {
        return new Deployment(gpus, 1, 1, 1, 1, link, false);
    }

    /** A single GPU. */
    public static Deployment single() {
        return new Deployment(1, 1, 1, 1, 1, Interconnect.NVLINK_4, false);
    }

    /** GPUs in all: tensor × pipeline × data. */
    public int gpus() {
        return Math.multiplyExact(Math.multiplyExact(tensorParallel, pipelineParallel), dataParallel);
    }

    /**
     * The share of a pipeline step its stages idle: {@code (stages − 1) / (microBatches + stages − 1)} (GPipe's
     * bubble, Huang et al. 2019).
     */
    public double bubbleFraction() {
        return (pipelineParallel - 1.0) / (microBatches + pipelineParallel - 1.0);
    }

    /**
     * The model one GPU of a one-stage deployment runs: {@code m}'s heads, KV heads, MLP columns and vocabulary split
     * by the tensor parallelism, its experts by the expert parallelism, as a {@link Model} of its own that the
     * single-GPU predictions price.
     *
     * @throws IllegalArgumentException with pipeline stages (each stage holds other layers), or a split that does not
     *                                  divide (named)
     */
    public Model shard(Model m) {
        Checks.notNull("model", m);
        if (pipelineParallel != 1) {
            throw new IllegalArgumentException(
                    "shard: " + pipelineParallel + " pipeline stages hold different layers; shard one stage's model");
        }
        return Shard.of(m, this, m.layers());
    }

    public Deployment withOverlap(boolean on) {
        return new Deployment(tensorParallel, pipelineParallel, expertParallel, dataParallel, microBatches, link, on);
    }
}
