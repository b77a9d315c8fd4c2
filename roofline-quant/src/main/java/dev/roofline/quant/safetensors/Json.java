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
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
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
     * the parser's symbol table, to be used once), and duplicate keys are found by {@link HeaderParser} itself
     * (Jackson's detection keeps a set per object: a million sets for a million tensor entries).
     */
    private static final ObjectMapper STREAMING = JsonMapper.builder(JsonFactory.builder()
                    .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
                    .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
                    .build())
            .build();

    private static final int UTF8_CHUNK = 1 << 16;

    private Json() {}

    /** Parses strict UTF-8 JSON; any failure is {@link FormatViolation#INVALID_JSON} naming {@code source}. */
    static JsonNode parse(byte[] utf8, String source) throws SafetensorsFormatException {
        String text;
        try {
            text = StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(utf8))
                    .toString();
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

    /** A parser over {@code utf8}, which must be under 2 GiB, reading it in place. */
    static JsonParser streamingParser(MemorySegment utf8) throws IOException {
        ByteBuffer bytes = utf8.asByteBuffer();
        return STREAMING.createParser(new InputStream() {
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
        });
    }

    /** Checks that {@code utf8} is strict UTF-8 (as {@link #parse} requires), decoding it in small chunks. */
    static void checkUtf8(MemorySegment utf8, String source) throws SafetensorsFormatException {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = utf8.asByteBuffer();
        CharBuffer out = CharBuffer.allocate(UTF8_CHUNK);
        while (true) {
            CoderResult r = decoder.decode(in, out, true);
            if (r.isError()) {
                throw new SafetensorsFormatException(
                        FormatViolation.INVALID_JSON,
                        source + ": header is not valid UTF-8 (at byte " + in.position() + " of the header)");
            }
            out.clear();
            if (r.isUnderflow()) {
                break;
            }
        }
        out.clear();
        if (decoder.flush(out).isError()) {
            throw new SafetensorsFormatException(FormatViolation.INVALID_JSON, source + ": header is not valid UTF-8");
        }
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
