package dev.roofline.quant.safetensors;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** A parsed and validated safetensors header: metadata and tensors in file order (by begin offset). */
record Header(Map<String, String> metadata, List<TensorInfo> tensors) {
    static final String METADATA_KEY = "__metadata__";

    Header {
        metadata = Map.copyOf(metadata);
        tensors = List.copyOf(tensors);
    }

    /**
     * Parses {@code json} and checks every rule of the format against a data section of {@code dataBytes} bytes.
     *
     * @param source names the file in error messages
     */
    static Header parse(byte[] json, long dataBytes, String source) throws SafetensorsFormatException {
        JsonNode root = Json.parse(json, source);
        if (!root.isObject()) {
            throw new SafetensorsFormatException(
                    FormatViolation.NOT_AN_OBJECT,
                    source + ": header must be a JSON object, got " + root.getNodeType() + " " + Json.show(root));
        }
        Map<String, String> metadata = Map.of();
        List<TensorInfo> tensors = new ArrayList<>();
        for (Map.Entry<String, JsonNode> field : root.properties()) {
            if (field.getKey().equals(METADATA_KEY)) {
                metadata = metadata(field.getValue(), source);
            } else {
                tensors.add(tensor(field.getKey(), field.getValue(), dataBytes, source));
            }
        }
        tensors.sort(Comparator.comparingLong(TensorInfo::begin).thenComparingLong(TensorInfo::end));
        checkNoOverlap(tensors, source);
        return new Header(metadata, tensors);
    }

    private static Map<String, String> metadata(JsonNode node, String source) throws SafetensorsFormatException {
        if (node.isNull()) {
            return Map.of();
        }
        if (!node.isObject()) {
            throw new SafetensorsFormatException(
                    FormatViolation.BAD_METADATA,
                    source + ": " + METADATA_KEY + " must be an object of strings, got " + node.getNodeType() + " "
                            + Json.show(node));
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            if (!entry.getValue().isTextual()) {
                throw new SafetensorsFormatException(
                        FormatViolation.BAD_METADATA,
                        source + ": " + METADATA_KEY + " value of '" + entry.getKey() + "' must be a string, got "
                                + Json.show(entry.getValue()));
            }
            metadata.put(entry.getKey(), entry.getValue().textValue());
        }
        return metadata;
    }

    private static TensorInfo tensor(String name, JsonNode node, long dataBytes, String source)
            throws SafetensorsFormatException {
        String where = source + ": tensor '" + name + "'";
        if (!node.isObject()) {
            throw new SafetensorsFormatException(
                    FormatViolation.NOT_AN_OBJECT,
                    where + ": entry must be a JSON object, got " + node.getNodeType() + " " + Json.show(node));
        }
        JsonNode dtypeNode = node.get("dtype");
        if (dtypeNode == null || !dtypeNode.isTextual()) {
            throw new SafetensorsFormatException(
                    FormatViolation.MISSING_FIELD,
                    where + ": field 'dtype' must be a string, got " + Json.show(dtypeNode));
        }
        Dtype dtype = Dtype.fromName(dtypeNode.textValue())
                .orElseThrow(() -> new SafetensorsFormatException(
                        FormatViolation.UNKNOWN_DTYPE,
                        where + ": dtype " + Json.show(dtypeNode) + " is not one of " + List.of(Dtype.values())));
        List<Long> shape = shape(node.get("shape"), where);
        long[] range = offsets(node.get("data_offsets"), where);
        long begin = range[0];
        long end = range[1];
        long expected;
        try {
            expected = dtype.byteCount(shape);
        } catch (ArithmeticException e) {
            throw new SafetensorsFormatException(
                    FormatViolation.SIZE_MISMATCH,
                    where + ": shape " + shape + " × " + dtype + " overflows a 64-bit byte count",
                    e);
        }
        if (expected != end - begin) {
            throw new SafetensorsFormatException(
                    FormatViolation.SIZE_MISMATCH,
                    where + ": shape " + shape + " × "
                            + dtype + " (" + dtype.byteSize() + " bytes) = " + expected + " bytes, but data_offsets ["
                            + begin + ", " + end + "] span " + (end - begin));
        }
        if (end > dataBytes) {
            throw new SafetensorsFormatException(
                    FormatViolation.OUT_OF_RANGE,
                    where + ": data_offsets [" + begin + ", " + end + "] end past the data section of " + dataBytes
                            + " bytes");
        }
        return new TensorInfo(name, dtype, shape, begin, end);
    }

    private static List<Long> shape(JsonNode node, String where) throws SafetensorsFormatException {
        if (node == null || !node.isArray()) {
            throw new SafetensorsFormatException(
                    FormatViolation.MISSING_FIELD, where + ": field 'shape' must be an array, got " + Json.show(node));
        }
        List<Long> shape = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            OptionalLong dim = Json.nonNegativeLong(node.get(i));
            if (dim.isEmpty()) {
                throw new SafetensorsFormatException(
                        FormatViolation.BAD_SHAPE,
                        where + ": shape[" + i + "] = " + Json.show(node.get(i))
                                + " must be a non-negative 64-bit integer");
            }
            shape.add(dim.getAsLong());
        }
        return shape;
    }

    private static long[] offsets(JsonNode node, String where) throws SafetensorsFormatException {
        if (node == null || !node.isArray()) {
            throw new SafetensorsFormatException(
                    FormatViolation.MISSING_FIELD,
                    where + ": field 'data_offsets' must be an array, got " + Json.show(node));
        }
        OptionalLong begin = Json.nonNegativeLong(node.get(0));
        OptionalLong end = Json.nonNegativeLong(node.get(1));
        if (node.size() != 2 || begin.isEmpty() || end.isEmpty()) {
            throw new SafetensorsFormatException(
                    FormatViolation.BAD_OFFSETS,
                    where + ": data_offsets " + Json.show(node)
                            + " must be [begin, end], two non-negative 64-bit integers");
        }
        if (begin.getAsLong() > end.getAsLong()) {
            throw new SafetensorsFormatException(
                    FormatViolation.BEGIN_AFTER_END,
                    where + ": data_offsets " + Json.show(node) + " has begin " + begin.getAsLong() + " > end "
                            + end.getAsLong());
        }
        return new long[] {begin.getAsLong(), end.getAsLong()};
    }

    /** {@code sorted} is ordered by begin; empty ranges hold no bytes and overlap nothing. */
    private static void checkNoOverlap(List<TensorInfo> sorted, String source) throws SafetensorsFormatException {
        TensorInfo reach = null;
        for (TensorInfo t : sorted) {
            if (t.byteSize() == 0) {
                continue;
            }
            if (reach != null && t.begin() < reach.end()) {
                throw new SafetensorsFormatException(
                        FormatViolation.OVERLAPPING_RANGES,
                        source + ": tensor '"
                                + t.name() + "' data_offsets [" + t.begin() + ", " + t.end() + "] overlap tensor '"
                                + reach.name() + "' [" + reach.begin() + ", " + reach.end() + "]");
            }
            if (reach == null || t.end() > reach.end()) {
                reach = t;
            }
        }
    }
}
