package dev.roofline.core.roofline;

import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A block-scaled activation operand reads its scales in cuBLASLt's 128-row tiles, in a GEMM and a grouped GEMM alike:
 * at 1 token of K = 4096 in NVFP4, 2048 element bytes, 128 x 256 scale bytes (not 256) and the 4-byte tensor scale; the
 * weights' scales too when both operands are block-scaled.
 */
class BlockScaledActivationBytesTest {

    private static final long NVFP4_A = 4096 / 2 + 128 * 256 + 4;

    @Test
    void aGemmPadsItsActivationScalesTo128Rows() {
        Gemm g = new Gemm("g", 1, 1, 4096, 4096, Precision.FP16, Precision.NVFP4, Precision.FP16);
        assertThat(g.bytes()).isEqualTo(NVFP4_A + 4096L * 4096 * 2 + 4096 * 2);
        // FP16 activations have no scales to pad
        Gemm f = new Gemm("f", 1, 1, 4096, 4096, Precision.FP16, Precision.FP16, Precision.FP16);
        assertThat(f.bytes()).isEqualTo(4096 * 2 + 4096L * 4096 * 2 + 4096 * 2);
    }

    @Test
    void aGroupedGemmPadsTheSameWay() {
        // 2 experts touched of 1024 x 4096 FP16 each, 1 token
        GroupedGemm g = new GroupedGemm("e", 2, 1, 1024, 4096, Precision.FP16, Precision.NVFP4, Precision.FP16);
        assertThat(g.bytes()).isEqualTo(2 * 1024L * 4096 * 2 + NVFP4_A + 1024 * 2);
    }

    @Test
    void weightScalesAreTiledOnlyWhenBothOperandsAreBlockScaled() {
        // N = 200 rows, K = 4096 (256 blocks of 16): elements 200 x 4096 / 2 = 409,600 B; row-major scales 200 x 256 =
        // 51,200 B and the 4-byte tensor scale. Tiled, the rows pad to 256: 256 x 256 = 65,536 B of scales
        long elements = 200L * 4096 / 2;
        long rowMajor = elements + 200 * 256 + 4;
        long tiled = elements + 256 * 256 + 4;
        Gemm weightOnly = new Gemm("w", 1, 1, 200, 4096, Precision.NVFP4, Precision.FP16, Precision.FP16);
        assertThat(weightOnly.bytes()).isEqualTo(rowMajor + 4096 * 2 + 200 * 2);
        Gemm both = new Gemm("b", 1, 1, 200, 4096, Precision.NVFP4, Precision.NVFP4, Precision.FP16);
        assertThat(both.bytes()).isEqualTo(tiled + NVFP4_A + 200 * 2);
        // and in a grouped GEMM, per expert
        GroupedGemm grouped = new GroupedGemm("e", 2, 1, 200, 4096, Precision.NVFP4, Precision.NVFP4, Precision.FP16);
        assertThat(grouped.bytes()).isEqualTo(2 * tiled + NVFP4_A + 200 * 2);
    }
}
