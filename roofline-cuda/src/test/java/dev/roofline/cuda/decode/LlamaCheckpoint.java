package dev.roofline.cuda.decode;

import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.blas.ElementCodec;
import dev.roofline.quant.safetensors.Dtype;
import dev.roofline.quant.safetensors.SafetensorsWriter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A Hugging Face Llama checkpoint written inside a test, nothing downloaded: its tensors by name, to be changed before
 * writing (one dropped, a bias added, a dtype swapped), written with a {@code config.json} that roofline-quant's
 * {@code CheckpointQuantizer} reads.
 */
public final class LlamaCheckpoint {
    /** One tensor: its dtype, shape and little-endian bytes. */
    record Tensor(Dtype dtype, List<Long> shape, byte[] bytes) {}

    private final DecoderShape shape;
    private final Map<String, Tensor> tensors = new LinkedHashMap<>();

    private LlamaCheckpoint(DecoderShape shape) {
        this.shape = shape;
    }

    /** The reference's config for {@code s}: RMSNorm eps 1e-5, RoPE theta 10000. */
    static ReferenceDecoder.Config config(DecoderShape s) {
        return new ReferenceDecoder.Config(
                s.hidden(),
                s.heads(),
                s.kvHeads(),
                s.headDim(),
                s.intermediate(),
                s.vocab(),
                1e-5,
                RopeFrequencies.of(s.headDim(), 10_000));
    }

    /**
     * {@link ReferenceDecoder.Weights#random} of {@code seed}, each projection (q, k, v, o, gate, up, down) multiplied by
     * its own factor in [0.5, 1.5), and Gaussian embeddings, every tensor in {@code dtype}. The factors give each
     * projection its own largest magnitude, so that NVFP4 and FP8 give each its own scale.
     */
    public static LlamaCheckpoint random(DecoderShape s, Dtype dtype, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
        double[] embeddings = new double[s.vocab() * s.hidden()];
        Arrays.setAll(embeddings, i -> rnd.nextGaussian());
        ReferenceDecoder.Weights w = ReferenceDecoder.Weights.random(config(s), s.layers(), seed);
        int h = s.hidden();
        int q = s.attentionWidth() * h;
        int kv = s.kvHeads() * s.headDim() * h;
        int gate = s.intermediate() * h;
        List<ReferenceDecoder.Layer> layers = new ArrayList<>();
        for (ReferenceDecoder.Layer l : w.layers()) {
            layers.add(new ReferenceDecoder.Layer(
                    l.inputNorm(),
                    scaled(l.wqkv(), rnd, q, kv, kv),
                    scaled(l.wo(), rnd, l.wo().length),
                    l.postNorm(),
                    scaled(l.wgu(), rnd, gate, gate),
                    scaled(l.wd(), rnd, l.wd().length)));
        }
        return of(s, new ReferenceDecoder.Weights(layers, w.finalNorm(), w.lmHead()), embeddings, dtype);
    }

    /** {@code m} cut into consecutive pieces of {@code lengths}, each multiplied by its own factor in [0.5, 1.5). */
    private static double[] scaled(double[] m, SplittableRandom rnd, int... lengths) {
        double[] out = m.clone();
        int at = 0;
        for (int n : lengths) {
            double f = 0.5 + rnd.nextDouble();
            for (int i = at; i < at + n; i++) {
                out[i] *= f;
            }
            at += n;
        }
        return out;
    }

    /** {@code w}'s matrices split into Hugging Face's q/k/v and gate/up, and {@code embeddings}, in {@code dtype}. */
    static LlamaCheckpoint of(DecoderShape s, ReferenceDecoder.Weights w, double[] embeddings, Dtype dtype) {
        LlamaCheckpoint c = new LlamaCheckpoint(s);
        int h = s.hidden();
        int q = s.attentionWidth();
        int kv = s.kvHeads() * s.headDim();
        int inter = s.intermediate();
        c.put("model.embed_tokens.weight", dtype, embeddings, s.vocab(), h);
        for (int l = 0; l < s.layers(); l++) {
            ReferenceDecoder.Layer layer = w.layers().get(l);
            String p = "model.layers." + l + ".";
            c.put(p + "input_layernorm.weight", dtype, layer.inputNorm(), h);
            c.put(p + "self_attn.q_proj.weight", dtype, rows(layer.wqkv(), h, 0, q), q, h);
            c.put(p + "self_attn.k_proj.weight", dtype, rows(layer.wqkv(), h, q, kv), kv, h);
            c.put(p + "self_attn.v_proj.weight", dtype, rows(layer.wqkv(), h, q + kv, kv), kv, h);
            c.put(p + "self_attn.o_proj.weight", dtype, layer.wo(), h, q);
            c.put(p + "post_attention_layernorm.weight", dtype, layer.postNorm(), h);
            c.put(p + "mlp.gate_proj.weight", dtype, rows(layer.wgu(), h, 0, inter), inter, h);
            c.put(p + "mlp.up_proj.weight", dtype, rows(layer.wgu(), h, inter, inter), inter, h);
            c.put(p + "mlp.down_proj.weight", dtype, layer.wd(), h, inter);
        }
        c.put("model.norm.weight", dtype, w.finalNorm(), h);
        c.put("lm_head.weight", dtype, w.lmHead(), s.vocab(), h);
        return c;
    }

    Tensor get(String name) {
        Tensor t = tensors.get(name);
        if (t == null) {
            throw new IllegalArgumentException("no tensor " + name);
        }
        return t;
    }

    LlamaCheckpoint put(String name, Dtype dtype, List<Long> shape, byte[] bytes) {
        tensors.put(name, new Tensor(dtype, List.copyOf(shape), bytes));
        return this;
    }

    /** {@code values} encoded in {@code dtype} (F16, BF16 or F32, each rounded to the nearest) as {@code shape}. */
    LlamaCheckpoint put(String name, Dtype dtype, double[] values, long... shape) {
        List<Long> dims = Arrays.stream(shape).boxed().toList();
        return put(name, dtype, dims, encode(dtype, values));
    }

    /**
     * Module {@code module} as ModelOpt NVFP4 of {@code rows × cols}: random element and block-scale bytes, the
     * per-tensor scale {@code global}; its other weight tensors stay.
     */
    LlamaCheckpoint nvfp4(String module, long rows, long cols, double global) {
        SplittableRandom rnd = new SplittableRandom(module.hashCode());
        byte[] elements = new byte[Math.toIntExact(rows * cols / 2)];
        byte[] scales = new byte[Math.toIntExact(rows * cols / 16)];
        for (int i = 0; i < elements.length; i++) {
            elements[i] = (byte) rnd.nextInt();
        }
        for (int i = 0; i < scales.length; i++) {
            scales[i] = (byte) rnd.nextInt(0x7F); // positive E4M3 codes below the NaN
        }
        return put(module + ".weight", Dtype.U8, List.of(rows, cols / 2), elements)
                .put(module + ".weight_scale", Dtype.F8_E4M3, List.of(rows, cols / 16), scales)
                .put(module + ".weight_scale_2", Dtype.F32, new double[] {global});
    }

    LlamaCheckpoint remove(String name) {
        get(name);
        tensors.remove(name);
        return this;
    }

    /** Writes {@code config.json} and {@code model.safetensors} into {@code dir}, made if need be; returns it. */
    public Path write(Path dir) throws IOException {
        return write(dir, 0);
    }

    /** {@link #write}, the tensors in shards of at most {@code maxShardBytes} with an index (0: one file). */
    Path write(Path dir, long maxShardBytes) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("config.json"), """
                {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": %d,
                 "intermediate_size": %d, "num_hidden_layers": %d, "num_attention_heads": %d,
                 "num_key_value_heads": %d, "head_dim": %d, "vocab_size": %d, "rms_norm_eps": 1e-05,
                 "rope_theta": 10000.0, "tie_word_embeddings": %s, "torch_dtype": "bfloat16"}""".formatted(
                        shape.hidden(),
                        shape.intermediate(),
                        shape.layers(),
                        shape.heads(),
                        shape.kvHeads(),
                        shape.headDim(),
                        shape.vocab(),
                        !tensors.containsKey("lm_head.weight")));
        SafetensorsWriter w = SafetensorsWriter.create().metadata("format", "pt");
        tensors.forEach((name, t) -> w.add(name, t.dtype(), t.shape(), t.bytes()));
        if (maxShardBytes == 0) {
            w.write(dir.resolve("model.safetensors"));
        } else {
            w.writeSharded(dir, maxShardBytes);
        }
        return dir;
    }

    static byte[] encode(Dtype dtype, double[] values) {
        float[] f = new float[values.length];
        for (int i = 0; i < f.length; i++) {
            f[i] = (float) values[i];
        }
        Precision p =
                switch (dtype) {
                    case F16 -> Precision.FP16;
                    case BF16 -> Precision.BF16;
                    case F32 -> Precision.FP32;
                    default -> throw new IllegalArgumentException("no encoding for " + dtype);
                };
        return ElementCodec.encode(p, f);
    }

    /** Rows {@code [first, first + count)} of a row-major matrix of {@code cols} columns. */
    private static double[] rows(double[] m, int cols, int first, int count) {
        return Arrays.copyOfRange(m, first * cols, (first + count) * cols);
    }
}
