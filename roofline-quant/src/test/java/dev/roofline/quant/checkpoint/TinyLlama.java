package dev.roofline.quant.checkpoint;

import dev.roofline.quant.safetensors.Dtype;
import dev.roofline.quant.safetensors.SafetensorsWriter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** A tiny Hugging Face Llama checkpoint written inside a test: nothing is downloaded. */
public final class TinyLlama {
    private TinyLlama() {}

    public static final int HIDDEN = 64, FFN = 128, LAYERS = 2, HEADS = 4, KV_HEADS = 2, VOCAB = 96;
    public static final String CONFIG = """
            {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": %d, "intermediate_size": %d,
             "num_hidden_layers": %d, "num_attention_heads": %d, "num_key_value_heads": %d, "vocab_size": %d,
             "tie_word_embeddings": false, "torch_dtype": "bfloat16"}""".formatted(HIDDEN, FFN, LAYERS, HEADS, KV_HEADS, VOCAB);

    /** A tiny Llama in BF16 with random weights and a few large outliers, as two shards. */
    public static Map<String, float[]> write(Path model) throws IOException {
        return write(model, Dtype.BF16, 1);
    }

    /**
     * A tiny Llama with the same random pattern in {@code dtype} (BF16 or F32), every weight multiplied by
     * {@code magnitude} (rounded to the dtype), as several shards.
     */
    public static Map<String, float[]> write(Path model, Dtype dtype, double magnitude) throws IOException {
        Files.createDirectories(model);
        Files.writeString(model.resolve("config.json"), CONFIG);
        Files.writeString(model.resolve("tokenizer.json"), "{\"version\": \"1.0\"}");
        Map<String, long[]> shapes = new LinkedHashMap<>();
        shapes.put("model.embed_tokens.weight", new long[] {VOCAB, HIDDEN});
        int kv = HIDDEN / HEADS * KV_HEADS;
        for (int l = 0; l < LAYERS; l++) {
            String p = "model.layers." + l + ".";
            shapes.put(p + "input_layernorm.weight", new long[] {HIDDEN});
            shapes.put(p + "self_attn.q_proj.weight", new long[] {HIDDEN, HIDDEN});
            shapes.put(p + "self_attn.k_proj.weight", new long[] {kv, HIDDEN});
            shapes.put(p + "self_attn.v_proj.weight", new long[] {kv, HIDDEN});
            shapes.put(p + "self_attn.o_proj.weight", new long[] {HIDDEN, HIDDEN});
            shapes.put(p + "post_attention_layernorm.weight", new long[] {HIDDEN});
            shapes.put(p + "mlp.gate_proj.weight", new long[] {FFN, HIDDEN});
            shapes.put(p + "mlp.up_proj.weight", new long[] {FFN, HIDDEN});
            shapes.put(p + "mlp.down_proj.weight", new long[] {HIDDEN, FFN});
        }
        shapes.put("model.norm.weight", new long[] {HIDDEN});
        shapes.put("lm_head.weight", new long[] {VOCAB, HIDDEN});
        Random r = new Random(9);
        Map<String, float[]> values = new LinkedHashMap<>();
        SafetensorsWriter w = SafetensorsWriter.create().metadata("format", "pt");
        shapes.forEach((name, shape) -> {
            int n = (int) (shape.length == 1 ? shape[0] : shape[0] * shape[1]);
            float[] v = new float[n];
            ByteBuffer b = ByteBuffer.allocate(dtype.byteSize() * n).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < n; i++) {
                float x = (float) (r.nextGaussian() * 0.02 * (r.nextInt(500) == 0 ? 40 : 1) * magnitude);
                if (dtype == Dtype.F32) {
                    v[i] = x;
                    b.putFloat(x);
                } else {
                    short bf16 = (short) (Float.floatToRawIntBits(x) >>> 16);
                    v[i] = Float.intBitsToFloat(bf16 << 16);
                    b.putShort(bf16);
                }
            }
            values.put(name, v);
            List<Long> s = new ArrayList<>();
            for (long d : shape) {
                s.add(d);
            }
            w.add(name, dtype, s, b.array());
        });
        w.writeSharded(model, 60_000); // several shards with an index
        return values;
    }
}
