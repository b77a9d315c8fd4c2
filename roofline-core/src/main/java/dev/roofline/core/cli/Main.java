package dev.roofline.core.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * {@code roofline <command> [options]}: runs one of the {@link Command}s found on the module or class path.
 * {@code roofline} alone or {@code roofline --help} lists them, and names the jars that add the missing ones.
 *
 * <p>Exit status: 0 on success; 2 for a usage error (unknown command or option, missing or malformed value), with the
 * command's usage; 1 for a data or runtime error (a missing file, an invalid config, a GPU error), with one line
 * {@code roofline <command>: <message>}. {@code --debug} or the environment variable {@code ROOFLINE_DEBUG} adds the
 * stack trace.
 */
public final class Main {
    /** Commands other modules provide, by the artifact that adds them: named in the listing when absent. */
    static final Map<String, List<String>> ELSEWHERE = Map.of(
            "roofline-cuda",
                    List.of(
                            "measure",
                            "gemv-bench",
                            "attention-bench",
                            "decode",
                            "validate",
                            "nccl-bench",
                            "tp-decode"),
            "roofline-quant", List.of("quantize", "advise"));

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command line; returns the process exit status. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Map<String, Command> commands = installed(err);
        if (args.length == 0) {
            err.print(listing(commands));
            return 2;
        }
        String name = args[0];
        if (name.equals("--help") || name.equals("-h") || name.equals("help")) {
            out.print(listing(commands));
            return 0;
        }
        Command command = commands.get(name);
        if (command == null) {
            Optional<String> jar = ELSEWHERE.entrySet().stream()
                    .filter(e -> e.getValue().contains(name))
                    .map(Map.Entry::getKey)
                    .findFirst();
            if (jar.isPresent()) {
                err.println("roofline: " + name + " comes with " + jar.get() + ", which is not on the class path");
                return 1;
            }
            err.println("roofline: unknown command '" + name + "'");
            err.print(listing(commands));
            return 2;
        }
        return run(command, Arrays.asList(args).subList(1, args.length), out, err);
    }

    static int run(Command command, List<String> args, PrintStream out, PrintStream err) {
        boolean debug = System.getenv("ROOFLINE_DEBUG") != null || args.contains(ArgumentParser.DEBUG.name());
        try {
            Arguments parsed = ArgumentParser.parse(command, args);
            if (parsed.help()) {
                out.print(Usage.of(command));
                return 0;
            }
            command.run(parsed, out, err);
            return 0;
        } catch (UsageException e) {
            err.println("roofline " + command.name() + ": " + oneLine(e));
            err.print(Usage.of(command));
            return 2;
        } catch (IOException | RuntimeException | Error e) {
            // a data or runtime error, a bug, or the JVM out of memory or stack: one line either way; the trace only
            // on request
            err.println("roofline " + command.name() + ": " + oneLine(e));
            if (debug) {
                e.printStackTrace(err);
            }
            return 1;
        }
    }

    /** The exception's message on one line; its type where it has no message (or is not an input error). */
    static String oneLine(Throwable e) {
        if (e instanceof NoSuchFileException f) { // its message is the bare path, with the reason when one was given
            return "no such file or directory: " + f.getFile()
                    + (f.getReason() == null ? "" : " (" + f.getReason() + ")");
        }
        if (e instanceof AccessDeniedException f) {
            return "permission denied: " + f.getFile() + (f.getReason() == null ? "" : " (" + f.getReason() + ")");
        }
        String m = e.getMessage() == null || e.getMessage().isBlank()
                ? null
                : String.join(" ", e.getMessage().strip().lines().toList());
        boolean inputError = e instanceof IllegalArgumentException
                || e instanceof IllegalStateException
                || e instanceof IOException
                || e instanceof UncheckedIOException
                || e instanceof UsageException;
        if (m == null) {
            return e.getClass().getSimpleName() + (inputError ? "" : " (run with --debug for the stack trace)");
        }
        return inputError ? m : e.getClass().getSimpleName() + ": " + m;
    }

    /** The installed commands by name; the first provider of a name wins, one that fails to load is left out. */
    static Map<String, Command> installed(PrintStream err) {
        Map<String, Command> byName = new TreeMap<>();
        Iterator<Command> it =
                ServiceLoader.load(Command.class, Main.class.getClassLoader()).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    return byName;
                }
                Command c = it.next();
                byName.putIfAbsent(c.name(), c);
            } catch (ServiceConfigurationError e) {
                err.println("roofline: a command could not be loaded: " + oneLine(e));
            }
        }
    }

    static String listing(Map<String, Command> commands) {
        StringBuilder sb = new StringBuilder(
                "usage: roofline <command> [options]   (roofline <command> --help for its options)\ncommands:\n");
        int width = commands.keySet().stream().mapToInt(String::length).max().orElse(0);
        for (Command c : commands.values()) {
            sb.append("  ")
                    .append(c.name())
                    .append(" ".repeat(width - c.name().length() + 2))
                    .append(c.summary())
                    .append('\n');
        }
        List<String> missing = new ArrayList<>();
        ELSEWHERE.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            List<String> absent =
                    e.getValue().stream().filter(n -> !commands.containsKey(n)).toList();
            if (!absent.isEmpty()) {
                missing.add(String.join(", ", absent) + " (add " + e.getKey() + ")");
            }
        });
        if (!missing.isEmpty()) {
            sb.append("not on the class path: ")
                    .append(String.join("; ", missing))
                    .append('\n');
        }
        return sb.toString();
    }
}
