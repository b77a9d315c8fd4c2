package dev.roofline.cuda.decode;

import dev.roofline.quant.safetensors.Dtype;
import dev.roofline.quant.safetensors.ShardedCheckpoint;
import dev.roofline.quant.safetensors.TensorInfo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The weights of a dense Llama-family checkpoint in Hugging Face safetensors (a model directory with
 * {@code model.safetensors} or a sharded index) for {@link DenseDecoder}, taken as stored: linear weights go to the GPU
 * byte for byte, scales included, as
 *
 * <ul>
 *   <li>F16 or BF16 {@code weight}: FP16 or BF16 (BF16 is not rounded to FP16: the GEMV reads BF16 weights against
 *       the decoder's FP16 activations, up to 16 rows);
 *   <li>ModelOpt NVFP4 ({@code weight} U8, {@code weight_scale} E4M3 per 16 columns, {@code weight_scale_2} F32):
 *       NVFP4, {@code weight_scale_2} the kernels' global scale; compressed-tensors NVFP4 ({@code weight_packed},
 *       {@code weight_scale}, {@code weight_global_scale}) alike, the global scale the float nearest
 *       {@code 1 / weight_global_scale}, as that layout stores the reciprocal;
 *   <li>FP8 E4M3 {@code weight} with a {@code weight_scale} per tensor or per output channel (F32, or F16/BF16 widened
 *       exactly): FP8 with one F32 scale per row, a per-tensor scale repeated.
 * </ul>
 *
 * These include the NVFP4 and FP8 checkpoints roofline-quant's {@code CheckpointQuantizer} writes. Activation and
 * KV-cache scales are not read: the decoder keeps activations and its cache in FP16. Tensor names are Hugging Face
 * Llama's: {@code model.layers.{i}.input_layernorm.weight}, {@code self_attn.{q,k,v,o}_proj},
 * {@code post_attention_layernorm.weight}, {@code mlp.{gate,up,down}_proj}, {@code model.norm.weight}, {@code lm_head}
 * (or {@code model.embed_tokens.weight} where the embeddings are tied and there is no {@code lm_head}). Norms become
 * FP16 vectors, rounded to the nearest; a layer tensor the decoder would leave out (a bias, a q/k norm) is refused.
 *
 * <p>q, k and v (and gate and up) become one {@link StackedWeights} whose parts are as few as the bytes allow: one
 * matrix for F16, BF16 and FP8 (rows and per-row scales laid end to end), and for NVFP4 one matrix per run of
 * projections with the same global scale; parts otherwise, each with its own {@code weight_scale_2}.
 *
 * <p>Opening reads and checks every header and arranges the bytes on the host, mapped, not copied; {@link #upload}
 * copies them to the GPU. Both stay valid until {@link #close()}, which unmaps the files (weights already uploaded
 * stay the caller's).
 *
 * <pre>{@code
 * try (CheckpointWeights checkpoint = CheckpointWeights.open(Path.of("Llama-3.1-8B-NVFP4"), shape);
 *         DecoderWeights weights = checkpoint.upload();
 *         DenseDecoder decoder = DenseDecoder.create(device, shape, weights, invFreq, 1e-5f, 1, 4096, launch)) {
 *     decoder.setInput(checkpoint.embeddings().lookup(128000));
 *     decoder.setPositions(new int[] {0});
 *     decoder.step(stream);
 * }
 * }</pre>
 */
public final class CheckpointWeights implements AutoCloseable {
    private static final Pattern LAYER = Pattern.compile("^model\\.layers\\.(\\d+)\\.");
    /** Layer tensors the decoder has no use for, as it keeps activations and the KV cache in FP16. */
    private static final List<String> UNUSED_SUFFIXES =
            List.of(".input_scale", ".input_global_scale", ".k_scale", ".v_scale", "rotary_emb.inv_freq");

    private static final List<Dtype> FLOATS = List.of(Dtype.F16, Dtype.BF16, Dtype.F32);
    private static final String EMBEDDINGS = "model.embed_tokens.weight";

    private final ShardedCheckpoint checkpoint;
    private final DecoderShape shape;
    private final HostDecoderWeights host;
    private final TokenEmbeddings embeddings;
    private boolean closed;

    private CheckpointWeights(
            ShardedCheckpoint checkpoint, DecoderShape shape, HostDecoderWeights host, TokenEmbeddings embeddings) {
        this.checkpoint = checkpoint;
        this.shape = shape;
        this.host = host;
        this.embeddings = embeddings;
    }

    /**
     * Opens the checkpoint in {@code directory} and checks that it holds a model of {@code shape} in a layout the
     * decoder reads; nothing is copied to the GPU yet.
     *
     * @throws UnloadableTensorException naming the tensor: a missing one, a shape other than {@code shape} needs, a
     *                                   layout no GEMV kernel reads, a layer tensor the decoder would leave out
     * @throws IOException               if the files cannot be read or break the safetensors format
     */
    public static CheckpointWeights open(Path directory, DecoderShape shape) throws IOException {
        Objects.requireNonNull(shape, "shape");
        if (shape.hasExperts()) {
            throw new IllegalArgumentException(directory + ": the decoder reads dense Llama-family checkpoints; a"
                    + " mixture of experts (" + shape.experts() + " experts) runs on random weights");
        }
        ShardedCheckpoint checkpoint = ShardedCheckpoint.open(directory);
        try {
            CheckpointTensors tensors = new CheckpointTensors(checkpoint);
            TokenEmbeddings embeddings = embeddings(tensors, shape);
            HostDecoderWeights host = arrange(tensors, shape);
            refuseUnread(tensors, shape.layers());
            return new CheckpointWeights(checkpoint, shape, host, embeddings);
        } catch (IOException | RuntimeException e) {
            checkpoint.close();
            throw e;
        }
    }

    /** {@link #open} and {@link #upload}: the weights on the GPU, the files closed again. */
    public static DecoderWeights load(Path directory, DecoderShape shape) throws IOException {
        try (CheckpointWeights checkpoint = open(directory, shape)) {
            return checkpoint.upload();
        }
    }

    public DecoderShape shape() {
        return shape;
    }

    /** The format of the layers' linear weights (the first layer's o projection's: a checkpoint has one). */
    public dev.roofline.cuda.kernels.WeightFormat format() {
        ensureOpen();
        return host.layers().getFirst().o().format();
    }

    /** The token embedding table, for the decoder's input; valid until {@link #close()}. */
    public TokenEmbeddings embeddings() {
        ensureOpen();
        return embeddings;
    }

    /**
     * Copies the weights to new device buffers, which the caller owns; on a failure whatever was uploaded is freed.
     */
    public DecoderWeights upload() {
        ensureOpen();
        return host.upload();
    }

    /** The weights as arranged on the host, before {@link #upload}. */
    HostDecoderWeights host() {
        ensureOpen();
        return host;
    }

    /** Unmaps the checkpoint's files; idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            checkpoint.close();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("checkpoint " + checkpoint.directory() + " is already closed");
        }
    }

    private static HostDecoderWeights arrange(CheckpointTensors tensors, DecoderShape s) throws IOException {
        int h = s.hidden();
        int kv = s.kvHeads() * s.headDim();
        int inter = s.intermediate();
        List<HostDecoderWeights.Layer> layers = new ArrayList<>(s.layers());
        for (int l = 0; l < s.layers(); l++) {
            String p = "model.layers." + l + ".";
            layers.add(new HostDecoderWeights.Layer(
                    norm(tensors, p + "input_layernorm.weight", h),
                    HostWeights.stack(List.of(
                            CheckpointLinear.read(tensors, p + "self_attn.q_proj", s.attentionWidth(), h),
                            CheckpointLinear.read(tensors, p + "self_attn.k_proj", kv, h),
                            CheckpointLinear.read(tensors, p + "self_attn.v_proj", kv, h))),
                    CheckpointLinear.read(tensors, p + "self_attn.o_proj", h, s.attentionWidth()),
                    norm(tensors, p + "post_attention_layernorm.weight", h),
                    HostWeights.stack(List.of(
                            CheckpointLinear.read(tensors, p + "mlp.gate_proj", inter, h),
                            CheckpointLinear.read(tensors, p + "mlp.up_proj", inter, h))),
                    CheckpointLinear.read(tensors, p + "mlp.down_proj", h, inter)));
        }
        boolean ownHead = tensors.contains("lm_head.weight") || tensors.contains("lm_head.weight_packed");
        return new HostDecoderWeights(
                layers,
                norm(tensors, "model.norm.weight", h),
                CheckpointLinear.read(tensors, ownHead ? "lm_head" : "model.embed_tokens", s.vocab(), h));
    }

    private static TokenEmbeddings embeddings(CheckpointTensors tensors, DecoderShape s) throws IOException {
        TensorInfo t = tensors.require(
                EMBEDDINGS,
                FLOATS,
                List.of((long) s.vocab(), (long) s.hidden()),
                "the token embeddings, vocab x hidden");
        return new TokenEmbeddings(tensors.file(t), t, s.vocab(), s.hidden());
    }

    /** Norm weight {@code name} of {@code hidden} values as FP16 bits, each rounded to the nearest. */
    private static short[] norm(CheckpointTensors tensors, String name, int hidden) throws IOException {
        TensorInfo t = tensors.require(name, FLOATS, List.of((long) hidden), "a norm weight of hidden values");
        float[] values = tensors.floats(t);
        short[] fp16 = new short[hidden];
        for (int i = 0; i < hidden; i++) {
            fp16[i] = Float.floatToFloat16(values[i]);
            if (!Float.isFinite(Float.float16ToFloat(fp16[i]))) {
                throw tensors.refuse(name, "holds " + values[i] + " at " + i + ", which is no finite FP16 value");
            }
        }
        return fp16;
    }

    /**
     * Refuses the layer tensors the loader did not read and the decoder has no use for: a bias, a q/k norm, experts,
     * or a layer beyond the shape's last; activation and KV-cache scales pass ({@link #UNUSED_SUFFIXES}).
     */
    private static void refuseUnread(CheckpointTensors tensors, int layers) throws UnloadableTensorException {
        for (String name : tensors.names()) {
            Matcher m = LAYER.matcher(name);
            if (!m.find() || tensors.wasRead(name) || UNUSED_SUFFIXES.stream().anyMatch(name::endsWith)) {
                continue;
            }
            String layer = m.group(1);
            throw tensors.refuse(
                    name,
                    layer.length() > 9 || Integer.parseInt(layer) >= layers
                            ? "belongs to layer " + layer + ", but the decoder shape has " + layers + " layers"
                            : "is not part of a dense Llama layer as the decoder runs it: it reads the two norms and"
                                    + " the q/k/v/o and gate/up/down projections, without biases");
        }
    }
}
