package dev.roofline.core.format;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScaleTilesTest {

    @Test
    void offsetsAreTheSpecsFormulaWorkedByHand() {
        // 256 rows x 8 scale columns (an NVFP4 operand of K = 128): 2 row tiles, 2 tiles along K
        ScaleTiles t = ScaleTiles.of(256, 8);
        assertThat(t.offset(0, 0)).isZero();
        assertThat(t.offset(0, 3)).isEqualTo(3);
        assertThat(t.offset(1, 0)).isEqualTo(16); // the next row is 16 bytes on
        assertThat(t.offset(31, 3)).isEqualTo(31 * 16 + 3); // 499
        assertThat(t.offset(32, 0)).isEqualTo(4); // row 32 interleaves beside row 0
        assertThat(t.offset(33, 1)).isEqualTo(16 + 4 + 1);
        assertThat(t.offset(127, 3)).isEqualTo(31 * 16 + 3 * 4 + 3); // 511, the tile's last byte
        assertThat(t.offset(0, 4)).isEqualTo(512); // the next tile along K
        assertThat(t.offset(128, 0)).isEqualTo(2 * 512); // the next row tile, after both tiles along K
        assertThat(t.offset(255, 7)).isEqualTo(4 * 512 - 1);
        // nvmath-python's example: the scale of a[5, 32:48] of a 128 x 128 NVFP4 operand, K-group 2
        assertThat(ScaleTiles.of(128, 8).offset(5, 2)).isEqualTo(5 * 16 + 2);
    }

    @ParameterizedTest(name = "{0} x {1}")
    @CsvSource({"1, 1", "257, 5", "300, 13", "4096, 256", "128, 4", "129, 3"})
    void offsetsAreAReshapeOfTheTiles(int rows, int columns) {
        // the tiled tensor as a C-order array [rowTiles][tilesAlongK][32][4][4] whose element [rt][ct][i][j][k] is
        // the scale of row rt*128 + j*32 + i and column ct*4 + k: walk it in order and count
        ScaleTiles t = ScaleTiles.of(rows, columns);
        int rowTiles = (rows + 127) / 128;
        int tilesAlongK = (columns + 3) / 4;
        assertThat(t.bytes()).isEqualTo(rowTiles * 128 * tilesAlongK * 4);
        int position = 0;
        int scales = 0;
        for (int rt = 0; rt < rowTiles; rt++) {
            for (int ct = 0; ct < tilesAlongK; ct++) {
                for (int i = 0; i < 32; i++) {
                    for (int j = 0; j < 4; j++) {
                        for (int k = 0; k < 4; k++, position++) {
                            int row = rt * 128 + j * 32 + i;
                            int column = ct * 4 + k;
                            if (row < rows && column < columns) {
                                assertThat(t.offset(row, column)).isEqualTo(position);
                                assertThat(t.at(position)).containsExactly(row, column);
                                scales++;
                            } else {
                                assertThat(t.at(position))
                                        .as("padding at " + position)
                                        .isNull();
                            }
                        }
                    }
                }
            }
        }
        assertThat(position).isEqualTo(t.bytes());
        assertThat(scales).isEqualTo(rows * columns);
    }

    @Test
    void raggedShapesArePaddedToWholeTiles() {
        assertThat(ScaleTiles.of(1, 1).bytes()).isEqualTo(512);
        assertThat(ScaleTiles.of(257, 5).bytes()).isEqualTo(384 * 8);
        assertThat(ScaleTiles.of(300, 13).bytes()).isEqualTo(384 * 16);
        assertThat(ScaleTiles.of(4096, 256).bytes()).isEqualTo(4096 * 256);
        // a decode step's one activation row of K = 4096 in NVFP4 still reads 128 rows of 256 scales
        assertThat(ScaleTiles.of(1, 4096 / 16).bytes()).isEqualTo(128 * 256);
    }

    @Test
    void tilingLosesNoScaleAndPadsWithZeros() {
        ScaleTiles t = ScaleTiles.of(300, 13);
        byte[] scales = new byte[300 * 13];
        new Random(7).nextBytes(scales);
        for (int i = 0; i < scales.length; i++) {
            scales[i] |= 1; // nonzero, so a padding byte cannot pass for a scale
        }
        byte[] tiled = t.tile(scales);
        assertThat(t.untile(tiled)).isEqualTo(scales);
        Set<Integer> used = new HashSet<>();
        for (int r = 0; r < 300; r++) {
            for (int c = 0; c < 13; c++) {
                used.add(t.offset(r, c));
                assertThat(tiled[t.offset(r, c)]).isEqualTo(scales[r * 13 + c]);
            }
        }
        for (int o = 0; o < tiled.length; o++) {
            if (!used.contains(o)) {
                assertThat(tiled[o]).as("padding byte " + o).isZero();
            }
        }
    }

    @Test
    void misuseIsNamed() {
        assertThatThrownBy(() -> ScaleTiles.of(0, 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a scale tensor needs at least 1 row and 1 column, got 0 x 4");
        ScaleTiles t = ScaleTiles.of(2, 3);
        assertThatThrownBy(() -> t.offset(2, 0)).hasMessage("scale (2, 0) is outside 2 x 3");
        assertThatThrownBy(() -> t.at(512)).hasMessage("offset 512 is outside the 512 tiled bytes");
        assertThatThrownBy(() -> t.tile(new byte[5])).hasMessage("rowMajor must hold 6 scales for 2 x 3, got 5");
        assertThatThrownBy(() -> t.untile(new byte[6])).hasMessage("tiled must hold 512 scales for 2 x 3, got 6");
        assertThatThrownBy(() -> ScaleTiles.of(Integer.MAX_VALUE, 8)).hasMessageContaining("does not fit one array");
    }
}
