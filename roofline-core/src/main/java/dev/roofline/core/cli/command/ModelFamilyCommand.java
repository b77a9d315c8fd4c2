package dev.roofline.core.cli.command;

import dev.roofline.core.cli.Arguments;
import dev.roofline.core.cli.Command;
import dev.roofline.core.cli.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** {@code model}, {@code recommend} and {@code plot}: one model (a preset or a config.json), one option set, one usage. */
abstract sealed class ModelFamilyCommand implements Command permits ModelCommand, RecommendCommand, PlotCommand {

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
        return "model|recommend|plot <preset|config.json> [options]";
    }

    @Override
    public final void run(Arguments args, PrintStream out, PrintStream err) throws IOException {
        out.print(render(ModelOptions.from(name(), args)));
    }

    abstract String render(ModelOptions o) throws IOException;

    static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }
}
