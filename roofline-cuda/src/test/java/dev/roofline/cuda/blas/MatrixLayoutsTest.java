package dev.roofline.cuda.blas;

import dev.roofline.core.roofline.Gemm;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MatrixLayoutsTest {

    @Test
    void layoutsAreTnWithKContiguousOperands() {
        MatrixLayouts l = MatrixLayouts.of(Gemm.of(64, 128, 256));
        // weights N x K row-major = K x N column-major (ld K); activations M x K = K x M (ld K); out M x N = N x M (ld
        // N)
        assertThat(l).isEqualTo(new MatrixLayouts(256, 128, 256, 256, 64, 256, 128, 64, 128));
    }

    @Test
    void batchedShapesAreRefused() {
        assertThatThrownBy(() -> MatrixLayouts.of(Gemm.batched(2, 8, 8, 8))).hasMessageContaining("batch=2");
    }

    @Test
    void optionsRejectSillyAlgorithmCounts() {
        assertThatThrownBy(() -> new MatmulOptions(0, 0, false)).hasMessageContaining("algorithms");
    }
}
