package dev.roofline.core.format;

import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class E4M3ScaleTest {

    @Test
    void fastE4m3ScaleAgreesWithTheGeneralCodec() {
        MiniFloat e4m3 = MiniFloat.of(Precision.FP8_E4M3);
        Random r = new Random(8);
        for (int i = 0; i < 200_000; i++) {
            float s = (float) Math.scalb(1 + r.nextDouble(), r.nextInt(24) - 14);
            assertThat(E4M3Scale.encode(s)).as("s=%s", s).isEqualTo(e4m3.encode(s, Overflow.SATURATE));
        }
        for (int c = 1; c < 127; c++) { // every code, and every midpoint between neighbours (the ties)
            float v = (float) e4m3.decode(c);
            assertThat(E4M3Scale.encode(v)).isEqualTo(c);
            float mid = (float) ((e4m3.decode(c - 1) + e4m3.decode(c)) / 2);
            assertThat(E4M3Scale.encode(mid)).as("tie %s", mid).isEqualTo(e4m3.encode(mid, Overflow.SATURATE));
        }
        assertThat(E4M3Scale.encode(1e6f)).isEqualTo(126);
    }

    @Test
    void aScaleByHand() {
        // 0.171875 = 1.375 x 2^-3: exponent -3 + 7 = 4 (0100), mantissa 0.375 = 3/8 (011)
        assertThat(E4M3Scale.encode(0.171875f)).isEqualTo(0b0_0100_011);
        assertThat(E4M3Scale.decode(0x7E)).isEqualTo(448f);
    }
}
