package dev.roofline.core.cli.command;

import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Option;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.report.TextTable;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** {@code roofline precisions}: the precision catalog with bit layouts, block scaling and bits per element. */
public final class PrecisionsCommand implements Command {

    @Override
    public String name() {
        return "precisions";
    }

    @Override
    public String summary() {
        return "the precision catalog: names, bit layout, largest finite value, block scaling, bits per element";
    }

    @Override
    public List<Option<?>> options() {
        return List.of();
    }

    @Override
    public void run(Arguments args, PrintStream out, PrintStream err) {
        TextTable t = new TextTable(
                "precision", "names", "bits", "E", "M", "bias", "max finite", "block", "scale", "bits/elem");
        for (Precision p : Precision.values()) {
            t.add(
                    p.displayName(),
                    String.join(",", p.aliases()),
                    Integer.toString(p.elementBits()),
                    Integer.toString(p.exponentBits()),
                    Integer.toString(p.mantissaBits()),
                    p.exponentBias().isPresent()
                            ? Integer.toString(p.exponentBias().getAsInt())
                            : "-",
                    fmt("%.6g", p.maxFinite()),
                    p.blockScaling().map(b -> Integer.toString(b.blockSize())).orElse("-"),
                    p.blockScaling()
                            .map(b -> b.scale().name()
                                    + (b.tensorScale() == null
                                            ? ""
                                            : "+" + b.tensorScale().name() + " tensor"))
                            .orElse("-"),
                    fmt("%.4g", p.effectiveBitsPerElement()));
        }
        out.print(t.render());
    }

    private static String fmt(String f, double v) {
        return String.format(Locale.ROOT, f, v);
    }
}
