package dev.roofline.cuda.bench;

import dev.roofline.core.format.E8M0;
import dev.roofline.core.format.MiniFloat;
import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The benchmark's random weights stay in the ranges its javadoc states, so no kernel sees Inf, NaN or wild scales. */
class RandomGemvWeightsTest {
    private static final int N = 64;
    private static final int K = 4096;

    @Test
    void nvfp4GlobalScaleIsOneOverTheLargestE4m3TimesTheLargestE2m1() {
        assertThat(RandomGemvWeights.NVFP4_GLOBAL_SCALE).isEqualTo(1f / (448 * 6));
    }

    @Test
    void sixteenBitElementsAreFiniteAndSmall() {
        for (WeightFormat f : new WeightFormat[] {WeightFormat.FP16, WeightFormat.BF16}) {
            MiniFloat codec = MiniFloat.of(f.precision());
            ByteBuffer b = ByteBuffer.wrap(RandomGemvWeights.elements(f, N, K, new SplittableRandom(1)))
                    .order(ByteOrder.LITTLE_ENDIAN);
            double max = 0;
            for (int i = 0; i < N * K; i++) {
                double v = codec.decode(b.getShort(2 * i) & 0xFFFF);
                assertThat(v).as("%s element %d", f, i).isFinite();
                max = Math.max(max, Math.abs(v));
            }
            // the FP16 mask leaves exponents up to 14 (values in [0.5, 1) at most), the BF16 mask up to 127 ([1, 2))
            double top = f == WeightFormat.FP16 ? 1 : 2;
            assertThat(max).as(f.name()).isLessThan(top).isGreaterThanOrEqualTo(top / 2);
        }
    }

    @Test
    void fp8ElementsAreFiniteWithEveryOtherCode() {
        MiniFloat e4m3 = MiniFloat.of(Precision.FP8_E4M3);
        boolean[] seen = new boolean[256];
        for (byte c : RandomGemvWeights.elements(WeightFormat.FP8_E4M3, N, K, new SplittableRandom(4))) {
            assertThat(e4m3.decode(c & 0xFF)).as("code 0x%02x", c & 0xFF).isFinite();
            seen[c & 0xFF] = true;
        }
        // 262,144 draws of 254 codes: each appears; 0x7E and 0xFE (+-448) take the NaN codes' share too
        for (int c = 0; c < 256; c++) {
            assertThat(seen[c]).as("code 0x%02x", c).isEqualTo((c & 0x7F) != 0x7F);
        }
    }

    @Test
    void blockScalesSpanTheStatedPowersOfTwo() {
        MiniFloat e4m3 = MiniFloat.of(Precision.FP8_E4M3);
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (byte c : RandomGemvWeights.scales(WeightFormat.NVFP4, N, K, new SplittableRandom(2))) {
            double v = e4m3.decode(c & 0xFF);
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        assertThat(lo).isEqualTo(0x1p-4);
        assertThat(hi).isEqualTo(7.5); // the largest E4M3 value below 2^3: 1.875 x 2^2
        lo = Double.MAX_VALUE;
        hi = 0;
        for (byte c : RandomGemvWeights.scales(WeightFormat.MXFP4, N, K, new SplittableRandom(3))) {
            double v = E8M0.decode(c & 0xFF);
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        assertThat(lo).isEqualTo(0x1p-8);
        assertThat(hi).isEqualTo(0x1p1);
        assertThat(RandomGemvWeights.scales(WeightFormat.FP16, N, K, new SplittableRandom(4)))
                .isNull();
    }
}
