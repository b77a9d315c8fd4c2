package dev.roofline.quant.safetensors;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.CharacterCodingException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Reads a safetensors header token by token from the mapped file (no copy of the header, no JSON tree) into a
 * {@link Header}, checking every rule of the format. A value is turned into a JSON tree only to quote it in an error.
 */
final class HeaderParser {
    private final MemorySegment json;
    private final JsonParser p;
    private final long dataBytes;
    private final String source;
    /** The shape (first {@code rank} entries) and byte range [begin, end] of the tensor being read. */
    private long[] shape = new long[8];

    private final long[] range = new long[2];

    private static final SerializedString[] FIELDS = {
        new SerializedString("dtype"), new SerializedString("shape"), new SerializedString("data_offsets")
    };

    private HeaderParser(MemorySegment json, JsonParser p, long dataBytes, String source) {
        this.json = json;
        this.p = p;
        this.dataBytes = dataBytes;
        this.source = source;
    }

    /**
     * Parses the UTF-8 JSON {@code json} and checks every rule of the format against a data section of
     * {@code dataBytes} bytes.
     *
     * @param source names the file in error messages
     */
    static Header parse(MemorySegment json, long dataBytes, String source) throws SafetensorsFormatException {
        try (JsonParser p = Json.streamingParser(json)) {
            return new HeaderParser(json, p, dataBytes, source).header();
        } catch (SafetensorsFormatException e) {
            throw e;
        } catch (CharacterCodingException e) {
            throw new SafetensorsFormatException(
                    FormatViolation.INVALID_JSON, source + ": header is not valid UTF-8 (" + e.getMessage() + ")", e);
        } catch (JsonProcessingException e) {
            throw new SafetensorsFormatException(
                    FormatViolation.INVALID_JSON, source + ": header is not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) { // reading a mapped segment through a stream cannot fail otherwise
            throw new SafetensorsFormatException(
                    FormatViolation.INVALID_JSON, source + ": header could not be read: " + e.getMessage(), e);
        }
    }

    private Header header() throws IOException {
        JsonToken first = p.nextToken();
        if (first == null) {
            throw new SafetensorsFormatException(
                    FormatViolation.INVALID_JSON,
                    source + ": header is not valid JSON: it holds no value (" + json.byteSize()
                            + " bytes of whitespace)");
        }
        if (first != JsonToken.START_OBJECT) {
            JsonNode root = value();
            throw new SafetensorsFormatException(
                    FormatViolation.NOT_AN_OBJECT,
                    source + ": header must be a JSON object, got " + root.getNodeType() + " " + Json.show(root));
        }
        Map<String, String> metadata = null;
        Header.Builder tensors = new Header.Builder();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            boolean isMetadata = name.equals(Header.METADATA_KEY);
            if (isMetadata ? metadata != null : tensors.contains(name)) {
                throw duplicate(name);
            }
            p.nextToken();
            if (isMetadata) {
                metadata = metadata();
            } else {
                tensor(name, tensors);
            }
        }
        requireEndOfObject();
        JsonToken trailing = p.nextToken();
        if (trailing != null) {
            throw new SafetensorsFormatException(
                    FormatViolation.INVALID_JSON,
                    source + ": header is not valid JSON: trailing token (" + trailing + ") after the header object");
        }
        return tensors.build(metadata == null ? Map.of() : metadata, dataBytes, source);
    }

    /** The current value as a tree, for an error message. */
    private JsonNode value() throws IOException {
        requireToken();
        return p.readValueAsTree();
    }

    /** Jackson reports most truncations itself; this covers the rest, so no loop runs past the end. */
    private void requireToken() throws SafetensorsFormatException {
        if (p.currentToken() == null) {
            throw new SafetensorsFormatException(
                    FormatViolation.INVALID_JSON, source + ": header is not valid JSON: it ends inside a value");
        }
    }

    /** After a loop over an object's fields: the object must have ended there. */
    private void requireEndOfObject() throws SafetensorsFormatException {
        requireToken();
        if (p.currentToken() != JsonToken.END_OBJECT) {
            throw new SafetensorsFormatException(
                    FormatViolation.INVALID_JSON,
                    source + ": header is not valid JSON: " + p.currentToken() + " where a field name belongs");
        }
    }

    private Map<String, String> metadata() throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NULL) {
            return Map.of();
        }
        if (p.currentToken() != JsonToken.START_OBJECT) {
            JsonNode node = value();
            throw new SafetensorsFormatException(
                    FormatViolation.BAD_METADATA,
                    source + ": " + Header.METADATA_KEY + " must be an object of strings, got " + node.getNodeType()
                            + " " + Json.show(node));
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            if (p.nextToken() != JsonToken.VALUE_STRING) {
                throw new SafetensorsFormatException(
                        FormatViolation.BAD_METADATA,
                        source + ": " + Header.METADATA_KEY + " value of '" + key + "' must be a string, got "
                                + Json.show(value()));
            }
            if (metadata.put(key, p.getText()) != null) {
                throw duplicate(key);
            }
        }
        requireEndOfObject();
        return metadata;
    }

    /** Where a tensor's error is: the file and the tensor (built only for a message). */
    private String where(String name) {
        return source + ": tensor '" + name + "'";
    }

    private SafetensorsFormatException duplicate(String key) {
        return new SafetensorsFormatException(
                FormatViolation.INVALID_JSON, source + ": header is not valid JSON: Duplicate field '" + key + "'");
    }

    private void tensor(String name, Header.Builder tensors) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            JsonNode node = value();
            throw new SafetensorsFormatException(
                    FormatViolation.NOT_AN_OBJECT,
                    where(name) + ": entry must be a JSON object, got " + node.getNodeType() + " " + Json.show(node));
        }
        Dtype dtype = null;
        int rank = -1;
        boolean haveRange = false;
        // the fields come in this order from every writer we know: match their bytes without making a String
        for (int next = 0; ; next = Math.min(next + 1, FIELDS.length - 1)) {
            String field;
            if (p.nextFieldName(FIELDS[next])) {
                field = FIELDS[next].getValue();
            } else if (p.currentToken() == JsonToken.FIELD_NAME) {
                field = p.currentName();
            } else {
                break;
            }
            p.nextToken();
            switch (field) {
                case "dtype" -> {
                    if (dtype != null) {
                        throw duplicate(field);
                    }
                    dtype = dtype(name);
                }
                case "shape" -> {
                    if (rank >= 0) {
                        throw duplicate(field);
                    }
                    rank = shape(name);
                }
                case "data_offsets" -> {
                    if (haveRange) {
                        throw duplicate(field);
                    }
                    offsets(name);
                    haveRange = true;
                }
                default -> p.skipChildren(); // unknown fields are ignored, as serde ignores them
            }
        }
        requireEndOfObject();
        if (dtype == null) {
            throw new SafetensorsFormatException(
                    FormatViolation.MISSING_FIELD, where(name) + ": field 'dtype' must be a string, got missing");
        }
        if (rank < 0) {
            throw new SafetensorsFormatException(
                    FormatViolation.MISSING_FIELD, where(name) + ": field 'shape' must be an array, got missing");
        }
        if (!haveRange) {
            throw new SafetensorsFormatException(
                    FormatViolation.MISSING_FIELD,
                    where(name) + ": field 'data_offsets' must be an array, got missing");
        }
        checkSize(name, dtype, rank);
        tensors.add(name, dtype, shape, rank, range[0], range[1]);
    }

    private Dtype dtype(String name) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw new SafetensorsFormatException(
                    FormatViolation.MISSING_FIELD,
                    where(name) + ": field 'dtype' must be a string, got " + Json.show(value()));
        }
        Dtype dtype = Dtype.fromChars(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
        if (dtype == null) {
            throw new SafetensorsFormatException(
                    FormatViolation.UNKNOWN_DTYPE,
                    where(name) + ": dtype " + Json.show(TextNode.valueOf(p.getText())) + " is not one of "
                            + List.of(Dtype.values()));
        }
        return dtype;
    }

    /** Reads the shape into {@link #shape} and returns its rank. */
    private int shape(String name) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new SafetensorsFormatException(
                    FormatViolation.MISSING_FIELD,
                    where(name) + ": field 'shape' must be an array, got " + Json.show(value()));
        }
        int rank = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            requireToken();
            long dim = nonNegativeLong();
            if (dim < 0) {
                throw new SafetensorsFormatException(
                        FormatViolation.BAD_SHAPE,
                        where(name) + ": shape[" + rank + "] = " + Json.show(value())
                                + " must be a non-negative 64-bit integer");
            }
            if (rank == shape.length) {
                shape = Arrays.copyOf(shape, rank * 2);
            }
            shape[rank++] = dim;
        }
        return rank;
    }

    /** Reads data_offsets into {@link #range}. */
    private void offsets(String name) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new SafetensorsFormatException(
                    FormatViolation.MISSING_FIELD,
                    where(name) + ": field 'data_offsets' must be an array, got " + Json.show(value()));
        }
        StringJoiner shown = null; // the array as written, made only once it is known to be wrong
        int count = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            requireToken();
            long v = nonNegativeLong();
            if (shown == null && (v < 0 || count >= 2)) {
                shown = new StringJoiner(",", "[", "]");
                for (int i = 0; i < count; i++) {
                    shown.add(Long.toString(range[i]));
                }
            }
            if (shown != null) {
                shown.add(v >= 0 ? Long.toString(v) : value().toString());
            } else {
                range[count] = v;
            }
            count++;
        }
        if (shown == null && count != 2) {
            shown = new StringJoiner(",", "[", "]");
            for (int i = 0; i < count; i++) {
                shown.add(Long.toString(range[i]));
            }
        }
        if (shown != null) {
            throw new SafetensorsFormatException(
                    FormatViolation.BAD_OFFSETS,
                    where(name) + ": data_offsets " + Json.cut(shown.toString())
                            + " must be [begin, end], two non-negative 64-bit integers");
        }
        if (range[0] > range[1]) {
            throw new SafetensorsFormatException(
                    FormatViolation.BEGIN_AFTER_END,
                    where(name) + ": data_offsets [" + range[0] + "," + range[1] + "] has begin " + range[0] + " > end "
                            + range[1]);
        }
    }

    /** The current token as a non-negative {@code long}, or −1 when it is not an integer that fits one. */
    private long nonNegativeLong() throws IOException {
        if (p.currentToken() != JsonToken.VALUE_NUMBER_INT
                || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER
                || p.getLongValue() < 0) {
            return -1;
        }
        return p.getLongValue();
    }

    private void checkSize(String name, Dtype dtype, int rank) throws SafetensorsFormatException {
        long begin = range[0];
        long end = range[1];
        long expected;
        try {
            expected = dtype.byteCount(shape, rank);
        } catch (ArithmeticException e) {
            throw new SafetensorsFormatException(
                    FormatViolation.SIZE_MISMATCH,
                    where(name) + ": shape " + dims(rank) + " × " + dtype + " overflows a 64-bit byte count",
                    e);
        } catch (IllegalArgumentException e) { // F4/F6 elements that end inside a byte
            throw new SafetensorsFormatException(FormatViolation.SIZE_MISMATCH, where(name) + ": " + e.getMessage(), e);
        }
        if (expected != end - begin) {
            throw new SafetensorsFormatException(
                    FormatViolation.SIZE_MISMATCH,
                    where(name) + ": shape " + dims(rank) + " × " + dtype + " (" + bits(dtype) + ") = " + expected
                            + " bytes, but data_offsets [" + begin + ", " + end + "] span " + (end - begin));
        }
        if (end > dataBytes) {
            throw new SafetensorsFormatException(
                    FormatViolation.OUT_OF_RANGE,
                    where(name) + ": data_offsets [" + begin + ", " + end + "] end past the data section of "
                            + dataBytes + " bytes");
        }
    }

    private List<Long> dims(int rank) {
        return Arrays.stream(shape, 0, rank).boxed().toList();
    }

    private static String bits(Dtype dtype) {
        return dtype.bitSize() % 8 == 0 ? dtype.byteSize() + " bytes" : dtype.bitSize() + " bits";
    }
}
