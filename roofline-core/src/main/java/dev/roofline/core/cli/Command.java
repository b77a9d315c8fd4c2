package dev.roofline.core.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;

/**
 * One {@code roofline <command>}. Modules add commands by providing this service ({@code provides
 * dev.roofline.core.cli.Command with ...} in {@code module-info.java}, and a {@code META-INF/services} line for the
 * class path); {@link Main} finds them with {@link java.util.ServiceLoader}, so core's commands work alone and the
 * GPU and quantization commands appear when their jars are present.
 *
 * <p>The dispatcher parses the command line against {@link #options()} before {@link #run} is called: an unknown
 * option, a missing or malformed value is a usage error (exit status 2, with the usage). Whatever {@code run} throws
 * is a data or runtime error (exit status 1, one line), except a {@link UsageException}.
 *
 * <pre>{@code
 * public final class HelloCommand implements Command {
 *     static final Option<String> NAME = Option.of("--name", "WHO", "whom to greet", "world", Converters.text());
 *     public String name() { return "hello"; }
 *     public String summary() { return "greets someone"; }
 *     public List<Option<?>> options() { return List.of(NAME); }
 *     public void run(Arguments args, PrintStream out, PrintStream err) { out.println("hello " + args.get(NAME)); }
 * }
 * }</pre>
 */
public interface Command {

    /** The word after {@code roofline}, e.g. {@code predict}. */
    String name();

    /** One line for the command listing. */
    String summary();

    /** The options this command accepts, in the order the usage lists them ({@code --help} and {@code --debug} are added). */
    List<Option<?>> options();

    /** Names of the operands the command takes after its name, e.g. {@code model-dir}; at most this many are accepted. */
    default List<String> operands() {
        return List.of();
    }

    /** The usage line after {@code usage: roofline }; by default the name, the operands and {@code [options]}. */
    default String synopsis() {
        StringBuilder sb = new StringBuilder(name());
        for (String o : operands()) {
            sb.append(" <").append(o).append('>');
        }
        return sb.append(" [options]").toString();
    }

    /**
     * Runs the command with parsed arguments, writing results to {@code out}.
     *
     * @throws UsageException when the arguments are wrong in a way the parser could not see (a missing operand)
     * @throws IOException    when a file cannot be read or written
     */
    void run(Arguments args, PrintStream out, PrintStream err) throws IOException;
}
