package dev.roofline.nvml;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code ROOFLINE_NVML} set to a real library that is not NVML (the C math library): NVML is unavailable with a
 * reason naming the path and the first missing function, and stays so on the next try, with no
 * {@code ExceptionInInitializerError} or {@code NoClassDefFoundError}. The environment is read once per JVM, so the
 * probe runs in a JVM of its own.
 */
class WrongLibraryTest {

    static final List<Path> LIBM = List.of(
            Path.of("/lib/x86_64-linux-gnu/libm.so.6"),
            Path.of("/usr/lib/x86_64-linux-gnu/libm.so.6"),
            Path.of("/lib/aarch64-linux-gnu/libm.so.6"),
            Path.of("/usr/lib64/libm.so.6"),
            Path.of("/lib64/libm.so.6"));

    @Test
    void theMathLibraryAsNvmlMakesNvmlUnavailableWithThePathAndTheMissingFunction()
            throws IOException, InterruptedException {
        Path libm = LIBM.stream().filter(Files::isRegularFile).findFirst().orElse(null);
        assumeTrue(libm != null, "no libm.so.6 at " + LIBM);
        List<String> lines = runProbe(libm);

        String reason = "NVML library not found: libnvidia-ml.so.1 (NVML) not found; set ROOFLINE_NVML to its absolute"
                + " path. Tried: " + libm + " (loaded, but it lacks nvmlInit_v2, nvmlInitWithFlags, nvmlShutdown and 16"
                + " more of the 19 functions the bindings call: not a copy of libnvidia-ml.so.1)";
        List<String> round = List.of("reason=" + reason, "open=NvmlUnavailableException: " + reason);
        assertThat(lines).containsExactly(round.get(0), round.get(1), round.get(0), round.get(1));
    }

    private static List<String> runProbe(Path libm) throws IOException, InterruptedException {
        String classPath = String.join(
                File.pathSeparator,
                System.getProperty("jdk.module.path", ""),
                System.getProperty("java.class.path", ""));
        ProcessBuilder pb = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        classPath,
                        WrongLibraryProbe.class.getName())
                .redirectErrorStream(true);
        pb.environment().put("ROOFLINE_NVML", libm.toString());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("probe finished").isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isZero();
        return text.lines().toList();
    }
}
