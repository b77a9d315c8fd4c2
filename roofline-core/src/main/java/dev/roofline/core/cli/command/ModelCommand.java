package dev.roofline.core.cli.command;

import dev.roofline.core.calibration.CalibratedPrediction;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.report.OperatorTable;
import dev.roofline.core.report.TextTable;
import dev.roofline.core.transformer.MemoryFit;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code roofline model}: a whole-model prediction, operator by operator, with memory fit and KV-cache crossover. With
 * {@code --calibration} every time is the calibrated one, the kernel launches are a row of the table and the text
 * output says what the launches and the classes' fixed times add.
 */
public final class ModelCommand extends ModelFamilyCommand {

    @Override
    public String name() {
        return "model";
    }

    @Override
    public String summary() {
        return "a transformer model's time per token, operator by operator, and whether it fits in memory";
    }

    @Override
    String render(ModelOptions o, PrintStream err) {
        Transformer t = Transformer.of(o.model(), o.hardware());
        if (o.calibration() == null) {
            ModelPrediction p = t.predict(o.workload());
            return switch (o.format()) {
                case "markdown" -> OperatorTable.markdown(p);
                case "csv" -> OperatorTable.csv(p);
                default -> summary(t, p, p.timeMillis(), p.tokensPerSecond(), "") + table(OperatorTable.rows(p));
            };
        }
        CalibratedPrediction p = o.calibration().predict(t, o.workload());
        String notice = calibrated(o.calibration(), p.uncalibratedClasses());
        return switch (o.format()) {
            case "markdown" -> notice + "\n" + OperatorTable.markdown(p);
            case "csv" -> {
                err.print(notice);
                yield OperatorTable.csv(p);
            }
            default -> {
                String how = f(
                                "measured copy %.0f GB/s; %,d kernel launches x %.2f us = %.3f ms of the %.3f ms%n",
                                o.calibration().copyBytesPerSecond() / 1e9,
                                p.launches(),
                                o.calibration().launchSeconds() * 1e6,
                                p.launchSeconds() * 1e3,
                                p.timeMillis())
                        + fixedTimes(p);
                yield summary(t, p.base(), p.timeMillis(), p.tokensPerSecond(), notice + how)
                        + table(OperatorTable.rows(p));
            }
        };
    }

    /**
     * "fixed time per operator: attention 6.10 us x 32 = 0.195 ms", one line naming each class of the pass the
     * calibration gives a fixed time, or nothing when there is none.
     */
    private static String fixedTimes(CalibratedPrediction p) {
        List<String> classes = new ArrayList<>();
        for (Map.Entry<OperatorClass, Double> e : p.calibration().fixedSeconds().entrySet()) {
            long n = p.count(e.getKey());
            if (e.getValue() > 0 && n > 0) {
                classes.add(f("%s %.2f us x %,d = %.3f ms", e.getKey(), e.getValue() * 1e6, n, e.getValue() * n * 1e3));
            }
        }
        return classes.isEmpty() ? "" : "fixed time per operator: " + String.join("; ", classes) + "\n";
    }

    /**
     * The model, workload, time, memory fit and crossover; {@code millis} and {@code tokensPerSecond} as priced, and
     * {@code note} (lines saying how they were priced) right after them.
     */
    private static String summary(
            Transformer t, ModelPrediction p, double millis, double tokensPerSecond, String note) {
        Workload w = p.workload();
        StringBuilder sb = new StringBuilder();
        sb.append(f(
                "%s (%,d parameters, %,d active) on %s: %s, batch %d, context %d; W %s, A %s, KV %s%s%n",
                t.model().name(),
                t.model().parameterCount(),
                t.model().activeParameterCount(),
                t.hardware().name(),
                w.phase().name().toLowerCase(Locale.ROOT),
                w.batch(),
                w.contextTokens(),
                w.weights().displayName()
                        + (w.expertWeights() == w.weights()
                                ? ""
                                : " (experts " + w.expertWeights().displayName() + ")"),
                w.activations().displayName(),
                w.kvCache().displayName(),
                w.flashAttention() ? ", flash attention" : ""));
        sb.append(f(
                "time %.3f ms, %.1f tokens/s, %.3g FLOPs, %.3g bytes%n",
                millis, tokensPerSecond, (double) p.flops(), (double) p.bytes()));
        sb.append(note);
        MemoryFit m = t.memory(w);
        if (m.deviceBytes() > 0) {
            sb.append(f(
                    "memory: weights %.2f GiB + KV cache %.2f GiB = %.2f GiB of %.0f GiB: %s; KV fits %s tokens (context %s at batch %d)%n",
                    m.weightBytes() / HardwareCommand.GIB,
                    m.kvCacheBytes() / HardwareCommand.GIB,
                    m.totalBytes() / HardwareCommand.GIB,
                    m.deviceBytes() / HardwareCommand.GIB,
                    m.fits() ? "fits" : "does NOT fit",
                    tokens(m.maxCachedTokens()),
                    tokens(m.maxContext(w.batch())),
                    w.batch()));
        }
        if (t.model().maxPositions() > 0 && w.contextTokens() > t.model().maxPositions()) {
            sb.append(f(
                    "note: context %,d is beyond the %,d positions the model is made for (max_position_embeddings)%n",
                    w.contextTokens(), t.model().maxPositions()));
        }
        double crossover = t.kvCrossoverContext(w);
        sb.append(
                Double.isInfinite(crossover)
                        ? f(
                                "KV-cache crossover: none; every layer's cache stops at its %,d-token window%n",
                                t.model().slidingWindow().tokens())
                        : f(
                                "KV-cache crossover: at batch %d, KV reads overtake weight reads beyond %,.0f tokens"
                                        + " of context%n",
                                w.batch(), crossover));
        return sb.toString();
    }

    /** A token count, or "unbounded" where every layer's cache stops at its window. */
    private static String tokens(long n) {
        return n == Long.MAX_VALUE ? "unbounded" : f("%,d", n);
    }

    private static String table(List<List<String>> rows) {
        TextTable tt = new TextTable(OperatorTable.HEADER.toArray(String[]::new));
        for (List<String> r : rows) {
            tt.add(r.toArray(String[]::new));
        }
        return tt.render();
    }
}
