package dev.roofline.quant.safetensors;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardedCheckpointTest {
    @TempDir
    Path dir;

    /** Five 100-byte tensors in shards of at most 250 bytes: [a, b], [c, d], [e]. */
    private void writeFiveTensors() throws IOException {
        SafetensorsWriter writer = SafetensorsWriter.create().metadata("format", "pt");
        for (String name : List.of("a", "b", "c", "d", "e")) {
            byte[] bytes = new byte[100];
            java.util.Arrays.fill(bytes, (byte) name.charAt(0));
            writer.add(name, Dtype.U8, List.of(10L, 10L), bytes);
        }
        writer.writeSharded(dir, 250);
    }

    @Test
    void shardedWriteProducesHuggingFaceIndexAndShards() throws IOException {
        writeFiveTensors();
        JsonNode index =
                Json.MAPPER.readTree(dir.resolve("model.safetensors.index.json").toFile());
        assertThat(index.at("/metadata/total_size").asLong()).isEqualTo(500);
        assertThat(index.at("/weight_map/b").asText()).isEqualTo("model-00001-of-00003.safetensors");
        assertThat(index.at("/weight_map/c").asText()).isEqualTo("model-00002-of-00003.safetensors");
        assertThat(index.at("/weight_map/e").asText()).isEqualTo("model-00003-of-00003.safetensors");
        try (var files = Files.list(dir)) {
            assertThat(files).hasSize(4);
        }
    }

    @Test
    void shardedCheckpointLooksUpTensorsAcrossShards() throws IOException {
        writeFiveTensors();
        try (ShardedCheckpoint checkpoint = ShardedCheckpoint.open(dir)) {
            assertThat(checkpoint.names()).containsExactly("a", "b", "c", "d", "e");
            assertThat(checkpoint.shards()).hasSize(3);
            assertThat(checkpoint.totalSize()).isEqualTo(OptionalLong.of(500));
            assertThat(checkpoint.tensor("d").shape()).containsExactly(10L, 10L);
            assertThat(checkpoint.fileOf("d").segment("d").get(java.lang.foreign.ValueLayout.JAVA_BYTE, 99))
                    .isEqualTo((byte) 'd');
            assertThat(checkpoint.fileOf("c")).isSameAs(checkpoint.fileOf("d"));
            assertThat(checkpoint.fileOf("e").metadata()).containsEntry("format", "pt");
            checkpoint.validate();
        }
    }

    @Test
    void singleFileCheckpointIsOpenedWithoutAnIndex() throws IOException {
        SafetensorsWriter.create()
                .add("w", Dtype.F16, List.of(2L), HandBuilt.u16(0x3C00, 0x4000))
                .write(dir.resolve("model.safetensors"));
        try (ShardedCheckpoint checkpoint = ShardedCheckpoint.open(dir)) {
            assertThat(checkpoint.names()).containsExactly("w");
            assertThat(checkpoint.totalSize()).isEqualTo(OptionalLong.of(4));
            assertThat(checkpoint.fileOf("w").floats("w")).containsExactly(1f, 2f);
        }
    }

    @Test
    void directoryWithoutWeightsIsReported() {
        assertThatThrownBy(() -> ShardedCheckpoint.open(dir))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("neither model.safetensors.index.json nor model.safetensors");
    }

    @Test
    void missingShardIsReportedAtOpen() throws IOException {
        writeFiveTensors();
        Files.delete(dir.resolve("model-00002-of-00003.safetensors"));
        assertViolation(FormatViolation.MISSING_SHARD, "shard 'model-00002-of-00003.safetensors' (of tensor 'c')");
    }

    @Test
    void tensorMappedToTheWrongShardIsReportedWhenTheShardOpens() throws IOException {
        writeFiveTensors();
        Path index = dir.resolve(ShardedCheckpoint.INDEX_FILE);
        Files.writeString(
                index,
                Files.readString(index)
                        .replace(
                                "\"e\" : \"model-00003-of-00003.safetensors\"",
                                "\"e\" : \"model-00001-of-00003.safetensors\""));
        try (ShardedCheckpoint checkpoint = ShardedCheckpoint.open(dir)) {
            assertThat(checkpoint.fileOf("c").find("c")).isPresent();
            assertThatThrownBy(() -> checkpoint.fileOf("a"))
                    .isInstanceOfSatisfying(SafetensorsFormatException.class, e -> assertThat(e.violation())
                            .isEqualTo(FormatViolation.MISSING_TENSOR))
                    .hasMessageContaining("tensor 'e' to shard 'model-00001-of-00003.safetensors'");
        }
    }

    @Test
    void indexNamingAFileOutsideItsDirectoryIsRejected() throws IOException {
        Files.writeString(
                dir.resolve(ShardedCheckpoint.INDEX_FILE), "{\"weight_map\":{\"w\":\"../secret.safetensors\"}}");
        assertViolation(FormatViolation.BAD_INDEX, "weight_map['w'] = \"../secret.safetensors\"");
    }

    @Test
    void indexWithoutWeightMapIsRejected() throws IOException {
        Files.writeString(dir.resolve(ShardedCheckpoint.INDEX_FILE), "{\"metadata\":{}}");
        assertViolation(FormatViolation.BAD_INDEX, "'weight_map' object");
    }

    @Test
    void closeIsIdempotentAndLaterLookupsSayClosed() throws IOException {
        writeFiveTensors();
        ShardedCheckpoint checkpoint = ShardedCheckpoint.open(dir);
        SafetensorsFile shard = checkpoint.fileOf("a");
        checkpoint.close();
        checkpoint.close();
        assertThatThrownBy(() -> shard.segment("a")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> checkpoint.fileOf("a"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already closed");
    }

    @Test
    void failedShardedWriteLeavesNoFiles() {
        SafetensorsWriter writer = SafetensorsWriter.create()
                .add("a", Dtype.U8, List.of(100L), new byte[100])
                .add("b", Dtype.U8, List.of(100L), out -> {
                    throw new IOException("no space left");
                });
        assertThatThrownBy(() -> writer.writeSharded(dir, 150)).hasMessage("no space left");
        assertThat(dir).isEmptyDirectory();
    }

    private void assertViolation(FormatViolation violation, String message) {
        assertThatThrownBy(() -> ShardedCheckpoint.open(dir))
                .isInstanceOfSatisfying(SafetensorsFormatException.class, e -> assertThat(e.violation())
                        .isEqualTo(violation))
                .hasMessageContaining(message);
    }
}
