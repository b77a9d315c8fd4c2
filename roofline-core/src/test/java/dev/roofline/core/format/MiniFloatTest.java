package dev.roofline.core.format;

import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MiniFloatTest {

    @Test
    void e2m1DecodesToTheOcpTable() {
        // OCP MX v1.0, FP4 E2M1: codes 0..7 are 0, 0.5, 1, 1.5, 2, 3, 4, 6; bit 3 is the sign
        double[] positive = {0, 0.5, 1, 1.5, 2, 3, 4, 6};
        MiniFloat fp4 = MiniFloat.of(Precision.MXFP4);
        for (int c = 0; c < 8; c++) {
            assertThat(fp4.decode(c)).isEqualTo(positive[c]);
            assertThat(fp4.decode(c | 8)).isEqualTo(-positive[c]);
        }
    }

    @ParameterizedTest
    @CsvSource({
        // OCP 8-bit FP spec, E4M3: max normal S.1111.110 = 448, min normal 2^-6, min subnormal 2^-9
        "FP8_E4M3, 0x7E, 448",
        "FP8_E4M3, 0x08, 0.015625",
        "FP8_E4M3, 0x01, 0.001953125",
        "FP8_E4M3, 0x38, 1",
        "FP8_E4M3, 0xFE, -448",
        // E5M2: max normal 57344, min subnormal 2^-16
        "FP8_E5M2, 0x7B, 57344",
        "FP8_E5M2, 0x01, 0.0000152587890625",
        "FP8_E5M2, 0x3C, 1",
        // IEEE half: 0x7BFF = 65504, 0x0001 = 2^-24, 0x3C00 = 1
        "FP16, 0x7BFF, 65504",
        "FP16, 0x0001, 5.9604644775390625E-8",
        "FP16, 0x3C00, 1",
        // bfloat16: 0x3F80 = 1, 0x4049 = 3.140625
        "BF16, 0x3F80, 1",
        "BF16, 0x4049, 3.140625",
        // FP6 (OCP MX): E3M2 max 28 = 0x1F, E2M3 max 7.5 = 0x1F, E2M3 min subnormal 0.125
        "MXFP6_E3M2, 0x1F, 28",
        "MXFP6_E2M3, 0x1F, 7.5",
        "MXFP6_E2M3, 0x01, 0.125",
        "MXFP6_E3M2, 0x01, 0.0625"
    })
    void decodesReferenceCodes(Precision p, String hex, double value) {
        assertThat(MiniFloat.of(p).decode(Integer.decode(hex))).isEqualTo(value);
    }

    @Test
    void specialCodesFollowEachFormat() {
        MiniFloat e4m3 = MiniFloat.of(Precision.FP8_E4M3);
        assertThat(e4m3.decode(0x7F)).isNaN();
        assertThat(e4m3.decode(0xFF)).isNaN();
        assertThat(e4m3.decode(0x78)).isEqualTo(256); // exponent all ones is finite in the fn format
        MiniFloat e5m2 = MiniFloat.of(Precision.FP8_E5M2);
        assertThat(e5m2.decode(0x7C)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(e5m2.decode(0xFC)).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(e5m2.decode(0x7D)).isNaN();
    }

    @ParameterizedTest
    @EnumSource(
            value = Precision.class,
            names = {"FP16", "BF16", "FP8_E4M3", "FP8_E5M2", "MXFP6_E3M2", "MXFP6_E2M3", "MXFP4"})
    void everyFiniteCodeRoundTrips(Precision p) {
        MiniFloat f = MiniFloat.of(p);
        for (int c = 0; c < f.codeCount(); c++) {
            double v = f.decode(c);
            if (Double.isNaN(v)) {
                assertThat(f.decode(f.encode(v, Overflow.NON_SATURATING))).isNaN();
                continue;
            }
            assertThat(f.encode(v, Overflow.NON_SATURATING))
                    .as("%s code 0x%X = %s", p, c, v)
                    .isEqualTo(c);
        }
    }

    @Test
    void maxFiniteAgreesWithTheCatalog() {
        for (Precision p : new Precision[] {
            Precision.FP16,
            Precision.BF16,
            Precision.FP8_E4M3,
            Precision.FP8_E5M2,
            Precision.MXFP6_E3M2,
            Precision.MXFP6_E2M3,
            Precision.MXFP4,
            Precision.NVFP4
        }) {
            assertThat(MiniFloat.of(p).maxFinite()).as(p.name()).isEqualTo(p.maxFinite());
        }
    }

    @ParameterizedTest
    @CsvSource({
        // E2M1 ties go to the even mantissa: 0.25 between 0 and 0.5 -> 0; 0.75 between 0.5 and 1 -> 1;
        // 1.25 -> 1; 1.75 -> 2; 2.5 -> 2; 3.5 -> 4; 5 -> 4
        "0.25, 0",
        "0.75, 1",
        "1.25, 1",
        "1.75, 2",
        "2.5, 2",
        "3.5, 4",
        "5, 4",
        // not ties: nearest value
        "0.26, 0.5",
        "2.6, 3",
        "5.1, 6",
        "-5.1, -6"
    })
    void e2m1RoundsToNearestEven(double in, double out) {
        MiniFloat fp4 = MiniFloat.of(Precision.NVFP4);
        assertThat(fp4.decode(fp4.encode(in, Overflow.SATURATE))).isEqualTo(out);
    }

    @Test
    void e4m3RoundingAndOverflow() {
        MiniFloat f = MiniFloat.of(Precision.FP8_E4M3);
        assertThat(f.decode(f.encode(300, Overflow.SATURATE))).isEqualTo(288); // 288 and 320 around it
        assertThat(f.decode(f.encode(464, Overflow.NON_SATURATING))).isEqualTo(448); // tie 448/480 -> even 448
        assertThat(f.decode(f.encode(470, Overflow.NON_SATURATING))).isNaN(); // rounds to 480: overflow -> NaN
        assertThat(f.decode(f.encode(470, Overflow.SATURATE))).isEqualTo(448);
        assertThat(f.decode(f.encode(Double.NEGATIVE_INFINITY, Overflow.SATURATE)))
                .isEqualTo(-448);
        // subnormal ties: 2^-10 lies halfway between 0 and 2^-9 -> 0 (even); 3*2^-10 between 2^-9 and 2^-8 -> 2^-8
        assertThat(f.decode(f.encode(Math.scalb(1.0, -10), Overflow.SATURATE))).isEqualTo(0.0);
        assertThat(f.decode(f.encode(3 * Math.scalb(1.0, -10), Overflow.SATURATE)))
                .isEqualTo(Math.scalb(1.0, -8));
    }

    @Test
    void fp16MatchesJavaFloat16Conversion() {
        MiniFloat f = MiniFloat.of(Precision.FP16);
        java.util.Random r = new java.util.Random(7);
        for (int i = 0; i < 100_000; i++) {
            float x = (float) ((r.nextDouble() - 0.5) * Math.pow(2, r.nextInt(40) - 25));
            assertThat(f.encode(x, Overflow.NON_SATURATING)).as("%s", x).isEqualTo(Float.floatToFloat16(x) & 0xFFFF);
        }
        assertThat(f.encode(65520, Overflow.NON_SATURATING)).isEqualTo(0x7C00); // rounds past 65504: +inf
    }

    @Test
    void formatsWithoutSpecialsRejectWhatTheyCannotHold() {
        MiniFloat fp4 = MiniFloat.of(Precision.MXFP4);
        assertThatThrownBy(() -> fp4.encode(Double.NaN, Overflow.SATURATE)).hasMessageContaining("has no NaN");
        assertThatThrownBy(() -> fp4.encode(7, Overflow.NON_SATURATING))
                .hasMessageContaining("largest finite value 6.0")
                .hasMessageContaining("SATURATE");
        assertThat(fp4.encode(7, Overflow.SATURATE)).isEqualTo(0x7);
        assertThatThrownBy(() -> fp4.decode(16))
                .hasMessageContaining("code must be in [0, 15]")
                .hasMessageContaining("16");
        assertThatThrownBy(() -> MiniFloat.of(Precision.INT8))
                .hasMessageContaining("float format")
                .hasMessageContaining("INT8");
    }

    @Test
    void theJavadocExampleGivesCode0x79For300() {
        // E4M3 0x79 = 0 1111 001: 2^(15-7) · (1 + 1/8) = 288; 0x75 would be 2^(14-7) · (1 + 5/8) = 208
        MiniFloat e4m3 = MiniFloat.of(Precision.FP8_E4M3);
        assertThat(e4m3.encode(300.0, Overflow.SATURATE)).isEqualTo(0x79);
        assertThat(e4m3.decode(0x79)).isEqualTo(288);
        assertThat(e4m3.decode(0x75)).isEqualTo(208);
        assertThat(e4m3.decode(0x7E)).isEqualTo(448);
    }

    @Test
    void nullArgumentsAreNamed() {
        assertThatThrownBy(() -> MiniFloat.of(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("precision must not be null");
        // a null overflow used to be taken silently as NON_SATURATING
        assertThatThrownBy(() -> MiniFloat.of(Precision.FP8_E4M3).encode(1000, null))
                .hasMessage("overflow must not be null: say Overflow.SATURATE or Overflow.NON_SATURATING");
    }
}
