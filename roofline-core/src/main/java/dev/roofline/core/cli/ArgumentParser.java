package dev.roofline.core.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses a command's arguments against its declared options. Rules: {@code --opt value} and {@code --opt=value}; a
 * value never starts with {@code --}; a flag takes no value; an option not declared, a missing value, a value the
 * converter refuses and an extra operand are {@link UsageException}s naming the option or the operand. A non-repeatable
 * option given twice keeps its last value.
 */
final class ArgumentParser {
    static final Option<Boolean> HELP = Option.flag("--help", "print this text");
    static final Option<Boolean> DEBUG =
            Option.flag("--debug", "print the stack trace of a failure (or set ROOFLINE_DEBUG=1)");

    private ArgumentParser() {}

    static Arguments parse(Command command, List<String> args) {
        Map<String, Option<?>> byName = new HashMap<>();
        for (Option<?> o : options(command)) {
            if (byName.put(o.name(), o) != null) {
                throw new IllegalStateException(command.name() + " declares " + o.name() + " twice");
            }
        }
        List<String> operands = new ArrayList<>();
        Map<Option<?>, List<Object>> given = Arguments.newValues();
        boolean help = false;
        boolean debug = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("-h")) {
                a = HELP.name();
            }
            if (!a.startsWith("--")) {
                if (operands.size() == command.operands().size()) {
                    throw new UsageException("unexpected argument '" + a + "'"
                            + (command.operands().isEmpty() ? ": " + command.name() + " takes options only" : ""));
                }
                operands.add(a);
                continue;
            }
            int eq = a.indexOf('=');
            String name = eq < 0 ? a : a.substring(0, eq);
            Option<?> option = byName.get(name);
            if (option == null) {
                throw new UsageException("unknown option " + name);
            }
            String text;
            if (option.isFlag()) {
                if (eq >= 0) {
                    throw new UsageException(name + " takes no value, got '" + a.substring(eq + 1) + "'");
                }
                text = null;
            } else if (eq >= 0) {
                text = a.substring(eq + 1);
            } else if (i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                text = args.get(++i);
            } else {
                text = null;
            }
            if (!option.isFlag() && (text == null || text.isEmpty())) {
                throw new UsageException(name + " needs a value (" + option.valueName() + ")");
            }
            if (option == HELP) {
                help = true;
            } else if (option == DEBUG) {
                debug = true;
            } else {
                Arguments.add(given, option, convert(option, text));
            }
        }
        Map<Option<?>, Object> defaults = new LinkedHashMap<>();
        for (Option<?> o : command.options()) {
            if (o.defaultValue() != null) {
                defaults.put(o, convert(o, o.defaultValue()));
            }
        }
        return new Arguments(operands, given, defaults, help, debug);
    }

    /** The command's options followed by the ones every command has. */
    static List<Option<?>> options(Command command) {
        List<Option<?>> all = new ArrayList<>(command.options());
        all.add(HELP);
        all.add(DEBUG);
        return all;
    }

    /** A refused value's message names the option: as the converter wrote it, or prefixed with it. */
    private static Object convert(Option<?> option, String text) {
        try {
            return option.converter().convert(option.name(), text);
        } catch (IllegalArgumentException e) {
            String m = String.valueOf(e.getMessage());
            throw new UsageException(m.contains(option.name()) ? m : option.name() + ": " + m);
        }
    }
}
