package dev.roofline.cuda.kernels;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link TiledLayout} against the layout as gemv_tiled.cu's header defines it, computed here element by element from
 * that definition (not from the class's tables), and against places worked out by hand.
 */
class TiledLayoutTest {

    /** Code of element (n, k) in row-major bytes: row n holds cols / 2 bytes, element 2i in the low nibble. */
    private static int rowMajorCode(byte[] w, int cols, int n, int k) {
        return (w[n * (cols / 2) + k / 2] >> (4 * (k & 1))) & 0xF;
    }

    /** E2M1 bit places per fragment register (gemv_tiled.cu: the code's m, e0, e1, s). */
    private static final int[][] E2M1 = {{9, 10, 11, 15}, {6, 7, 8, 12}, {0, 1, 2, 13}, {3, 4, 5, 14}};

    /**
     * Element (n, k)'s code read from tiled bytes by the definition: tile n / 16, group k / 128, half h = (k % 128) / 64,
     * lane 4r + q with r = n % 8 and q = (k % 64) / 16 (MXFP4: h = (k % 32) / 16, q = (k % 128) / 32), word
     * j = (k % 16) / 4 of the lane's 16 bytes in that half;
     * within the word element e = rho + 2c with c = k % 4 and rho = (n % 16) / 8, in register p = rho + 2(c / 2), half
     * c % 2.
     */
    private static int tiledCode(byte[] t, WeightFormat f, int cols, int n, int k) {
        boolean e2m1 = f != WeightFormat.INT4;
        boolean mxfp4 = f == WeightFormat.MXFP4;
        int tile = n / 16;
        int g = k / 128;
        int r = n % 8;
        int rho = (n % 16) / 8;
        int h = mxfp4 ? (k % 32) / 16 : (k % 128) / 64;
        int q = mxfp4 ? (k % 128) / 32 : (k % 64) / 16;
        int j = (k % 16) / 4;
        int c = k % 4;
        int lane = 4 * r + q;
        int word = (tile * (cols / 128) + g) * 256 + h * 128 + lane * 4 + j;
        int v = ByteBuffer.wrap(t).order(ByteOrder.LITTLE_ENDIAN).getInt(4 * word);
        int p = rho + 2 * (c / 2);
        int half = c % 2;
        int code = 0;
        for (int b = 0; b < 4; b++) {
            int pos = e2m1 ? 16 * half + E2M1[p][b] : 4 * (p + 4 * half) + b;
            code |= ((v >>> pos) & 1) << b;
        }
        return code;
    }

    @ParameterizedTest(name = "{0} {1} x {2}")
    @CsvSource({"INT4, 16, 128", "NVFP4, 32, 256", "MXFP4, 48, 384", "INT4, 64, 1024", "NVFP4, 16, 4096"})
    void everyElementSitsWhereTheDefinitionPutsItAndComesBack(WeightFormat f, int rows, int cols) {
        byte[] w = new byte[Math.toIntExact(f.weightBytes(rows, cols))];
        new SplittableRandom(rows * 31L + cols).nextBytes(w);
        byte[] t = TiledLayout.weights(f, rows, cols, w);
        assertThat(t).hasSameSizeAs(w);
        for (int n = 0; n < rows; n++) {
            for (int k = 0; k < cols; k++) {
                int expected = rowMajorCode(w, cols, n, k);
                int got = tiledCode(t, f, cols, n, k);
                if (got != expected) {
                    throw new AssertionError(f + " element (" + n + ", " + k + "): " + got + " != " + expected);
                }
            }
        }
        assertThat(TiledLayout.rowMajorWeights(f, rows, cols, t)).isEqualTo(w);
    }

    @Test
    void placesWorkedOutByHand() {
        // INT4 16 x 256: one code set at a time, the rest 0; (n, k) -> byte and nibble of the tiled bytes
        int rows = 16;
        int cols = 256;
        int[][] cases = {
            // n, k, byte, shift: (0,0) word 0 bits 0..3; (8,0) register 1 bits 4..7; (0,1) upper half bits 16..19;
            // (0,2) register 2 bits 8..11; (0,4) mma 1 = word 1; (0,16) lane 1 = word 4; (0,32) lane 2 = word 8;
            // (1,0) lane 4 = word 16; (0,64) mma 4 = half 1 = word 128; (0,128) group 1 = byte 1024;
            // (9,37): lane 6 (r = 1, q = 2), mma 1 = word 25, register 1 of the upper half = bits 20..23 = byte 102,
            // high nibble
            {0, 0, 0, 0},
            {8, 0, 0, 4},
            {0, 1, 2, 0},
            {0, 2, 1, 0},
            {0, 4, 4, 0},
            {0, 16, 16, 0},
            {0, 32, 32, 0},
            {1, 0, 64, 0},
            {0, 64, 512, 0},
            {0, 128, 1024, 0},
            {9, 37, 102, 4}
        };
        for (int[] c : cases) {
            byte[] w = new byte[rows * cols / 2];
            int n = c[0];
            int k = c[1];
            w[n * cols / 2 + k / 2] = (byte) (0x9 << (4 * (k & 1)));
            byte[] t = TiledLayout.weights(WeightFormat.INT4, rows, cols, w);
            byte[] expected = new byte[t.length];
            expected[c[2]] = (byte) (0x9 << c[3]);
            assertThat(t).as("INT4 (%d, %d)", n, k).isEqualTo(expected);
        }
        // E2M1 code 0b1011 (sign, e = 01, m = 1) at (0, 0): m at bit 9, e0 at 10, e1 at 11, s at 15 of word 0;
        // at (8, 0), register 1: m 6, e0 7, e1 8, s 12
        byte[] w = new byte[rows * cols / 2];
        w[0] = 0xB;
        byte[] t = TiledLayout.weights(WeightFormat.NVFP4, rows, cols, w);
        assertThat(t[0] & 0xFF | (t[1] & 0xFF) << 8).isEqualTo(1 << 9 | 1 << 10 | 1 << 15);
        w[0] = 0;
        w[8 * cols / 2] = 0xB;
        t = TiledLayout.weights(WeightFormat.MXFP4, rows, cols, w);
        assertThat(t[0] & 0xFF | (t[1] & 0xFF) << 8).isEqualTo(1 << 6 | 1 << 7 | 1 << 12);
        // MXFP4 keeps lane q's k at 32q + 16h + 4j: (0, 32) is lane 1 (word 4, byte 16), (0, 16) half 1 (byte 512),
        // where INT4 and NVFP4 put (0, 16) in lane 1 and (0, 32) in lane 2
        w = new byte[rows * cols / 2];
        w[16] = 0xB;
        t = TiledLayout.weights(WeightFormat.MXFP4, rows, cols, w);
        assertThat(t[16] & 0xFF | (t[17] & 0xFF) << 8).isEqualTo(1 << 9 | 1 << 10 | 1 << 15);
        w[16] = 0;
        w[8] = 0xB;
        t = TiledLayout.weights(WeightFormat.MXFP4, rows, cols, w);
        assertThat(t[512] & 0xFF | (t[513] & 0xFF) << 8).isEqualTo(1 << 9 | 1 << 10 | 1 << 15);
        t = TiledLayout.weights(WeightFormat.NVFP4, rows, cols, w);
        assertThat(t[16] & 0xFF | (t[17] & 0xFF) << 8).isEqualTo(1 << 9 | 1 << 10 | 1 << 15);
    }

    @Test
    void scalesFollowTheLanesThatReadThem() {
        // INT4 32 x 256 (two tiles, two groups): float entries in lane order {s[r][g], s[r+8][g]} per (tile, group)
        int rows = 32;
        int cols = 256;
        float[] s = new float[rows * 2];
        for (int i = 0; i < s.length; i++) {
            s[i] = i; // s[n][g] = 2n + g
        }
        ByteBuffer b = ByteBuffer.allocate(4 * s.length).order(ByteOrder.LITTLE_ENDIAN);
        b.asFloatBuffer().put(s);
        ByteBuffer t = ByteBuffer.wrap(TiledLayout.scales(WeightFormat.INT4, rows, cols, b.array()))
                .order(ByteOrder.LITTLE_ENDIAN);
        float[] got = new float[s.length];
        t.asFloatBuffer().get(got);
        // tile 0 group 0: s[0][0], s[8][0], s[1][0], s[9][0] ...; tile 0 group 1 starts at entry 16; tile 1 at 32
        assertThat(got[0]).isEqualTo(0f);
        assertThat(got[1]).isEqualTo(16f);
        assertThat(got[2]).isEqualTo(2f);
        assertThat(got[3]).isEqualTo(18f);
        assertThat(got[16]).isEqualTo(1f);
        assertThat(got[32]).isEqualTo(32f);
        assertThat(got[33]).isEqualTo(48f);

        // NVFP4 16 x 128: lane l = 4r + q reads {s[r][q], s[r+8][q], s[r][q+4], s[r+8][q+4]} (8 blocks a row)
        byte[] nv = new byte[16 * 8];
        for (int i = 0; i < nv.length; i++) {
            nv[i] = (byte) i; // s[n][j] = 8n + j
        }
        byte[] tn = TiledLayout.scales(WeightFormat.NVFP4, 16, 128, nv);
        int lane = 4 * 3 + 2; // r = 3, q = 2
        assertThat(new byte[] {tn[4 * lane], tn[4 * lane + 1], tn[4 * lane + 2], tn[4 * lane + 3]})
                .containsExactly(8 * 3 + 2, 8 * 11 + 2, 8 * 3 + 6, 8 * 11 + 6);
        // NVFP4 16 x 256, group 1 (tiled bytes 128..255): lane l reads {s[r][8+q], s[r+8][8+q], s[r][12+q],
        // s[r+8][12+q]}
        byte[] nv2 = new byte[16 * 16];
        for (int i = 0; i < nv2.length; i++) {
            nv2[i] = (byte) i; // s[n][j] = 16n + j
        }
        byte[] tn2 = TiledLayout.scales(WeightFormat.NVFP4, 16, 256, nv2);
        int at = 128 + 4 * lane;
        assertThat(new byte[] {tn2[at], tn2[at + 1], tn2[at + 2], tn2[at + 3]})
                .containsExactly(16 * 3 + 10, 16 * 11 + 10, 16 * 3 + 14, 16 * 11 + 14);

        // MXFP4 16 x 128: lane 4r + q reads {s[r][q], s[r+8][q]} (4 blocks a row)
        byte[] mx = new byte[16 * 4];
        for (int i = 0; i < mx.length; i++) {
            mx[i] = (byte) i;
        }
        byte[] tm = TiledLayout.scales(WeightFormat.MXFP4, 16, 128, mx);
        assertThat(new byte[] {tm[2 * lane], tm[2 * lane + 1]}).containsExactly(4 * 3 + 2, 4 * 11 + 2);
    }

    @ParameterizedTest(name = "{0} {1} x {2}")
    @CsvSource({"INT4, 48, 640", "NVFP4, 32, 384", "MXFP4, 64, 1280"})
    void scalesComeBackByteForByte(WeightFormat f, int rows, int cols) {
        byte[] s = new byte[Math.toIntExact(f.scaleBytes(rows, cols))];
        new SplittableRandom(rows + cols).nextBytes(s);
        byte[] t = TiledLayout.scales(f, rows, cols, s);
        assertThat(t).isNotEqualTo(s).hasSameSizeAs(s);
        assertThat(TiledLayout.rowMajorScales(f, rows, cols, t)).isEqualTo(s);
    }

    @Test
    void onlyFourBitFormatsOfWholeTilesAndGroupsAreTiled() {
        assertThat(TiledLayout.supports(WeightFormat.INT4, 4096, 4096)).isTrue();
        assertThat(TiledLayout.supports(WeightFormat.NVFP4, 16, 128)).isTrue();
        assertThat(TiledLayout.supports(WeightFormat.MXFP4, 70, 1024)).isFalse();
        assertThat(TiledLayout.supports(WeightFormat.NVFP4, 64, 1056)).isFalse();
        assertThat(TiledLayout.supports(WeightFormat.FP8_E4M3, 64, 1024)).isFalse();
        assertThat(TiledLayout.supports(WeightFormat.FP16, 64, 1024)).isFalse();
        assertThatThrownBy(() -> TiledLayout.weights(WeightFormat.INT8, 16, 128, new byte[2048]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("INT8 16 x 128 has no tiled layout: it takes a 4-bit format with rows a multiple of 16 and"
                        + " columns a multiple of 128");
        assertThatThrownBy(() -> TiledLayout.weights(WeightFormat.INT4, 16, 128, new byte[100]))
                .hasMessage("INT4 16 x 128 has 1024 weights bytes, got 100");
        assertThatThrownBy(() -> TiledLayout.scales(WeightFormat.NVFP4, 16, 128, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("scales");
    }
}
