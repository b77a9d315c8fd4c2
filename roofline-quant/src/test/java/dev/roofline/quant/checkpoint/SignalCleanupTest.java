package dev.roofline.quant.checkpoint;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A quantize stopped by SIGTERM (what Ctrl-C's SIGINT also does to a JVM: run the shutdown hooks) leaves no partial
 * folder: a real JVM, stalled in the middle of writing, is signalled.
 */
class SignalCleanupTest {
    @TempDir
    Path dir;

    @Test
    @EnabledOnOs(OS.LINUX)
    void sigtermDuringQuantizeRemovesThePartialFolder() throws Exception {
        Path model = dir.resolve("m");
        TinyLlama.write(model);
        Path out = dir.resolve("out");
        List<String> command = new ArrayList<>(List.of(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                classPath(),
                StalledQuantize.class.getName(),
                model.toString(),
                out.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            BufferedReader lines =
                    new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String first = lines.readLine();
            assertThat(first).as("the child's first line").isEqualTo("stalled");
            assertThat(QuantizeFailuresTest.names(dir)).anyMatch(n -> n.startsWith(".out.partial-"));
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(143); // 128 + SIGTERM
        } finally {
            p.destroyForcibly();
        }
        assertThat(QuantizeFailuresTest.names(dir)).containsExactly("m");
    }

    /** This JVM's module path and class path, as one class path: the child needs no modules. */
    private static String classPath() {
        List<String> parts = new ArrayList<>();
        for (String property : List.of("jdk.module.path", "java.class.path")) {
            String value = System.getProperty(property);
            if (value != null && !value.isBlank()) {
                parts.add(value);
            }
        }
        return String.join(File.pathSeparator, parts);
    }
}
