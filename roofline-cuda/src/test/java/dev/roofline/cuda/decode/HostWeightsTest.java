package dev.roofline.cuda.decode;

import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How {@link HostWeights} checks a matrix's bytes and which neighbours it stacks. */
class HostWeightsTest {

    /** A matrix whose every weight byte is {@code fill} and whose scale bytes count up. */
    private static HostWeights matrix(WeightFormat f, int rows, int cols, int fill, float global) {
        byte[] w = new byte[(int) f.weightBytes(rows, cols)];
        java.util.Arrays.fill(w, (byte) fill);
        byte[] s = new byte[(int) f.deviceScaleBytes(rows, cols)];
        for (int i = 0; i < s.length; i++) {
            s[i] = (byte) (fill + i);
        }
        return HostWeights.of(
                f, rows, cols, MemorySegment.ofArray(w), s.length == 0 ? null : MemorySegment.ofArray(s), global);
    }

    @Test
    void neighboursWithOneGlobalScaleStackRowsAndScalesInOrder() {
        HostWeights q = matrix(WeightFormat.NVFP4, 4, 32, 1, 2f);
        HostWeights k = matrix(WeightFormat.NVFP4, 2, 32, 7, 2f);
        List<HostWeights> stacked = HostWeights.stack(List.of(q, k));
        assertThat(stacked).hasSize(1);
        HostBytes b = HostBytes.of(stacked.getFirst());
        assertThat(b.rows()).isEqualTo(6);
        assertThat(b.weights())
                .isEqualTo(HostBytes.concat(
                        HostBytes.of(q).weights(), HostBytes.of(k).weights()));
        assertThat(b.scales())
                .isEqualTo(HostBytes.concat(
                        HostBytes.of(q).scales(), HostBytes.of(k).scales()));
        assertThat(b.globalScale()).isEqualTo(2f);
    }

    @Test
    void nvfp4NeighboursWithOtherGlobalScalesStayParts() {
        HostWeights q = matrix(WeightFormat.NVFP4, 4, 32, 1, 2f);
        HostWeights k = matrix(WeightFormat.NVFP4, 2, 32, 2, 3f);
        HostWeights v = matrix(WeightFormat.NVFP4, 2, 32, 3, 3f);
        List<HostWeights> stacked = HostWeights.stack(List.of(q, k, v));
        assertThat(stacked).extracting(HostWeights::rows).containsExactly(4, 4);
        assertThat(stacked).extracting(HostWeights::globalScale).containsExactly(2f, 3f);
    }

    @Test
    void globalScalesMustBeEqualBitForBit() {
        HostWeights a = matrix(WeightFormat.NVFP4, 2, 32, 1, 1f);
        HostWeights b = matrix(WeightFormat.NVFP4, 2, 32, 1, Math.nextUp(1f));
        assertThat(a.stacksWith(b)).isFalse();
    }

    @Test
    void perRowFormatsStackWhateverTheirUnusedGlobalScale() {
        for (WeightFormat f : List.of(
                WeightFormat.FP16, WeightFormat.BF16, WeightFormat.FP8_E4M3, WeightFormat.INT8, WeightFormat.INT4)) {
            HostWeights a = matrix(f, 2, 128, 1, 1f);
            HostWeights b = matrix(f, 3, 128, 2, 5f);
            assertThat(a.stacksWith(b)).as(f.toString()).isTrue();
        }
    }

    @Test
    void mxfp4NeverStacksAsItsScalesEndWithTheRowMaxima() {
        HostWeights a = matrix(WeightFormat.MXFP4, 2, 32, 1, 1f);
        assertThat(a.stacksWith(matrix(WeightFormat.MXFP4, 2, 32, 1, 1f))).isFalse();
    }

    @Test
    void otherFormatsOrWidthsDoNotStack() {
        HostWeights a = matrix(WeightFormat.FP16, 2, 32, 1, 1f);
        assertThat(a.stacksWith(matrix(WeightFormat.BF16, 2, 32, 1, 1f))).isFalse();
        assertThat(a.stacksWith(matrix(WeightFormat.FP16, 2, 64, 1, 1f))).isFalse();
    }

    @Test
    void scaleBytesOfTheWrongLengthAreRefused() {
        MemorySegment w = MemorySegment.ofArray(new byte[4 * 32]);
        MemorySegment s = MemorySegment.ofArray(new byte[12]);
        assertThatThrownBy(() -> HostWeights.of(WeightFormat.FP8_E4M3, 4, 32, w, s, 1f))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("FP8_E4M3 4 x 32 has 16 scale bytes, got 12");
    }

    @Test
    void weightBytesOfTheWrongLengthAreRefused() {
        MemorySegment w = MemorySegment.ofArray(new byte[100]);
        assertThatThrownBy(() -> HostWeights.of(WeightFormat.FP16, 2, 32, w, null, 1f))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("FP16 2 x 32 has 128 weight bytes, got 100");
    }

    @Test
    void nvfp4WithoutAUsableGlobalScaleIsRefused() {
        assertThatThrownBy(() -> matrix(WeightFormat.NVFP4, 2, 32, 1, 0f))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("NVFP4 needs a finite, nonzero global scale, got 0.0");
        assertThatThrownBy(() -> matrix(WeightFormat.NVFP4, 2, 32, 1, Float.NaN))
                .hasMessageContaining("got NaN");
    }
}
