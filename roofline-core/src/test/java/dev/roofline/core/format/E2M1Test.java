package dev.roofline.core.format;

import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class E2M1Test {

    @Test
    void fastE2m1AgreesWithTheGeneralCodec() {
        MiniFloat fp4 = MiniFloat.of(Precision.NVFP4);
        Random r = new Random(3);
        float[] special = {
            0,
            -0f,
            0.25f,
            0.75f,
            1.25f,
            1.75f,
            2.5f,
            3.5f,
            5,
            6,
            7,
            1e9f,
            -0.25f,
            -5,
            Math.nextUp(0.25f),
            Math.nextDown(0.75f)
        };
        for (float x : special) {
            assertThat(fp4.decode(E2M1.encode(x)))
                    .as("x=%s", x)
                    .isEqualTo(fp4.decode(fp4.encode(x, Overflow.SATURATE)));
        }
        for (int i = 0; i < 200_000; i++) {
            float x = (float) ((r.nextDouble() - 0.5) * 16);
            assertThat(E2M1.encode(x)).as("x=%s", x).isEqualTo(fp4.encode(x, Overflow.SATURATE) | (x < 0 ? 8 : 0));
        }
    }

    @Test
    void negativeZeroAndNanAreTheTwoInputsWhereItDiffersFromTheGeneralCodec() {
        // -0.0 keeps no sign here (code 0; MiniFloat: 0x8); NaN compares false everywhere, so it becomes code 0
        assertThat(E2M1.encode(-0f)).isZero();
        assertThat(MiniFloat.of(Precision.MXFP4).encode(-0.0, Overflow.SATURATE))
                .isEqualTo(0x8);
        assertThat(E2M1.encode(Float.NaN)).isZero();
        // -2.6 lies between 2 (code 4) and 3 (code 5), nearer 3; bit 3 is the sign
        assertThat(E2M1.encode(-2.6f)).isEqualTo(0xD);
        assertThat(E2M1.decode(0xD)).isEqualTo(-3f);
    }
}
