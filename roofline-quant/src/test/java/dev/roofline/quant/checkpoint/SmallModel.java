package dev.roofline.quant.checkpoint;

import dev.roofline.quant.safetensors.Dtype;
import dev.roofline.quant.safetensors.SafetensorsWriter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

/**
 * A model folder with {@link TinyLlama#CONFIG} and a single F32 shard of two linear weights chosen by the test:
 * {@code model.layers.0.self_attn.q_proj.weight} [64, 64] of random values and {@code model.layers.0.mlp.down_proj
 * .weight} [64, downK] holding {@code down}.
 */
public final class SmallModel {
    private SmallModel() {}

    public static final String Q = "model.layers.0.self_attn.q_proj.weight";
    public static final String DOWN = "model.layers.0.mlp.down_proj.weight";

    public static Path write(Path model, int downK, float[] down) throws IOException {
        Files.createDirectories(model);
        Files.writeString(model.resolve("config.json"), TinyLlama.CONFIG);
        Random r = new Random(5);
        float[] q = new float[64 * 64];
        for (int i = 0; i < q.length; i++) {
            q[i] = (float) (r.nextGaussian() * 0.02);
        }
        SafetensorsWriter.create()
                .add(Q, Dtype.F32, List.of(64L, 64L), f32(q))
                .add(DOWN, Dtype.F32, List.of(64L, (long) downK), f32(down))
                .write(model.resolve("model.safetensors"));
        return model;
    }

    /** {@code 64 · k} values 0.01 · (i % 7 − 3). */
    public static float[] ramp(int k) {
        float[] v = new float[64 * k];
        for (int i = 0; i < v.length; i++) {
            v[i] = 0.01f * (i % 7 - 3);
        }
        return v;
    }

    public static byte[] f32(float[] values) {
        ByteBuffer b = ByteBuffer.allocate(4 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putFloat(v);
        }
        return b.array();
    }
}
