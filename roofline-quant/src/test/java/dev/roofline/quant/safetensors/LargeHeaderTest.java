package dev.roofline.quant.safetensors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A header of 100,000 tensors written in reverse byte order (the header's order is free): every name is found with
 * its own range, {@link SafetensorsFile#tensors()} is in byte order, and a duplicate among them is refused. The 1 M
 * tensor case with its heap and time limit is SafetensorsHeaderBenchmark's (src/jmh).
 */
class LargeHeaderTest {
    static final int N = 100_000;

    @TempDir
    Path dir;

    static String header(int n, String duplicate) {
        StringBuilder b = new StringBuilder("{\"__metadata__\":{\"format\":\"pt\"}");
        for (int i = n - 1; i >= 0; i--) { // descending offsets: the table must sort them
            String name = i == 0 && duplicate != null ? duplicate : "t." + i;
            b.append(",\"")
                    .append(name)
                    .append("\":{\"dtype\":\"I16\",\"shape\":[1],\"data_offsets\":[")
                    .append(2L * i)
                    .append(',')
                    .append(2L * i + 2)
                    .append("]}");
        }
        return b.append('}').toString();
    }

    @Test
    void everyTensorOfALargeUnsortedHeaderIsFoundAndListedInByteOrder() throws IOException {
        Path file = HandBuilt.write(dir, "large.safetensors", HandBuilt.file(header(N, null), new byte[2 * N]));
        try (SafetensorsFile f = SafetensorsFile.open(file)) {
            List<TensorInfo> tensors = f.tensors();
            assertThat(tensors).hasSize(N);
            for (int i = 0; i < N; i++) {
                TensorInfo byOrder = tensors.get(i);
                assertThat(byOrder.name()).isEqualTo("t." + i);
                assertThat(byOrder.begin()).isEqualTo(2L * i);
                assertThat(f.tensor("t." + i)).isEqualTo(byOrder);
            }
            assertThat(f.find("t." + N)).isEmpty();
            assertThat(f.metadata()).containsEntry("format", "pt");
        }
    }

    @Test
    void aDuplicateNameAmongManyIsRefused() throws IOException {
        Path file = HandBuilt.write(dir, "dup.safetensors", HandBuilt.file(header(N, "t.77777"), new byte[2 * N]));
        assertThatThrownBy(() -> SafetensorsFile.open(file))
                .isInstanceOfSatisfying(SafetensorsFormatException.class, e -> assertThat(e.violation())
                        .isEqualTo(FormatViolation.INVALID_JSON))
                .hasMessageContaining("Duplicate field 't.77777'");
    }
}
