package dev.roofline.core.roofline;

import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A block-scaled activation operand reads its scales in cuBLASLt's 128-row tiles, in a GEMM and a grouped GEMM alike:
 * at 1 token of K = 4096 in NVFP4, 2048 element bytes, 128 x 256 scale bytes (not 256) and the 4-byte tensor scale.
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
}
