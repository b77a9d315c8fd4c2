package dev.roofline.quant.checkpoint;

import dev.roofline.quant.safetensors.Dtype;
import dev.roofline.quant.safetensors.SafetensorsFile;
import dev.roofline.quant.safetensors.ShardedCheckpoint;
import dev.roofline.quant.safetensors.TensorInfo;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A checkpoint of F32 weights of tiny magnitude (about 10^-41, subnormal) or all zero, in every layout: no NaN or
 * infinity anywhere in the written bytes (F32 scales finite and positive, no E4M3 NaN code 0x7F/0xFF). Before the
 * scale rule FP8 wrote NaN codes with scale 0 and compressed-tensors' NVFP4 an infinite global scale.
 */
class TinyWeightsCheckpointTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(QuantTarget.class)
    void subnormalWeightsGiveFiniteBytes(QuantTarget target) throws IOException {
        checkFinite(target, 1e-39);
    }

    @ParameterizedTest
    @EnumSource(QuantTarget.class)
    void weightsOfAFewUlpsGiveFiniteBytes(QuantTarget target) throws IOException {
        checkFinite(target, 1e-42); // max|w| / 448 rounds to 0
    }

    @ParameterizedTest
    @EnumSource(QuantTarget.class)
    void allZeroWeightsGiveFiniteBytes(QuantTarget target) throws IOException {
        checkFinite(target, 0);
    }

    private void checkFinite(QuantTarget target, double magnitude) throws IOException {
        Path model = dir.resolve("tiny");
        TinyLlama.write(model, Dtype.F32, magnitude);
        Path out = dir.resolve("tiny-" + target);
        CheckpointResult r = CheckpointQuantizer.newBuilder(target).build().quantize(model, out);
        assertThat(r.quantized()).isEqualTo(TinyLlama.LAYERS * 7);
        int scales = 0;
        try (ShardedCheckpoint q = ShardedCheckpoint.open(out)) {
            for (String name : q.names()) {
                SafetensorsFile f = q.fileOf(name);
                TensorInfo t = f.tensor(name);
                if (t.dtype() == Dtype.F32) {
                    for (float v : f.floats(name)) {
                        assertThat(Float.isFinite(v))
                                .as(target + " " + name + " holds " + v)
                                .isTrue();
                        if (name.contains("scale")) {
                            assertThat(v).as(target + " " + name).isPositive();
                            scales++;
                        }
                    }
                } else if (t.dtype() == Dtype.F8_E4M3) {
                    for (byte b : f.segment(t).toArray(ValueLayout.JAVA_BYTE)) {
                        assertThat(b & 0x7F)
                                .as(target + " " + name + " E4M3 code")
                                .isNotEqualTo(0x7F);
                    }
                }
            }
        }
        assertThat(scales).isPositive();
    }
}
