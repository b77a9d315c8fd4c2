package dev.roofline.cuda.decode;

import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.FakeDeviceBuffers;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.WeightFormat;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link StackedWeights} and how {@link DecoderWeights} checks and frees them, over made-up device buffers. */
class StackedWeightsTest {
    private final AtomicInteger frees = new AtomicInteger();

    private DeviceWeights nvfp4(int rows, int cols, float global) {
        WeightFormat f = WeightFormat.NVFP4;
        return new DeviceWeights(
                f,
                rows,
                cols,
                FakeDeviceBuffers.buffer(f.weightBytes(rows, cols), frees::incrementAndGet),
                FakeDeviceBuffers.buffer(f.deviceScaleBytes(rows, cols), frees::incrementAndGet),
                global);
    }

    private DeviceWeights fp16(int rows, int cols) {
        return new DeviceWeights(
                WeightFormat.FP16,
                rows,
                cols,
                FakeDeviceBuffers.buffer(WeightFormat.FP16.weightBytes(rows, cols), frees::incrementAndGet),
                null,
                1f);
    }

    private DeviceBuffer norm(int hidden) {
        return FakeDeviceBuffers.buffer(2L * hidden, frees::incrementAndGet);
    }

    @Test
    void aStackHasThePartsRowsInOrder() {
        StackedWeights qkv = StackedWeights.of(nvfp4(256, 256, 1f), nvfp4(128, 256, 2f), nvfp4(128, 256, 3f));
        assertThat(qkv.rows()).isEqualTo(512);
        assertThat(qkv.cols()).isEqualTo(256);
        assertThat(qkv.firstRow(0)).isZero();
        assertThat(qkv.firstRow(1)).isEqualTo(256);
        assertThat(qkv.firstRow(2)).isEqualTo(384);
        assertThatThrownBy(() -> qkv.firstRow(3)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    @Test
    void partsReadingDifferentInputsAreRefused() {
        assertThatThrownBy(() -> StackedWeights.of(fp16(64, 256), fp16(64, 128)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the parts of a stacked matrix must read the same input: parts[0] has 256 columns,"
                        + " parts[1] 128");
    }

    @Test
    void anEmptyStackIsRefused() {
        assertThatThrownBy(() -> new StackedWeights(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a stacked matrix needs at least one part");
    }

    @Test
    void aMissingPartIsNamed() {
        assertThatThrownBy(() -> StackedWeights.of(fp16(64, 256), null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("parts[1]");
    }

    @Test
    void closingAStackFreesEveryPart() {
        StackedWeights s = StackedWeights.of(nvfp4(64, 256, 1f), nvfp4(64, 256, 2f));
        s.close();
        assertThat(frees).hasValue(4);
        assertThat(s.parts()).allMatch(p -> p.weights().isClosed() && p.scales().isClosed());
    }

    @Test
    void theDecoderChecksAStacksRowsAgainstTheShape() {
        DecoderShape shape = new DecoderShape(1, 256, 4, 2, 64, 512, 1000);
        DecoderWeights w = new DecoderWeights(
                List.of(new DecoderWeights.Layer(
                        norm(256),
                        StackedWeights.of(nvfp4(256, 256, 1f), nvfp4(128, 256, 1f)), // v is missing
                        nvfp4(256, 256, 1f),
                        norm(256),
                        StackedWeights.of(nvfp4(512, 256, 1f), nvfp4(512, 256, 2f)),
                        nvfp4(256, 512, 1f))),
                norm(256),
                fp16(1000, 256));
        assertThatThrownBy(() -> w.check(shape))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("qkv of layer 0 must be 512 x 256, got 384 x 256");
    }

    @Test
    void theDecoderSeesEveryFormatOfItsWeights() {
        DecoderWeights w = new DecoderWeights(
                List.of(new DecoderWeights.Layer(
                        norm(256),
                        StackedWeights.of(fp16(256, 256), nvfp4(256, 256, 1f)),
                        fp16(256, 256),
                        norm(256),
                        StackedWeights.of(fp16(1024, 256)),
                        fp16(256, 512))),
                norm(256),
                fp16(1000, 256));
        assertThat(w.formats()).containsExactly(WeightFormat.FP16, WeightFormat.NVFP4);
    }

    @Test
    void closingTheWeightsFreesEveryPartOfEveryStack() {
        DecoderWeights w = new DecoderWeights(
                List.of(new DecoderWeights.Layer(
                        norm(256),
                        StackedWeights.of(nvfp4(256, 256, 1f), nvfp4(128, 256, 2f), nvfp4(128, 256, 3f)),
                        nvfp4(256, 256, 1f),
                        norm(256),
                        StackedWeights.of(nvfp4(512, 256, 1f), nvfp4(512, 256, 2f)),
                        nvfp4(256, 512, 1f))),
                norm(256),
                fp16(1000, 256));
        w.close();
        // 2 norms per layer + the final norm, 7 NVFP4 matrices of 2 buffers, lm_head's 1
        assertThat(frees).hasValue(3 + 14 + 1);
    }
}
