package dev.roofline.quant.safetensors;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** safetensors bytes built by hand, independently of {@link SafetensorsWriter}. */
final class HandBuilt {
    private HandBuilt() {}

    /** 8-byte little-endian {@code headerLength}, then {@code header}'s UTF-8 bytes, then {@code data}. */
    static byte[] file(long headerLength, String header, byte[] data) {
        byte[] json = header.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + json.length + data.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(headerLength)
                .put(json)
                .put(data)
                .array();
    }

    /** A file whose header length is the header's true length. */
    static byte[] file(String header, byte[] data) {
        return file(header.getBytes(StandardCharsets.UTF_8).length, header, data);
    }

    static Path write(Path directory, String name, byte[] bytes) throws IOException {
        return Files.write(directory.resolve(name), bytes);
    }

    /** Little-endian bytes of floats. */
    static byte[] f32(float... values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putFloat(v);
        }
        return b.array();
    }

    /** Little-endian bytes of 16-bit codes. */
    static byte[] u16(int... codes) {
        ByteBuffer b = ByteBuffer.allocate(2 * codes.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int c : codes) {
            b.putShort((short) c);
        }
        return b.array();
    }

    static byte[] concat(byte[]... parts) {
        ByteBuffer b =
                ByteBuffer.allocate(Arrays.stream(parts).mapToInt(p -> p.length).sum());
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }
}
