package dev.roofline.cuda.cli;

import dev.roofline.core.cli.Main;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** With roofline-cuda on the path the dispatcher gains {@code measure}; its help and usage errors. */
class MeasureCommandTest {

    record Run(int status, String out, String err) {}

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theListingHasMeasureBesideCoresCommands() {
        Run r = run("--help");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .containsPattern("(?m)^  measure +the main job")
                .containsPattern("(?m)^  predict +")
                .doesNotContain("add roofline-cuda");
    }

    @Test
    void helpPrintsTheOptions() {
        Run r = run("measure", "--help");
        assertThat(r.status()).isZero();
        assertThat(r.out())
                .startsWith("usage: roofline measure [options]\n")
                .contains("--hw NAME")
                .contains("--csv FILE")
                .contains("--quick");
    }

    @Test
    void aFlagWithAValueIsAUsageErrorNamingIt() {
        Run r = run("measure", "--quick=yes");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline measure: --quick takes no value, got 'yes'\nusage: roofline measure");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aMissingValueIsAUsageErrorNamingIt() {
        Run r = run("measure", "--csv");
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("roofline measure: --csv needs a value (FILE)\n");
    }
}
