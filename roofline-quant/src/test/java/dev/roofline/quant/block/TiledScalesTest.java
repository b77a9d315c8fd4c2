package dev.roofline.quant.block;

import dev.roofline.core.format.ScaleTiles;
import dev.roofline.core.precision.Precision;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ModelOpt's row-major block scales ({@code weight_scale [N, K/16]}) and MX's ({@code [N, K/32]}) through the tiled
 * layout the block-scaled matmul reads: every scale lands where the layout's formula puts it and comes back unchanged.
 */
class TiledScalesTest {

    /** Gaussian values whose 16-element blocks differ in amplitude by powers of two, so their scales differ. */
    private static float[] gaussian(int n, long seed) {
        Random rnd = new Random(seed);
        float[] w = new float[n];
        for (int i = 0; i < n; i++) {
            w[i] = (float) (rnd.nextGaussian() * Math.scalb(1.0, (i / 16 * 7) % 11 - 5));
        }
        return w;
    }

    @Test
    void nvfp4ScalesLoseNothingThroughTheTiles() {
        // 300 rows x 208 columns: 13 scales a row, padded to 384 x 16
        Nvfp4Tensor t = Nvfp4Quantizer.modelOpt().quantize(gaussian(300 * 208, 3), 300, 208);
        byte[] tiled = t.tiledBlockScales();
        assertThat(tiled).hasSize(384 * 16);
        assertThat(ScaleTiles.of(300, 13).untile(tiled)).isEqualTo(t.blockScales());
        // row 33, block 1 (columns 16..31): tile 0, (33 mod 32) * 16 + 1 * 4 + 1 = 21
        assertThat(tiled[21]).isEqualTo(t.blockScales()[33 * 13 + 1]);
        assertThat(t.blockScales()[33 * 13 + 1]).isNotEqualTo(t.blockScales()[1 * 13 + 1]); // row 1 sits at 16 + 1
        // row 130, block 5: row tile 1 of 4 tiles along K, second tile along K: (1 * 4 + 1) * 512 + 2 * 16 + 1 = 2593
        assertThat(tiled[2593]).isEqualTo(t.blockScales()[130 * 13 + 5]);
    }

    @Test
    void mxScalesLoseNothingThroughTheTiles() {
        // MXFP8 E4M3, 257 rows x 160 columns: 5 scales a row, padded to 384 x 8
        MxTensor t = MxQuantizer.quantize(Precision.MXFP8_E4M3, gaussian(257 * 160, 5), 257, 160);
        byte[] tiled = t.tiledScales();
        assertThat(tiled).hasSize(384 * 8);
        assertThat(ScaleTiles.of(257, 5).untile(tiled)).isEqualTo(t.scales());
        // 257 rows are 3 row tiles of 2 tiles along K each; row 256, the third tile's only row: (2 * 2 + 0) * 512;
        // row 128 starts the second row tile: (1 * 2 + 0) * 512
        assertThat(tiled[2048]).isEqualTo(t.scales()[256 * 5]);
        assertThat(tiled[1024]).isEqualTo(t.scales()[128 * 5]);
        assertThat(t.scales()[256 * 5]).isNotEqualTo(t.scales()[128 * 5]); // so the two checks tell them apart
    }
}
