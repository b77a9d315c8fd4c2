package dev.roofline.cuda.kernels;

import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WeightFormatTest {
    private static final long BIG = Long.MAX_VALUE;

    @Test
    void deviceBuffersAreCoresStorageLessTheTensorScalePlusPerRowScales() {
        // the rule: core's storageBytes, minus NVFP4's FP32 tensor scale (a kernel argument), plus one FP32 per row
        // for FP8 / INT8 (not in their core precisions), plus MXFP4's row maxima in the device scales buffer
        int[][] shapes = {{4096, 4096}, {1, 128}, {28672, 4096}, {3, 1024}};
        for (WeightFormat f : WeightFormat.values()) {
            for (int[] s : shapes) {
                int n = s[0];
                int k = s[1];
                Precision p = f.precision();
                long perRow = f == WeightFormat.FP8_E4M3 || f == WeightFormat.INT8 ? 4L * n : 0;
                long rowMaxima = f == WeightFormat.MXFP4 ? n : 0;
                long tensorScale = f == WeightFormat.NVFP4 ? 4 : 0;
                assertThat(f.storedBytes(n, k))
                        .as("%s %d x %d", f, n, k)
                        .isEqualTo(p.storageBytes(n, k) - tensorScale + perRow);
                assertThat(f.weightBytes(n, k) + f.deviceScaleBytes(n, k))
                        .as("%s %d x %d", f, n, k)
                        .isEqualTo(p.storageBytes(n, k) - tensorScale + perRow + rowMaxima);
                // the buffers the launch check accepts, exactly that size and not a byte less
                GemvShape.check(f, 1, n, k, f.weightBytes(n, k), f.deviceScaleBytes(n, k), BIG, BIG, 2);
                assertThatThrownBy(() -> GemvShape.check(
                                f, 1, n, k, f.weightBytes(n, k) - 1, f.deviceScaleBytes(n, k), BIG, BIG, 2))
                        .hasMessageContaining("weights buffer");
                if (f.deviceScaleBytes(n, k) > 0) {
                    assertThatThrownBy(() -> GemvShape.check(
                                    f, 1, n, k, f.weightBytes(n, k), f.deviceScaleBytes(n, k) - 1, BIG, BIG, 2))
                            .hasMessageContaining("scales buffer");
                    byte[] scales = new byte[Math.toIntExact(f.scaleBytes(n, k))];
                    assertThat(DeviceWeights.deviceScales(f, n, k, scales))
                            .hasSize(Math.toIntExact(f.deviceScaleBytes(n, k)));
                }
            }
        }
    }

    @Test
    void nvfp4ByHand() {
        // 4096 x 4096: 4096*4096/2 = 8,388,608 element bytes and 4096*4096/16 = 1,048,576 E4M3 block scales on the
        // device; core's storage adds the 4-byte FP32 tensor scale: 9,437,188
        assertThat(WeightFormat.NVFP4.weightBytes(4096, 4096)).isEqualTo(8_388_608L);
        assertThat(WeightFormat.NVFP4.deviceScaleBytes(4096, 4096)).isEqualTo(1_048_576L);
        assertThat(Precision.NVFP4.storageBytes(4096, 4096)).isEqualTo(9_437_188L);
        assertThat(WeightFormat.NVFP4.usesGlobalScale()).isTrue();
    }
}
