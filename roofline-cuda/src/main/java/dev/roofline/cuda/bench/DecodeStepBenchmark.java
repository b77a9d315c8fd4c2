package dev.roofline.cuda.bench;

import dev.roofline.core.energy.OperationEnergy;
import dev.roofline.core.energy.PowerMeter;
import dev.roofline.core.energy.PowerMeters;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.MixtureOfExperts;
import dev.roofline.core.model.Model;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.blas.CublasLt;
import dev.roofline.cuda.decode.DecoderOperator;
import dev.roofline.cuda.decode.DecoderShape;
import dev.roofline.cuda.decode.DecoderWeights;
import dev.roofline.cuda.decode.DenseDecoder;
import dev.roofline.cuda.decode.ExpertWeights;
import dev.roofline.cuda.decode.RopeFrequencies;
import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.AttentionGeometry;
import dev.roofline.cuda.kernels.DecodeKernels;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.KvCacheFormat;
import dev.roofline.cuda.kernels.MoeKernels;
import dev.roofline.cuda.kernels.StreamRead;
import dev.roofline.cuda.kernels.WeightFormat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Decode steps of a dense Llama-family model ({@link DenseDecoder}) timed on the GPU and set beside the whole-model
 * roofline prediction ({@link Transformer}) on the measured copy bandwidth and on the datasheet. Every layer has its own
 * random weights in the format (so every step streams all of them from DRAM), FP16 activations, a KV cache in the
 * configuration's {@link KvCacheFormat} (FP8 with scales of 1), RoPE
 * with the plain frequencies of {@code theta}; the step runs from the first layer's RMSNorm to the logits (the
 * embedding lookup is left out, and so is the model's embedding operator from the predictions it is compared with).
 * Every sequence of the batch sits at position {@code context - 1}. The step is captured in a CUDA graph and replayed
 * {@value #STEP_REPLAYS} times back to back; the median is the time per step. With {@code profile}, each
 * {@link DecoderOperator} is timed on its own the same way (all its launches of one step in one graph), so their sum
 * can be checked against the whole step.
 */
public final class DecodeStepBenchmark {
    /** Replays of the step's graph; their median is the time per step. */
    static final int STEP_REPLAYS = 60;

    /** How a step is timed: {@value #STEP_REPLAYS} replays of its graph. */
    static BenchmarkOptions stepTiming() {
        return BenchmarkOptions.defaults().withGraph(1).withRepetitions(STEP_REPLAYS);
    }

    /**
     * Readies {@code d} for a timed step at {@code context} tokens: the caches hold earlier tokens' keys and values
     * (bytes 0x2E: FP16 0x2E2E = 0.097, BF16 3.9e-11, E4M3 0.44), so does the input, and every sequence is at
     * position {@code context - 1}. The fills run on the default stream, which the step's stream does not wait for,
     * so this waits for them.
     */
    static void prime(DenseDecoder d, int context) {
        for (int l = 0; l < d.shape().layers(); l++) {
            for (DeviceBuffer cache : d.cache(l)) {
                cache.fill(0x2E);
            }
        }
        d.input().fill(0x2E);
        Cuda.synchronize();
        int[] positions = new int[d.batch()];
        java.util.Arrays.fill(positions, context - 1);
        d.setPositions(positions);
    }
    /** The model's operators the step does not run. */
    static final List<String> NOT_IN_STEP = List.of("embedding");

    private DecodeStepBenchmark() {}

    /** One configuration of the sweep. */
    public record Config(WeightFormat format, KvCacheFormat kv, int batch, int context, KernelLaunch launch) {
        public Config {
            java.util.Objects.requireNonNull(format, "format");
            java.util.Objects.requireNonNull(kv, "kv");
            java.util.Objects.requireNonNull(launch, "launch");
        }

        /** A configuration with an FP16 KV cache. */
        public Config(WeightFormat format, int batch, int context, KernelLaunch launch) {
            this(format, KvCacheFormat.FP16, batch, context, launch);
        }
    }

    /** The configurations to run: every weight format with every KV cache format, batch, context and launch order. */
    public record Sweep(
            List<WeightFormat> formats,
            List<KvCacheFormat> kvFormats,
            List<Integer> batches,
            List<Integer> contexts,
            List<KernelLaunch> launches) {
        public Sweep {
            formats = List.copyOf(formats);
            kvFormats = List.copyOf(kvFormats);
            batches = List.copyOf(batches);
            contexts = List.copyOf(contexts);
            launches = List.copyOf(launches);
            if (formats.isEmpty()
                    || kvFormats.isEmpty()
                    || batches.isEmpty()
                    || contexts.isEmpty()
                    || launches.isEmpty()) {
                throw new IllegalArgumentException(
                        "a sweep needs at least one weight format, KV format, batch, context and launch order");
            }
        }

        /** A sweep with an FP16 KV cache. */
        public Sweep(
                List<WeightFormat> formats,
                List<Integer> batches,
                List<Integer> contexts,
                List<KernelLaunch> launches) {
            this(formats, List.of(KvCacheFormat.FP16), batches, contexts, launches);
        }
    }

    /** What a sweep measured: the device's ceilings and one result per configuration, in sweep order. */
    public record Results(String device, DeviceCeilings ceilings, List<DecodeStepResult> results) {
        public Results {
            results = List.copyOf(results);
        }
    }

    /**
     * Each format at each batch and context, for {@code model} (dense, multi-head or grouped-query attention). A
     * configuration whose weights and cache do not fit in free device memory is reported as skipped, with the bytes.
     */
    public static Results run(Device device, Model model, Sweep sweep, double theta, boolean profile) {
        DecoderShape shape = DecoderShape.of(model);
        return run(device, model, sweep, f -> randomWeights(shape, f, 1), theta, profile);
    }

    /** Where a sweep's weights come from: the weights of one format, uploaded; the sweep closes them. */
    @FunctionalInterface
    public interface WeightSource {
        DecoderWeights weights(WeightFormat format) throws java.io.IOException;
    }

    /**
     * {@link #run(Device, Model, Sweep, double, boolean)} on weights from {@code source} (e.g. a checkpoint's, with
     * the sweep's one format the checkpoint's).
     */
    public static Results run(
            Device device, Model model, Sweep sweep, WeightSource source, double theta, boolean profile) {
        DecoderShape shape = DecoderShape.of(model);
        BenchmarkOptions timing = stepTiming();
        try (Stream stream = Stream.create();
                CublasLt lt = CublasLt.create()) {
            DeviceCeilings ceilings = DeviceCeilings.measure(
                    lt, device, stream, GemvBenchmark.CEILING_COPY_BYTES, 1024, List.of(), timing);
            Hardware measured = ceilings.applyTo(device.hardware());
            Optional<PowerMeter> meter = PowerMeters.installed();
            List<DecodeStepResult> results = new ArrayList<>();
            for (WeightFormat f : sweep.formats()) {
                long resident = weightBytes(shape, f);
                if (resident > Cuda.freeMemoryBytes()) {
                    for (Config c : configs(sweep, f)) {
                        results.add(DecodeStepResult.skipped(
                                model.name(), c, resident, kvBytes(shape, c.kv(), c.batch(), c.context())));
                    }
                    continue;
                }
                try (DecoderWeights weights = upload(source, f)) {
                    for (Config config : configs(sweep, f)) {
                        int b = config.batch();
                        int c = config.context();
                        long kv = kvBytes(shape, config.kv(), b, c);
                        long weightBytes = stepWeightBytes(shape, f, b);
                        if (shape.hasExperts() && !DenseDecoder.runs(shape, f, b)) {
                            results.add(DecodeStepResult.unsupported(
                                    model.name(),
                                    config,
                                    weightBytes,
                                    kv,
                                    "not run: the experts' grouped GEMVs take " + MoeKernels.FORMATS
                                            + " weights and batches up to " + MoeKernels.MAX_ROWS));
                            continue;
                        }
                        if (!DenseDecoder.runs(f, b)) {
                            results.add(DecodeStepResult.unsupported(model.name(), config, weightBytes, kv));
                            continue;
                        }
                        if (kv + (64L << 20) > Cuda.freeMemoryBytes()) {
                            results.add(DecodeStepResult.skipped(model.name(), config, weightBytes, kv));
                            continue;
                        }
                        Workload w = workload(f, config.kv(), b, c);
                        ModelPrediction predicted =
                                Transformer.of(model, measured).predict(w);
                        ModelPrediction datasheet =
                                Transformer.of(model, device.hardware()).predict(w);
                        results.add(measure(
                                device,
                                model.name(),
                                shape,
                                weights,
                                null,
                                config,
                                theta,
                                timing,
                                profile,
                                meter,
                                predicted,
                                datasheet,
                                weightBytes,
                                kv,
                                stream));
                    }
                }
            }
            return new Results(device.name(), ceilings, results);
        }
    }

    private static DecoderWeights upload(WeightSource source, WeightFormat f) {
        try {
            return source.weights(f);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e.getMessage(), e);
        }
    }

    private static List<Config> configs(Sweep sweep, WeightFormat f) {
        List<Config> configs = new ArrayList<>();
        for (KvCacheFormat kv : sweep.kvFormats()) {
            for (int b : sweep.batches()) {
                for (int c : sweep.contexts()) {
                    for (KernelLaunch l : sweep.launches()) {
                        configs.add(new Config(f, kv, b, c, l));
                    }
                }
            }
        }
        return configs;
    }

    /**
     * One configuration's graphed step on {@code device}, and with {@code profile} each operator timed alone;
     * {@code partialSums} as {@link DenseDecoder#create(Device, DecoderShape, DecoderWeights, double[], float, int,
     * int, KvCacheFormat, KernelLaunch, DenseDecoder.PartialSums)} takes them (null: the whole model on one GPU).
     */
    static DecodeStepResult measure(
            Device device,
            String model,
            DecoderShape shape,
            DecoderWeights weights,
            DenseDecoder.PartialSums partialSums,
            Config config,
            double theta,
            BenchmarkOptions timing,
            boolean profile,
            Optional<PowerMeter> meter,
            ModelPrediction predicted,
            ModelPrediction datasheet,
            long weightBytes,
            long kvBytes,
            Stream stream) {
        try (DenseDecoder d = DenseDecoder.create(
                device,
                shape,
                weights,
                RopeFrequencies.of(shape.headDim(), theta),
                1e-5f,
                config.batch(),
                config.context(),
                config.kv(),
                config.launch(),
                partialSums)) {
            prime(d, config.context());
            if (shape.hasExperts()) {
                d.setInput(distinctRows(config.batch(), shape.hidden()));
            }
            TimingStats step = Benchmark.time(stream, timing, 1, i -> d.step(stream));
            // before the profile, whose lone top-k launches route every layer by the last layer's logits
            double expertsRead = shape.hasExperts() ? expertsRead(d) : Double.NaN;
            List<DecodeStepResult.OperatorTiming> operators = new ArrayList<>();
            double readFloor = Double.NaN;
            try (ReadFloor floor = profile && partialSums == null && !shape.hasExperts()
                    ? ReadFloor.open(d, predicted, config)
                    : null) {
                if (floor != null) {
                    readFloor = floor.seconds(stream, timing, r -> true);
                }
                if (profile) {
                    BenchmarkOptions alone = timing.withRepetitions(20);
                    for (DecoderOperator o : shape.operators()) {
                        // an operator run inside another's kernel (DenseDecoder.fusesRope) has no launch to time: its
                        // time is in that operator's
                        boolean launched = d.launches(o) > 0;
                        double measured = launched
                                ? Benchmark.time(stream, alone, 1, i -> d.enqueue(o, stream))
                                        .medianSeconds()
                                : 0;
                        double floorSeconds = launched && floor != null
                                ? floor.seconds(stream, alone, r -> r.operator() == o)
                                : Double.NaN;
                        // in the step: the whole step's median less the step's without this operator, both timed as
                        // the step is; not for a mixture, whose step without its router or top-k would route by stale
                        // logits and read other experts than the step does
                        double inStep = launched && !shape.hasExperts()
                                ? step.medianSeconds()
                                        - Benchmark.time(stream, timing, 1, i -> d.stepWithout(o, stream))
                                                .medianSeconds()
                                : Double.NaN;
                        double inStepFloor = launched && floor != null
                                ? readFloor - floor.seconds(stream, timing, r -> r.operator() != o)
                                : Double.NaN;
                        operators.add(new DecodeStepResult.OperatorTiming(
                                o,
                                d.launches(o),
                                seconds(datasheet, o),
                                seconds(predicted, o),
                                measured,
                                floorSeconds,
                                inStep,
                                inStepFloor));
                    }
                }
            }
            Optional<OperationEnergy> energy = meter.map(m ->
                    Benchmark.energy(stream, timing, 1, i -> d.step(stream), m, device.uuid(), step.medianSeconds()));
            return new DecodeStepResult(
                    model,
                    config,
                    step.medianSeconds(),
                    predicted,
                    datasheet,
                    weightBytes,
                    kvBytes,
                    operators,
                    energy,
                    null,
                    expertsRead,
                    stepLaunches(d, shape),
                    readFloor);
        }
    }

    /**
     * A decode step's read floor ({@link StepReads}): its launches, each replaced by a kernel that only reads that
     * launch's bytes, launched as the decoder launches each of its kernels (the configuration's launch mode, or stream
     * order where the decoder uses it); the reads' buffer and kernel, held while the step and its operators are timed
     * beside them.
     */
    private static final class ReadFloor implements AutoCloseable {
        private final StepReads plan;
        private final StreamRead reads;
        private final DeviceBuffer buffer;

        private ReadFloor(StepReads plan, StreamRead reads, DeviceBuffer buffer) {
            this.plan = plan;
            this.reads = reads;
            this.buffer = buffer;
        }

        /** The floor of {@code d}'s step, or null when its buffer does not fit in free device memory beside it. */
        static ReadFloor open(DenseDecoder d, ModelPrediction predicted, Config config) {
            DecoderShape shape = d.shape();
            StepReads plan =
                    StepReads.of(shape, predicted, d::launches, d.attentionPartialBytes(), d::launchesInStreamOrder);
            if (plan.reads().size() != stepLaunches(d, shape)) {
                throw new IllegalStateException("the read floor has "
                        + plan.reads().size() + " reads for a step of " + stepLaunches(d, shape) + " launches");
            }
            if (plan.extent() + (256L << 20) > Cuda.freeMemoryBytes()) {
                return null;
            }
            StreamRead reads = StreamRead.load(config.launch());
            try {
                return new ReadFloor(plan, reads, DeviceBuffer.allocate(plan.extent()));
            } catch (RuntimeException e) {
                reads.close();
                throw e;
            }
        }

        /** The median time of the reads {@code which} keeps, in step order, graphed and timed as {@code timing} says. */
        double seconds(Stream stream, BenchmarkOptions timing, java.util.function.Predicate<StepReads.Read> which) {
            List<StepReads.Read> chosen = plan.reads().stream().filter(which).toList();
            return Benchmark.time(stream, timing, 1, i -> {
                        for (StepReads.Read r : chosen) {
                            reads.read(buffer, r.offset(), r.bytes(), r.inStreamOrder(), stream);
                        }
                    })
                    .medianSeconds();
        }

        @Override
        public void close() {
            try {
                buffer.close();
            } finally {
                reads.close();
            }
        }
    }

    /** The kernels one step of {@code d} launches: its operators' ({@link DenseDecoder#launches}). */
    private static int stepLaunches(DenseDecoder d, DecoderShape shape) {
        return shape.operators().stream().mapToInt(d::launches).sum();
    }

    /** The distinct experts each layer of the decoder's last step picked, averaged over the layers. */
    private static double expertsRead(DenseDecoder d) {
        Cuda.synchronize();
        long sum = 0;
        for (int l = 0; l < d.shape().layers(); l++) {
            sum += java.util.Arrays.stream(d.routing(l)[0].toIntArray())
                    .distinct()
                    .count();
        }
        return (double) sum / d.shape().layers();
    }

    /**
     * The step's attention alone ({@link DecoderOperator#ATTENTION}: every layer's split pass and merge, launched as
     * {@code launch} says) at {@code batch} sequences of {@code context} tokens, replayed as one graph; the median.
     * Each layer reads its own caches, so the KV bytes come from DRAM as in the step.
     */
    public static double attentionSeconds(
            Device device, DecoderShape shape, int batch, int context, KernelLaunch launch) {
        return attentionSeconds(device, shape, KvCacheFormat.FP16, batch, context, launch);
    }

    /** {@link #attentionSeconds(Device, DecoderShape, int, int, KernelLaunch)} over caches stored as {@code kv}. */
    public static double attentionSeconds(
            Device device, DecoderShape shape, KvCacheFormat kv, int batch, int context, KernelLaunch launch) {
        BenchmarkOptions timing = BenchmarkOptions.defaults().withGraph(1).withRepetitions(20);
        int h = shape.heads();
        int g = shape.kvHeads();
        int d = shape.headDim();
        long cacheBytes = (long) kv.elementBytes() * batch * g * context * d;
        int[] lengths = new int[batch];
        java.util.Arrays.fill(lengths, context);
        try (OwnedResources owned = new OwnedResources();
                Stream stream = Stream.create()) {
            DecodeKernels kernels = owned.add(DecodeKernels.load(launch));
            DeviceBuffer qkv = owned.add(DeviceBuffer.allocate(2L * batch * shape.qkvWidth()));
            DeviceBuffer out = owned.add(DeviceBuffer.allocate(2L * batch * shape.attentionWidth()));
            DeviceBuffer len = owned.add(DeviceBuffer.allocate(4L * batch));
            DeviceBuffer ws =
                    owned.add(DeviceBuffer.allocate(kernels.attentionWorkspaceBytes(batch, h, g, d, context)));
            qkv.fill(0x3C);
            len.copyFrom(lengths);
            DeviceBuffer[] k = new DeviceBuffer[shape.layers()];
            DeviceBuffer[] v = new DeviceBuffer[shape.layers()];
            for (int l = 0; l < shape.layers(); l++) {
                k[l] = owned.add(DeviceBuffer.allocate(cacheBytes));
                v[l] = owned.add(DeviceBuffer.allocate(cacheBytes));
                k[l].fill(0x2E);
                v[l].fill(0x2E);
            }
            Cuda.synchronize(); // the fills ran on the default stream, which the timing stream does not wait for
            AttentionGeometry geometry = AttentionGeometry.mergedQkv(batch, h, g, d, context);
            return Benchmark.time(stream, timing, 1, i -> {
                        for (int l = 0; l < shape.layers(); l++) {
                            kernels.attention(qkv, k[l], v[l], kv, len, ws, out, geometry, context, stream);
                        }
                    })
                    .medianSeconds();
        }
    }

    /** The workload a step runs: weights in {@code f}, FP16 activations and KV cache. */
    public static Workload workload(WeightFormat f, int batch, int context) {
        return workload(f, KvCacheFormat.FP16, batch, context);
    }

    /** The workload a step runs: weights in {@code f}, FP16 activations, the KV cache in {@code kv}. */
    public static Workload workload(WeightFormat f, KvCacheFormat kv, int batch, int context) {
        return Workload.decode(batch, context)
                .withWeights(f.precision())
                .withActivations(Precision.FP16)
                .withKvCache(kv.precision());
    }

    /** The predicted time of the model's operators {@code o} covers. */
    static double seconds(ModelPrediction p, DecoderOperator o) {
        double s = 0;
        for (String name : o.modelOperators()) {
            s += p.operator(name).timeSeconds();
        }
        return s;
    }

    /**
     * Random weights in {@code f} for every layer (seeded per layer and matrix), norms of FP16 1.06 everywhere, except
     * in a model with experts, whose layers' norms are 0.016: random weights are not scaled to their fan-in, and at
     * 1.06 the attention's and the experts' outputs would overflow the FP16 residual stream within a few layers, after
     * which every router logit is NaN and every token picks the same experts. With small norms the logits stay finite
     * and differ from token to token, so the step reads about the distinct experts the prediction assumes. The router
     * is FP16.
     */
    public static DecoderWeights randomWeights(DecoderShape shape, WeightFormat f, long seed) {
        int h = shape.hidden();
        try (OwnedResources partial = new OwnedResources()) {
            List<DecoderWeights.Layer> layers = new ArrayList<>();
            for (int l = 0; l < shape.layers(); l++) {
                long s = seed * 1_000_003L + 1000L * l;
                if (shape.hasExperts()) {
                    int e = shape.experts();
                    int inter = shape.intermediate();
                    DeviceBuffer inputNorm = partial.add(DeviceBuffer.allocate(2L * h));
                    DeviceBuffer postNorm = partial.add(DeviceBuffer.allocate(2L * h));
                    inputNorm.fill(EXPERT_NORM_BYTE);
                    postNorm.fill(EXPERT_NORM_BYTE);
                    layers.add(new DecoderWeights.Layer(
                            inputNorm,
                            partial.add(RandomGemvWeights.uploadForGemv(f, shape.qkvWidth(), h, s + 1)),
                            partial.add(RandomGemvWeights.uploadForGemv(f, h, shape.attentionWidth(), s + 4)),
                            postNorm,
                            partial.add(new ExpertWeights(
                                    partial.add(RandomGemvWeights.upload(WeightFormat.FP16, e, h, s + 7)),
                                    partial.add(RandomGemvWeights.upload(f, e * 2 * inter, h, s + 8)),
                                    partial.add(RandomGemvWeights.upload(f, e * h, inter, s + 9))))));
                    continue;
                }
                layers.add(new DecoderWeights.Layer(
                        partial.add(norm(h)),
                        partial.add(RandomGemvWeights.uploadForGemv(f, shape.qkvWidth(), h, s + 1)),
                        partial.add(RandomGemvWeights.uploadForGemv(f, h, shape.attentionWidth(), s + 4)),
                        partial.add(norm(h)),
                        partial.add(RandomGemvWeights.uploadForGemv(f, 2 * shape.intermediate(), h, s + 5)),
                        partial.add(RandomGemvWeights.uploadForGemv(f, h, shape.intermediate(), s + 6))));
            }
            DecoderWeights w = new DecoderWeights(
                    layers,
                    partial.add(norm(h)),
                    partial.add(RandomGemvWeights.upload(WeightFormat.FP16, shape.vocab(), h, seed + 7)));
            partial.release();
            return w;
        }
    }

    /** Each byte of the norms of a model with experts in {@link #randomWeights}: FP16 0x2424 = 2^-6 · 1.035. */
    private static final int EXPERT_NORM_BYTE = 0x24;

    private static DeviceBuffer norm(int hidden) {
        DeviceBuffer b = DeviceBuffer.allocate(2L * hidden);
        b.fill(0x3C); // FP16 0x3C3C = 1.06
        return b;
    }

    /**
     * Bytes of weights the decoder holds: every linear in {@code f}, a mixture's router and {@code lm_head} in FP16,
     * every expert (norms left out). A dense step reads them all.
     */
    static long weightBytes(DecoderShape s, WeightFormat f) {
        return Math.round(weightBytes(s, f, s.experts()));
    }

    /**
     * Bytes of weights one step of {@code batch} tokens reads: {@link #weightBytes}, with only the distinct experts
     * the tokens are expected to pick ({@link MixtureOfExperts#expectedDistinctExperts}, the prediction's own count).
     */
    public static long stepWeightBytes(DecoderShape s, WeightFormat f, int batch) {
        if (!s.hasExperts()) {
            return weightBytes(s, f);
        }
        MixtureOfExperts moe = MixtureOfExperts.routed(s.experts(), s.topK(), s.intermediate());
        return Math.round(weightBytes(s, f, moe.expectedDistinctExperts(batch)));
    }

    /** The weights with {@code experts} experts' matrices per layer (a dense MLP when the shape has none). */
    private static double weightBytes(DecoderShape s, WeightFormat f, double experts) {
        int h = s.hidden();
        double mlp = f.storedBytes(2L * s.intermediate(), h) + f.storedBytes(h, s.intermediate());
        double perLayer = f.storedBytes(s.qkvWidth(), h)
                + f.storedBytes(h, s.attentionWidth())
                + (s.hasExperts() ? WeightFormat.FP16.storedBytes(s.experts(), h) + experts * mlp : mlp);
        return perLayer * s.layers() + WeightFormat.FP16.storedBytes(s.vocab(), h);
    }

    /**
     * Distinct seeded random rows, one per sequence, as FP16 bits of magnitude below 1: a mixture of experts routes
     * each sequence by its own hidden state, so identical rows would all pick the same experts.
     */
    static short[] distinctRows(int batch, int hidden) {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(batch);
        short[] x = new short[batch * hidden];
        for (int i = 0; i < x.length; i++) {
            x[i] = Float.floatToFloat16((float) rnd.nextDouble(-1, 1));
        }
        return x;
    }

    /** FP16 K and V bytes one step's attention reads (and its caches hold): batch × context tokens per KV head, every layer. */
    public static long kvBytes(DecoderShape s, int batch, int context) {
        return kvBytes(s, KvCacheFormat.FP16, batch, context);
    }

    /** {@link #kvBytes(DecoderShape, int, int)} for a cache stored as {@code kv}. */
    public static long kvBytes(DecoderShape s, KvCacheFormat kv, int batch, int context) {
        return 2L * kv.elementBytes() * s.layers() * batch * (long) context * s.kvHeads() * s.headDim();
    }
}
