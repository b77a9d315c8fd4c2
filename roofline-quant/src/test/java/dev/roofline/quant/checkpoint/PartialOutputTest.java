package dev.roofline.quant.checkpoint;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Interrupted runs leave nothing behind; the output's mode follows the umask. */
class PartialOutputTest {
    @TempDir
    Path dir;

    @Test
    void theShutdownHookRemovesThePartialFolderAndCommitThenFails() throws IOException {
        Path out = dir.resolve("out");
        PartialOutput partial = PartialOutput.create(out, s -> {});
        Files.writeString(partial.folder().resolve("model-00001-of-00002.safetensors"), "half written");
        assertThat(partial.folder().getFileName().toString())
                .matches("\\.out\\.partial-" + ProcessHandle.current().pid() + "-[0-9a-z]+");
        partial.hook().run(); // what Ctrl-C or SIGTERM runs
        assertThat(QuantizeFailuresTest.names(dir)).isEmpty();
        assertThatThrownBy(partial::commit).hasMessageContaining("interrupted");
        partial.close();
        assertThat(out).doesNotExist();
    }

    @Test
    void staleFoldersOfOurNamingAreRemovedAndReported() throws IOException {
        Path gone = Files.createDirectories(dir.resolve(".out.partial-999999999-abc")); // no such process id
        Files.writeString(gone.resolve("model.safetensors"), "x");
        Path legacy = Files.createDirectories(dir.resolve(".out.partial-1234567890123")); // createTempDirectory's
        Path live = Files.createDirectories(
                dir.resolve(".out.partial-" + ProcessHandle.current().pid() + "-live")); // this JVM's, still running
        Path other = Files.createDirectories(dir.resolve(".other.partial-999999999-abc"));
        Path mine = Files.createDirectories(dir.resolve(".out.partial-notes"));
        List<String> said = new ArrayList<>();
        try (PartialOutput partial = PartialOutput.create(dir.resolve("out"), said::add)) {
            assertThat(gone).doesNotExist();
            assertThat(legacy).doesNotExist();
            assertThat(live).exists();
            assertThat(other).exists();
            assertThat(mine).exists();
            assertThat(said).hasSize(2);
            assertThat(said.get(0) + said.get(1))
                    .contains(gone.toString() + ", left by an interrupted quantize (process 999999999 is gone)")
                    .contains(legacy.toString());
            partial.commit();
        }
        assertThat(dir.resolve("out")).isDirectory();
    }

    @Test
    void theOutputFolderFollowsTheUmask() throws IOException {
        Path reference = Files.createDirectory(dir.resolve("made-like-mkdir")); // the process umask applies
        try (PartialOutput partial = PartialOutput.create(dir.resolve("out"), s -> {})) {
            partial.commit();
        }
        String expected = PosixFilePermissions.toString(Files.getPosixFilePermissions(reference));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("out"))))
                .isEqualTo(expected);
    }
}
