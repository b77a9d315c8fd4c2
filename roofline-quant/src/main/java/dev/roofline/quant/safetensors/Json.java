package dev.roofline.quant.safetensors;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

/** The one Jackson configuration for safetensors headers and index files: strict (duplicate keys, trailing tokens). */
final class Json {
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /**
     * For streaming a header: field names are not canonicalized (a header's million tensor names would all go into
     * the parser's symbol table, to be used once: twice as slow, measured), and duplicate keys are found by
     * {@link HeaderParser} itself (Jackson's detection keeps a set per object: a million sets for a million entries).
     */
    private static final ObjectMapper STREAMING = JsonMapper.builder(JsonFactory.builder()
                    .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
                    .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                    .build())
            .build();

    private Json() {}

    /** Parses strict UTF-8 JSON; any failure is {@link FormatViolation#INVALID_JSON} naming {@code source}. */
    static JsonNode parse(byte[] utf8, String source) throws SafetensorsFormatException {
        String text;
        try {
            text = strictUtf8().decode(ByteBuffer.wrap(utf8)).toString();
        } catch (CharacterCodingException e) {
            throw new SafetensorsFormatException(
                    FormatViolation.INVALID_JSON, source + ": header is not valid UTF-8", e);
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new SafetensorsFormatException(
                    FormatViolation.INVALID_JSON, source + ": header is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root.isMissingNode()) {
            throw new SafetensorsFormatException(
                    FormatViolation.INVALID_JSON,
                    source + ": header is not valid JSON: it holds no value (" + utf8.length + " bytes of whitespace)");
        }
        return root;
    }

    /**
     * A parser over {@code utf8} (under 2 GiB), read in place through a strict UTF-8 decoder: malformed or
     * unmappable input makes the parser throw a {@link CharacterCodingException}. (Jackson reads bytes through a
     * decoder anyway when field names are not canonicalized; checking here saves a second pass over the header.)
     */
    static JsonParser streamingParser(MemorySegment utf8) throws IOException {
        ByteBuffer bytes = utf8.asByteBuffer();
        InputStream in = new InputStream() {
            @Override
            public int read() {
                return bytes.hasRemaining() ? bytes.get() & 0xFF : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (!bytes.hasRemaining()) {
                    return -1;
                }
                int n = Math.min(len, bytes.remaining());
                bytes.get(b, off, n);
                return n;
            }
        };
        return STREAMING.createParser(new InputStreamReader(in, strictUtf8()));
    }

    private static CharsetDecoder strictUtf8() {
        return StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
    }

    /** The value of an integral JSON number that fits a non-negative {@code long}; empty for anything else. */
    static OptionalLong nonNegativeLong(JsonNode node) {
        if (node == null || !node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(node.longValue());
    }

    /** A short rendering of a JSON value for error messages (long values are cut). */
    static String show(JsonNode node) {
        if (node == null) {
            return "missing";
        }
        return cut(node.toString());
    }

    /** {@code text} cut to 80 characters for an error message. */
    static String cut(String text) {
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }
}
