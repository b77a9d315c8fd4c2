package dev.roofline.cuda.bench;

import dev.roofline.core.energy.OperationEnergy;
import dev.roofline.core.energy.PowerMeter;
import dev.roofline.core.energy.PowerMeters;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.MultiHeadAttention;
import dev.roofline.core.model.SwiGlu;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.blas.CublasLt;
import dev.roofline.cuda.decode.RopeFrequencies;
import dev.roofline.cuda.kernels.Activation;
import dev.roofline.cuda.kernels.DecodeKernels;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.GemvKernels;
import dev.roofline.cuda.kernels.WeightFormat;

import java.util.List;
import java.util.Optional;

/**
 * One decode step of a dense Llama-family model at batch 1, timed on the GPU and set beside the whole-model roofline
 * prediction ({@link Transformer}) on the measured copy bandwidth and on the datasheet. Every layer has its own
 * random weights in {@code format} (so every step streams all of them from DRAM), FP16 activations and KV cache,
 * RoPE with the plain frequencies of {@code theta}; the step runs from the first layer's RMSNorm to the logits
 * (embedding lookup excluded): per layer RMSNorm, the merged q/k/v projection, RoPE fused with the KV append,
 * attention, o projection, residual add fused with the second RMSNorm, the merged gate and up projection, SiLU × up,
 * the down projection; then the final norm and {@code lm_head}. The step is captured in a CUDA graph and replayed; the median over the samples is the
 * time per token.
 *
 * <p>What it does not do yet: batches above 1, MoE, checkpoints' weights, correctness against a CPU reference of
 * the whole model (each kernel is checked on its own by {@code DecodeKernelsIT} and {@code GemvKernelsIT}).
 */
public final class DecodeStepBenchmark {
    private DecodeStepBenchmark() {}

    /**
     * What one configuration measured.
     *
     * @param model          the model's name
     * @param format         the linear layers' weights
     * @param context        tokens in the KV cache, this step's included
     * @param medianMicros   the step's median time
     * @param predicted      the roofline prediction on the measured copy bandwidth (no kernel latency: a model's
     *                       operators are not kernel launches one for one)
     * @param datasheet      the prediction on the datasheet
     * @param weightBytes    bytes of weights the step reads
     * @param energy         the step again, back to back for at least a second of GPU time inside one
     *                       {@link PowerMeter} session (per operation: per token), when a meter is installed
     */
    public record Result(
            String model,
            WeightFormat format,
            int context,
            double medianMicros,
            ModelPrediction predicted,
            ModelPrediction datasheet,
            long weightBytes,
            Optional<OperationEnergy> energy) {

        /** (measured / predicted − 1) × 100 on the measured copy bandwidth. */
        public double errorPercent() {
            return (medianMicros / (predicted.timeSeconds() * 1e6) - 1) * 100;
        }

        /** Share of the roofline the step reaches: predicted / measured, in %. */
        public double percentOfRoofline() {
            return predicted.timeSeconds() * 1e6 / medianMicros * 100;
        }

        /** Weight bytes over the median time, GB/s. */
        public double weightGigabytesPerSecond() {
            return weightBytes / (medianMicros * 1e-6) / 1e9;
        }

        @Override
        public String toString() {
            return String.format(
                            java.util.Locale.ROOT,
                            "%s %s batch 1 context %d: %.1f us/token (%.1f tokens/s); roofline %.1f us (measured copy"
                                    + " bandwidth), %.1f us (datasheet); %.1f %% of the roofline, err %+.1f %%; weights %.0f GB/s",
                            model,
                            format,
                            context,
                            medianMicros,
                            1e6 / medianMicros,
                            predicted.timeSeconds() * 1e6,
                            datasheet.timeSeconds() * 1e6,
                            percentOfRoofline(),
                            errorPercent(),
                            weightGigabytesPerSecond())
                    + energy.map(e -> String.format(
                                    java.util.Locale.ROOT,
                                    "; %.3f J/token at %.0f W average",
                                    e.joulesPerOperation(),
                                    e.reading().averageWatts()))
                            .orElse("");
        }
    }

    /** Each format at each context, for {@code model} (dense, multi-head or grouped-query attention). */
    public static List<Result> run(
            Device device, Model model, List<WeightFormat> formats, List<Integer> contexts, double theta) {
        if (!(model.attention() instanceof MultiHeadAttention mha) || !(model.feedForward() instanceof SwiGlu mlp)) {
            throw new IllegalArgumentException(model.name() + ": the decode step runs dense models with multi-head or"
                    + " grouped-query attention and a SwiGLU MLP");
        }
        BenchmarkOptions timing = BenchmarkOptions.defaults().withGraph(2).withRepetitions(30);
        try (Stream stream = Stream.create();
                CublasLt lt = CublasLt.create();
                GemvKernels gemv = GemvKernels.load();
                DecodeKernels decode = DecodeKernels.load()) {
            DeviceCeilings ceilings = DeviceCeilings.measure(
                    lt, device, stream, GemvBenchmark.CEILING_COPY_BYTES, 1024, List.of(), timing);
            Hardware measured = ceilings.applyTo(device.hardware());
            Optional<PowerMeter> meter = PowerMeters.installed();
            List<Result> results = new java.util.ArrayList<>();
            for (WeightFormat f : formats) {
                for (int context : contexts) {
                    Timed t = time(
                            gemv,
                            decode,
                            stream,
                            timing,
                            model,
                            mha,
                            mlp.intermediateSize(),
                            f,
                            context,
                            theta,
                            meter,
                            device.uuid());
                    Workload w = Workload.decode(1, context)
                            .withWeights(f.precision())
                            .withActivations(Precision.FP16)
                            .withKvCache(Precision.FP16);
                    results.add(new Result(
                            model.name(),
                            f,
                            context,
                            t.micros(),
                            Transformer.of(model, measured).predict(w),
                            Transformer.of(model, device.hardware()).predict(w),
                            weightBytes(model, mha, mlp.intermediateSize(), f),
                            t.energy()));
                }
            }
            return results;
        }
    }

    static long weightBytes(Model model, MultiHeadAttention a, int inter, WeightFormat f) {
        int h = model.hiddenSize();
        long perLayer = f.storedBytes((long) (a.heads() + 2 * a.kvHeads()) * a.headDim(), h)
                + f.storedBytes(h, a.heads() * a.headDim())
                + f.storedBytes(2L * inter, h)
                + f.storedBytes(h, inter);
        return perLayer * model.layers() + WeightFormat.FP16.storedBytes(model.vocabSize(), h);
    }

    /** The step's median time and, given a meter, its energy per step. */
    private record Timed(double micros, Optional<OperationEnergy> energy) {}

    private static Timed time(
            GemvKernels gemv,
            DecodeKernels decode,
            Stream stream,
            BenchmarkOptions timing,
            Model model,
            MultiHeadAttention a,
            int inter,
            WeightFormat f,
            int context,
            double theta,
            Optional<PowerMeter> meter,
            String gpuUuid) {
        int h = model.hiddenSize();
        int heads = a.heads();
        int kv = a.kvHeads();
        int d = a.headDim();
        int layers = model.layers();
        try (OwnedResources owned = new OwnedResources()) {
            DeviceWeights[] wqkv = new DeviceWeights[layers];
            DeviceWeights[] wo = new DeviceWeights[layers];
            DeviceWeights[] wgu = new DeviceWeights[layers];
            DeviceWeights[] wd = new DeviceWeights[layers];
            DeviceBuffer[] kc = new DeviceBuffer[layers];
            DeviceBuffer[] vc = new DeviceBuffer[layers];
            long cacheBytes = 2L * kv * context * d;
            for (int l = 0; l < layers; l++) {
                long seed = 1000L * l;
                wqkv[l] = owned.add(RandomGemvWeights.upload(f, (heads + 2 * kv) * d, h, seed + 1));
                wo[l] = owned.add(RandomGemvWeights.upload(f, h, heads * d, seed + 4));
                wgu[l] = owned.add(RandomGemvWeights.upload(f, 2 * inter, h, seed + 5));
                wd[l] = owned.add(RandomGemvWeights.upload(f, h, inter, seed + 6));
                kc[l] = owned.add(DeviceBuffer.allocate(cacheBytes));
                vc[l] = owned.add(DeviceBuffer.allocate(cacheBytes));
                kc[l].fill(0x2E); // FP16 0x2E2E = 0.097 everywhere: earlier tokens' keys and values
                vc[l].fill(0x2E);
            }
            DeviceWeights lmHead = owned.add(RandomGemvWeights.upload(WeightFormat.FP16, model.vocabSize(), h, 7));
            DeviceBuffer norm = owned.add(DeviceBuffer.allocate(2L * h));
            norm.fill(0x3C); // FP16 0x3C3C = 1.06
            DeviceBuffer residual = owned.add(DeviceBuffer.allocate(2L * h));
            residual.fill(0x2E);
            DeviceBuffer normed = owned.add(DeviceBuffer.allocate(2L * h));
            DeviceBuffer qkv = owned.add(DeviceBuffer.allocate(2L * (heads + 2 * kv) * d));
            DeviceBuffer attn = owned.add(DeviceBuffer.allocate(2L * heads * d));
            DeviceBuffer delta = owned.add(DeviceBuffer.allocate(2L * h));
            DeviceBuffer gateUp = owned.add(DeviceBuffer.allocate(4L * inter));
            DeviceBuffer act = owned.add(DeviceBuffer.allocate(2L * inter));
            DeviceBuffer logits = owned.add(DeviceBuffer.allocate(2L * model.vocabSize()));
            DeviceBuffer ws =
                    owned.add(DeviceBuffer.allocate(DecodeKernels.attentionWorkspaceBytes(1, heads, kv, d, context)));
            DeviceBuffer pos = owned.add(DeviceBuffer.allocate(4));
            DeviceBuffer len = owned.add(DeviceBuffer.allocate(4));
            DeviceBuffer freq = owned.add(DeviceBuffer.allocate(8L * d / 2));
            pos.copyFrom(new int[] {context - 1});
            len.copyFrom(new int[] {context});
            freq.copyFrom(RopeFrequencies.of(d, theta));
            Activation f16 = Activation.F16;
            Runnable step = () -> {
                for (int l = 0; l < layers; l++) {
                    decode.addRmsNorm(residual, l == 0 ? null : delta, norm, normed, 1, h, 1e-5f, stream);
                    gemv.gemv(wqkv[l], normed, qkv, 1, f16, stream);
                    // with one row, the merged output's first heads·d elements are q as attention reads it
                    decode.ropeAppend(qkv, kc[l], vc[l], pos, freq, 1, heads, kv, d, context, stream);
                    decode.attention(qkv, kc[l], vc[l], len, ws, attn, 1, heads, kv, d, context, context, stream);
                    gemv.gemv(wo[l], attn, delta, 1, f16, stream);
                    decode.addRmsNorm(residual, delta, norm, normed, 1, h, 1e-5f, stream);
                    gemv.gemv(wgu[l], normed, gateUp, 1, f16, stream);
                    decode.siluMul(gateUp, act, 1, inter, stream);
                    gemv.gemv(wd[l], act, delta, 1, f16, stream);
                }
                decode.addRmsNorm(residual, delta, norm, normed, 1, h, 1e-5f, stream);
                gemv.gemv(lmHead, normed, logits, 1, f16, stream);
            };
            TimingStats t = Benchmark.time(stream, timing, 1, i -> step.run());
            Optional<OperationEnergy> energy =
                    meter.map(m -> Benchmark.energy(stream, timing, 1, i -> step.run(), m, gpuUuid, t.medianSeconds()));
            return new Timed(t.medianMicros(), energy);
        }
    }
}
