package dev.roofline.quant.checkpoint;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The hidden sibling folder {@code .NAME.partial-PID-RANDOM} a checkpoint is written into before it is renamed to
 * {@code NAME} in one atomic step, so that a reader never sees half a checkpoint. Rules:
 * <ul>
 *   <li>the parent folder must exist: nothing is created above the output (no {@code mkdir -p});</li>
 *   <li>the folder is created like any other ({@link Files#createDirectory}), so its mode follows the umask;</li>
 *   <li>it is deleted when the write fails, and by a shutdown hook when the JVM is stopped by Ctrl-C or SIGTERM;</li>
 *   <li>SIGKILL runs no hook: the next run for the same output removes partial folders of this naming whose
 *       process is gone (or whose process id was reused by a process started after the folder was created), and
 *       says so. Folders of a live run are left alone.</li>
 * </ul>
 */
final class PartialOutput implements AutoCloseable {
    private static final String MARK = ".partial-";
    /** {@code PID-RANDOM} as written now; bare digits as Files.createTempDirectory named them before. */
    private static final Pattern SUFFIX = Pattern.compile("(?:(\\d+)-[0-9a-z]+|\\d+)");

    private final Path output;
    private final Path folder;
    private final Thread hook;
    private boolean finished; // guarded by this: committed, or deleted

    private PartialOutput(Path output, Path folder) {
        this.output = output;
        this.folder = folder;
        this.hook = new Thread(this::abandon, "roofline-quantize-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Creates the partial folder next to {@code output} after removing stale ones of the same output.
     *
     * @param warnings receives one line per stale folder removed
     */
    static PartialOutput create(Path output, Consumer<String> warnings) throws IOException {
        Path target = output.toAbsolutePath().normalize();
        Path parent = target.getParent();
        if (parent == null) {
            throw new FileSystemException(output.toString(), null, "the output must be a folder inside another");
        }
        if (!Files.exists(parent)) {
            throw new NoSuchFileException(
                    parent.toString(), null, "the output's parent folder does not exist; quantize does not create it");
        }
        if (!Files.isDirectory(parent)) {
            throw new FileSystemException(parent.toString(), null, "the output's parent is not a folder");
        }
        String prefix = "." + target.getFileName() + MARK;
        removeStale(parent, prefix, warnings);
        while (true) {
            Path folder = parent.resolve(prefix + ProcessHandle.current().pid() + "-"
                    + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36));
            try {
                Files.createDirectory(folder);
                return new PartialOutput(target, folder);
            } catch (FileAlreadyExistsException e) {
                // another random name
            }
        }
    }

    /** Where to write. */
    Path folder() {
        return folder;
    }

    /** The shutdown hook: what Ctrl-C or SIGTERM runs (tests run it directly). */
    Thread hook() {
        return hook;
    }

    /** Renames the folder to the output in one step; fails if the JVM is already shutting down and removed it. */
    void commit() throws IOException {
        synchronized (this) {
            if (finished) {
                throw new IOException(output + ": interrupted before the checkpoint was complete; nothing was written");
            }
            Files.move(folder, output, StandardCopyOption.ATOMIC_MOVE);
            finished = true;
        }
        unhook();
    }

    /** Deletes the folder unless it was committed. */
    @Override
    public void close() {
        abandon();
        unhook();
    }

    private void abandon() {
        synchronized (this) {
            if (finished) {
                return;
            }
            finished = true;
        }
        // another thread may still be writing into the folder while the JVM shuts down: try a few times
        for (int attempt = 0; attempt < 5 && Files.exists(folder, LinkOption.NOFOLLOW_LINKS); attempt++) {
            deleteTree(folder);
        }
    }

    private void unhook() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or about to; it finds the folder finished
        }
    }

    private static void removeStale(Path parent, String prefix, Consumer<String> warnings) throws IOException {
        try (Stream<Path> entries = Files.list(parent)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                String name = p.getFileName().toString();
                if (!name.startsWith(prefix) || !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                Matcher m = SUFFIX.matcher(name.substring(prefix.length()));
                if (!m.matches()) {
                    continue;
                }
                Optional<String> reason = staleReason(p, m.group(1));
                if (reason.isPresent()) {
                    deleteTree(p);
                    warnings.accept("removed " + p + ", left by an interrupted quantize (" + reason.get() + ")");
                }
            }
        }
    }

    /** Why the folder is stale, or empty when the process that writes it may still be running. */
    private static Optional<String> staleReason(Path folder, String pid) throws IOException {
        if (pid == null) {
            return Optional.of("named before process ids were recorded");
        }
        Optional<ProcessHandle> process;
        try {
            process = ProcessHandle.of(Long.parseLong(pid));
        } catch (NumberFormatException e) {
            return Optional.of("process " + pid + " cannot exist");
        }
        if (process.isEmpty() || !process.get().isAlive()) {
            return Optional.of("process " + pid + " is gone");
        }
        Instant created = Files.readAttributes(folder, BasicFileAttributes.class)
                .creationTime()
                .toInstant();
        Optional<Instant> started = process.get().info().startInstant();
        if (started.isPresent() && started.get().isAfter(created)) {
            return Optional.of("process " + pid + " started after the folder was created");
        }
        return Optional.empty();
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> all = Files.walk(root)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // a file still being written, or a folder not yet empty: the caller tries again
                }
            });
        } catch (IOException | java.io.UncheckedIOException ignored) {
            // the tree changed while walking it: the caller tries again
        }
    }
}
