package dev.roofline.cuda.bench;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Interconnect;
import dev.roofline.core.model.Model;
import dev.roofline.core.parallel.Collective;
import dev.roofline.core.parallel.CollectiveFit;
import dev.roofline.core.parallel.Deployment;
import dev.roofline.core.parallel.Serving;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.decode.DecoderShape;
import dev.roofline.cuda.decode.DecoderWeights;
import dev.roofline.cuda.decode.DenseDecoder;
import dev.roofline.cuda.decode.RopeFrequencies;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.KvCacheFormat;
import dev.roofline.cuda.kernels.WeightFormat;
import dev.roofline.cuda.nccl.Communicator;
import dev.roofline.cuda.nccl.Communicators;
import dev.roofline.cuda.nccl.DataType;
import dev.roofline.cuda.nccl.Nccl;
import dev.roofline.cuda.nccl.ReduceOp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A tensor-parallel decode step measured on the GPUs of a {@link Communicators} and set beside its prediction: every
 * GPU runs its part of the model ({@link DecoderShape#shard}: heads, MLP columns and vocabulary split, Megatron-LM's
 * column/row-parallel linears) as a {@link DenseDecoder} with its own random weights, and an NCCL all-reduce of the
 * FP16 residual update after attention and after the MLP of every layer. Each GPU captures its step in a CUDA graph;
 * the GPUs replay theirs together ({@value DecodeStepBenchmark#STEP_REPLAYS} times, the all-reduces keep them in step)
 * and the step is the slowest GPU's median. The same is done for the step's all-reduces alone, so the table shows what
 * the collectives cost, and the first GPU's part is run once more alone, its all-reduces left out ({@link ShardStep}),
 * so the table shows what the GPUs' work costs without them. The logits stay split by vocabulary (no gather), as a
 * sampler that reduces its own part would take them.
 *
 * <p>Predicted: one GPU's part priced as a model of its own ({@link Deployment#shard}) on the datasheet, plus
 * {@code 2 × layers} all-reduces of {@code batch × hidden} FP16 values as NCCL's tuner prices them on {@code link}
 * ({@link Serving#allReduceSeconds}); with a {@link Calibration}, the part at its measured efficiencies (the classes
 * of each GPU's narrower products fitted to one GPU's part of the step, all-reduces left out, at each batch and the
 * first context, profiled: {@link ShardStep#fit}; the rest of the calibration as it is) and launches
 * (10 kernels a layer, the decoder's unfused plan) plus the all-reduces at the calibration's measured fit
 * ({@link CollectiveFit}) where it has one for this many GPUs.
 */
public final class TensorParallelBenchmark {
    /** Kernels a layer of a tensor-parallel GPU's step launches besides the all-reduces: the unfused plan. */
    static final int KERNELS_PER_LAYER = 10;
    /** Kernels outside the layers: the final norm and {@code lm_head}. */
    static final int KERNELS_PER_MODEL = 2;

    private TensorParallelBenchmark() {}

    /**
     * One configuration measured.
     *
     * @param model             the whole model's name
     * @param gpus              tensor-parallel GPUs
     * @param format            the weights
     * @param batch             sequences
     * @param context           tokens in each sequence's cache
     * @param stepSeconds       the slowest GPU's median step
     * @param allReducesSeconds the slowest GPU's median for the step's all-reduces alone
     * @param oneGpuSeconds     the first GPU's part of the step run alone, its all-reduces left out ({@link ShardStep})
     * @param datasheetSeconds  predicted on the datasheet and NCCL's tuner model
     * @param datasheetAllReducesSeconds     the all-reduces' share of {@code datasheetSeconds}
     * @param calibratedSeconds predicted with the calibration, NaN without one
     * @param calibratedAllReducesSeconds    the all-reduces' share of {@code calibratedSeconds}, NaN without a calibration
     */
    public record Result(
            String model,
            int gpus,
            WeightFormat format,
            int batch,
            int context,
            double stepSeconds,
            double allReducesSeconds,
            double oneGpuSeconds,
            double datasheetSeconds,
            double datasheetAllReducesSeconds,
            double calibratedSeconds,
            double calibratedAllReducesSeconds) {

        /** (predicted − measured) / measured, in percent, for the datasheet prediction. */
        public double datasheetErrorPercent() {
            return (datasheetSeconds - stepSeconds) / stepSeconds * 100;
        }

        /** The same for the calibrated prediction; NaN without one. */
        public double calibratedErrorPercent() {
            return (calibratedSeconds - stepSeconds) / stepSeconds * 100;
        }

        String label() {
            return String.format(Locale.ROOT, "%s TP%d %s B%d C%d", model, gpus, format, batch, context);
        }
    }

    static final Table<Result> TABLE = Table.of(List.of(
            Column.text("step", "config", Result::label),
            Column.number("measured us", "measured_us", "%.1f", "%.3f", r -> r.stepSeconds() * 1e6),
            Column.number("all-reduces us", "all_reduces_us", "%.1f", "%.3f", r -> r.allReducesSeconds() * 1e6),
            Column.number("one GPU's part alone us", "one_gpu_part_us", "%.1f", "%.3f", r -> r.oneGpuSeconds() * 1e6),
            Column.number("datasheet us", "datasheet_us", "%.1f", "%.3f", r -> r.datasheetSeconds() * 1e6),
            Column.number("datasheet err", "datasheet_error_pct", "%+.1f %%", "%.2f", Result::datasheetErrorPercent),
            Column.number(
                    "calibrated us", "calibrated_us", "%.1f", "%.3f", r -> nanToNull(r.calibratedSeconds() * 1e6)),
            Column.number(
                    "calibrated err",
                    "calibrated_error_pct",
                    "%+.1f %%",
                    "%.2f",
                    r -> nanToNull(r.calibratedErrorPercent())),
            Column.number(
                    "predicted all-reduces us",
                    "predicted_all_reduces_us",
                    "%.1f",
                    "%.3f",
                    r -> (Double.isNaN(r.calibratedAllReducesSeconds())
                                    ? r.datasheetAllReducesSeconds()
                                    : r.calibratedAllReducesSeconds())
                            * 1e6)));

    /**
     * A step's predictions, in seconds: on the datasheet with NCCL's tuner model, and with a calibration (NaN without
     * one); each with its all-reduces' share.
     */
    record Predicted(
            double datasheetSeconds,
            double datasheetAllReducesSeconds,
            double calibratedSeconds,
            double calibratedAllReducesSeconds) {}

    /**
     * The prediction of one GPU's step of {@code model} split over {@code tp} GPUs: the shard priced as a model of its
     * own ({@link Deployment#shard}), the embedding left out as the step runs without it, plus {@code 2 × layers}
     * all-reduces of {@code batch × hidden} FP16 values, on the datasheet ({@link Serving#allReduceSeconds} on
     * {@code link}) and with {@code calibration} (its efficiencies, {@value #KERNELS_PER_LAYER} kernels a layer and
     * {@value #KERNELS_PER_MODEL} outside, and its all-reduce fit for {@code tp} GPUs, the datasheet's all-reduces
     * where it has none); {@code calibration} may be null.
     */
    static Predicted predict(
            Model model,
            int tp,
            WeightFormat f,
            int batch,
            int context,
            Hardware hw,
            Interconnect link,
            Calibration calibration) {
        Model part = Deployment.tensorParallel(tp, link).shard(model);
        Workload w = DecodeStepBenchmark.workload(f, batch, context);
        long bytes = 2L * batch * model.hiddenSize();
        long allReduces = 2L * model.layers();
        double datasheetAllReduces = allReduces * Serving.allReduceSeconds(tp, bytes, link);
        double datasheet =
                DecodeStepResult.stepPrediction(Transformer.of(part, hw).predict(w)) + datasheetAllReduces;
        if (calibration == null) {
            return new Predicted(datasheet, datasheetAllReduces, Double.NaN, Double.NaN);
        }
        Optional<CollectiveFit> fit = calibration.collective(Collective.Op.ALL_REDUCE, tp);
        double calibratedAllReduces = fit.isPresent() ? allReduces * fit.get().seconds(bytes) : datasheetAllReduces;
        long launches = (long) KERNELS_PER_LAYER * part.layers() + KERNELS_PER_MODEL;
        double calibrated = DecodeCalibration.stepSeconds(calibration, part, hw, w, launches) + calibratedAllReduces;
        return new Predicted(datasheet, datasheetAllReduces, calibrated, calibratedAllReduces);
    }

    /** One GPU's medians: the step, and the step's all-reduces alone. */
    private record RankTimes(double stepSeconds, double allReducesSeconds) {}

    private static Double nanToNull(double v) {
        return Double.isNaN(v) ? null : v;
    }

    /**
     * What {@link #run} measured.
     *
     * @param devices     the GPUs
     * @param ncclVersion the NCCL loaded
     * @param calibration where the calibrated predictions come from, or empty
     * @param results     each configuration, in the order run
     */
    public record Results(
            String devices, String ncclVersion, Optional<Calibration.Provenance> calibration, List<Result> results) {
        public Results {
            results = List.copyOf(results);
        }

        /** The table in {@code format}; text and Markdown add the GPUs, NCCL and the calibration's provenance. */
        public String render(ReportFormat format) {
            String table = Report.render(TABLE, results, format);
            if (format == ReportFormat.CSV) {
                return table;
            }
            return devices + ", NCCL " + ncclVersion + "; calibration: "
                    + calibration.map(Calibration.Provenance::toString).orElse("none") + "\n\n" + table;
        }
    }

    /**
     * Every format at every batch and context of {@code model} split over the GPUs of {@code comms}.
     *
     * @param calibration null for datasheet predictions only
     */
    public static Results run(
            Communicators comms,
            Model model,
            List<WeightFormat> formats,
            List<Integer> batches,
            List<Integer> contexts,
            double theta,
            Interconnect link,
            Calibration calibration) {
        Objects.requireNonNull(comms, "comms");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(link, "link");
        int tp = comms.size();
        DecoderShape whole = DecoderShape.of(model);
        DecoderShape shard = whole.shard(tp);
        Hardware hw = Cuda.device(comms.rank(0).device()).hardware();
        for (WeightFormat f : formats) {
            for (int b : batches) {
                if (!DenseDecoder.runs(f, b)) {
                    throw new IllegalArgumentException(
                            "the decoder has no " + f + " product at batch " + b + " (see DenseDecoder.runs)");
                }
            }
        }
        if (formats.isEmpty() || batches.isEmpty() || contexts.isEmpty()) {
            throw new IllegalArgumentException("a tensor-parallel sweep needs formats, batches and contexts, got "
                    + formats + ", " + batches + ", " + contexts);
        }
        Model part = Deployment.tensorParallel(tp, link).shard(model);
        Cuda.setDevice(comms.rank(0).device());
        Device first = Cuda.device(comms.rank(0).device());
        // the first GPU's part alone at every configuration; with a calibration, profiled at the first context: each
        // GPU's products are narrower than the whole model's the calibration was fitted to, and run another plan, so
        // their classes at each batch are fitted to these
        boolean fit = calibration != null && tp > 1;
        Map<List<Integer>, Double> oneGpu = new HashMap<>(); // (format, batch, context) -> one GPU's part alone
        List<DecodeStepResult> profiled = new ArrayList<>();
        try (Stream stream = Stream.create()) {
            Hardware measured = calibration == null ? hw : calibration.applyTo(hw);
            for (WeightFormat f : formats) {
                try (DecoderWeights weights = DecodeStepBenchmark.randomWeights(shard, f, 1)) {
                    for (int b : batches) {
                        for (int c : contexts) {
                            boolean profile = fit && c == contexts.getFirst();
                            DecodeStepResult r = ShardStep.measure(
                                    first, part, shard, weights, f, b, c, theta, profile, measured, stream);
                            oneGpu.put(List.of(f.ordinal(), b, c), r.seconds());
                            if (profile) {
                                profiled.add(r);
                            }
                        }
                    }
                }
            }
        }
        if (fit) {
            calibration = ShardStep.fit(calibration, profiled);
        }
        List<Result> results = new ArrayList<>();
        for (WeightFormat f : formats) {
            for (int b : batches) {
                for (int c : contexts) {
                    double step = 0;
                    double reduces = 0;
                    for (RankTimes t : comms.onEachRank(comm -> measure(comm, shard, f, b, c, theta))) {
                        step = Math.max(step, t.stepSeconds());
                        reduces = Math.max(reduces, t.allReducesSeconds());
                    }
                    Predicted p = predict(model, tp, f, b, c, hw, link, calibration);
                    results.add(new Result(
                            model.name(),
                            tp,
                            f,
                            b,
                            c,
                            step,
                            reduces,
                            oneGpu.get(List.of(f.ordinal(), b, c)),
                            p.datasheetSeconds(),
                            p.datasheetAllReducesSeconds(),
                            p.calibratedSeconds(),
                            p.calibratedAllReducesSeconds()));
                }
            }
        }
        return new Results(
                tp + " x " + hw.name(),
                Nccl.version(),
                Optional.ofNullable(calibration).map(Calibration::provenance),
                results);
    }

    /** On one GPU: the median step and the median of the step's all-reduces alone. */
    private static RankTimes measure(
            Communicator comm, DecoderShape shard, WeightFormat f, int batch, int context, double theta) {
        BenchmarkOptions timing = DecodeStepBenchmark.stepTiming();
        DenseDecoder.PartialSums sums =
                (halves, count, s) -> comm.allReduce(halves, halves, count, DataType.FLOAT16, ReduceOp.SUM, s);
        try (DecoderWeights weights = DecodeStepBenchmark.randomWeights(shard, f, 1 + comm.rank());
                Stream stream = Stream.create();
                DeviceBuffer residual = DeviceBuffer.allocate(2L * batch * shard.hidden());
                DenseDecoder d = DenseDecoder.create(
                        Cuda.device(comm.device()),
                        shard,
                        weights,
                        RopeFrequencies.of(shard.headDim(), theta),
                        1e-5f,
                        batch,
                        context,
                        KvCacheFormat.FP16,
                        KernelLaunch.PROGRAMMATIC,
                        sums)) {
            residual.fill(0x2E);
            DecodeStepBenchmark.prime(d, context);
            TimingStats step = Benchmark.time(stream, timing, 1, i -> d.step(stream));
            TimingStats reduces = Benchmark.time(stream, timing, 1, i -> {
                for (int k = 0; k < 2 * shard.layers(); k++) {
                    sums.allReduce(residual, (long) batch * shard.hidden(), stream);
                }
            });
            return new RankTimes(step.medianSeconds(), reduces.medianSeconds());
        }
    }
}
