package dev.roofline.cuda.kernels;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GemvShapeTest {
    private static final long BIG = 1L << 40;

    @Test
    void storedBytesMatchTheQuantizersLayouts() {
        // hand counts for W[4096x4096]: NVFP4 = 4096*4096/2 elements + one E4M3 byte per 16
        assertThat(WeightFormat.NVFP4.storedBytes(4096, 4096)).isEqualTo(8_388_608L + 1_048_576L);
        assertThat(WeightFormat.MXFP4.scaleBytes(4096, 4096)).isEqualTo(4096L * 128);
        assertThat(WeightFormat.INT4.scaleBytes(4096, 4096)).isEqualTo(4L * 4096 * 32);
        assertThat(WeightFormat.INT8.scaleBytes(4096, 4096)).isEqualTo(4L * 4096);
        assertThat(WeightFormat.FP16.scaleBytes(4096, 4096)).isZero();
    }

    @Test
    void rejectsBatchOutside1To16() {
        assertThatThrownBy(() -> GemvShape.check(WeightFormat.FP16, 0, 64, 64, BIG, 0, BIG, BIG, 2))
                .hasMessageContaining("M (activation rows) must be 1..16, got 0");
        assertThatThrownBy(() -> GemvShape.check(WeightFormat.FP16, 17, 64, 64, BIG, 0, BIG, BIG, 2))
                .hasMessageContaining("got 17");
    }

    @Test
    void rejectsInt4KOutsideWholeGroups() {
        assertThatThrownBy(() -> GemvShape.check(WeightFormat.INT4, 1, 64, 96, BIG, BIG, BIG, BIG, 2))
                .hasMessageContaining("multiple of 128, got 96");
    }

    @Test
    void rejectsShortScaleBuffer() {
        assertThatThrownBy(() -> GemvShape.check(WeightFormat.NVFP4, 1, 64, 64, BIG, 255, BIG, BIG, 2))
                .hasMessageContaining("scales buffer holds 255 bytes").hasMessageContaining("needs 256");
    }

    @Test
    void rejectsShortOutput() {
        assertThatThrownBy(() -> GemvShape.check(WeightFormat.FP8_E4M3, 2, 64, 64, BIG, BIG, BIG, 255, 2))
                .hasMessageContaining("y buffer holds 255 bytes");
    }

    @Test
    void kernelNamesMatchGemvCu() {
        assertThat(GemvKernels.kernelName(WeightFormat.NVFP4, Activation.BF16, true)).isEqualTo("gemv_nvfp4_bf16_m1");
        assertThat(GemvKernels.kernelName(WeightFormat.FP8_E4M3, Activation.F16, false)).isEqualTo("gemv_fp8_f16_m16");
    }

    @Test
    void fatbinIsEmbedded() {
        byte[] fatbin = GemvKernels.embeddedFatbin();
        // fatbin header magic 0xBA55ED50, little-endian
        assertThat(fatbin).hasSizeGreaterThan(1000).startsWith((byte) 0x50, (byte) 0xED, (byte) 0x55, (byte) 0xBA);
    }
}
