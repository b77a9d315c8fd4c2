package dev.roofline.core.cli.command;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** {@code model}, {@code recommend} and {@code plot}: one model (a preset or a config.json), one option set, one usage. */
abstract sealed class ModelFamilyCommand implements Command
        permits ModelCommand, RecommendCommand, PlotCommand, ReportCommand {

    @Override
    public final List<Option<?>> options() {
        return ModelOptions.ALL;
    }

    @Override
    public final List<String> operands() {
        return List.of("preset|config.json");
    }

    @Override
    public final String synopsis() {
        return "model|recommend|plot|report <preset|config.json> [options]";
    }

    @Override
    public final void run(Arguments args, PrintStream out, PrintStream err) throws IOException {
        out.print(render(ModelOptions.from(name(), args), err));
    }

    /**
     * The command's output. {@code err} takes what must not mix with machine-readable output (the calibration notice
     * beside CSV or SVG on standard output).
     */
    abstract String render(ModelOptions o, PrintStream err) throws IOException;

    /**
     * The lines saying the output is calibrated: where and how it was measured, then the classes it had no efficiency
     * for, when there are any.
     */
    static String calibrated(Calibration c, List<OperatorClass> uncalibrated) {
        String s = "calibrated: " + c.provenance() + "\n";
        if (!uncalibrated.isEmpty()) {
            s += "uncalibrated classes, priced at the measured copy bandwidth: "
                    + String.join(
                            ", ", uncalibrated.stream().map(OperatorClass::key).toList()) + "\n";
        }
        return s;
    }

    static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }
}
