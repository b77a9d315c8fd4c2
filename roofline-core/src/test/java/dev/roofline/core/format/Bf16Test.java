package dev.roofline.core.format;

import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class Bf16Test {

    @Test
    void valuesByHand() {
        // 1.0 = 0x3F800000 in FP32, so 0x3F80; -2.0 = 0xC0000000, so 0xC000
        assertThat(Bf16.encode(1f)).isEqualTo((short) 0x3F80);
        assertThat(Bf16.decode((short) 0xC000)).isEqualTo(-2f);
        // 1 + 2^-8 lies halfway between 1.0 (0x3F80) and 1 + 2^-7 (0x3F81): ties to even keeps 0x3F80
        assertThat(Bf16.encode(1f + 0x1p-8f)).isEqualTo((short) 0x3F80);
        assertThat(Bf16.encode(Math.nextUp(1f + 0x1p-8f))).isEqualTo((short) 0x3F81);
        // the largest float rounds past BF16's largest finite value (0x7F7F) to infinity (0x7F80)
        assertThat(Bf16.encode(Float.MAX_VALUE)).isEqualTo((short) 0x7F80);
        assertThat(Bf16.encode(-Float.MAX_VALUE)).isEqualTo((short) 0xFF80);
    }

    @Test
    void nanStaysNanWithItsSign() {
        assertThat(Bf16.decode(Bf16.encode(Float.NaN))).isNaN();
        assertThat(Bf16.encode(Float.intBitsToFloat(0xFF800001)) & 0xFFFF).isEqualTo(0xFFC0);
    }

    @Test
    void agreesWithTheGeneralCodecOnEveryFloatButNan() {
        MiniFloat bf16 = MiniFloat.of(Precision.BF16);
        Random r = new Random(5);
        float[] special = {
            0f,
            -0f,
            Float.MIN_VALUE,
            -Float.MIN_VALUE,
            Float.MIN_NORMAL,
            Float.MAX_VALUE,
            Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY,
            1f + 0x1p-8f,
            3f + 0x1p-7f
        };
        for (float x : special) {
            assertThat(Bf16.encode(x) & 0xFFFF).as("x=%s", x).isEqualTo(bf16.encode(x, Overflow.NON_SATURATING));
        }
        for (int i = 0; i < 200_000; i++) {
            float x = Float.intBitsToFloat(r.nextInt());
            if (!Float.isNaN(x)) {
                assertThat(Bf16.encode(x) & 0xFFFF).as("x=%s", x).isEqualTo(bf16.encode(x, Overflow.NON_SATURATING));
            }
        }
        for (int code = 0; code < 0x10000; code++) {
            double v = bf16.decode(code);
            if (!Double.isNaN(v)) {
                assertThat((double) Bf16.decode((short) code))
                        .as("code %x", code)
                        .isEqualTo(v);
            }
        }
    }
}
