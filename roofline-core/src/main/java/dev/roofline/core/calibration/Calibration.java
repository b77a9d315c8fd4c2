package dev.roofline.core.calibration;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Source;
import dev.roofline.core.internal.Checks;
import dev.roofline.core.model.Model;
import dev.roofline.core.parallel.Collective;
import dev.roofline.core.parallel.CollectiveFit;
import dev.roofline.core.roofline.Operator;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.OperatorTime;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.DoublePredicate;

/**
 * What a real GPU run measured, in place of the datasheet's assumptions: the copy bandwidth, what one kernel launch
 * costs inside a CUDA graph, how many kernels the measured engine launches (its fusion plan) and, per
 * {@link OperatorClass}, the fraction of the copy bandwidth those kernels reach and the fixed time one operator of the
 * class costs beyond its bytes, its FLOPs and its launches. {@link #predict} prices a model with it:
 * <pre>
 * operator time = (fixedSeconds(class) + max(bytes / (copyBytesPerSecond × efficiency(class)), flops / peak)) × count
 * launch time   = (kernelsPerLayer × layers + kernelsPerModel) × launchSeconds
 * </pre>
 * with the kernel counts of the first of {@code plans} that matches the pass ({@link LaunchPlan}), or of the measured
 * configuration where none does.
 * The fixed time is what one efficiency cannot describe: a kernel whose cost is partly constant (decode attention's
 * split pass and merge, with their block-wide synchronisations) and partly its bytes reaches a different fraction of
 * the bandwidth at every context length; a fixed time per operator and an efficiency for the bytes fit both ends.
 *
 * <pre>{@code
 * Calibration c = Calibration.read(Path.of("h200-llama-3-8b.json"));
 * CalibratedPrediction p = c.predict(Transformer.of(Models.LLAMA_3_8B, Hardware.H200), Workload.decode(1, 1024));
 * p.timeSeconds();               // operators at their measured efficiencies plus the launches
 * p.errorPercent(5.091e-3);      // against a measured step
 * }</pre>
 *
 * @param provenance         where and how it was measured
 * @param copyBytesPerSecond device-to-device copy bandwidth, at least {@link Hardware#MIN_BYTES_PER_SECOND}
 * @param launchSeconds      what one kernel costs inside a CUDA graph beyond its bytes and FLOPs, in [0,
 *                           {@link Hardware#MAX_KERNEL_LATENCY_SECONDS}]
 * @param kernelsPerLayer    kernels the engine launches per decoder layer, &gt;= 0 (10 for a dense Llama decode step)
 * @param kernelsPerModel    kernels it launches outside the layers, &gt;= 0 (2: final norm and LM head)
 * @param efficiencies       per class, the fraction of the copy bandwidth reached, in (0, {@link #MAX_EFFICIENCY}];
 *                           a class left out is priced at 1 and reported as uncalibrated
 * @param fixedSeconds       per class, what one operator costs beyond its roofline time and its launches, in [0,
 *                           {@link Hardware#MAX_KERNEL_LATENCY_SECONDS}]; a class left out costs 0
 * @param collectives        the collectives measured on several GPUs of the device's host (NCCL, {@code roofline
 *                           nccl-bench}), each as its fitted latency and bus bandwidth; at most one per operation and
 *                           rank count; empty when none was measured
 * @param plans              the kernels the engine launches by weights, batch and kind of model, first match first;
 *                           empty: {@code kernelsPerLayer} and {@code kernelsPerModel} for every pass
 */
public record Calibration(
        Provenance provenance,
        double copyBytesPerSecond,
        double launchSeconds,
        int kernelsPerLayer,
        int kernelsPerModel,
        Map<OperatorClass, Double> efficiencies,
        Map<OperatorClass, Double> fixedSeconds,
        List<CollectiveFit> collectives,
        List<LaunchPlan> plans) {

    /**
     * The largest efficiency accepted: above 1 because data a kernel finds in L2 is not read from DRAM, so a class can
     * beat a DRAM-sized copy; half as fast again is beyond any L2 on these GPUs and taken for a unit mistake.
     */
    public static final double MAX_EFFICIENCY = 1.5;

    /**
     * Where a calibration was measured.
     *
     * @param device the GPU as the driver names it, e.g. {@code "NVIDIA H200"}
     * @param date   the day of the run
     * @param source the command and configuration that measured it, e.g.
     *               {@code "roofline decode llama-3-8b --weights FP16 --context 1024"}
     */
    public record Provenance(String device, LocalDate date, String source) {
        public Provenance {
            Checks.notBlank("device", device);
            Checks.notNull("date", date);
            Checks.notBlank("source", source);
        }

        /** As a hardware figure's source. */
        public Source asSource() {
            return Source.measured(device, date, source);
        }

        /** "measured on NVIDIA H200 2026-11-24 (roofline decode ...)". */
        @Override
        public String toString() {
            return "measured on " + device + " " + date + " (" + source + ")";
        }
    }

    public Calibration {
        Checks.notNull("provenance", provenance);
        Checks.atLeast("copyBytesPerSecond", copyBytesPerSecond, Hardware.MIN_BYTES_PER_SECOND, "1 GB/s");
        if (!(launchSeconds >= 0 && launchSeconds <= Hardware.MAX_KERNEL_LATENCY_SECONDS)) {
            throw new IllegalArgumentException("launchSeconds must be in [0, 1] s, got " + launchSeconds);
        }
        LaunchPlan.checkKernels(kernelsPerLayer, kernelsPerModel);
        efficiencies =
                byKey("efficiencies", efficiencies, v -> v > 0 && v <= MAX_EFFICIENCY, "(0, " + MAX_EFFICIENCY + "]");
        fixedSeconds = byKey(
                "fixedSeconds", fixedSeconds, v -> v >= 0 && v <= Hardware.MAX_KERNEL_LATENCY_SECONDS, "[0, 1] s");
        collectives = List.copyOf(Checks.notNull("collectives", collectives));
        Set<String> seen = new HashSet<>();
        for (CollectiveFit f : collectives) {
            if (!seen.add(f.op() + " x" + f.ranks())) {
                throw new IllegalArgumentException(
                        "collectives: " + f.op() + " on " + f.ranks() + " ranks is given twice");
            }
        }
        plans = List.copyOf(Checks.notNull("plans", plans));
    }

    /** A calibration whose engine launches the same kernels for every pass: no {@link LaunchPlan}s. */
    public Calibration(
            Provenance provenance,
            double copyBytesPerSecond,
            double launchSeconds,
            int kernelsPerLayer,
            int kernelsPerModel,
            Map<OperatorClass, Double> efficiencies,
            Map<OperatorClass, Double> fixedSeconds,
            List<CollectiveFit> collectives) {
        this(
                provenance,
                copyBytesPerSecond,
                launchSeconds,
                kernelsPerLayer,
                kernelsPerModel,
                efficiencies,
                fixedSeconds,
                collectives,
                List.of());
    }

    /** A calibration of one GPU: no collectives. */
    public Calibration(
            Provenance provenance,
            double copyBytesPerSecond,
            double launchSeconds,
            int kernelsPerLayer,
            int kernelsPerModel,
            Map<OperatorClass, Double> efficiencies,
            Map<OperatorClass, Double> fixedSeconds) {
        this(
                provenance,
                copyBytesPerSecond,
                launchSeconds,
                kernelsPerLayer,
                kernelsPerModel,
                efficiencies,
                fixedSeconds,
                List.of());
    }

    /** This calibration with {@code fits} as its collectives, replacing any it had. */
    public Calibration withCollectives(List<CollectiveFit> fits) {
        return new Calibration(
                provenance,
                copyBytesPerSecond,
                launchSeconds,
                kernelsPerLayer,
                kernelsPerModel,
                efficiencies,
                fixedSeconds,
                fits,
                plans);
    }

    /** This calibration with {@code e} as its efficiencies, replacing the ones it had. */
    public Calibration withEfficiencies(Map<OperatorClass, Double> e) {
        return new Calibration(
                provenance,
                copyBytesPerSecond,
                launchSeconds,
                kernelsPerLayer,
                kernelsPerModel,
                e,
                fixedSeconds,
                collectives,
                plans);
    }

    /** This calibration with {@code p} as its engine's launch plans, replacing any it had. */
    public Calibration withPlans(List<LaunchPlan> p) {
        return new Calibration(
                provenance,
                copyBytesPerSecond,
                launchSeconds,
                kernelsPerLayer,
                kernelsPerModel,
                efficiencies,
                fixedSeconds,
                collectives,
                p);
    }

    /** The measured fit of {@code op} on {@code ranks} GPUs, if this calibration has one. */
    public Optional<CollectiveFit> collective(Collective.Op op, int ranks) {
        Checks.notNull("op", op);
        return collectives.stream()
                .filter(f -> f.op() == op && f.ranks() == ranks)
                .findFirst();
    }

    /** A calibration without fixed times: each operator costs its roofline time at its class's efficiency. */
    public Calibration(
            Provenance provenance,
            double copyBytesPerSecond,
            double launchSeconds,
            int kernelsPerLayer,
            int kernelsPerModel,
            Map<OperatorClass, Double> efficiencies) {
        this(provenance, copyBytesPerSecond, launchSeconds, kernelsPerLayer, kernelsPerModel, efficiencies, Map.of());
    }

    /**
     * The map {@code name} validated, each value in {@code range} ({@code valid}), in the order of its keys (as files
     * list them).
     */
    private static Map<OperatorClass, Double> byKey(
            String name, Map<OperatorClass, Double> given, DoublePredicate valid, String range) {
        Checks.notNull(name, given);
        List<OperatorClass> classes = new ArrayList<>(given.size());
        for (Map.Entry<OperatorClass, Double> e : given.entrySet()) {
            OperatorClass c = Checks.notNull(name + " key", e.getKey());
            Double v = e.getValue();
            if (v == null || !valid.test(v)) {
                throw new IllegalArgumentException(name + ": " + c.key() + " must be in " + range + ", got " + v);
            }
            classes.add(c);
        }
        classes.sort(Comparator.comparing(OperatorClass::key));
        Map<OperatorClass, Double> sorted = new LinkedHashMap<>();
        for (OperatorClass c : classes) {
            sorted.put(c, given.get(c));
        }
        return Collections.unmodifiableMap(sorted);
    }

    /** The fraction of the copy bandwidth {@code c} reaches: its measured efficiency, or 1 when it has none. */
    public double efficiency(OperatorClass c) {
        return efficiencies.getOrDefault(Checks.notNull("class", c), 1.0);
    }

    /**
     * What one operator of class {@code c} costs beyond its roofline time and its launches: its measured fixed time, or
     * 0 when it has none; a GEMV class measured at given rows, or an attention class at given heads, without one of its
     * own takes its plain class's ({@link OperatorClass#plain}).
     */
    public double fixedSecondsOf(OperatorClass c) {
        Checks.notNull("class", c);
        Double own = fixedSeconds.get(c);
        return own != null ? own : fixedSeconds.getOrDefault(c.plain(), 0.0);
    }

    /** Whether {@code c} has a measured efficiency. */
    public boolean calibrates(OperatorClass c) {
        return efficiencies.containsKey(Checks.notNull("class", c));
    }

    /** {@code hw} with the measured copy bandwidth as its memory bandwidth, sourced to this measurement. */
    public Hardware applyTo(Hardware hw) {
        return Checks.notNull("hardware", hw).withMemoryBandwidth(copyBytesPerSecond, provenance.asSource());
    }

    /**
     * Kernels one forward pass of {@code model} launches in the measured configuration: kernelsPerLayer × layers +
     * kernelsPerModel.
     */
    public long launches(Model model) {
        Checks.notNull("model", model);
        return LaunchPlan.launches(kernelsPerLayer, kernelsPerModel, model);
    }

    /**
     * Kernels one forward pass of {@code model} at {@code w} launches: the first matching plan's count, else the
     * measured configuration's ({@link #launches(Model)}).
     */
    public long launches(Model model, Workload w) {
        Checks.notNull("model", model);
        Checks.notNull("workload", w);
        for (LaunchPlan p : plans) {
            if (p.matches(model, w)) {
                return p.launches(model);
            }
        }
        return launches(model);
    }

    /**
     * {@code t}'s model priced with this calibration: on {@code t}'s roofline with the measured copy bandwidth and
     * bandwidth efficiency 1 (the class efficiencies take its place); its compute efficiency and sparsity stay, since a
     * copy measures no arithmetic. Each operator's fixed time is added to its prediction's latency, which is 0 unless
     * {@code t}'s hardware has a {@link Hardware#kernelLatencySeconds() kernel latency}.
     */
    public CalibratedPrediction predict(Transformer t, Workload w) {
        Checks.notNull("transformer", t);
        Checks.notNull("workload", w);
        Roofline r = t.roofline();
        Roofline measured = new Roofline(applyTo(r.hardware()), 1, r.computeEfficiency(), r.sparse());
        ModelPrediction base = Transformer.of(t.model(), measured).predict(w);
        List<OperatorTime> operators = new ArrayList<>(base.operators().size());
        for (OperatorTime o : base.operators()) {
            OperatorClass c = classOf(o.step().operator());
            Prediction p = o.prediction().atBandwidth(o.prediction().bytesPerSecond() * efficiency(c));
            operators.add(new OperatorTime(o.step(), p.withLatency(p.latencySeconds() + fixedSecondsOf(c))));
        }
        return new CalibratedPrediction(this, base, new ModelPrediction(base.model(), w, base.hardware(), operators));
    }

    /**
     * The class whose efficiency prices {@code op}: for a product of m activation rows (one matrix of weights, not a
     * batch of them, as unfused attention's products over each KV head are) whose weights have classes measured at
     * given rows ({@code gemv <PRECISION> m<ROWS>}), the one of the fewest rows ≥ m; else
     * {@link OperatorClass#of(Operator)}. For fused attention over H KV heads (sequences × KV heads) when this
     * calibration has attention classes measured at given heads ({@code attention h<HEADS>}): the one of the most heads
     * ≤ H, else the plain {@code attention} (a kernel given more heads has more blocks over the cache and streams it at
     * least as fast, so the nearest measurement below is the safe one).
     */
    public OperatorClass classOf(Operator op) {
        OperatorClass plain = OperatorClass.of(op);
        if (op instanceof dev.roofline.core.roofline.Attention a) {
            OperatorClass.Attention best = null;
            for (OperatorClass c : efficiencies.keySet()) {
                if (c instanceof OperatorClass.Attention at
                        && at.heads() > 0
                        && at.heads() <= a.batch()
                        && (best == null || at.heads() > best.heads())) {
                    best = at;
                }
            }
            return best == null ? plain : best;
        }
        if (!(op instanceof dev.roofline.core.roofline.Gemm g) || g.batch() != 1) {
            return plain;
        }
        OperatorClass.Gemv best = null;
        for (OperatorClass c : efficiencies.keySet()) {
            if (c instanceof OperatorClass.Gemv v
                    && v.rows() > 0
                    && v.weights() == g.weights()
                    && v.rows() >= g.m()
                    && (best == null || v.rows() < best.rows())) {
                best = v;
            }
        }
        return best == null ? plain : best;
    }

    /** This calibration as a JSON object, one field a line ({@link #parse} reads it back). */
    public String toJson() {
        return CalibrationJson.write(this);
    }

    /** Writes {@link #toJson()} to {@code file}. */
    public void write(Path file) {
        Checks.notNull("file", file);
        try {
            // a temporary file beside it, then a rename: a failed write leaves no half-written calibration
            Path dir = file.toAbsolutePath().getParent();
            Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".partial");
            try {
                Files.writeString(tmp, toJson());
                Files.move(
                        tmp,
                        file,
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write calibration " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * The calibration in {@code file}.
     *
     * @throws IllegalArgumentException naming the file and the field when the file is not a valid calibration
     * @throws UncheckedIOException     when it cannot be read
     */
    public static Calibration read(Path file) {
        Checks.notNull("file", file);
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read calibration " + file + ": " + e.getMessage(), e);
        }
        return CalibrationJson.read(file.toString(), text);
    }

    /**
     * The calibration in JSON {@code text}.
     *
     * @throws IllegalArgumentException naming the field when the text is not a valid calibration
     */
    public static Calibration parse(String text) {
        return CalibrationJson.read("calibration JSON", text);
    }
}
