package dev.roofline.cuda.bench;

import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.blas.ElementCodec;

/** Device buffers filled with fresh random elements (never zeros: zeros run faster than real data). */
public final class DeviceInputs {
    /** FP8 values spread over [-4, 4) so they use more than the exponents near 1. */
    public static final float FP8_RANGE = 4f;

    private DeviceInputs() {}

    /** {@code elements} random values of {@code p}, in a buffer of at least {@code minBytes}. */
    public static DeviceBuffer random(Precision p, long elements, long minBytes, long seed) {
        byte[] host = ElementCodec.encode(p, ElementCodec.random(p, Math.toIntExact(elements), seed, FP8_RANGE));
        DeviceBuffer b = DeviceBuffer.allocate(Math.max(minBytes, host.length));
        try {
            b.copyFrom(host);
            return b;
        } catch (RuntimeException e) {
            b.close();
            throw e;
        }
    }

    /** A 4-byte device buffer holding one FP32 value (an FP8 per-tensor scale). */
    public static DeviceBuffer scale(float value) {
        DeviceBuffer b = DeviceBuffer.allocate(Float.BYTES);
        b.copyFrom(new float[] {value});
        return b;
    }
}
