package dev.roofline.quant.safetensors;

/** What is wrong with a safetensors file or checkpoint index; carried by {@link SafetensorsFormatException}. */
public enum FormatViolation {
    /** The file is shorter than the 8-byte header length. */
    TRUNCATED_FILE,
    /** The header length exceeds the configured limit. */
    HEADER_TOO_LARGE,
    /** The header length points past the end of the file. */
    HEADER_BEYOND_FILE,
    /** The header is not valid UTF-8 JSON (syntax, duplicate keys, trailing content, nesting or size limits). */
    INVALID_JSON,
    /** The header, or a tensor entry, is valid JSON but not a JSON object. */
    NOT_AN_OBJECT,
    /** {@code __metadata__} is not an object of string values. */
    BAD_METADATA,
    /** A tensor entry lacks {@code dtype}, {@code shape} or {@code data_offsets}, or one has the wrong JSON type. */
    MISSING_FIELD,
    /** A tensor's dtype is not one of {@link Dtype}. */
    UNKNOWN_DTYPE,
    /** A shape dimension is negative or not an integer. */
    BAD_SHAPE,
    /** {@code data_offsets} is not a pair of non-negative integers. */
    BAD_OFFSETS,
    /** {@code data_offsets} has begin greater than end. */
    BEGIN_AFTER_END,
    /** shape × dtype size differs from (or overflows, or is not a whole number of bytes for F4/F6) end − begin. */
    SIZE_MISMATCH,
    /** A byte range ends past the data section. */
    OUT_OF_RANGE,
    /** Two tensors' byte ranges overlap. */
    OVERLAPPING_RANGES,
    /** Bytes follow the end of the last tensor (the reference implementation refuses such files). */
    TRAILING_BYTES,
    /** The path is not a regular file (a folder, a FIFO, a device or a socket). */
    NOT_A_FILE,
    /** A {@code model.safetensors.index.json} is malformed or names a shard outside its directory. */
    BAD_INDEX,
    /** A shard named by the index does not exist. */
    MISSING_SHARD,
    /** The index maps a tensor to a shard that does not contain it. */
    MISSING_TENSOR
}
