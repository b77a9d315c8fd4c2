package dev.roofline.bindings.loader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Finds a native library, in this order: the environment override ({@code ROOFLINE_CUDART}, ...; an absolute path,
 * and then the only place tried), the soname in each {@code LD_LIBRARY_PATH} directory, {@code $CUDA_HOME}'s library
 * directories, {@link #KNOWN_DIRECTORIES}, the folder a Python wheel puts it in (for a library that has one, such as
 * NCCL from {@code nvidia-nccl-cu13}) under every {@code site-packages} found, and finally the {@code ldconfig -p}
 * cache. A path with a {@code stubs}
 * component is never used: the toolkit's stub libraries link but fail at run time.
 *
 * <pre>{@code
 * Path cudart = LibraryLocator.system().locate(NativeLibrary.CUDART);
 * }</pre>
 */
public final class LibraryLocator {

    /** Where CUDA toolkits, distribution packages and the NVIDIA container runtime put the libraries. */
    public static final List<Path> KNOWN_DIRECTORIES = List.of(
            Path.of("/usr/local/cuda/targets/x86_64-linux/lib"),
            Path.of("/usr/local/cuda/lib64"),
            Path.of("/usr/local/cuda-13/targets/x86_64-linux/lib"),
            Path.of("/usr/local/cuda/targets/sbsa-linux/lib"),
            Path.of("/usr/lib/x86_64-linux-gnu"),
            Path.of("/usr/lib/aarch64-linux-gnu"),
            Path.of("/usr/lib64"),
            Path.of("/usr/local/nvidia/lib64"),
            Path.of("/usr/local/nvidia/lib"));

    /**
     * Folders whose {@code python3.*} subfolders hold {@code site-packages} or {@code dist-packages}: the system's and
     * conda's. The environment adds {@code $VIRTUAL_ENV/lib}, {@code $CONDA_PREFIX/lib}, {@code $HOME/.local/lib}, and
     * each {@code /opt/NAME/.venv/lib} and {@code /opt/NAME/venv/lib} (where containers put a framework's environment).
     */
    public static final List<Path> PYTHON_LIBRARY_ROOTS =
            List.of(Path.of("/usr/local/lib"), Path.of("/usr/lib"), Path.of("/opt/conda/lib"));

    private final Function<String, String> environment;
    private final Predicate<Path> isFile;
    private final Function<Path, List<Path>> children;
    private final Supplier<String> ldconfigCache;

    /**
     * @param environment   variable name to value (null when unset)
     * @param isFile        whether a path is a readable regular file
     * @param children      the entries of a folder, sorted; empty when it is no folder
     * @param ldconfigCache output of {@code ldconfig -p}, or "" when unavailable
     */
    public LibraryLocator(
            Function<String, String> environment,
            Predicate<Path> isFile,
            Function<Path, List<Path>> children,
            Supplier<String> ldconfigCache) {
        this.environment = environment;
        this.isFile = isFile;
        this.children = children;
        this.ldconfigCache = ldconfigCache;
    }

    /** The real process environment and file system. */
    public static LibraryLocator system() {
        return new LibraryLocator(
                System::getenv,
                p -> Files.isRegularFile(p) && Files.isReadable(p),
                LibraryLocator::list,
                LibraryLocator::runLdconfig);
    }

    /** A locator over a fixed environment and no Python installation, e.g. for tests. */
    public static LibraryLocator of(Map<String, String> environment, Predicate<Path> isFile, String ldconfigCache) {
        return new LibraryLocator(environment::get, isFile, dir -> List.of(), () -> ldconfigCache);
    }

    /** A locator over a fixed environment and folder tree, e.g. for tests. */
    public static LibraryLocator of(
            Map<String, String> environment,
            Predicate<Path> isFile,
            Function<Path, List<Path>> children,
            String ldconfigCache) {
        return new LibraryLocator(environment::get, isFile, children, () -> ldconfigCache);
    }

    /** The first usable copy of {@code library}; throws {@link LibraryNotFoundException} listing what was tried. */
    public Path locate(NativeLibrary library) {
        List<String> tried = new ArrayList<>();
        String override = environment.apply(library.environmentVariable());
        if (override != null && !override.isBlank()) {
            Path p = Path.of(override.strip());
            String where = library.environmentVariable() + "=" + override;
            if (!p.isAbsolute()) {
                tried.add(where + " (not an absolute path)");
            } else if (isStub(p)) {
                tried.add(where + " (a stubs library, refused)");
            } else if (!isFile.test(p)) {
                tried.add(where + " (no such readable file)");
            } else {
                return p;
            }
            throw new LibraryNotFoundException(library, tried);
        }
        List<Path> dirs = new ArrayList<>(searchDirectories());
        if (!library.wheelDirectory().isEmpty()) {
            for (Path sitePackages : sitePackages()) {
                dirs.add(sitePackages.resolve(library.wheelDirectory()));
            }
        }
        for (Path dir : dirs) {
            Path p = dir.resolve(library.soname());
            if (isStub(p)) {
                tried.add(p + " (stubs, skipped)");
            } else if (isFile.test(p)) {
                return p;
            } else {
                tried.add(p.toString());
            }
        }
        for (Path p : ldconfigEntries(ldconfigCache.get(), library.soname())) {
            if (isStub(p)) {
                tried.add(p + " (ldconfig, stubs, skipped)");
            } else if (isFile.test(p)) {
                return p;
            } else {
                tried.add(p + " (ldconfig)");
            }
        }
        tried.add("ldconfig -p (no usable entry for " + library.soname() + ")");
        throw new LibraryNotFoundException(library, tried);
    }

    /** LD_LIBRARY_PATH entries, then $CUDA_HOME's library directories, then the known ones; no duplicates. */
    List<Path> searchDirectories() {
        Set<Path> dirs = new LinkedHashSet<>();
        String ld = environment.apply("LD_LIBRARY_PATH");
        if (ld != null) {
            for (String entry : ld.split(":")) {
                if (!entry.isBlank() && Path.of(entry).isAbsolute()) {
                    dirs.add(Path.of(entry).normalize());
                }
            }
        }
        String cudaHome = environment.apply("CUDA_HOME");
        if (cudaHome != null && !cudaHome.isBlank() && Path.of(cudaHome).isAbsolute()) {
            Path home = Path.of(cudaHome).normalize();
            dirs.add(home.resolve("targets/x86_64-linux/lib"));
            dirs.add(home.resolve("lib64"));
            dirs.add(home.resolve("lib"));
        }
        dirs.addAll(KNOWN_DIRECTORIES);
        return List.copyOf(dirs);
    }

    /** Every {@code site-packages} and {@code dist-packages} folder of the Pythons {@link #PYTHON_LIBRARY_ROOTS} names. */
    List<Path> sitePackages() {
        Set<Path> roots = new LinkedHashSet<>();
        for (String variable : List.of("VIRTUAL_ENV", "CONDA_PREFIX")) {
            String value = environment.apply(variable);
            if (value != null && !value.isBlank() && Path.of(value).isAbsolute()) {
                roots.add(Path.of(value).normalize().resolve("lib"));
            }
        }
        String home = environment.apply("HOME");
        if (home != null && !home.isBlank() && Path.of(home).isAbsolute()) {
            roots.add(Path.of(home).normalize().resolve(".local/lib"));
        }
        for (Path opt : children.apply(Path.of("/opt"))) {
            roots.add(opt.resolve(".venv/lib"));
            roots.add(opt.resolve("venv/lib"));
        }
        roots.addAll(PYTHON_LIBRARY_ROOTS);
        List<Path> found = new ArrayList<>();
        for (Path root : roots) {
            for (Path python : children.apply(root)) {
                if (python.getFileName().toString().startsWith("python3")) {
                    for (Path packages : children.apply(python)) {
                        String name = packages.getFileName().toString();
                        if (name.equals("site-packages") || name.equals("dist-packages")) {
                            found.add(packages);
                        }
                    }
                }
            }
        }
        return found;
    }

    /** Paths that {@code ldconfig -p} lists for exactly this soname, e.g. "\tlibcudart.so.13 (libc6,x86-64) => /x". */
    static List<Path> ldconfigEntries(String cache, String soname) {
        List<Path> paths = new ArrayList<>();
        for (String line : cache.split("\n")) {
            String t = line.strip();
            int arrow = t.indexOf("=>");
            if (arrow < 0 || !t.startsWith(soname + " ")) {
                continue;
            }
            String path = t.substring(arrow + 2).strip();
            if (!path.isEmpty() && Path.of(path).isAbsolute()) {
                paths.add(Path.of(path));
            }
        }
        return paths;
    }

    static boolean isStub(Path p) {
        for (Path part : p) {
            if (part.toString().equals("stubs")) {
                return true;
            }
        }
        return false;
    }

    private static List<Path> list(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.sorted().toList();
        } catch (IOException | SecurityException e) {
            return List.of(); // an unreadable folder holds nothing we can load
        }
    }

    private static String runLdconfig() {
        for (String exe : List.of("/sbin/ldconfig", "/usr/sbin/ldconfig", "ldconfig")) {
            try {
                Process proc =
                        new ProcessBuilder(exe, "-p").redirectErrorStream(true).start();
                byte[] out = proc.getInputStream().readAllBytes();
                if (proc.waitFor(5, TimeUnit.SECONDS) && proc.exitValue() == 0) {
                    return new String(out, StandardCharsets.UTF_8);
                }
            } catch (IOException e) {
                // not installed at this path: try the next one
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "";
            }
        }
        return "";
    }
}
