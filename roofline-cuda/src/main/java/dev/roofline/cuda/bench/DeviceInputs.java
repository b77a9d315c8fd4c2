package dev.roofline.cuda.bench;

import dev.roofline.core.format.E4M3Scale;
import dev.roofline.core.format.E8M0;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.precision.ScaleFormat;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.blas.ElementCodec;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Device buffers filled with random elements (never zeros: zeros run faster than real data). The encoded host
 * elements are kept for reuse (up to {@link #HOST_CACHE_BYTES}): a sweep asks for the same 8192x8192 weights dozens of
 * times, and encoding one FP8 matrix on the host takes seconds.
 */
public final class DeviceInputs {
    /** FP8 values spread over [-4, 4) so they use more than the exponents near 1. */
    public static final float FP8_RANGE = 4f;

    static final long HOST_CACHE_BYTES = 1L << 30;

    private record Key(Precision precision, long elements, long seed) {}

    private static final Map<Key, byte[]> HOST = new LinkedHashMap<>(16, 0.75f, true);
    private static long hostBytes;

    private DeviceInputs() {}

    /** {@code elements} random values of {@code p}, in a buffer of at least {@code minBytes}. */
    public static DeviceBuffer random(Precision p, long elements, long minBytes, long seed) {
        return upload(encoded(p, elements, seed), minBytes);
    }

    /** {@code host} in a new device buffer of at least {@code minBytes}; the buffer is freed if the copy fails. */
    private static DeviceBuffer upload(byte[] host, long minBytes) {
        DeviceBuffer b = DeviceBuffer.allocate(Math.max(minBytes, host.length));
        try {
            b.copyFrom(host);
            return b;
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
    }

    private static synchronized byte[] encoded(Precision p, long elements, long seed) {
        Key k = new Key(p, elements, seed);
        byte[] b = HOST.get(k);
        if (b == null) {
            b = ElementCodec.encode(p, ElementCodec.random(p, Math.toIntExact(elements), seed, FP8_RANGE));
            HOST.put(k, b);
            hostBytes += b.length;
            for (var it = HOST.entrySet().iterator(); hostBytes > HOST_CACHE_BYTES && it.hasNext(); ) {
                var e = it.next();
                if (e.getKey().equals(k)) {
                    continue;
                }
                hostBytes -= e.getValue().length;
                it.remove();
            }
        }
        return b;
    }

    /**
     * {@code bytes} block scales of 1 in {@code format} (E4M3 for NVFP4, E8M0 for MX): a timed product then reads real
     * scales without random ones turning elements into NaN (E8M0 0xFF) or zero.
     */
    public static DeviceBuffer unitBlockScales(ScaleFormat format, long bytes) {
        byte[] host = new byte[Math.toIntExact(bytes)];
        Arrays.fill(host, unitScaleCode(format));
        return upload(host, 1);
    }

    /** The one-byte code of a block scale of 1 in {@code format}. */
    static byte unitScaleCode(ScaleFormat format) {
        return (byte)
                switch (format) {
                    case E4M3 -> E4M3Scale.encode(1f);
                    case E8M0 -> E8M0.encodeExponent(0);
                    default -> throw new IllegalArgumentException("block scales are E4M3 or E8M0, got " + format);
                };
    }

    /** A 4-byte device buffer holding one FP32 value (an FP8 per-tensor scale). */
    public static DeviceBuffer scale(float value) {
        DeviceBuffer b = DeviceBuffer.allocate(Float.BYTES);
        b.copyFrom(new float[] {value});
        return b;
    }
}
