package dev.roofline.quant.safetensors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What the reference implementation (huggingface/safetensors, safetensors/src/tensor.rs) reads, we read, and what it
 * refuses, we refuse: its dtypes and their bit sizes, its header limit, its rule that the tensors cover the data
 * section to the end. Also: paths that are not regular files are refused at once, naming the path.
 */
class ReferenceCompatibilityTest {
    @TempDir
    Path dir;

    /** {@code Dtype::bitsize} of the reference implementation, copied by hand from its source. */
    static final Map<String, Integer> REFERENCE_BITS = new LinkedHashMap<>();

    static {
        String[] table = {
            "F4 4", "F6_E3M2 6", "F6_E2M3 6", "BOOL 8", "U8 8", "I8 8", "F8_E5M2 8", "F8_E4M3 8", "F8_E8M0 8",
            "F8_E4M3FNUZ 8", "F8_E5M2FNUZ 8", "I16 16", "U16 16", "I32 32", "U32 32", "I64 64", "U64 64", "F16 16",
            "BF16 16", "F32 32", "F64 64", "C64 64"
        };
        for (String row : table) {
            String[] f = row.split(" ");
            REFERENCE_BITS.put(f[0], Integer.parseInt(f[1]));
        }
    }

    @Test
    void everyReferenceDtypeIsKnownWithItsBitSize() {
        Map<String, Integer> ours =
                Arrays.stream(Dtype.values()).collect(Collectors.toMap(Dtype::name, Dtype::bitSize));
        assertThat(ours).isEqualTo(REFERENCE_BITS);
    }

    @Test
    void aFileOfTheNewDtypesOpensAndReads() throws IOException {
        // sizes by hand: U16 3 × 2, U32 2 × 4, U64 1 × 8, E8M0 4 × 1, F4 6 × ½, F6 4 × ¾ each, C64 2 × 8
        String header = "{\"u16\":{\"dtype\":\"U16\",\"shape\":[3],\"data_offsets\":[0,6]},"
                + "\"u32\":{\"dtype\":\"U32\",\"shape\":[2],\"data_offsets\":[6,14]},"
                + "\"u64\":{\"dtype\":\"U64\",\"shape\":[1],\"data_offsets\":[14,22]},"
                + "\"e8m0\":{\"dtype\":\"F8_E8M0\",\"shape\":[4],\"data_offsets\":[22,26]},"
                + "\"f4\":{\"dtype\":\"F4\",\"shape\":[2,3],\"data_offsets\":[26,29]},"
                + "\"f6a\":{\"dtype\":\"F6_E2M3\",\"shape\":[4],\"data_offsets\":[29,32]},"
                + "\"f6b\":{\"dtype\":\"F6_E3M2\",\"shape\":[4],\"data_offsets\":[32,35]},"
                + "\"c64\":{\"dtype\":\"C64\",\"shape\":[2],\"data_offsets\":[35,51]},"
                + "\"fnuz\":{\"dtype\":\"F8_E4M3FNUZ\",\"shape\":[1],\"data_offsets\":[51,52]},"
                + "\"fnuz2\":{\"dtype\":\"F8_E5M2FNUZ\",\"shape\":[1],\"data_offsets\":[52,53]}}";
        byte[] data = new byte[53];
        data[22] = 127; // 2^0
        data[23] = (byte) 128; // 2^1
        data[24] = 0; // 2^-127
        data[25] = (byte) 0xFF; // NaN
        Path file = HandBuilt.write(dir, "new.safetensors", HandBuilt.file(header, data));
        try (SafetensorsFile f = SafetensorsFile.open(file)) {
            assertThat(f.tensors())
                    .extracting(TensorInfo::name)
                    .containsExactly("u16", "u32", "u64", "e8m0", "f4", "f6a", "f6b", "c64", "fnuz", "fnuz2");
            assertThat(f.tensor("f4").byteSize()).isEqualTo(3);
            assertThat(f.tensor("c64").dtype()).isEqualTo(Dtype.C64);
            assertThat(f.floats("e8m0")).containsExactly(1f, 2f, 0x1p-127f, Float.NaN);
            assertThatThrownBy(() -> f.floats("u16"))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("tensor 'u16' has dtype U16");
            assertThatThrownBy(() -> f.floats("f4")).hasMessageContaining("tensor 'f4' has dtype F4");
        }
    }

    @Test
    void aHeaderOfExactly100000000BytesIsReadAndOneMoreIsRefused() throws IOException {
        // sparse files: "{}" then NUL bytes, so the accepted length goes on to fail as JSON, not on its length
        assertThatThrownBy(() -> SafetensorsFile.open(sparse(100_000_000L)))
                .isInstanceOfSatisfying(SafetensorsFormatException.class, e -> assertThat(e.violation())
                        .isEqualTo(FormatViolation.INVALID_JSON));
        assertThatThrownBy(() -> SafetensorsFile.open(sparse(100_000_001L)))
                .isInstanceOfSatisfying(SafetensorsFormatException.class, e -> assertThat(e.violation())
                        .isEqualTo(FormatViolation.HEADER_TOO_LARGE))
                .hasMessageContaining("header length 100000001 exceeds the limit of 100000000 bytes");
    }

    private Path sparse(long headerBytes) throws IOException {
        Path file = dir.resolve("h" + headerBytes + ".safetensors");
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.write(ByteBuffer.allocate(8)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(headerBytes)
                    .array());
            f.write("{}".getBytes(StandardCharsets.US_ASCII));
            f.setLength(8 + headerBytes);
        }
        return file;
    }

    @Test
    void aPolyglotFileWithBytesAfterTheLastTensorIsRefused() throws IOException {
        String header = "{\"w\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[0,2]}}";
        byte[] zip = {'P', 'K', 5, 6, 0, 0, 0, 0};
        Path file = HandBuilt.write(
                dir, "poly.safetensors", HandBuilt.file(header, HandBuilt.concat(new byte[] {1, 2}, zip)));
        assertThatThrownBy(() -> SafetensorsFile.open(file))
                .isInstanceOfSatisfying(SafetensorsFormatException.class, e -> assertThat(e.violation())
                        .isEqualTo(FormatViolation.TRAILING_BYTES))
                .hasMessageContaining(file + ": 8 bytes after the end of the last tensor ('w' ends at 2)");
    }

    @Test
    void aFifoIsRefusedAtOnceNamingIt() throws Exception {
        Path fifo = dir.resolve("pipe.safetensors");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assumeTrue(mkfifo.waitFor() == 0 && Files.exists(fifo), "mkfifo is not available");
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(() -> SafetensorsFile.open(fifo))
                .isInstanceOfSatisfying(SafetensorsFormatException.class, e -> assertThat(e.violation())
                        .isEqualTo(FormatViolation.NOT_A_FILE))
                .hasMessage(fifo + ": is not a regular file (a FIFO, device or socket); a .safetensors file must be"
                        + " one"));
    }

    @Test
    void aFolderIsRefusedNamingIt() throws IOException {
        Path folder = Files.createDirectory(dir.resolve("model.safetensors"));
        assertThatThrownBy(() -> SafetensorsFile.open(folder))
                .isInstanceOf(SafetensorsFormatException.class)
                .hasMessage(folder + ": is a folder, not a .safetensors file");
    }

    @Test
    void aMissingFileNamesThePath() {
        Path missing = dir.resolve("missing.safetensors");
        assertThatThrownBy(() -> SafetensorsFile.open(missing))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining(missing.toString());
    }
}
