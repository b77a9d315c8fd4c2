package dev.roofline.cuda.internal;

import dev.roofline.bindings.cublaslt.cublaslt_h;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MatmulRecipeTest {
    private static final Gemm SHAPE = Gemm.of(64, 128, 256);

    @Test
    void bf16AccumulatesInFp32() {
        MatmulRecipe r = MatmulRecipe.of(SHAPE.in(Precision.BF16).withOutput(Precision.BF16));
        assertThat(r.computeType()).isEqualTo(cublaslt_h.CUBLAS_COMPUTE_32F());
        assertThat(r.scaleType()).isEqualTo(cublaslt_h.CUDA_R_32F());
        assertThat(r.aType()).isEqualTo(cublaslt_h.CUDA_R_16BF());
        assertThat(r.dType()).isEqualTo(cublaslt_h.CUDA_R_16BF());
    }

    @Test
    void tf32UsesTheFastTf32ComputeType() {
        MatmulRecipe r = MatmulRecipe.of(SHAPE.in(Precision.TF32).withOutput(Precision.FP32));
        assertThat(r.computeType()).isEqualTo(cublaslt_h.CUBLAS_COMPUTE_32F_FAST_TF32());
        assertThat(r.aType()).isEqualTo(cublaslt_h.CUDA_R_32F());
    }

    @Test
    void fp8MixedUsesEachOperandsTypeAndScales() {
        MatmulRecipe r = MatmulRecipe.of(SHAPE.withWeights(Precision.FP8_E4M3)
                .withActivations(Precision.FP8_E5M2)
                .withOutput(Precision.BF16));
        assertThat(r.aType()).isEqualTo(cublaslt_h.CUDA_R_8F_E4M3());
        assertThat(r.bType()).isEqualTo(cublaslt_h.CUDA_R_8F_E5M2());
        assertThat(r.perTensorScales()).isTrue();
        assertThat(r.minimum()).isEqualTo(MatmulRecipe.FP8);
        assertThat(r.label()).isEqualTo("FP8 E4M3 x FP8 E5M2 -> BF16");
    }

    @Test
    void fp8OutputKeepsA16BitC() {
        MatmulRecipe r = MatmulRecipe.of(SHAPE.in(Precision.FP8_E4M3).withOutput(Precision.FP8_E4M3));
        assertThat(r.dType()).isEqualTo(cublaslt_h.CUDA_R_8F_E4M3());
        assertThat(r.cType()).isEqualTo(cublaslt_h.CUDA_R_16F());
    }

    @Test
    void twoE5m2OperandsAreRefused() {
        assertThatThrownBy(() -> MatmulRecipe.of(SHAPE.in(Precision.FP8_E5M2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FP8 E5M2 -> FP16");
    }

    @Test
    void int8WritesInt32() {
        MatmulRecipe r = MatmulRecipe.of(SHAPE.in(Precision.INT8).withOutput(Precision.FP32));
        assertThat(r.computeType()).isEqualTo(cublaslt_h.CUBLAS_COMPUTE_32I());
        assertThat(r.dType()).isEqualTo(cublaslt_h.CUDA_R_32I());
        assertThat(r.scaleType()).isEqualTo(cublaslt_h.CUDA_R_32I());
        assertThat(r.label()).isEqualTo("INT8 -> INT32");
    }

    @Test
    void int8WithFp16OutputIsRefused() {
        assertThatThrownBy(() -> MatmulRecipe.of(SHAPE.in(Precision.INT8))).hasMessageContaining("INT32");
    }

    @Test
    void blockScaledFormatsNeedBlackwell() {
        MatmulRecipe r = MatmulRecipe.of(SHAPE.in(Precision.NVFP4));
        assertThat(r.minimum()).hasToString("10.0");
        assertThat(r.blockScaleMode()).isEqualTo(cublaslt_h.CUBLASLT_MATMUL_MATRIX_SCALE_VEC16_UE4M3());
        assertThat(MatmulRecipe.of(SHAPE.in(Precision.MXFP8_E4M3)).blockScaleMode())
                .isEqualTo(cublaslt_h.CUBLASLT_MATMUL_MATRIX_SCALE_VEC32_UE8M0());
    }

    @Test
    void int4IsRefusedNamingWhatIsSupported() {
        assertThatThrownBy(() -> MatmulRecipe.of(SHAPE.in(Precision.INT4)))
                .hasMessageContaining("no matmul for INT4")
                .hasMessageContaining("NVFP4");
    }
}
