package dev.roofline.core.cli;

import dev.roofline.core.precision.Precision;
import dev.roofline.core.recommend.AccuracyConstraint;
import dev.roofline.core.recommend.ModelRecommendation;
import dev.roofline.core.recommend.Recommendation;
import dev.roofline.core.recommend.Recommender;
import dev.roofline.core.report.ChartPoint;
import dev.roofline.core.report.OperatorTable;
import dev.roofline.core.report.RooflineChart;
import dev.roofline.core.transformer.MemoryFit;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The {@code model}, {@code recommend} and {@code plot} subcommands. */
final class ModelCommand {
    private ModelCommand() {}

    static final String USAGE = """
            usage: roofline model|recommend|plot <preset|config.json> [options]
              --hw NAME            hardware (default gb10)
              --phase P            decode (default) or prefill
              --batch B            sequences (default 1)
              --context S          tokens in the KV cache (decode) or prompt tokens (prefill) (default 4096)
              --weights P          weight precision (default fp16); --activations P, --kv P likewise
              --no-flash           materialise the S x S attention scores
              --format F           model: text (default), markdown or csv
              --allow P,P,...      recommend: formats the caller accepts (default: all)
              --out FILE           plot: SVG file to write (default: standard output)
              --precisions P,...   plot: ceilings to draw (default: those the GPU runs among fp16, fp8, nvfp4)
              --measured L:AI:TF   plot: a measured point (label, FLOP/byte, TFLOPS); repeatable
            """;

    static String run(String command, ModelOptions o) {
        Transformer t = Transformer.of(o.model(), o.hardware());
        return switch (command) {
            case "model" -> model(t, o);
            case "recommend" -> recommend(o);
            case "plot" -> plot(t, o);
            default -> throw new IllegalArgumentException("unknown command '" + command + "'");
        };
    }

    private static String model(Transformer t, ModelOptions o) {
        ModelPrediction p = t.predict(o.workload());
        return switch (o.format()) {
            case "markdown" -> OperatorTable.markdown(p);
            case "csv" -> OperatorTable.csv(p);
            default -> summary(t, p) + table(p);
        };
    }

    static String summary(Transformer t, ModelPrediction p) {
        Workload w = p.workload();
        StringBuilder sb = new StringBuilder();
        sb.append(f("%s (%,d parameters, %,d active) on %s: %s, batch %d, context %d; W %s, A %s, KV %s%s%n",
                t.model().name(), t.model().parameterCount(), t.model().activeParameterCount(), t.hardware().name(),
                w.phase().name().toLowerCase(Locale.ROOT), w.batch(), w.contextTokens(), w.weights().displayName(),
                w.activations().displayName(), w.kvCache().displayName(), w.flashAttention() ? ", flash attention" : ""));
        sb.append(f("time %.3f ms, %.1f tokens/s, %.3g FLOPs, %.3g bytes%n", p.timeMillis(), p.tokensPerSecond(), (double) p.flops(), (double) p.bytes()));
        MemoryFit m = t.memory(w);
        if (m.deviceBytes() > 0) {
            sb.append(f("memory: weights %.2f GB + KV cache %.2f GB = %.2f GB of %.0f GB: %s; KV fits %,d tokens (context %,d at batch %d)%n",
                    m.weightBytes() / 1e9, m.kvCacheBytes() / 1e9, m.totalBytes() / 1e9, m.deviceBytes() / 1e9,
                    m.fits() ? "fits" : "does NOT fit", m.maxCachedTokens(), m.maxContext(w.batch()), w.batch()));
        }
        sb.append(f("KV-cache crossover: at batch %d, KV reads overtake weight reads beyond %,.0f tokens of context%n",
                w.batch(), t.kvCrossoverContext(w)));
        return sb.toString();
    }

    private static String table(ModelPrediction p) {
        TextTable tt = new TextTable(OperatorTable.HEADER.toArray(String[]::new));
        for (List<String> r : OperatorTable.rows(p)) {
            tt.add(r.toArray(String[]::new));
        }
        return tt.render();
    }

    private static String recommend(ModelOptions o) {
        Recommender r = Recommender.on(o.hardware());
        if (o.allowed() != null) {
            r = r.withConstraint(AccuracyConstraint.allowing(o.allowed().toArray(Precision[]::new)));
        }
        ModelRecommendation rec = r.recommend(o.model(), o.workload());
        Recommendation m = rec.model();
        StringBuilder sb = new StringBuilder();
        sb.append(f("%s on %s: use %s (%.2fx vs FP16)%n", m.subject(), o.hardware().name(), m.choice().label(), m.speedupVsFp16()));
        sb.append("method: ").append(m.method()).append('\n');
        sb.append("why: ").append(m.reason()).append('\n');
        sb.append("runners-up: ");
        List<String> ups = new ArrayList<>();
        for (int i = 0; i < Math.min(4, rec.ranked().size()); i++) {
            ups.add(f("%s %.2fx", rec.ranked().get(i).choice().label(), rec.ranked().get(i).speedupVsFp16()));
        }
        sb.append(String.join("; ", ups)).append("\n\n");
        TextTable t = new TextTable("operator", "weights", "activations", "KV", "vs FP16", "method", "reason");
        for (Recommendation op : rec.operators()) {
            t.add(op.subject(), op.choice().weights().displayName(), op.choice().activations().displayName(),
                    op.choice().kvCache().displayName(), f("%.2fx", op.speedupVsFp16()), op.method(), op.reason());
        }
        return sb.append(t.render()).toString();
    }

    private static String plot(Transformer t, ModelOptions o) {
        List<Precision> ceilings = o.ceilings();
        if (ceilings == null) {
            ceilings = new ArrayList<>();
            for (Precision p : new Precision[] {Precision.FP16, Precision.FP8_E4M3, Precision.NVFP4}) {
                if (o.hardware().runsNatively(p)) {
                    ceilings.add(p);
                }
            }
        }
        ModelPrediction p = t.predict(o.workload());
        Workload w = o.workload();
        RooflineChart chart = RooflineChart.of(o.hardware(), ceilings).withPrediction(p)
                .withTitle(f("%s %s on %s, batch %d, context %d, W %s", o.model().name(), w.phase().name().toLowerCase(Locale.ROOT),
                        o.hardware().name(), w.batch(), w.contextTokens(), w.weights().displayName()));
        for (ChartPoint m : o.measured()) {
            chart = chart.withPoint(m);
        }
        String svg = chart.svg();
        if (o.out() == null) {
            return svg;
        }
        try {
            Files.writeString(o.out(), svg);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + o.out() + ": " + e.getMessage(), e);
        }
        return "wrote " + o.out() + " (" + p.operators().size() + " operators, " + o.measured().size() + " measured points)\n";
    }

    private static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }
}
