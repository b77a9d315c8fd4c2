package dev.roofline.core.cli;

import java.util.Objects;

/**
 * One declared option of a {@link Command}: {@code --name VALUE} (or {@code --name=VALUE}), or a flag without value.
 *
 * <pre>{@code
 * Option<Long> BATCH = Option.of("--batch", "B", "sequences", "1", Converters.positiveLong());
 * Option<Boolean> QUICK = Option.flag("--quick", "fewer repetitions and shapes");
 * }</pre>
 *
 * @param name         the option as typed, starting with {@code --}
 * @param valueName    the value's placeholder in the usage, e.g. {@code NAME}; {@code null} for a flag
 * @param description  one line for the usage
 * @param defaultValue the value used when the option is absent, as it would be typed; {@code null} for none
 * @param repeatable   whether the option may be given more than once ({@link Arguments#all})
 * @param converter    turns the typed text into a value; refuses bad text with an IllegalArgumentException
 * @param <T>          the value's type
 */
public record Option<T>(
        String name,
        String valueName,
        String description,
        String defaultValue,
        boolean repeatable,
        Converter<T> converter) {

    /** Turns an option's text into its value, or throws an IllegalArgumentException naming the option and the text. */
    @FunctionalInterface
    public interface Converter<T> {
        T convert(String option, String value);
    }

    public Option {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(converter, "converter");
        if (!name.startsWith("--") || name.length() < 3 || name.contains("=")) {
            throw new IllegalArgumentException("option name must look like --name, got '" + name + "'");
        }
        if (valueName == null && defaultValue != null) {
            throw new IllegalArgumentException(name + ": a flag has no default value");
        }
    }

    /** An option that takes a value. */
    public static <T> Option<T> of(
            String name, String valueName, String description, String defaultValue, Converter<T> converter) {
        Objects.requireNonNull(valueName, "valueName");
        return new Option<>(name, valueName, description, defaultValue, false, converter);
    }

    /** An option without a value: present or not. */
    public static Option<Boolean> flag(String name, String description) {
        return new Option<>(name, null, description, null, false, (o, v) -> Boolean.TRUE);
    }

    /** This option, accepted any number of times. */
    public Option<T> repeated() {
        return new Option<>(name, valueName, description, defaultValue, true, converter);
    }

    /** Whether the option is a flag (takes no value). */
    public boolean isFlag() {
        return valueName == null;
    }
}
