package dev.roofline.cuda.blas;

import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a block-scaled product's scale buffers must hold: each operand's scales in 128 × 4 tiles, by hand. */
class BlockScaleBytesTest {

    @Test
    void nvfp4PadsTheOneActivationRowTo128() {
        // K = 4096 in blocks of 16: 256 scales a row. Weights: 4096 rows x 256; one activation row: 128 x 256
        Gemm g = new Gemm("g", 1, 1, 4096, 4096, Precision.NVFP4, Precision.NVFP4, Precision.FP16);
        assertThat(Matmul.requiredBlockScaleBytes(g)).isEqualTo(new Matmul.BlockScaleBytes(4096L * 256, 128L * 256));
    }

    @Test
    void mxfp8PadsRowsAndScaleColumns() {
        // K = 160 in blocks of 32: 5 scales a row, padded to 8; 257 weight rows and 300 activation rows to 384
        Gemm g = new Gemm("g", 1, 300, 257, 160, Precision.MXFP8_E4M3, Precision.MXFP8_E4M3, Precision.BF16);
        assertThat(Matmul.requiredBlockScaleBytes(g)).isEqualTo(new Matmul.BlockScaleBytes(384L * 8, 384L * 8));
    }

    @Test
    void aProductWithoutBlockScalesNeedsNone() {
        Gemm g = new Gemm("g", 1, 8, 4096, 4096, Precision.FP8_E4M3, Precision.FP8_E4M3, Precision.FP16);
        assertThat(Matmul.requiredBlockScaleBytes(g)).isEqualTo(new Matmul.BlockScaleBytes(0, 0));
    }

    @Test
    void blockScaledProductsNeedWholeBlocksOfK() {
        Gemm ragged = Gemm.of(1, 4096, 4080).in(Precision.NVFP4);
        assertThatThrownBy(() -> Matmul.requireWholeScaleBlocks(ragged))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("K=4080");
        Matmul.requireWholeScaleBlocks(Gemm.of(1, 4096, 4096).in(Precision.NVFP4));
        // a product without block scales is not this rule's business
        Matmul.requireWholeScaleBlocks(Gemm.of(1, 4096, 4080));
    }
}
