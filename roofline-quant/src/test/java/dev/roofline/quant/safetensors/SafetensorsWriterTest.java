package dev.roofline.quant.safetensors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SafetensorsWriterTest {
    @TempDir
    Path dir;

    @Test
    void writesTheBytesTheReferenceImplementationWrites() throws IOException {
        // {"t":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}} is 54 bytes, padded with 2 spaces to 56 = 0x38;
        // 1.0f = 0x3F800000, -2.0f = 0xC0000000, little-endian
        String json = "{\"t\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}  ";
        byte[] expected = HandBuilt.concat(
                new byte[] {0x38, 0, 0, 0, 0, 0, 0, 0},
                json.getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                new byte[] {0, 0, (byte) 0x80, 0x3F, 0, 0, 0, (byte) 0xC0});
        Path file = dir.resolve("t.safetensors");
        SafetensorsWriter.create()
                .add("t", Dtype.F32, List.of(2L), HandBuilt.f32(1f, -2f))
                .write(file);
        assertThat(Files.readAllBytes(file)).containsExactly(expected);
    }

    @Test
    void metadataComesFirstInTheHeader() throws IOException {
        Path file = dir.resolve("m.safetensors");
        SafetensorsWriter.create()
                .metadata("k", "v")
                .add("t", Dtype.F32, List.of(2L), HandBuilt.f32(1f, -2f))
                .write(file);
        // 79 bytes of JSON + 1 space = 80 = 0x50
        String json =
                "{\"__metadata__\":{\"k\":\"v\"},\"t\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}} ";
        assertThat(Files.readAllBytes(file))
                .startsWith(HandBuilt.concat(
                        new byte[] {0x50, 0, 0, 0, 0, 0, 0, 0},
                        json.getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
    }

    @ParameterizedTest
    @EnumSource(Dtype.class)
    void everyDtypeRoundTrips(Dtype dtype) throws IOException {
        byte[] bytes = new byte[4 * 6 * dtype.bitSize() / 8]; // 24 elements fill whole bytes even at 4 and 6 bits
        new Random(dtype.ordinal()).nextBytes(bytes);
        Path file = dir.resolve(dtype + ".safetensors");
        List<Long> scalarShape = dtype.bitSize() % 8 == 0 ? List.of() : List.of(8L); // a lone 4-bit value is no file
        SafetensorsWriter.create()
                .metadata("format", "pt")
                .add("w", dtype, List.of(4L, 6L), bytes)
                .add("scalar", dtype, scalarShape, new byte[(scalarShape.isEmpty() ? 1 : 8) * dtype.bitSize() / 8])
                .write(file);
        try (SafetensorsFile read = SafetensorsFile.open(file)) {
            assertThat(read.metadata()).isEqualTo(Map.of("format", "pt"));
            assertThat(read.tensors()).extracting(TensorInfo::name).containsExactly("w", "scalar");
            assertThat(read.tensor("w")).isEqualTo(new TensorInfo("w", dtype, List.of(4L, 6L), 0, bytes.length));
            assertThat(read.segment("w").toArray(ValueLayout.JAVA_BYTE)).containsExactly(bytes);
        }
    }

    @Test
    void bf16WeightsWithOutliersRoundTripExactly() throws IOException {
        Random random = new Random(42);
        float[] weights = new float[4096];
        byte[] codes = new byte[2 * weights.length];
        ByteBuffer buffer = ByteBuffer.wrap(codes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < weights.length; i++) {
            float w = (float) (random.nextGaussian() * 0.02 * (i % 509 == 0 ? 300 : 1)); // a few outliers
            short bf16 = (short) (Float.floatToRawIntBits(w) >>> 16); // truncation: exactly representable
            weights[i] = Float.intBitsToFloat(bf16 << 16);
            buffer.putShort(bf16);
        }
        Path file = dir.resolve("bf16.safetensors");
        SafetensorsWriter.create()
                .add("w", Dtype.BF16, List.of(64L, 64L), ByteBuffer.wrap(codes))
                .write(file);
        try (SafetensorsFile read = SafetensorsFile.open(file)) {
            assertThat(read.floats("w")).containsExactly(weights);
        }
    }

    @Test
    void byteBufferContributesItsRemainingBytes() throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(new byte[] {9, 1, 2, 9});
        buffer.position(1).limit(3);
        Path file = dir.resolve("b.safetensors");
        SafetensorsWriter.create().add("x", Dtype.U8, List.of(2L), buffer).write(file);
        try (SafetensorsFile read = SafetensorsFile.open(file)) {
            assertThat(read.segment("x").toArray(ValueLayout.JAVA_BYTE)).containsExactly(1, 2);
        }
    }

    @Test
    void tensorsCopyFromAnotherFilesMapping() throws IOException {
        Path source = dir.resolve("a.safetensors");
        SafetensorsWriter.create()
                .add("t", Dtype.F32, List.of(2L), HandBuilt.f32(3f, 4f))
                .write(source);
        Path copy = dir.resolve("b.safetensors");
        try (SafetensorsFile in = SafetensorsFile.open(source)) {
            SafetensorsWriter.create().add(in, in.tensor("t")).write(copy);
        }
        assertThat(Files.readAllBytes(copy)).isEqualTo(Files.readAllBytes(source));
    }

    @Test
    void streamedTensorIsWrittenAsItIsProduced() throws IOException {
        Path file = dir.resolve("s.safetensors");
        SafetensorsWriter.create()
                .add("s", Dtype.I16, List.of(1000L), out -> {
                    for (int i = 0; i < 1000; i++) {
                        out.write(HandBuilt.u16(i));
                    }
                })
                .write(file);
        try (SafetensorsFile read = SafetensorsFile.open(file)) {
            assertThat(read.buffer("s").getShort(2 * 999)).isEqualTo((short) 999);
        }
    }

    @Test
    void writtenFileGetsDefaultPermissionsNotTemporaryFileOnes() throws IOException {
        Path file = dir.resolve("p.safetensors");
        SafetensorsWriter.create().add("x", Dtype.U8, List.of(1L), new byte[1]).write(file);
        Path plain = Files.createFile(dir.resolve("plain"));
        assertThat(Files.getPosixFilePermissions(file)).isEqualTo(Files.getPosixFilePermissions(plain));
    }

    @Test
    void failingStreamLeavesNeitherTargetNorTemporaryFile() {
        Path file = dir.resolve("f.safetensors");
        SafetensorsWriter writer = SafetensorsWriter.create()
                .add("a", Dtype.U8, List.of(1L << 20), new byte[1 << 20])
                .add("b", Dtype.U8, List.of(1L << 20), out -> {
                    out.write(new byte[1000]);
                    throw new IOException("disk on fire");
                });
        assertThatThrownBy(() -> writer.write(file))
                .isInstanceOf(IOException.class)
                .hasMessage("disk on fire");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void failedWriteKeepsThePreviousFile() throws IOException {
        Path file = dir.resolve("f.safetensors");
        SafetensorsWriter.create()
                .add("old", Dtype.U8, List.of(1L), new byte[1])
                .write(file);
        byte[] before = Files.readAllBytes(file);
        SafetensorsWriter failing = SafetensorsWriter.create().add("new", Dtype.U8, List.of(1L), out -> {
            throw new IllegalStateException("quantizer failed");
        });
        assertThatThrownBy(() -> failing.write(file)).hasMessage("quantizer failed");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }

    @Test
    void streamWritingTheWrongByteCountFailsWithoutOutput() {
        Path file = dir.resolve("w.safetensors");
        assertThatThrownBy(() -> SafetensorsWriter.create()
                        .add("short", Dtype.F32, List.of(2L), out -> out.write(new byte[7]))
                        .write(file))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'short' content wrote only 7 of the 8 bytes");
        assertThatThrownBy(() -> SafetensorsWriter.create()
                        .add("long", Dtype.F32, List.of(2L), out -> out.write(new byte[9]))
                        .write(file))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'long' content wrote more than the 8 bytes");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void misuseIsRejectedWhenTensorsAreAdded() {
        SafetensorsWriter writer = SafetensorsWriter.create().add("w", Dtype.U8, List.of(1L), new byte[1]);
        assertThatThrownBy(() -> writer.add("w", Dtype.U8, List.of(1L), new byte[1]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unique, 'w'");
        assertThatThrownBy(() -> writer.add("x", Dtype.F32, List.of(2L, 3L), new byte[20]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'x': shape [2, 3] × F32 needs 24 bytes, got 20");
        assertThatThrownBy(() -> writer.add("n", Dtype.U8, List.of(-1L), new byte[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'n': shape[0] must be non-negative, got -1");
        assertThatThrownBy(() -> writer.add("o", Dtype.F64, List.of(1L << 62, 4L), out -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'o'")
                .hasMessageContaining("overflows");
        assertThatThrownBy(() -> writer.add("", Dtype.U8, List.of(), new byte[1]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got ''");
        assertThatThrownBy(() -> writer.add("__metadata__", Dtype.U8, List.of(), new byte[1]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got '__metadata__'");
    }
}
