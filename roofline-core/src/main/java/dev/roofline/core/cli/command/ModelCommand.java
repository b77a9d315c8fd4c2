package dev.roofline.core.cli.command;

import dev.roofline.core.report.OperatorTable;
import dev.roofline.core.report.TextTable;
import dev.roofline.core.transformer.MemoryFit;
import dev.roofline.core.transformer.ModelPrediction;
import dev.roofline.core.transformer.Transformer;
import dev.roofline.core.transformer.Workload;

import java.util.List;
import java.util.Locale;

/** {@code roofline model}: a whole-model prediction, operator by operator, with memory fit and KV-cache crossover. */
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
    String render(ModelOptions o) {
        Transformer t = Transformer.of(o.model(), o.hardware());
        ModelPrediction p = t.predict(o.workload());
        return switch (o.format()) {
            case "markdown" -> OperatorTable.markdown(p);
            case "csv" -> OperatorTable.csv(p);
            default -> summary(t, p) + table(p);
        };
    }

    private static String summary(Transformer t, ModelPrediction p) {
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
                w.weights().displayName(),
                w.activations().displayName(),
                w.kvCache().displayName(),
                w.flashAttention() ? ", flash attention" : ""));
        sb.append(f(
                "time %.3f ms, %.1f tokens/s, %.3g FLOPs, %.3g bytes%n",
                p.timeMillis(), p.tokensPerSecond(), (double) p.flops(), (double) p.bytes()));
        MemoryFit m = t.memory(w);
        if (m.deviceBytes() > 0) {
            sb.append(f(
                    "memory: weights %.2f GiB + KV cache %.2f GiB = %.2f GiB of %.0f GiB: %s; KV fits %,d tokens (context %,d at batch %d)%n",
                    m.weightBytes() / HardwareCommand.GIB,
                    m.kvCacheBytes() / HardwareCommand.GIB,
                    m.totalBytes() / HardwareCommand.GIB,
                    m.deviceBytes() / HardwareCommand.GIB,
                    m.fits() ? "fits" : "does NOT fit",
                    m.maxCachedTokens(),
                    m.maxContext(w.batch()),
                    w.batch()));
        }
        sb.append(f(
                "KV-cache crossover: at batch %d, KV reads overtake weight reads beyond %,.0f tokens of context%n",
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
}
