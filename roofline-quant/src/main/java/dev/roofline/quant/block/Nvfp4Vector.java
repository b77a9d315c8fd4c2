package dev.roofline.quant.block;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The NVFP4 element loop with the Vector API: the same arithmetic as {@link dev.roofline.core.format.E2M1#encode} (one division by the block
 * scale, the seven bound comparisons, the sign of the quotient), several lanes at a time. Loaded only when the
 * jdk.incubator.vector module is present ({@link Nvfp4Quantizer} checks), so the library runs without it.
 */
final class Nvfp4Vector {
    private Nvfp4Vector() {}

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED.length() >= Nvfp4Tensor.BLOCK
            ? FloatVector.SPECIES_512
            : FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Integer> I = VectorSpecies.of(int.class, F.vectorShape());
    /** The codes of one vector as bytes, and those bytes taken two at a time as shorts. */
    private static final VectorSpecies<Byte> B = VectorSpecies.of(byte.class, VectorShape.forBitSize(F.length() * 8));

    private static final VectorSpecies<Byte> B2 =
            VectorSpecies.of(byte.class, VectorShape.forBitSize(F.length() * 4 < 64 ? 64 : F.length() * 4));

    /** Usable when a block is a whole number of vectors. */
    static boolean usable() {
        return F.length() <= Nvfp4Tensor.BLOCK && Nvfp4Tensor.BLOCK % F.length() == 0;
    }

    /** Largest |w| of the whole array: NaN or infinity when any value is not finite. */
    static float absMax(float[] w) {
        FloatVector m = FloatVector.zero(F);
        int i = 0;
        for (int up = F.loopBound(w.length); i < up; i += F.length()) {
            m = m.max(FloatVector.fromArray(F, w, i).abs());
        }
        float r = m.reduceLanes(VectorOperators.MAX);
        for (; i < w.length; i++) {
            r = Math.max(r, Math.abs(w[i]));
        }
        return r;
    }

    private static final VectorSpecies<Short> S = ShortVector.SPECIES_PREFERRED;
    /** As many shorts as F has floats, to widen BF16 bits lane by lane. */
    private static final VectorSpecies<Short> S_F =
            VectorSpecies.of(short.class, VectorShape.forBitSize(Math.max(64, F.length() * 16)));

    /** The largest BF16 magnitude as bits with the sign cleared (magnitudes order like these bits). */
    static int bf16MaxMagnitudeBits(short[] bits) {
        ShortVector m = ShortVector.zero(S);
        int i = 0;
        for (int up = S.loopBound(bits.length); i < up; i += S.length()) {
            m = m.max(ShortVector.fromArray(S, bits, i).and((short) 0x7FFF));
        }
        int r = m.reduceLanes(VectorOperators.MAX);
        for (; i < bits.length; i++) {
            r = Math.max(r, bits[i] & 0x7FFF);
        }
        return r;
    }

    /** dst[0 .. n) = the floats of BF16 bits src[from .. from + n); n a multiple of 16. */
    static void widenBf16(short[] src, int from, float[] dst, int n) {
        for (int i = 0; i < n; i += F.length()) {
            IntVector wide =
                    (IntVector) ShortVector.fromArray(S_F, src, from + i).convertShape(VectorOperators.S2I, I, 0);
            wide.lanewise(VectorOperators.LSHL, 16).reinterpretAsFloats().intoArray(dst, i);
        }
    }

    /** Largest |w| of one block. */
    static float blockMax(float[] w, int from) {
        float m = 0;
        for (int j = 0; j < Nvfp4Tensor.BLOCK; j += F.length()) {
            m = Math.max(m, FloatVector.fromArray(F, w, from + j).abs().reduceLanes(VectorOperators.MAX));
        }
        return m;
    }

    /** E2M1 codes of w[from .. from+16) / scale, packed two per byte (element 2i low) into packed[packedAt ..). */
    static void encodeBlock(float[] w, int from, float scale, byte[] packed, int packedAt) {
        IntVector one = IntVector.broadcast(I, 1);
        IntVector eight = IntVector.broadcast(I, 8);
        for (int j = 0; j < Nvfp4Tensor.BLOCK; j += F.length()) {
            FloatVector q = FloatVector.fromArray(F, w, from + j).div(scale);
            FloatVector m = q.abs();
            IntVector c = IntVector.zero(I)
                    .add(one, m.compare(VectorOperators.GT, 0.25f).cast(I))
                    .add(one, m.compare(VectorOperators.GE, 0.75f).cast(I))
                    .add(one, m.compare(VectorOperators.GT, 1.25f).cast(I))
                    .add(one, m.compare(VectorOperators.GE, 1.75f).cast(I))
                    .add(one, m.compare(VectorOperators.GT, 2.5f).cast(I))
                    .add(one, m.compare(VectorOperators.GE, 3.5f).cast(I))
                    .add(one, m.compare(VectorOperators.GT, 5f).cast(I))
                    .add(eight, q.compare(VectorOperators.LT, 0f).cast(I));
            // pairs of codes as 16-bit lanes (even code in the low byte), folded to one byte each
            ShortVector pairs = ((ByteVector) c.convertShape(VectorOperators.I2B, B, 0)).reinterpretAsShorts();
            ShortVector nibbles = pairs.and((short) 0x0F)
                    .or(pairs.lanewise(VectorOperators.LSHR, 4).and((short) 0xF0));
            ByteVector bytes = (ByteVector) nibbles.convertShape(VectorOperators.S2B, B2, 0);
            if (B2.length() == F.length() / 2) {
                bytes.intoArray(packed, packedAt + (j >>> 1));
            } else { // narrow vectors: the byte vector is wider than the bytes it holds
                bytes.intoArray(packed, packedAt + (j >>> 1), B2.indexInRange(0, F.length() / 2));
            }
        }
    }
}
