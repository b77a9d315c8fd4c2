package dev.roofline.core.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A command line parsed against a {@link Command}'s declared options: operands in order, and each option's values
 * (already converted, so a malformed value never reaches the command).
 */
public final class Arguments {
    private final List<String> operands;
    private final Map<Option<?>, List<Object>> given;
    private final Map<Option<?>, Object> defaults;
    private final boolean help;
    private final boolean debug;

    Arguments(
            List<String> operands,
            Map<Option<?>, List<Object>> given,
            Map<Option<?>, Object> defaults,
            boolean help,
            boolean debug) {
        this.operands = List.copyOf(operands);
        this.given = new LinkedHashMap<>(given);
        this.defaults = new LinkedHashMap<>(defaults);
        this.help = help;
        this.debug = debug;
    }

    /**
     * {@code args} (the words after the command's name) parsed against {@code command}'s options, as the dispatcher
     * parses them: for a command's own tests, and for programs that run a command without the dispatcher.
     *
     * @throws UsageException naming the unknown option or the malformed value
     */
    public static Arguments parse(Command command, List<String> args) {
        return ArgumentParser.parse(command, args);
    }

    /** The operands, in the order given; at most as many as the command declares. */
    public List<String> operands() {
        return operands;
    }

    /**
     * The operands, when all the command declares were given.
     *
     * @throws UsageException with {@code whenMissing} otherwise
     */
    public List<String> operands(int required, String whenMissing) {
        if (operands.size() < required) {
            throw new UsageException(whenMissing);
        }
        return operands;
    }

    /** Whether the option was given on the command line (for a flag: whether it is set). */
    public boolean has(Option<?> option) {
        return given.containsKey(option);
    }

    /**
     * The option's value: the last one given, or its declared default.
     *
     * @throws IllegalStateException when the option was not given and has no default (use {@link #find})
     */
    public <T> T get(Option<T> option) {
        return find(option).orElseThrow(() -> new IllegalStateException(option.name() + " has no default: use find"));
    }

    /** The option's value: the last one given, or its declared default, or empty when it has neither. */
    @SuppressWarnings("unchecked")
    public <T> Optional<T> find(Option<T> option) {
        List<Object> values = given.get(option);
        if (values != null) {
            return Optional.ofNullable((T) values.getLast());
        }
        return Optional.ofNullable((T) defaults.get(option));
    }

    /** Every value given for a repeatable option, in order; the default alone (or nothing) when none was given. */
    @SuppressWarnings("unchecked")
    public <T> List<T> all(Option<T> option) {
        List<Object> values = given.get(option);
        if (values != null) {
            return (List<T>) Collections.unmodifiableList(new ArrayList<>(values));
        }
        Object d = defaults.get(option);
        return d == null ? List.of() : List.of((T) d);
    }

    /** Whether {@code --help} was given: the dispatcher prints the usage instead of running the command. */
    public boolean help() {
        return help;
    }

    /** Whether {@code --debug} was given: failures print their stack trace too. */
    public boolean debug() {
        return debug;
    }

    static Map<Option<?>, List<Object>> newValues() {
        return new LinkedHashMap<>();
    }

    static void add(Map<Option<?>, List<Object>> values, Option<?> option, Object value) {
        values.computeIfAbsent(option, o -> new ArrayList<>()).add(value);
    }
}
