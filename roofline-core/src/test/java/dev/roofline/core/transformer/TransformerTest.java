package dev.roofline.core.transformer;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Source;
import dev.roofline.core.model.Models;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Bound;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class TransformerTest {

    static final long LLAMA3_8B_FP16_BYTES = 2 * 8_030_261_248L;
    static final long LLAMA3_8B_KV_PER_TOKEN = 32L * 2 * 8 * 128 * 2; // layers x (K, V) x KV heads x d_head x 2 B

    @Test
    void llama3DecodeOnGb10IsMemoryBoundEverywhere() {
        ModelPrediction p = Transformer.of(Models.LLAMA_3_8B, Hardware.GB10).predict(Workload.decode(1, 4096));
        assertThat(p.operators())
                .allSatisfy(o -> assertThat(o.prediction().bound()).isEqualTo(Bound.MEMORY));
        assertThat(p.timeSeconds()).isCloseTo(p.bytes() / 273e9, within(1e-12));
        // weights minus the embedding table, plus one embedding row, plus the 4096-token cache, plus activations
        // (per layer about 0.4 MB: vectors of 4096 and 14336 FP16 values read and written by each operator)
        long weightsRead = LLAMA3_8B_FP16_BYTES - 128256L * 4096 * 2 + 4096 * 2;
        long floor = weightsRead + 4096 * LLAMA3_8B_KV_PER_TOKEN;
        assertThat(p.bytes()).isBetween(floor, floor + 32 * 400_000L);
        assertThat(p.tokensPerSecond()).isCloseTo(1 / p.timeSeconds(), within(1e-9));
        assertThat(p.operators().stream().mapToDouble(p::share).sum()).isCloseTo(1, within(1e-12));
    }

    @Test
    void wholeModelPredictionsLeaveAMeasuredKernelLatencyOut() {
        // 451 modelled operators per decode step are not 451 kernel launches; the model prices the roofline alone
        Hardware measured = Hardware.H200.withKernelLatency(1.7e-6, Source.user("test"));
        ModelPrediction with = Transformer.of(Models.LLAMA_3_8B, measured).predict(Workload.decode(1, 4096));
        ModelPrediction without =
                Transformer.of(Models.LLAMA_3_8B, Hardware.H200).predict(Workload.decode(1, 4096));
        assertThat(with.timeSeconds())
                .isEqualTo(without.timeSeconds())
                .isCloseTo(without.bytes() / 4.8e12, within(1e-12));
        assertThat(with.operators())
                .allSatisfy(o -> assertThat(o.prediction().latencySeconds()).isZero());
    }

    @Test
    void prefillOnH100IsComputeBoundInTheProjections() {
        ModelPrediction p = Transformer.of(Models.LLAMA_3_8B, Hardware.H100_SXM).predict(Workload.prefill(1, 4096));
        assertThat(p.operator("gate_proj").prediction().bound()).isEqualTo(Bound.COMPUTE);
        assertThat(p.operator("gate_proj").timeSeconds())
                .isCloseTo(32 * 2.0 * 4096 * 14336 * 4096 / 989.5e12, within(1e-12));
        assertThat(p.tokensPerSecond()).isCloseTo(4096 / p.timeSeconds(), within(1e-6));
    }

    @Test
    void kvCrossoverOfLlama3_8bInFp16IsNear10To5TokensNot1600() {
        Transformer t = Transformer.of(Models.LLAMA_3_8B, Hardware.GB10);
        double weightsRead = LLAMA3_8B_FP16_BYTES - 128256.0 * 4096 * 2 + 4096 * 2;
        assertThat(t.kvCrossoverContext(Workload.decode(1, 1)))
                .isCloseTo(weightsRead / LLAMA3_8B_KV_PER_TOKEN, within(1e-6))
                .isBetween(1.1e5, 1.2e5);
        // eight sequences share the weight reads: the crossover is eight times shorter
        assertThat(t.kvCrossoverContext(Workload.decode(8, 1)))
                .isCloseTo((weightsRead + 7 * 8192) / 8 / LLAMA3_8B_KV_PER_TOKEN, within(1e-6));
    }

    @Test
    void memoryFitOnGb10() {
        MemoryFit m = Transformer.of(Models.LLAMA_3_8B, Hardware.GB10).memory(Workload.decode(4, 8192));
        assertThat(m.weightBytes()).isEqualTo(LLAMA3_8B_FP16_BYTES);
        assertThat(m.kvCacheBytes()).isEqualTo(4L * 8192 * LLAMA3_8B_KV_PER_TOKEN);
        assertThat(m.fits()).isTrue();
        long free = 128L * (1L << 30) - LLAMA3_8B_FP16_BYTES; // DGX Spark's 128 GB of LPDDR5x are GiB
        assertThat(m.maxCachedTokens()).isEqualTo(free / LLAMA3_8B_KV_PER_TOKEN);
        // 231,510 tokens of cache would fit per sequence at batch 4, but Llama 3 is made for 8,192 positions
        assertThat(free / LLAMA3_8B_KV_PER_TOKEN / 4).isEqualTo(231_510);
        assertThat(m.maxContext(4)).isEqualTo(8192);
        assertThat(m.maxBatch(8192)).isEqualTo(free / LLAMA3_8B_KV_PER_TOKEN / 8192);
        MemoryFit big = Transformer.of(Models.LLAMA_3_70B, Hardware.H100_SXM).memory(Workload.decode(1, 1));
        assertThat(big.fits()).isFalse();
        assertThat(big.maxCachedTokens()).isZero();
    }

    @Test
    void sweepCoversEveryBatchAndContext() {
        List<ModelPrediction> s = Transformer.of(Models.MISTRAL_7B, Hardware.H100_SXM)
                .sweep(Workload.decode(1, 1), new long[] {1, 8, 64}, new long[] {1024, 32768});
        assertThat(s).hasSize(6);
        assertThat(s.get(5).workload().batch()).isEqualTo(64);
        assertThat(s.get(5).workload().contextTokens()).isEqualTo(32768);
        // more sequences per step: more tokens per second
        assertThat(s.get(4).tokensPerSecond()).isGreaterThan(s.get(0).tokensPerSecond());
    }

    @Test
    void nvfp4WeightsSpeedUpMemoryBoundDecode() {
        Transformer t = Transformer.of(Models.LLAMA_3_70B, Hardware.GB10);
        double fp16 = t.predict(Workload.decode(1, 4096)).timeSeconds();
        double nvfp4 =
                t.predict(Workload.decode(1, 4096).withWeights(Precision.NVFP4)).timeSeconds();
        assertThat(fp16 / nvfp4).isBetween(3.0, 16.0 / 4.5);
    }

    @Test
    void misuseIsRefusedWithTheValue() {
        assertThatThrownBy(() -> Workload.decode(0, 1)).hasMessageContaining("batch must be > 0, got 0");
        assertThatThrownBy(() -> Workload.prefill(1, -5)).hasMessageContaining("contextTokens must be > 0, got -5");
        Transformer t = Transformer.of(Models.LLAMA_3_8B, Hardware.GB10);
        assertThatThrownBy(() -> t.sweep(Workload.decode(1, 1), new long[0], new long[] {1}))
                .hasMessageContaining("at least one");
        assertThatThrownBy(() -> t.predict(Workload.decode(1, 1)).operator("nope"))
                .hasMessageContaining("no operator 'nope'");
    }

    @Test
    void quantizedWeightsLeaveTheEmbeddingAndLmHeadAt16BitsAsQuantizeWritesThem() {
        // roofline-quant's quantize keeps embed_tokens and lm_head BF16. Bytes of one decode step on GB10:
        //   NVFP4 linears, N*K/2 + N*K/16 + 4 each: q, o 9,437,188; k, v 2,359,300; gate, up, down 33,030,148
        //     = 122,683,420 B per layer x 32 = 3,925,869,440 B
        //   lm_head BF16 128256 x 4096 x 2 = 1,050,673,152 B; one embedding row 4096 x 2 = 8,192 B
        //   norm weights BF16 65 x 4096 x 2 = 532,480 B; FP8 KV cache 32 x 2 x 1024 x 4096 x 1 = 268,435,456 B
        //   floor 5,245,518,720 B / 273 GB/s = 19.214 ms; activations add under 32 x 400 kB
        Workload w = Workload.decode(1, 4096).withWeights(Precision.NVFP4).withKvCache(Precision.FP8_E4M3);
        Transformer t = Transformer.of(Models.LLAMA_3_8B, Hardware.GB10);
        ModelPrediction p = t.predict(w);
        assertThat(w.embeddings()).isEqualTo(Precision.FP16);
        long floor = 5_245_518_720L;
        assertThat(p.bytes()).isBetween(floor, floor + 32 * 400_000L);
        assertThat(p.timeMillis()).isCloseTo(19.26, within(0.01));
        assertThat(p.operator("lm_head").bytes()).isEqualTo((128256L * 4096 + 4096 + 128256) * 2);
        // asked for, both are NVFP4: 128256 x 4096 / 2 + / 16 + 4 = 295,501,828 B head, 2,308 B row (the old 16.49 ms)
        ModelPrediction all = t.predict(w.withQuantizedEmbeddings(true));
        assertThat(p.bytes() - all.bytes()).isEqualTo(1_050_673_152L - 295_501_828L + 8_192 - 2_308);
        assertThat(all.timeMillis()).isCloseTo(16.49, within(0.01));
        // memory: linears, BF16 table and head, BF16 norms
        assertThat(t.memory(w).weightBytes()).isEqualTo(3_925_869_440L + 2 * 1_050_673_152L + 532_480L);
    }

    @Test
    void embeddingsFollowUnquantizedWeightsAndOtherwiseStayAt16Bits() {
        Workload w = Workload.decode(1, 1);
        assertThat(w.embeddings()).isEqualTo(Precision.FP16);
        assertThat(w.withWeights(Precision.FP32).embeddings()).isEqualTo(Precision.FP32);
        assertThat(w.withWeights(Precision.INT4).withActivations(Precision.BF16).embeddings())
                .isEqualTo(Precision.BF16);
        assertThat(w.withWeights(Precision.FP8_E4M3)
                        .withActivations(Precision.FP8_E4M3)
                        .embeddings())
                .isEqualTo(Precision.BF16);
        assertThat(w.withWeights(Precision.NVFP4).withQuantizedEmbeddings(true).embeddings())
                .isEqualTo(Precision.NVFP4);
    }
}
