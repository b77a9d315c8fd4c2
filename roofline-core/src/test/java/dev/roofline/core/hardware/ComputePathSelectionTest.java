package dev.roofline.core.hardware;

import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which ceiling mixed-precision multiplies run at: the wider operand's, when the other converts to it exactly. */
class ComputePathSelectionTest {

    @Test
    void fourBitIntegersWithInt8ActivationsRunOnInt8TensorCores() {
        // -8..7 are INT8 values: H100 SXM's INT8 ceiling, 3958 TOPS with sparsity / 2
        for (Precision w : new Precision[] {Precision.INT4, Precision.INT4_G128, Precision.INT2}) {
            ComputePath p = Hardware.H100_SXM.computePath(w, Precision.INT8);
            assertThat(p.executedAs()).as(w.displayName()).isEqualTo(Precision.INT8);
            assertThat(p.nativePath()).isTrue();
            assertThat(p.ceiling().flopsPerSecond()).isEqualTo(1979e12);
            assertThat(p.method()).contains(w.displayName() + " weights converted to INT8, INT8 tensor cores");
        }
    }

    @Test
    void fourBitIntegersAndE2M1ConvertExactlyToFp8() {
        // E4M3 has a 4-bit significand: every integer up to 16 and every E2M1 value (0.5 .. 6) is exact
        assertThat(Hardware.B200.computePath(Precision.INT4, Precision.FP8_E4M3).executedAs())
                .isEqualTo(Precision.FP8_E4M3);
        assertThat(Hardware.B200
                        .computePath(Precision.NVFP4, Precision.FP8_E4M3)
                        .executedAs())
                .isEqualTo(Precision.FP8_E4M3);
        assertThat(Fallbacks.holdsExactly(Precision.FP8_E5M2, Precision.INT4)).isTrue(); // 7 = 1.11b x 2^2
        assertThat(Fallbacks.holdsExactly(Precision.FP8_E4M3, Precision.INT8)).isFalse(); // 127 needs 7 bits
        assertThat(Fallbacks.holdsExactly(Precision.FP16, Precision.INT8)).isTrue();
        assertThat(Fallbacks.holdsExactly(Precision.INT8, Precision.NVFP4)).isFalse(); // 0.5, 1.5 are not integers
    }

    @Test
    void formatsThatDoNotConvertExactlyMultiplyAsFp16() {
        // NVFP4 or NF4 values are not INT8 values, and INT8 is not FP8: both operands go to FP16 (989.5 TFLOPS)
        for (Precision[] pair : new Precision[][] {
            {Precision.NVFP4, Precision.INT8},
            {Precision.NF4, Precision.INT8},
            {Precision.NF4, Precision.FP8_E4M3},
            {Precision.INT8, Precision.FP8_E4M3}
        }) {
            ComputePath p = Hardware.H100_SXM.computePath(pair[0], pair[1]);
            assertThat(p.executedAs()).as(pair[0] + " x " + pair[1]).isEqualTo(Precision.FP16);
            assertThat(p.ceiling().flopsPerSecond()).isEqualTo(989.5e12);
            assertThat(p.method()).contains("both converted to FP16");
        }
    }
}
