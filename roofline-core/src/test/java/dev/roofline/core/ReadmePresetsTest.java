package dev.roofline.core;

import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's preset table is the code's: every preset, in order, with the totals it computes. */
class ReadmePresetsTest {

    @Test
    void readmeListsEveryPresetWithItsTotalAndActiveParameters() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("..", "README.md"));
        int header = lines.indexOf("| preset | parameters | active |");
        assertThat(header).as("README has the preset table").isNotNegative();
        List<String> rows = lines.subList(header + 2, lines.size()).stream()
                .takeWhile(l -> l.startsWith("| "))
                .toList();
        List<String> expected =
                Models.presets().stream().map(ReadmePresetsTest::row).toList();
        assertThat(rows).containsExactlyElementsOf(expected);
    }

    private static String row(Model m) {
        return String.format(Locale.ROOT, "| %s | %,d | %,d |", m.name(), m.parameterCount(), m.activeParameterCount());
    }
}
