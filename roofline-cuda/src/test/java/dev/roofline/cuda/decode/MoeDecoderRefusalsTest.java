package dev.roofline.cuda.decode;

import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.FakeDeviceBuffers;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What {@link DenseDecoder#create} refuses for a shape with experts, before it touches a GPU: weights over made-up
 * device addresses ({@link FakeDeviceBuffers}).
 */
class MoeDecoderRefusalsTest {
    private static final DecoderShape SHAPE = new DecoderShape(1, 256, 4, 2, 64, 512, 1000, 4, 2);
    private static final double[] INV_FREQ = RopeFrequencies.of(64, 10_000);

    @Test
    void mxfp4ExpertsAreRefusedByName() {
        DecoderWeights w = weights(experts(WeightFormat.FP16, WeightFormat.MXFP4), WeightFormat.FP16);
        assertThatThrownBy(() -> create(w, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the grouped expert GEMVs have no MXFP4 kernel");
    }

    @Test
    void aRouterOtherThanFp16IsNamedWithItsLayer() {
        DecoderWeights w = weights(experts(WeightFormat.FP8_E4M3, WeightFormat.FP16), WeightFormat.FP16);
        assertThatThrownBy(() -> create(w, 1)).hasMessage("router of layer 0 must be FP16, got FP8_E4M3");
    }

    @Test
    void expertsOfTheWrongShapeAreNamedWithTheirLayer() {
        // experts of intermediate 256 in a shape of 512: 4 x 2 x 256 gate/up rows instead of 4 x 2 x 512
        ExpertWeights narrow = new ExpertWeights(
                matrix(WeightFormat.FP16, 4, 256),
                matrix(WeightFormat.FP16, 4 * 512, 256),
                matrix(WeightFormat.FP16, 4 * 256, 256));
        assertThatThrownBy(() -> create(weights(narrow, WeightFormat.FP16), 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("experts' gate_up of layer 0 must be 4096 x 256, got 2048 x 256");
    }

    @Test
    void aDenseLayerInAShapeWithExpertsIsNamed() {
        DecoderWeights dense = new DecoderWeights(
                List.of(new DecoderWeights.Layer(
                        norm(),
                        matrix(WeightFormat.FP16, SHAPE.qkvWidth(), 256),
                        matrix(WeightFormat.FP16, 256, 256),
                        norm(),
                        matrix(WeightFormat.FP16, 1024, 256),
                        matrix(WeightFormat.FP16, 256, 512))),
                norm(),
                matrix(WeightFormat.FP16, 1000, 256));
        assertThatThrownBy(() -> create(dense, 1)).hasMessage("layer 0 has a dense MLP; the shape has 4 experts");
    }

    @Test
    void aBatchAbove16IsRefusedEvenInFp16() {
        DecoderWeights w = weights(experts(WeightFormat.FP16, WeightFormat.FP16), WeightFormat.FP16);
        assertThatThrownBy(() -> create(w, 17))
                .hasMessage("batch 17: the experts' grouped GEMVs take up to 16 tokens per step");
    }

    private static DenseDecoder create(DecoderWeights w, int batch) {
        return DenseDecoder.create(null, SHAPE, w, INV_FREQ, 1e-5f, batch, 8, KernelLaunch.ORDERED);
    }

    private static ExpertWeights experts(WeightFormat router, WeightFormat experts) {
        return new ExpertWeights(matrix(router, 4, 256), matrix(experts, 4 * 1024, 256), matrix(experts, 4 * 256, 512));
    }

    private static DecoderWeights weights(ExpertWeights experts, WeightFormat f) {
        return new DecoderWeights(
                List.of(new DecoderWeights.Layer(
                        norm(), matrix(f, SHAPE.qkvWidth(), 256), matrix(f, 256, 256), norm(), experts)),
                norm(),
                matrix(WeightFormat.FP16, 1000, 256));
    }

    private static DeviceBuffer norm() {
        return FakeDeviceBuffers.buffer(2L * 256);
    }

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
}
