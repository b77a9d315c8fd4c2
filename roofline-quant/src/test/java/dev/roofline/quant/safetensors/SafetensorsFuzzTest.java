package dev.roofline.quant.safetensors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Mutates a valid file thousands of times (seeded): bit flips, digit and token edits in the header, dtype swaps,
 * truncations, header-length changes. Every mutant either opens and reads completely or fails with
 * {@link SafetensorsFormatException}; nothing else (no OutOfMemoryError, no IndexOutOfBounds, no hang).
 */
class SafetensorsFuzzTest {
    /** 5,000 by default (a few seconds); {@code -Droofline.fuzz.mutants=100000} for a long run. */
    private static final int MUTANTS = Integer.getInteger("roofline.fuzz.mutants", 5000);

    private static final List<String> DTYPES = List.of(
            "F64",
            "F32",
            "F16",
            "BF16",
            "F8_E4M3",
            "F8_E5M2",
            "I64",
            "I32",
            "I16",
            "I8",
            "U8",
            "BOOL",
            "F4",
            "f32",
            "",
            "U16",
            "U32",
            "U64",
            "C64",
            "F8_E8M0",
            "F6_E2M3",
            "F8_E5M2FNUZ",
            "F2");
    private static final byte[] TOKENS = "{}[],:\"-0123456789 e.".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    @Test
    void mutatedFilesFailOnlyWithFormatExceptions() throws IOException {
        byte[] valid = validFile();
        Map<FormatViolation, Integer> seen = new EnumMap<>(FormatViolation.class);
        int[] opened = {0};
        Path file = dir.resolve("mutant.safetensors");
        assertTimeoutPreemptively(Duration.ofSeconds(Math.max(120, MUTANTS / 500)), () -> {
            Random random = new Random(20261122);
            for (int i = 0; i < MUTANTS; i++) {
                int kind = random.nextInt(7);
                byte[] mutant = mutate(valid, kind, random);
                Files.write(file, mutant);
                try (SafetensorsFile read = SafetensorsFile.open(file)) {
                    readEverything(read);
                    opened[0]++;
                } catch (SafetensorsFormatException e) {
                    seen.merge(e.violation(), 1, Integer::sum);
                } catch (Throwable t) {
                    fail(
                            "mutant " + i + " (kind " + kind + ") failed with " + t + "; header: "
                                    + new String(
                                            mutant,
                                            8,
                                            Math.max(0, Math.min(200, mutant.length - 8)),
                                            StandardCharsets.UTF_8),
                            t);
                }
            }
        });
        // the mutations reach deep into validation, not just the JSON parser
        System.out.println("safetensors fuzz: " + MUTANTS + " mutants, " + opened[0] + " opened, rejected " + seen);
        assertThat(opened[0]).isPositive();
        assertThat(seen.keySet())
                .contains(
                        FormatViolation.TRUNCATED_FILE,
                        FormatViolation.HEADER_TOO_LARGE,
                        FormatViolation.HEADER_BEYOND_FILE,
                        FormatViolation.INVALID_JSON,
                        FormatViolation.UNKNOWN_DTYPE,
                        FormatViolation.SIZE_MISMATCH,
                        FormatViolation.OUT_OF_RANGE);
    }

    private static byte[] validFile() {
        String header = """
                {"__metadata__":{"format":"pt"},\
                "w":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]},\
                "b":{"dtype":"BF16","shape":[4],"data_offsets":[24,32]},\
                "q":{"dtype":"F8_E4M3","shape":[8],"data_offsets":[32,40]},\
                "i":{"dtype":"I64","shape":[1],"data_offsets":[40,48]},\
                "s":{"dtype":"F16","shape":[],"data_offsets":[48,50]},\
                "z":{"dtype":"U8","shape":[0,7],"data_offsets":[50,50]}}""";
        byte[] data = new byte[50]; // exactly what the tensors cover: trailing bytes are refused
        new Random(1).nextBytes(data);
        return HandBuilt.file(header, data);
    }

    private static byte[] mutate(byte[] valid, int kind, Random random) {
        int headerLength =
                (int) ByteBuffer.wrap(valid).order(ByteOrder.LITTLE_ENDIAN).getLong();
        byte[] m = valid.clone();
        switch (kind) {
            case 0 -> { // bit flips in the header
                for (int n = 1 + random.nextInt(4); n > 0; n--) {
                    m[8 + random.nextInt(headerLength)] ^= (byte) (1 << random.nextInt(8));
                }
            }
            case 1 -> { // a number in the header replaced, lengthened or negated
                String text = new String(m, 8, headerLength, StandardCharsets.US_ASCII);
                int at = randomDigit(text, random);
                String replacement =
                        switch (random.nextInt(4)) {
                            case 0 -> String.valueOf(random.nextInt(10));
                            case 1 -> String.valueOf(random.nextInt(100));
                            case 2 -> "-";
                            default -> String.valueOf(Math.abs(random.nextLong()));
                        };
                m = reheader(m, text.substring(0, at) + replacement + text.substring(at + 1), headerLength);
            }
            case 2 -> m = Arrays.copyOf(m, random.nextInt(m.length)); // truncation
            case 3 -> { // header length changed
                long length =
                        switch (random.nextInt(3)) {
                            case 0 -> headerLength + random.nextInt(33) - 16;
                            case 1 -> random.nextLong();
                            default -> random.nextInt(2 * headerLength + 16);
                        };
                ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putLong(0, length);
            }
            case 4 -> { // a dtype swapped for another (sizes change, names may be unknown)
                String text = new String(m, 8, headerLength, StandardCharsets.US_ASCII);
                String from =
                        List.of("F32", "BF16", "F8_E4M3", "I64", "F16", "U8").get(random.nextInt(6));
                String to = DTYPES.get(random.nextInt(DTYPES.size()));
                m = reheader(m, text.replaceFirst("\"" + from + "\"", "\"" + to + "\""), headerLength);
            }
            case 5 -> m[random.nextInt(m.length)] = (byte) random.nextInt(256); // any byte
            default -> m[8 + random.nextInt(headerLength)] = TOKENS[random.nextInt(TOKENS.length)]; // JSON token
        }
        return m;
    }

    private static int randomDigit(String text, Random random) {
        while (true) {
            int at = random.nextInt(text.length());
            if (Character.isDigit(text.charAt(at))) {
                return at;
            }
        }
    }

    /** The same file with a new header (and a matching header length), data unchanged. */
    private static byte[] reheader(byte[] file, String header, int oldHeaderLength) {
        byte[] data = Arrays.copyOfRange(file, 8 + oldHeaderLength, file.length);
        return HandBuilt.file(header, data);
    }

    private static void readEverything(SafetensorsFile file) {
        for (TensorInfo t : file.tensors()) {
            MemorySegment bytes = file.segment(t);
            assertThat(bytes.toArray(ValueLayout.JAVA_BYTE)).hasSize((int) t.byteSize());
            switch (t.dtype()) {
                case F64, F32, F16, BF16, F8_E4M3, F8_E5M2, F8_E8M0 ->
                    assertThat(file.floats(t.name())).hasSize((int) t.elementCount());
                default -> assertThat(file.buffer(t.name()).remaining()).isEqualTo((int) t.byteSize());
            }
        }
    }
}
