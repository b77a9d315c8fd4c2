package dev.roofline.core.parallel;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Model;
import dev.roofline.core.precision.Precision;

/**
 * A model served by a {@link Deployment}: {@code concurrency} requests of {@code inputTokens} prompt tokens each
 * generating {@code outputTokens}, per data-parallel replica.
 *
 * @param weights             the weights' precision
 * @param ttftSeconds         time to first token: the prefill of every prompt of the batch
 * @param tpotSeconds         time per output token, averaged over the decode as the KV cache grows from the prompt to
 *                            prompt + output
 * @param endToEndSeconds     TTFT plus the remaining {@code outputTokens − 1} decode steps
 * @param tokensPerSecond     generated tokens per second over the deployment: replicas × concurrency / TPOT
 * @param weightBytesPerGpu   weights one GPU holds (its stage's layers, its shard of each, the embedding and head
 *                            where they sit)
 * @param kvBytesPerGpu       the KV cache one GPU holds at prompt + output tokens for the batch
 * @param maxConcurrency      the most requests of this length one replica's GPUs hold beside the weights and the
 *                            activation margin ({@link Serving#ACTIVATION_MARGIN})
 * @param kvCapacityTokens    tokens of KV cache one GPU holds beside the weights and the margin
 */
public record ServingPrediction(
        Model model,
        Hardware hardware,
        Deployment deployment,
        Precision weights,
        int inputTokens,
        int outputTokens,
        int concurrency,
        double ttftSeconds,
        double tpotSeconds,
        double endToEndSeconds,
        double tokensPerSecond,
        long weightBytesPerGpu,
        long kvBytesPerGpu,
        long maxConcurrency,
        long kvCapacityTokens) {

    /** Generated tokens per second per GPU. */
    public double tokensPerSecondPerGpu() {
        return tokensPerSecond / deployment.gpus();
    }

    /** Whether the weights, the batch's KV cache and the margin fit each GPU. */
    public boolean fits() {
        return concurrency <= maxConcurrency;
    }
}
