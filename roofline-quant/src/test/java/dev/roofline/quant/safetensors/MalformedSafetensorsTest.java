package dev.roofline.quant.safetensors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;

import static dev.roofline.quant.safetensors.FormatViolation.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Every way a file can break the format gets its own {@link FormatViolation} and a message naming the culprit. */
class MalformedSafetensorsTest {
    @TempDir
    Path dir;

    private static final String OK_ENTRY = "\"ok\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]}";

    static Stream<Arguments> malformedHeaders() {
        return Stream.of(
                arguments("{\"a\":", INVALID_JSON, "not valid JSON"),
                arguments("{" + OK_ENTRY + "," + OK_ENTRY + "}", INVALID_JSON, "Duplicate field 'ok'"),
                arguments(
                        "{\"w\":{\"dtype\":\"U8\",\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4]}}",
                        INVALID_JSON,
                        "Duplicate field 'dtype'"),
                arguments("{" + OK_ENTRY, INVALID_JSON, "not valid JSON"),
                arguments("{\"w\":{\"dtype\":\"U8\",\"shape\":[4", INVALID_JSON, "not valid JSON"),
                arguments("{} {}", INVALID_JSON, "not valid JSON"),
                arguments("", INVALID_JSON, "not valid JSON"),
                arguments("{'a':1}", INVALID_JSON, "not valid JSON"),
                arguments("[1,2]", NOT_AN_OBJECT, "got ARRAY [1,2]"),
                arguments("\"text\"", NOT_AN_OBJECT, "got STRING"),
                arguments("{\"w\":3}", NOT_AN_OBJECT, "tensor 'w': entry must be a JSON object, got NUMBER 3"),
                arguments("{\"__metadata__\":[\"pt\"]," + OK_ENTRY + "}", BAD_METADATA, "got ARRAY"),
                arguments(
                        "{\"__metadata__\":{\"format\":1}," + OK_ENTRY + "}",
                        BAD_METADATA,
                        "'format' must be a string, got 1"),
                arguments(
                        "{\"w\":{\"shape\":[4],\"data_offsets\":[0,4]}}",
                        MISSING_FIELD,
                        "tensor 'w': field 'dtype' must be a string, got missing"),
                arguments(
                        "{\"w\":{\"dtype\":\"U8\",\"shape\":\"4\",\"data_offsets\":[0,4]}}",
                        MISSING_FIELD,
                        "field 'shape' must be an array, got \"4\""),
                arguments(
                        "{\"w\":{\"dtype\":\"U8\",\"shape\":[4]}}",
                        MISSING_FIELD,
                        "field 'data_offsets' must be an array"),
                arguments(
                        "{\"w\":{\"dtype\":\"F2\",\"shape\":[4],\"data_offsets\":[0,4]}}",
                        UNKNOWN_DTYPE,
                        "tensor 'w': dtype \"F2\" is not one of"),
                arguments(
                        "{\"w\":{\"dtype\":\"F4\",\"shape\":[4],\"data_offsets\":[0,4]}}",
                        SIZE_MISMATCH,
                        "tensor 'w': shape [4] × F4 (4 bits) = 2 bytes, but data_offsets [0, 4] span 4"),
                arguments(
                        "{\"w\":{\"dtype\":\"F6_E3M2\",\"shape\":[2,3],\"data_offsets\":[0,4]}}",
                        SIZE_MISMATCH,
                        "tensor 'w': shape [2, 3] × F6_E3M2 is 36 bits, not a whole number of bytes"),
                arguments(
                        "{\"w\":{\"dtype\":\"U8\",\"shape\":[3],\"data_offsets\":[0,3]}}",
                        TRAILING_BYTES,
                        "1 bytes after the end of the last tensor ('w' ends at 3) in a data section of 4 bytes"),
                arguments("{}", TRAILING_BYTES, "4 bytes after the end of the last tensor in a data section"),
                arguments("{\"w\":{\"dtype\":\"u8\",\"shape\":[4],\"data_offsets\":[0,4]}}", UNKNOWN_DTYPE, "\"u8\""),
                arguments(
                        "{\"w\":{\"dtype\":\"U8\",\"shape\":[2,-2],\"data_offsets\":[0,4]}}",
                        BAD_SHAPE,
                        "tensor 'w': shape[1] = -2"),
                arguments(
                        "{\"w\":{\"dtype\":\"U8\",\"shape\":[2.5],\"data_offsets\":[0,4]}}",
                        BAD_SHAPE,
                        "shape[0] = 2.5"),
                arguments(
                        "{\"w\":{\"dtype\":\"U8\",\"shape\":[99999999999999999999],\"data_offsets\":[0,4]}}",
                        BAD_SHAPE,
                        "shape[0] = 99999999999999999999"),
                arguments(
                        "{\"w\":{\"dtype\":\"U8\",\"shape\":[4],\"data_offsets\":[0,4,8]}}",
                        BAD_OFFSETS,
                        "data_offsets [0,4,8]"),
                arguments("{\"w\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[-1,-1]}}", BAD_OFFSETS, "[-1,-1]"),
                arguments(
                        "{\"w\":{\"dtype\":\"U8\",\"shape\":[0],\"data_offsets\":[4,0]}}",
                        BEGIN_AFTER_END,
                        "tensor 'w': data_offsets [4,0] has begin 4 > end 0"),
                arguments(
                        "{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,4]}}",
                        SIZE_MISMATCH,
                        "tensor 'w': shape [2] × F32 (4 bytes) = 8 bytes, but data_offsets [0, 4] span 4"),
                arguments(
                        "{\"w\":{\"dtype\":\"F64\",\"shape\":[4611686018427387904,4],\"data_offsets\":[0,4]}}",
                        SIZE_MISMATCH,
                        "overflows a 64-bit byte count"),
                arguments(
                        "{\"w\":{\"dtype\":\"U8\",\"shape\":[8],\"data_offsets\":[0,8]}}",
                        OUT_OF_RANGE,
                        "tensor 'w': data_offsets [0, 8] end past the data section of 4 bytes"),
                arguments(
                        "{" + OK_ENTRY + ",\"w\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[2,4]}}",
                        OVERLAPPING_RANGES,
                        "tensor 'w' data_offsets [2, 4] overlap tensor 'ok' [0, 4]"));
    }

    @ParameterizedTest
    @MethodSource("malformedHeaders")
    void malformedHeaderIsRejectedWithItsOwnViolation(String header, FormatViolation violation, String message) {
        Path file = write(HandBuilt.file(header, new byte[4]));
        assertThatThrownBy(() -> SafetensorsFile.open(file))
                .isInstanceOfSatisfying(SafetensorsFormatException.class, e -> assertThat(e.violation())
                        .isEqualTo(violation))
                .hasMessageContaining(file.toString())
                .hasMessageContaining(message);
    }

    @Test
    void headerThatIsNotUtf8IsInvalidJson() {
        byte[] bytes = HandBuilt.file("{\"a\":1}", new byte[0]);
        bytes[9] = (byte) 0xC3; // a lead byte followed by '"' (0x22) is not UTF-8
        assertViolation(write(bytes), INVALID_JSON, "not valid UTF-8");
    }

    @Test
    void fileShorterThanTheLengthFieldIsTruncated() {
        assertViolation(write(new byte[] {8, 0, 0, 0, 0}), TRUNCATED_FILE, "5 bytes");
        assertViolation(write(new byte[0]), TRUNCATED_FILE, "0 bytes");
    }

    @Test
    void headerLengthOverTheLimitIsRejectedBeforeReading() {
        assertViolation(
                write(HandBuilt.file(200L << 20, "{}", new byte[0])),
                HEADER_TOO_LARGE,
                "header length 209715200 exceeds the limit of 100000000 bytes");
        assertViolation(write(HandBuilt.file(-1L, "{}", new byte[0])), HEADER_TOO_LARGE, "18446744073709551615");
    }

    @Test
    void headerLimitIsConfigurable() {
        Path file = write(HandBuilt.file("{" + OK_ENTRY + "}", new byte[4]));
        assertThatThrownBy(() -> SafetensorsFile.open(file, 16))
                .isInstanceOfSatisfying(SafetensorsFormatException.class, e -> assertThat(e.violation())
                        .isEqualTo(HEADER_TOO_LARGE))
                .hasMessageContaining("limit of 16 bytes");
    }

    @Test
    void headerLongerThanTheFileIsRejected() {
        assertViolation(
                write(HandBuilt.file(100, "{}", new byte[0])),
                HEADER_BEYOND_FILE,
                "header length 100 exceeds the 2 bytes after the length field");
    }

    @Test
    void truncatedDataSectionPutsTensorsOutOfRange() {
        byte[] whole = HandBuilt.file("{" + OK_ENTRY + "}", new byte[4]);
        Path file = write(java.util.Arrays.copyOf(whole, whole.length - 1));
        assertViolation(file, OUT_OF_RANGE, "data section of 3 bytes");
    }

    private Path write(byte[] bytes) {
        try {
            return HandBuilt.write(dir, "bad.safetensors", bytes);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void assertViolation(Path file, FormatViolation violation, String message) {
        assertThatThrownBy(() -> SafetensorsFile.open(file))
                .isInstanceOfSatisfying(SafetensorsFormatException.class, e -> assertThat(e.violation())
                        .isEqualTo(violation))
                .hasMessageContaining(message);
    }
}
