package dev.roofline.quant.safetensors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

/** The one Jackson configuration for safetensors headers and index files: strict (duplicate keys, trailing tokens). */
final class Json {
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

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
        String text = node.toString();
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }
}
