package dev.roofline.cuda.decode;

import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.FakeDeviceBuffers;
import dev.roofline.cuda.internal.MatmulRecipe;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which product each linear runs and which batches the weights allow, over made-up device buffers. */
class DecoderLinearsTest {

    private static DeviceWeights matrix(WeightFormat f, int rows, int cols) {
        long scales = f.deviceScaleBytes(rows, cols);
        return new DeviceWeights(
                f,
                rows,
                cols,
                FakeDeviceBuffers.buffer(f.weightBytes(rows, cols)),
                scales == 0 ? null : FakeDeviceBuffers.buffer(scales),
                1f);
    }

    private static DeviceBuffer norm() {
        return FakeDeviceBuffers.buffer(512);
    }

    /** One layer of hidden 256 in {@code layers}, lm_head in {@code head}. */
    private static DecoderWeights weights(WeightFormat layers, WeightFormat head) {
        return new DecoderWeights(
                List.of(new DecoderWeights.Layer(
                        norm(),
                        StackedWeights.of(matrix(layers, 256, 256), matrix(layers, 256, 256)),
                        matrix(layers, 256, 256),
                        norm(),
                        StackedWeights.of(matrix(layers, 1024, 256)),
                        matrix(layers, 256, 512))),
                norm(),
                matrix(head, 1000, 256));
    }

    @Test
    void everyFormatHasAProductUpTo32RowsAndOnlyFp16Above() {
        assertThat(DenseDecoder.runs(WeightFormat.NVFP4, 32)).isTrue();
        assertThat(DenseDecoder.runs(WeightFormat.NVFP4, 33)).isFalse();
        assertThat(DenseDecoder.runs(WeightFormat.BF16, 33)).isFalse();
        assertThat(DenseDecoder.runs(WeightFormat.FP16, 64)).isTrue();
    }

    @Test
    void fp16WeightsRunTheGemvAtOneRowAndCublasLtAbove() {
        assertThat(DecoderLinears.usesGemv(WeightFormat.FP16, 1)).isTrue();
        assertThat(DecoderLinears.usesGemv(WeightFormat.FP16, 2)).isFalse();
    }

    @Test
    void otherWeightsRunTheGemvUpTo32Rows() {
        for (WeightFormat f :
                List.of(WeightFormat.BF16, WeightFormat.FP8_E4M3, WeightFormat.INT8, WeightFormat.NVFP4)) {
            assertThat(DecoderLinears.usesGemv(f, 32)).as(f + " at 32").isTrue();
            assertThat(DecoderLinears.usesGemv(f, 33)).as(f + " at 33").isFalse();
        }
    }

    @Test
    void cublasLtHasNoProductOfBf16WeightsWithTheDecodersFp16Output() {
        Gemm bf16 = Gemm.of(2, 256, 256).in(Precision.BF16).withOutput(Precision.FP16);
        assertThatThrownBy(() -> MatmulRecipe.of(bf16))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("output FP16 is not supported for BF16");
    }

    @Test
    void aBatchAbove32IsRefusedForQuantizedLayers() {
        assertThatThrownBy(() -> DecoderLinears.checkBatch(weights(WeightFormat.NVFP4, WeightFormat.FP16), 33))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NVFP4 weights run batches of up to 32");
    }

    @Test
    void aBatchAbove32IsRefusedForBf16Layers() {
        assertThatThrownBy(() -> DecoderLinears.checkBatch(weights(WeightFormat.BF16, WeightFormat.BF16), 33))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("runs on cuBLASLt for FP16 weights only; BF16 weights run batches of up to 32");
    }

    @Test
    void aBatchAbove32IsRefusedForAQuantizedLmHeadToo() {
        assertThatThrownBy(() -> DecoderLinears.checkBatch(weights(WeightFormat.FP16, WeightFormat.FP8_E4M3), 33))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("FP8_E4M3 weights run batches of up to 32");
    }

    @Test
    void fp16WeightsRunAnyBatchAndTheOthersUpTo16() {
        assertThatCode(() -> DecoderLinears.checkBatch(weights(WeightFormat.FP16, WeightFormat.FP16), 64))
                .doesNotThrowAnyException();
        assertThatCode(() -> DecoderLinears.checkBatch(weights(WeightFormat.NVFP4, WeightFormat.BF16), 16))
                .doesNotThrowAnyException();
    }
}
