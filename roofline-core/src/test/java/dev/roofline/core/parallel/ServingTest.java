package dev.roofline.core.parallel;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.model.LatentAttention;
import dev.roofline.core.model.MixtureOfExperts;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.core.model.WeightMatrix;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.OperatorTime;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * A toy model (4 layers, hidden 1024, 8 heads of 128, MLP 4096, vocabulary 32,000) served on H100s: each figure
 * rebuilt by hand from a hand-built shard priced as one GPU and the collectives' α–β times.
 */
class ServingTest {

    static final Hardware H100 = Hardware.H100_SXM;
    static final Model TOY = Model.newBuilder("toy")
            .hiddenSize(1024)
            .layers(4)
            .vocabSize(32000)
            .attention(8, 8)
            .swiGlu(4096)
            .build();
    static final Set<String> HEAD = Set.of("embedding", "final norm", "lm_head");

    static double seconds(Model m, Workload w) {
        return Transformer.of(m, H100).predict(w).timeSeconds();
    }

    static double head(Model m, Workload w) {
        ModelPrediction p = Transformer.of(m, H100).predict(w);
        return p.operators().stream()
                .filter(o -> HEAD.contains(o.step().name()))
                .mapToDouble(OperatorTime::timeSeconds)
                .sum();
    }

    /** A ring collective of {@code steps} steps sending {@code bytes} on NVLink 4 (CollectiveTest's table). */
    static double nvlink(int steps, double bytes) {
        return CollectiveTest.nccl(CollectiveTest.RING_BASE, CollectiveTest.NVLINK_RING, steps, bytes, 450e9);
    }

    @Test
    void oneGpuIsTheSingleGpuPrediction() {
        ServingPrediction s = Serving.predict(TOY, H100, Deployment.single(), Workload.decode(1, 1), 512, 1, 4);
        assertThat(s.ttftSeconds()).isCloseTo(seconds(TOY, Workload.prefill(4, 512)), within(1e-15));
        assertThat(s.tpotSeconds()).isCloseTo(seconds(TOY, Workload.decode(4, 513)), within(1e-15));
        assertThat(s.endToEndSeconds()).isEqualTo(s.ttftSeconds());
        assertThat(s.tokensPerSecond()).isCloseTo(4 / s.tpotSeconds(), within(1e-9));
        // the decode step grows linearly with the context: its mean over 513..1024 is the mean of the ends
        ServingPrediction longer = Serving.predict(TOY, H100, Deployment.single(), Workload.decode(1, 1), 512, 512, 4);
        assertThat(longer.tpotSeconds())
                .isCloseTo(
                        (seconds(TOY, Workload.decode(4, 513)) + seconds(TOY, Workload.decode(4, 1024))) / 2,
                        within(1e-15));
        assertThat(longer.endToEndSeconds())
                .isCloseTo(longer.ttftSeconds() + 511 * longer.tpotSeconds(), within(1e-12));
    }

    @Test
    void tensorParallelSplitsHeadsColumnsAndVocabularyAndAddsTwoAllReducesALayer() {
        Model shard = Model.newBuilder("shard")
                .hiddenSize(1024)
                .layers(4)
                .vocabSize(16000)
                .attention(4, 4)
                .headDim(128)
                .swiGlu(2048)
                .build();
        Deployment tp2 = Deployment.tensorParallel(2, Interconnect.NVLINK_4);
        ServingPrediction s = Serving.predict(TOY, H100, tp2, Workload.decode(1, 1), 512, 1, 4);
        // 4 tokens x 1024 FP16 = 8 KiB per all-reduce: 2 (p - 1) / p x 8192 = 8192 bytes sent in 2 steps; the ring's
        // LL (6.6 + 2 x 0.6 us + 8192 / 225 GB/s) beats the chained tree and the switch's 25 us
        double allReduce = nvlink(2, 8192);
        assertThat(allReduce).isCloseTo(7.8e-6 + 8192 / 225e9, within(1e-15));
        // the head's vocabulary halves all-gathered: 4 x 32,000 FP16 logits, half of them sent
        double gather = nvlink(1, 0.5 * 4 * 32000 * 2);
        Workload step = Workload.decode(4, 513);
        // and the embedding, looked up from each GPU's half of the vocabulary, all-reduced once a step
        assertThat(s.tpotSeconds())
                .isCloseTo(seconds(shard, step) + 4 * 2 * allReduce + gather + allReduce, within(1e-12));
        assertThat(s.weightBytesPerGpu()).isEqualTo(Transformer.of(shard, H100).weightBytes(step));
        // KV: 4 KV heads a GPU, 2 x 4 x 128 FP16 per token per layer, at 512 + 1 tokens, 4 sequences
        assertThat(s.kvBytesPerGpu()).isEqualTo(4L * 4 * 513 * 2 * 4 * 128 * 2);
        long free = (long) (H100.memoryBytes() * 0.9) - s.weightBytesPerGpu();
        assertThat(s.maxConcurrency()).isEqualTo(free / (4L * 513 * 2 * 4 * 128 * 2));
        assertThat(s.kvCapacityTokens()).isEqualTo(free / (4L * 2 * 4 * 128 * 2));
        assertThat(s.fits()).isTrue();
        assertThat(s.tokensPerSecondPerGpu()).isCloseTo(s.tokensPerSecond() / 2, within(1e-9));
        // overlap hides the all-reduces behind the layers' computation
        ServingPrediction hidden = Serving.predict(TOY, H100, tp2.withOverlap(true), Workload.decode(1, 1), 512, 1, 4);
        double body = seconds(shard, step) - head(shard, step);
        assertThat(hidden.tpotSeconds())
                .isCloseTo(Math.max(body, 4 * 2 * allReduce) + head(shard, step) + gather + allReduce, within(1e-12));
    }

    @Test
    void aDeploymentsShardIsTheModelOneGpuRunsAndItsAllReduceNcclsCheapest() {
        Model shard = Model.newBuilder("shard")
                .hiddenSize(1024)
                .layers(4)
                .vocabSize(16000)
                .attention(4, 4)
                .headDim(128)
                .swiGlu(2048)
                .build();
        Model got = Deployment.tensorParallel(2, Interconnect.NVLINK_4).shard(TOY);
        Workload step = Workload.decode(4, 513);
        assertThat(got.parameterCount()).isEqualTo(shard.parameterCount());
        assertThat(seconds(got, step)).isEqualTo(seconds(shard, step));
        // 8 KiB on 2 GPUs: the ring's LL, as above
        assertThat(Serving.allReduceSeconds(2, 8192, Interconnect.NVLINK_4))
                .isCloseTo(7.8e-6 + 8192 / 225e9, within(1e-15));
        assertThatThrownBy(() -> new Deployment(1, 2, 1, 1, 1, Interconnect.NVLINK_4, false).shard(TOY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 pipeline stages hold different layers");
    }

    @Test
    void deepSeekV3SplitsItsLatentHeadsSharedExpertAndDenseLayers() {
        // DeepSeek-V3: 128 latent-attention heads, q_lora 1536, kv_lora 512, nope 128, rope 64, v 128; 256 routed
        // experts of 2048 columns, top-8, 1 shared expert, 3 dense layers of 18432 columns
        Model v3 = Models.DEEPSEEK_V3;
        Model tp8 = Deployment.tensorParallel(8, Interconnect.NVLINK_4).shard(v3);
        assertThat(tp8.attention()).isEqualTo(new LatentAttention(16, 1536, 512, 128, 64, 128));
        assertThat(tp8.feedForward()).isEqualTo(new MixtureOfExperts(256, 8, 256, 1, 3, 2304, true));
        assertThat(tp8.vocabSize()).isEqualTo(129280 / 8);
        // the latent cache is whole on every GPU: 512 + 64 elements a token a layer, as on one GPU
        assertThat(tp8.attention().kvCacheElementsPerToken()).isEqualTo(576);
        // expert parallel: 32 experts whole on each GPU, each token's 8 picks landing 1 per GPU in expectation; the
        // shared expert whole, the dense layers' MLPs still split 8 ways; the router whole, scoring all 256
        Model ep8 = new Deployment(8, 1, 8, 1, 1, Interconnect.NVLINK_4, false).shard(v3);
        assertThat(ep8.feedForward()).isEqualTo(new MixtureOfExperts(32, 1, 2048, 1, 3, 2304, true, false, 256));
        // router: 256 x 7168 in each of the 58 routed layers; its bias 256 a layer
        assertThat(ep8.feedForward().matrices(7168, 61).stream()
                        .filter(w -> w.name().equals("router"))
                        .findFirst()
                        .orElseThrow())
                .isEqualTo(new WeightMatrix("router", 256, 7168, 58));
        // and an FP8 V3 fits eight H200s at TP 8 (its 671 B parameters, about 84 GB a GPU)
        ServingPrediction s = Serving.predict(
                v3,
                Hardware.H200,
                Deployment.tensorParallel(8, Interconnect.NVLINK_4),
                Workload.decode(1, 1).withWeights(Precision.FP8_E4M3),
                2048,
                256,
                8);
        assertThat(s.fits()).isTrue();
        assertThat(s.weightBytesPerGpu()).isBetween(80_000_000_000L, 90_000_000_000L);
    }

    @Test
    void pipelineStagesSendActivationsAndFillOnce() {
        // 2 stages of 2 layers, 2 micro-batches of 2 sequences: (2 - 1) x stage + 2 x (stage + head)
        Model stageModel = Model.newBuilder("stage")
                .hiddenSize(1024)
                .layers(2)
                .vocabSize(32000)
                .attention(8, 8)
                .swiGlu(4096)
                .build();
        Deployment pp = new Deployment(1, 2, 1, 1, 2, Interconnect.NVLINK_4, false);
        ServingPrediction s = Serving.predict(TOY, H100, pp, Workload.decode(1, 1), 512, 1, 4);
        Workload micro = Workload.decode(2, 513);
        double send = nvlink(1, 2 * 1024 * 2);
        double stage = seconds(stageModel, micro) - head(stageModel, micro) + send;
        assertThat(s.tpotSeconds()).isCloseTo(stage + 2 * (stage + head(stageModel, micro)), within(1e-12));
        assertThat(pp.bubbleFraction()).isEqualTo(1.0 / 3);
        assertThat(pp.gpus()).isEqualTo(2);
    }

    @Test
    void splitsThatDoNotDivideAreRefusedByName() {
        Deployment tp3 = Deployment.tensorParallel(3, Interconnect.NVLINK_4);
        assertThatThrownBy(() -> Serving.predict(TOY, H100, tp3, Workload.decode(1, 1), 512, 1, 1))
                .hasMessage("toy: 8 attention heads do not split evenly over 3 tensor-parallel GPUs");
        assertThatThrownBy(() -> Serving.predict(Models.DEEPSEEK_V3, H100, tp3, Workload.decode(1, 1), 512, 1, 1))
                .hasMessage("DeepSeek-V3: 128 attention heads do not split evenly over 3 tensor-parallel GPUs");
        assertThatThrownBy(() -> new Deployment(4, 1, 2, 1, 1, Interconnect.NVLINK_4, false))
                .hasMessage("expertParallel must be 1 or tensorParallel (4), got 2");
        assertThatThrownBy(() -> new Deployment(1, 1, 1, 1, 4, Interconnect.NVLINK_4, false))
                .hasMessage("micro-batches need pipeline stages, got 4 micro-batches on 1 stage");
        Deployment pp = new Deployment(1, 2, 1, 1, 4, Interconnect.NVLINK_4, false);
        assertThatThrownBy(() -> Serving.predict(TOY, H100, pp, Workload.decode(1, 1), 512, 1, 2))
                .hasMessage("microBatches (4) must be <= concurrency (2)");
    }

    @Test
    void llama70bOnEightH100sAgainstOne() {
        // FP16 Llama-3-70B (141 GB) does not fit one 80 GB H100; at TP 8 each GPU holds an eighth of every layer
        ServingPrediction one =
                Serving.predict(Models.LLAMA_3_70B, H100, Deployment.single(), Workload.decode(1, 1), 2048, 256, 8);
        assertThat(one.fits()).isFalse();
        ServingPrediction tp8 = Serving.predict(
                Models.LLAMA_3_70B,
                H100,
                Deployment.tensorParallel(8, Interconnect.NVLINK_4),
                Workload.decode(1, 1),
                2048,
                256,
                8);
        assertThat(tp8.fits()).isTrue();
        assertThat(tp8.weightBytesPerGpu())
                .isBetween(one.weightBytesPerGpu() / 8, one.weightBytesPerGpu() / 8 + (1L << 30));
        // eight GPUs read an eighth of the weights each: faster per token, not eight times (collectives, replicated
        // norms)
        assertThat(tp8.tpotSeconds()).isLessThan(one.tpotSeconds() / 4).isGreaterThan(one.tpotSeconds() / 8);
    }
}
