package dev.roofline.cuda.decode;

import dev.roofline.core.calibration.LaunchPlan;
import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.AttentionGeometry;
import dev.roofline.cuda.kernels.DecodeKernels;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.GemvKernels.Epilogue;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.KvCacheFormat;
import dev.roofline.cuda.kernels.WeightFormat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A Llama-family decoder on the GPU: one decode step for {@code batch} sequences, from the residual stream
 * ({@link #input()}, the token embeddings the caller writes) to the logits ({@link #logits()}), FP16 activations, a
 * KV cache in FP16, BF16 or FP8 E4M3 ({@link KvCacheFormat}), each sequence at its own position
 * ({@link #setPositions}). Per layer: RMSNorm, the merged q/k/v
 * projection, RoPE fused with the KV append, flash-decoding attention reading q in place, the o projection, the
 * residual add fused with the second RMSNorm, the merged gate/up projection, SiLU·up, the down projection; then the
 * last residual add with the final norm and {@code lm_head} ({@link DecoderOperator}). Linears run roofline's GEMV
 * kernels at batch 1, and up to 32 rows for BF16, 8- and 4-bit weights; FP16 linears of more rows run cuBLASLt.
 * With FP16 or FP8 weights at batch 1 the residual adds and norms after layer 0's input norm run in the products'
 * epilogues instead ({@link #fusesNorms}), and on one GPU with FP16 or FP8 q/k/v weights at batch 1 RoPE and the KV
 * append run in the q/k/v product's epilogue ({@link #fusesRope}): one launch fewer a layer (7 with the norms fused
 * too).
 * {@link ReferenceDecoder} computes the same model in double on the CPU.
 *
 * <p>A shape with experts ({@link DecoderShape#hasExperts}, Mixtral style) runs a mixture of experts in place of the
 * MLP, every operator on the device so the step stays one graph: the router (an FP16 GEMV), top-k routing into each
 * layer's expert ids and weights ({@link #routing}), the chosen experts' gate/up projections as a grouped GEMV that
 * reads each chosen expert once, SiLU·up, their down projections likewise, each output times its routing weight, and
 * the sum of each token's expert outputs into the residual ({@link dev.roofline.cuda.kernels.MoeKernels}); batches up
 * to 16, experts in {@link dev.roofline.cuda.kernels.MoeKernels#FORMATS}.
 *
 * <p>A merged projection kept in several parts ({@link StackedWeights}) runs one product per part, each into its rows
 * of the output: in place at batch 1; at larger batches through a part buffer and one device copy per part and
 * sequence, which the step then spends on top of the products.
 *
 * <p>Every call enqueues on the given stream and can be captured into a CUDA graph; the attention's split count is
 * fixed by the longest position at enqueue time, so a graph captured at one set of positions is valid for positions
 * no longer than those.
 *
 * <pre>{@code
 * try (DenseDecoder d = DenseDecoder.create(device, shape, weights, RopeFrequencies.of(128, 500000), 1e-5f, 1, 8192,
 *         KernelLaunch.PROGRAMMATIC)) {
 *     d.setInput(embeddings);
 *     d.setPositions(new int[] {0});
 *     d.step(stream);
 *     stream.synchronize();
 *     short[] logits = d.logits().toShortArray();
 * }
 * }</pre>
 */
public final class DenseDecoder implements AutoCloseable {
    /**
     * Completes a tensor-parallel GPU's partial sums: adds {@code count} FP16 values of {@code halves} over all the
     * GPUs, in place, enqueued on {@code stream} (an NCCL all-reduce, e.g.
     * {@code (b, n, s) -> comm.allReduce(b, b, n, DataType.FLOAT16, ReduceOp.SUM, s)}).
     */
    @FunctionalInterface
    public interface PartialSums {
        /** Enqueues on {@code stream} the sum over the GPUs of the first {@code count} FP16 values of {@code halves}. */
        void allReduce(DeviceBuffer halves, long count, Stream stream);
    }

    /** A layer's launches after its input norm; ADD_RMSNORM here is the residual add with the post-attention norm. */
    private static final List<DecoderOperator> LAYER_ORDER = List.of(
            DecoderOperator.QKV_PROJ,
            DecoderOperator.ROPE_APPEND,
            DecoderOperator.ATTENTION,
            DecoderOperator.O_PROJ,
            DecoderOperator.ADD_RMSNORM,
            DecoderOperator.GATE_UP_PROJ,
            DecoderOperator.SILU_MUL,
            DecoderOperator.DOWN_PROJ);
    /** The same with a mixture of experts in place of the MLP. */
    private static final List<DecoderOperator> EXPERT_LAYER_ORDER = List.of(
            DecoderOperator.QKV_PROJ,
            DecoderOperator.ROPE_APPEND,
            DecoderOperator.ATTENTION,
            DecoderOperator.O_PROJ,
            DecoderOperator.ADD_RMSNORM,
            DecoderOperator.ROUTER,
            DecoderOperator.TOP_K,
            DecoderOperator.EXPERTS_GATE_UP,
            DecoderOperator.EXPERTS_SILU_MUL,
            DecoderOperator.EXPERTS_DOWN,
            DecoderOperator.EXPERTS_COMBINE);

    /**
     * The operators of one layer of a dense step in launch order, after the layer's input norm ({@link #step}: that
     * norm before each layer, or layer 0's only when the norms run in the products; the final norm and {@code lm_head}
     * after the last layer). ADD_RMSNORM here is the residual add with the post-attention norm.
     */
    public static List<DecoderOperator> denseLayerOrder() {
        return LAYER_ORDER;
    }

    private final DecoderShape shape;
    private final DecoderWeights weights;
    private final int batch;
    private final int capacity;
    private final float eps;
    private final KvCacheFormat kv;
    private final OwnedResources owned = new OwnedResources();
    private final DecoderLinears linears;
    private final DecodeKernels kernels;
    private final DeviceBuffer[] kCache;
    private final DeviceBuffer[] vCache;
    private final DeviceBuffer residual;
    private final DeviceBuffer normed;
    private final DeviceBuffer qkv;
    private final DeviceBuffer attended;
    private final DeviceBuffer delta;
    private final DeviceBuffer gateUp;
    private final DeviceBuffer activated;
    private final DeviceBuffer logits;
    private final DeviceBuffer workspace;
    private final DeviceBuffer positions;
    private final DeviceBuffer lengths;
    private final DeviceBuffer invFreq;
    private final ExpertBuffers experts;
    /** The all-reduce after o_proj and down_proj on a tensor-parallel GPU; null on one GPU. */
    private final PartialSums partialSums;
    /**
     * Whether the residual adds and RMSNorms after layer 0's input norm run in the products' epilogues
     * ({@link Epilogue}): o_proj and down_proj add into the residual, write {@code r · g} of the next norm and sum
     * {@code r²} per row into one of two sums; the products after them scale their outputs by that row's
     * {@code 1 / rms}. Only where it measured faster ({@link #normsFuse}).
     */
    private final boolean fusedNorms;
    /**
     * Whether RoPE and the KV append run in the q/k/v product's epilogue ({@link DecodeKernels#qkvRopeAppend}) instead
     * of a launch of their own ({@link DecodeKernels#ropeAppend}): at batch 1 with FP16 or FP8 q/k/v weights on one
     * GPU, where it measured faster ({@link #ropeFuses}). A tensor-parallel GPU keeps the separate launch, so that one
     * GPU's part run alone ({@code ShardStep}) launches what each GPU of the step launches.
     */
    private final boolean fusedRope;
    /** The two sums of squares, {@code float[2][batch][Epilogue.SUM_SPREAD]}, which the producers fill and clear in turn. */
    private final DeviceBuffer sums;

    private int longest = 1;
    private boolean closed;

    private DenseDecoder(
            Device device,
            DecoderShape shape,
            DecoderWeights weights,
            double[] invFreq,
            float eps,
            int batch,
            int capacity,
            KvCacheFormat kv,
            KernelLaunch launch,
            PartialSums partialSums) {
        this.shape = shape;
        this.partialSums = partialSums;
        this.weights = weights;
        this.batch = batch;
        this.capacity = capacity;
        this.eps = eps;
        this.kv = kv;
        try {
            linears = owned.add(new DecoderLinears(device, weights, batch, launch));
            kernels = owned.add(DecodeKernels.load(launch));
            int layers = shape.layers();
            int h = shape.hidden();
            long cacheBytes = (long) kv.elementBytes() * batch * shape.kvHeads() * capacity * shape.headDim();
            kCache = new DeviceBuffer[layers];
            vCache = new DeviceBuffer[layers];
            for (int l = 0; l < layers; l++) {
                kCache[l] = owned.add(DeviceBuffer.allocate(cacheBytes));
                vCache[l] = owned.add(DeviceBuffer.allocate(cacheBytes));
            }
            residual = buffer(2L * batch * h);
            normed = buffer(2L * batch * h);
            qkv = buffer(2L * batch * shape.qkvWidth());
            attended = buffer(2L * batch * shape.attentionWidth());
            delta = buffer(2L * batch * h);
            gateUp = buffer(4L * batch * shape.intermediate());
            activated = buffer(2L * batch * shape.intermediate());
            logits = buffer(2L * batch * shape.vocab());
            workspace = buffer(
                    kernels.attentionWorkspaceBytes(batch, shape.heads(), shape.kvHeads(), shape.headDim(), capacity));
            positions = buffer(4L * batch);
            lengths = buffer(4L * batch);
            this.invFreq = buffer(8L * invFreq.length);
            this.invFreq.copyFrom(invFreq);
            setPositions(new int[batch]);
            experts = shape.hasExperts() ? owned.add(ExpertBuffers.allocate(shape, batch, launch)) : null;
            // the fused epilogue adds o_proj's output into the residual, where a tensor-parallel GPU has only a part
            fusedNorms = partialSums == null
                    && normsFuse(shape.hasExperts(), weights.formats().stream().allMatch(DenseDecoder::fuses), batch);
            fusedRope = partialSums == null && ropeFuses(qkvInWholeHeadsThatFuse(weights, shape.headDim()), batch);
            sums = buffer(8L * Epilogue.SUM_SPREAD * batch);
            sums.copyFrom(new float[2 * Epilogue.SUM_SPREAD * batch]);
        } catch (RuntimeException e) {
            closeOwned(e);
            throw e;
        }
    }

    /**
     * Whether this decoder runs a linear of {@code format} at {@code batch} rows on roofline's GEMV (else on
     * cuBLASLt): FP16 at one row, every other format up to 32 rows.
     */
    public static boolean runsOnGemv(WeightFormat format, int batch) {
        return DecoderLinears.usesGemv(format, batch);
    }

    /**
     * A decoder over {@code weights} for {@code batch} sequences of up to {@code capacity} tokens each. The weights
     * stay the caller's (several decoders, e.g. of different batches, may share them) and must outlive the decoder.
     *
     * @param invFreq RoPE's {@code headDim / 2} inverse frequencies ({@link RopeFrequencies})
     * @param eps     RMSNorm's epsilon
     * @param launch  how the step's kernels follow each other ({@link KernelLaunch#PROGRAMMATIC} lets each become
     *                resident while the one before drains)
     * @throws IllegalArgumentException for weights of the wrong shape (naming the tensor and layer), a batch above 32
     *                                  with weights other than FP16, or a shape the attention kernels are not
     *                                  built for
     */
    public static DenseDecoder create(
            Device device,
            DecoderShape shape,
            DecoderWeights weights,
            double[] invFreq,
            float eps,
            int batch,
            int capacity,
            KernelLaunch launch) {
        return create(device, shape, weights, invFreq, eps, batch, capacity, KvCacheFormat.FP16, launch);
    }

    /**
     * {@link #create(Device, DecoderShape, DecoderWeights, double[], float, int, int, KernelLaunch)} with the KV cache
     * stored as {@code kv} says (FP8 E4M3 with its key and value scales halves the bytes the attention reads).
     */
    public static DenseDecoder create(
            Device device,
            DecoderShape shape,
            DecoderWeights weights,
            double[] invFreq,
            float eps,
            int batch,
            int capacity,
            KvCacheFormat kv,
            KernelLaunch launch) {
        return create(device, shape, weights, invFreq, eps, batch, capacity, kv, launch, null);
    }

    /**
     * One GPU of a tensor-parallel decoder: {@code shape} is its part ({@link DecoderShape#shard}), {@code weights} its
     * slices, and {@code partialSums} sums the o and down products' outputs over the GPUs before each residual add
     * (null: one GPU). Its norms never run in the products' epilogues ({@link #fusesNorms}); its logits are its part
     * of the vocabulary.
     */
    public static DenseDecoder create(
            Device device,
            DecoderShape shape,
            DecoderWeights weights,
            double[] invFreq,
            float eps,
            int batch,
            int capacity,
            KvCacheFormat kv,
            KernelLaunch launch,
            PartialSums partialSums) {
        java.util.Objects.requireNonNull(launch, "launch");
        java.util.Objects.requireNonNull(kv, "kv");
        if (batch < 1 || capacity < 1) {
            throw new IllegalArgumentException(
                    "batch and capacity must be positive, got batch " + batch + ", capacity " + capacity);
        }
        weights.check(shape);
        if (invFreq.length != shape.headDim() / 2) {
            throw new IllegalArgumentException(
                    "invFreq must hold headDim / 2 = " + shape.headDim() / 2 + " frequencies, got " + invFreq.length);
        }
        if (!(eps > 0) || Float.isInfinite(eps)) {
            throw new IllegalArgumentException("eps must be positive and finite, got " + eps);
        }
        if (!DecodeKernels.HEAD_DIMS.contains(shape.headDim())
                || !DecodeKernels.GROUP_SIZES.contains(shape.heads() / shape.kvHeads())) {
            throw new IllegalArgumentException("the attention kernels are built for head_dim " + DecodeKernels.HEAD_DIMS
                    + " and " + DecodeKernels.GROUP_SIZES + " query heads per KV head; got head_dim "
                    + shape.headDim() + ", " + shape.heads() + " / " + shape.kvHeads());
        }
        DecoderLinears.checkBatch(weights, batch);
        if (shape.hasExperts()) {
            ExpertBuffers.checkBatch(shape, batch);
        }
        if (partialSums != null && shape.hasExperts()) {
            throw new IllegalArgumentException("tensor parallelism: the decoder splits dense shapes only; this one has "
                    + shape.experts() + " experts");
        }
        return new DenseDecoder(device, shape, weights, invFreq, eps, batch, capacity, kv, launch, partialSums);
    }

    /**
     * Whether the decoder has a product for {@code format} weights at {@code batch} rows: every format up to 32 rows
     * (roofline's GEMV), FP16 above (cuBLASLt); {@link #create} refuses the rest.
     */
    public static boolean runs(WeightFormat format, int batch) {
        return DecoderLinears.runs(format, batch);
    }

    /**
     * Whether the decoder runs a step of {@code shape} with {@code format} weights at {@code batch} rows: as
     * {@link #runs(WeightFormat, int)} for a dense shape; with experts, batches up to 16 in the grouped GEMVs' formats
     * ({@link dev.roofline.cuda.kernels.MoeKernels#FORMATS}).
     */
    public static boolean runs(DecoderShape shape, WeightFormat format, int batch) {
        return shape.hasExperts() ? ExpertBuffers.runs(format, batch) : runs(format, batch);
    }

    public DecoderShape shape() {
        return shape;
    }

    public int batch() {
        return batch;
    }

    public int capacity() {
        return capacity;
    }

    /** How the KV cache stores keys and values. */
    public KvCacheFormat kvFormat() {
        return kv;
    }

    /**
     * The residual stream {@code half[batch][hidden]}, which the step starts from and overwrites; {@link #setInput}
     * writes the step's token embeddings into it.
     */
    public DeviceBuffer input() {
        return residual;
    }

    /** The step's logits, {@code half[batch][vocab]}. */
    public DeviceBuffer logits() {
        return logits;
    }

    /**
     * The KV cache of {@code layer}: K then V, each {@code [batch][kvHeads][capacity][headDim]} elements of
     * {@link #kvFormat()}.
     */
    public DeviceBuffer[] cache(int layer) {
        return new DeviceBuffer[] {kCache[layer], vCache[layer]};
    }

    /**
     * The routing of {@code layer} in the last step, for a shape with experts: each row's expert ids
     * ({@code int[batch][topK]}, best first) and their weights ({@code float[batch][topK]}).
     */
    public DeviceBuffer[] routing(int layer) {
        if (experts == null) {
            throw new IllegalStateException("a dense decoder has no routing");
        }
        java.util.Objects.checkIndex(layer, shape.layers());
        return new DeviceBuffer[] {experts.ids(layer), experts.weights(layer)};
    }

    /**
     * Each sequence's position in the next step (0-based; its cache then holds that many tokens plus this one). The
     * device is synchronized before and after the upload: the copy goes through the default stream, which the step's
     * non-blocking stream does not wait for, so no step may still read the old positions and none may start before
     * the new ones have landed.
     */
    public void setPositions(int[] positions) {
        int[] lengths = Positions.lengths(positions, batch, capacity);
        Cuda.synchronize();
        this.positions.copyFrom(positions);
        this.lengths.copyFrom(lengths);
        Cuda.synchronize();
        longest = Arrays.stream(lengths).max().orElseThrow();
    }

    /**
     * The next step's input rows (the token embeddings, FP16 bits, {@code batch × hidden}) into {@link #input()},
     * synchronized as {@link #setPositions} is.
     */
    public void setInput(short[] embeddings) {
        if (embeddings.length != batch * shape.hidden()) {
            throw new IllegalArgumentException("embeddings must hold batch x hidden = " + batch * shape.hidden()
                    + " FP16 values, got " + embeddings.length);
        }
        Cuda.synchronize();
        residual.copyFrom(embeddings);
        Cuda.synchronize();
    }

    /** Enqueues one decode step. */
    public void step(Stream stream) {
        step(null, stream);
    }

    /**
     * Enqueues one decode step without the launches of {@code skipped} (on whatever the buffers hold, the kernels after
     * it reading what it last wrote): the step less one operator, so that the step's time less this one's is what that
     * operator costs inside the graph, beside its neighbours, rather than timed on its own ({@link #enqueue}).
     */
    public void stepWithout(DecoderOperator skipped, Stream stream) {
        requireOperator(skipped);
        step(skipped, stream);
    }

    private void step(DecoderOperator skipped, Stream stream) {
        boolean norms = skipped != DecoderOperator.ADD_RMSNORM;
        for (int l = 0; l < shape.layers(); l++) {
            if (norms && (!fusedNorms || l == 0)) {
                inputNorm(l, stream);
            }
            for (DecoderOperator o : experts == null ? LAYER_ORDER : EXPERT_LAYER_ORDER) {
                if (o != skipped) {
                    layer(o, l, stream);
                }
            }
        }
        if (norms && !fusedNorms) {
            finalNorm(stream);
        }
        if (skipped != DecoderOperator.LM_HEAD) {
            layer(DecoderOperator.LM_HEAD, 0, stream);
        }
    }

    private void requireOperator(DecoderOperator operator) {
        if (!shape.operators().contains(operator)) {
            throw new IllegalArgumentException(operator + " is not an operator of this decoder's step");
        }
    }

    /**
     * Whether the residual adds and norms after layer 0's input norm run inside the matrix products: for a dense
     * shape whose linears are all FP16 on roofline's GEMV (batch 1). Their launches are then gone from the step
     * ({@link #launches}).
     */
    public boolean fusesNorms() {
        return fusedNorms;
    }

    /**
     * Whether RoPE and the KV append run in the q/k/v product's epilogue: on one GPU, at batch 1, with FP16 or FP8
     * q/k/v weights in the row-major layout. Their launches are then gone from the step ({@link #launches}).
     */
    public boolean fusesRope() {
        return fusedRope;
    }

    /**
     * Kernel launches of {@code operator} in one step: {@link DecoderOperator#launches}, but one norm (layer 0's
     * input) when the norms run in the products ({@link #fusesNorms}), and none of RoPE and the KV append when they
     * run in the q/k/v product ({@link #fusesRope}).
     */
    public int launches(DecoderOperator operator) {
        return operator.launches(shape.layers(), fusedNorms, fusedRope);
    }

    /**
     * Kernel launches of {@code operator} in one step of a decoder of {@code shape} on one GPU whose linears are all
     * {@code format}, at {@code batch} sequences: what {@link #launches(DecoderOperator)} of such a decoder counts, for a
     * prediction made without a GPU.
     */
    public static int launches(DecoderOperator operator, DecoderShape shape, WeightFormat format, int batch) {
        return operator.launches(
                shape.layers(), normsFuse(shape.hasExperts(), fuses(format), batch), ropeFuses(fuses(format), batch));
    }

    /**
     * The kernels a one-GPU decoder launches, as a calibration's plans ({@link LaunchPlan}, first match first): for
     * dense shapes and mixtures of experts, FP16 and FP8 weights at batch 1 (the products carry the fusions) and then
     * every other configuration (none do). Counted as
     * {@link #launches(DecoderOperator, DecoderShape, WeightFormat, int)} counts them, per layer and outside the layers.
     */
    public static List<LaunchPlan> launchPlans() {
        List<LaunchPlan> plans = new ArrayList<>();
        for (boolean experts : new boolean[] {false, true}) {
            for (Precision p : new Precision[] {Precision.FP16, Precision.FP8_E4M3}) {
                plans.add(plan(experts, p, 1, normsFuse(experts, true, 1), ropeFuses(true, 1)));
            }
            plans.add(plan(experts, null, Integer.MAX_VALUE, false, false));
        }
        return List.copyOf(plans);
    }

    /** A plan's kernels, from the step's launches at 1 and 2 layers (each operator's count is linear in layers). */
    private static LaunchPlan plan(boolean experts, Precision weights, int maxBatch, boolean norms, boolean rope) {
        int one = 0;
        int two = 0;
        for (DecoderOperator o : DecoderOperator.of(experts)) {
            one += o.launches(1, norms, rope);
            two += o.launches(2, norms, rope);
        }
        return new LaunchPlan(weights, maxBatch, experts, two - one, 2 * one - two);
    }

    /**
     * Whether the norms run in the products' epilogues on one GPU: for a dense shape whose linears all carry them
     * ({@link #fuses}) at batch 1. On an H200 that made the Llama-3-8B batch 1 × 1k step 74 µs faster for FP16
     * weights and 97–98 µs faster for FP8 (docs/design/decode-kernels.md). The 4-bit products carry no epilogue
     * (NVFP4's measured 50 µs slower with one). A mixture of experts' router and grouped GEMVs take the norm's output
     * as it is, so a shape with experts keeps the norm launches.
     */
    private static boolean normsFuse(boolean experts, boolean allCarryNorms, int batch) {
        return !experts && allCarryNorms && batch == 1;
    }

    /**
     * Whether linears of {@code format} carry the norms at batch 1 ({@code GemvKernels.Epilogue}), and q/k/v products
     * of it RoPE and the KV append ({@link DecodeKernels#qkvRopeAppend}): FP16 and FP8.
     */
    private static boolean fuses(WeightFormat format) {
        return format == WeightFormat.FP16 || format == WeightFormat.FP8_E4M3;
    }

    /**
     * Whether RoPE and the KV append run in the q/k/v product on one GPU: FP16 or FP8 q/k/v weights at batch 1. On an
     * H200 that made Llama-3-8B's FP16 step at batch 1 × 8k 52 µs faster (1–5 µs at 1k), and its FP8 step 12.3–13.4
     * µs faster at 1k and 2.7–6.0 µs at 8k (docs/measurements/2026-11-28-issue15-fp8-rope-tc-h200).
     */
    private static boolean ropeFuses(boolean qkvFuses, int batch) {
        return qkvFuses && batch == 1;
    }

    /**
     * Whether the attention's first pass launches in plain stream order rather than early (programmatically): in a
     * dense shape, where it follows the fused q/k/v + RoPE product ({@link #fusesRope}) and makes at most half a wave
     * of blocks ({@link DecodeKernels#attentionSplitFillsHalfAWave}). There it measured faster; with more blocks, or
     * after the separate RoPE launch, mostly slower (docs/design/decode-kernels.md, "the split pass in stream order").
     */
    private boolean splitInStreamOrder() {
        return fusedRope
                && experts == null
                && kernels.attentionSplitFillsHalfAWave(batch, shape.heads(), shape.kvHeads(), longest);
    }

    /**
     * Whether a launch of {@code o} in this decoder's step is made in plain stream order rather than as the decoder's
     * {@link KernelLaunch} says: the attention's split pass where {@link #splitInStreamOrder}
     * (launch 0 of the attention is the split pass, 1 the merge), a product whose weights are tiled in any layer
     * (GemvKernels runs the tiled 4-bit kernels in stream order), and a product cuBLASLt runs (FP16 above one row:
     * its kernels neither wait for the one before nor let the next start early).
     *
     * @param launch which of the operator's launches in a layer: 0 or 1 for the attention, 0 otherwise
     */
    public boolean launchesInStreamOrder(DecoderOperator o, int launch) {
        return switch (o) {
            case ATTENTION -> launch == 0 && splitInStreamOrder();
            case QKV_PROJ -> inStreamOrder(weights.layers().stream().flatMap(l -> l.qkv().parts().stream()));
            case O_PROJ -> inStreamOrder(weights.layers().stream().map(DecoderWeights.Layer::o));
            case GATE_UP_PROJ ->
                inStreamOrder(weights.layers().stream()
                        .filter(l -> l.gateUp() != null)
                        .flatMap(l -> l.gateUp().parts().stream()));
            case DOWN_PROJ ->
                inStreamOrder(weights.layers().stream()
                        .map(DecoderWeights.Layer::down)
                        .filter(w -> w != null));
            case LM_HEAD -> inStreamOrder(java.util.stream.Stream.of(weights.lmHead()));
            default -> false;
        };
    }

    /** Whether any of {@code products} runs in stream order: tiled, or on cuBLASLt at this batch. */
    private boolean inStreamOrder(java.util.stream.Stream<DeviceWeights> products) {
        return products.anyMatch(w -> w.tiled() || !DecoderLinears.usesGemv(w.format(), batch));
    }

    /** Bytes of partials the attention's merge reads in a step at the positions last set ({@link #setPositions}). */
    public long attentionPartialBytes() {
        return kernels.attentionPartialBytes(batch, shape.heads(), shape.kvHeads(), shape.headDim(), longest);
    }

    /** Whether every layer's q/k/v parts are row-major FP16 or FP8 matrices of whole heads ({@link #fuses}). */
    private static boolean qkvInWholeHeadsThatFuse(DecoderWeights weights, int headDim) {
        for (DecoderWeights.Layer l : weights.layers()) {
            for (DeviceWeights p : l.qkv().parts()) {
                if (!fuses(p.format()) || p.tiled() || p.rows() % headDim != 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Enqueues every launch of {@code operator} in one step ({@link DecoderOperator#launches}), in layer order and
     * without the others: on whatever the buffers hold, for timing the operator on its own.
     */
    public void enqueue(DecoderOperator operator, Stream stream) {
        requireOperator(operator);
        if (operator == DecoderOperator.LM_HEAD) {
            layer(operator, 0, stream);
            return;
        }
        for (int l = 0; l < shape.layers(); l++) {
            if (operator == DecoderOperator.ADD_RMSNORM && (!fusedNorms || l == 0)) {
                inputNorm(l, stream);
            }
            layer(operator, l, stream);
        }
        if (operator == DecoderOperator.ADD_RMSNORM && !fusedNorms) {
            finalNorm(stream);
        }
    }

    private void inputNorm(int l, Stream stream) {
        kernels.addRmsNorm(
                residual,
                l == 0 ? null : delta,
                weights.layers().get(l).inputNorm(),
                normed,
                batch,
                shape.hidden(),
                eps,
                stream);
    }

    private void finalNorm(Stream stream) {
        kernels.addRmsNorm(residual, delta, weights.finalNorm(), normed, batch, shape.hidden(), eps, stream);
    }

    /** Sums {@code i} (0 or 1): the {@code float[batch][Epilogue.SUM_SPREAD]} a producer adds into, a consumer reads. */
    private MemorySegment sums(int i) {
        long bytes = 4L * Epilogue.SUM_SPREAD * batch;
        return sums.slice(bytes * i, bytes).pointer();
    }

    /**
     * The epilogue of a product that reads a norm's output. Layer 0's q/k/v reads the input norm kernel's and clears
     * sums 0 for o_proj; the others scale by the sums their producer left: gate/up by o_proj's (0), q/k/v and
     * {@code lm_head} by down_proj's (1).
     */
    private Epilogue normed(int sumsIn, boolean firstLayerQkv) {
        if (!fusedNorms) {
            return Epilogue.NONE;
        }
        return firstLayerQkv ? Epilogue.clearing(sums(0)) : Epilogue.normScale(sums(sumsIn), shape.hidden(), eps);
    }

    /**
     * The epilogue of the product before a norm whose weight is {@code norm}: o_proj adds into sums 0 and clears 1,
     * down_proj adds into 1 and clears 0 (each cleared sum's reader has run by then).
     */
    private Epilogue beforeNorm(DeviceBuffer norm, int sumsOut) {
        return Epilogue.addNorm(residual, norm, sums(sumsOut), sums(1 - sumsOut));
    }

    /** One layer's launch of {@code o}; ADD_RMSNORM is the post-attention norm here (none when fused). */
    private void layer(DecoderOperator o, int l, Stream stream) {
        DecoderWeights.Layer w =
                o == DecoderOperator.LM_HEAD ? null : weights.layers().get(l);
        int heads = shape.heads();
        int g = shape.kvHeads();
        int d = shape.headDim();
        switch (o) {
            case ADD_RMSNORM -> {
                if (!fusedNorms) {
                    kernels.addRmsNorm(residual, delta, w.postNorm(), normed, batch, shape.hidden(), eps, stream);
                }
            }
            case QKV_PROJ -> {
                if (fusedRope) {
                    qkvRopeAppend(w.qkv(), l, stream);
                } else {
                    linears.run(w.qkv(), normed, qkv, normed(1, l == 0), stream);
                }
            }
            case ROPE_APPEND -> {
                if (!fusedRope) {
                    kernels.ropeAppend(
                            qkv, kCache[l], vCache[l], kv, positions, invFreq, batch, heads, g, d, capacity, stream);
                }
            }
            case ATTENTION ->
                kernels.attention(
                        qkv,
                        kCache[l],
                        vCache[l],
                        kv,
                        lengths,
                        workspace,
                        attended,
                        AttentionGeometry.mergedQkv(batch, heads, g, d, capacity),
                        longest,
                        splitInStreamOrder(),
                        stream);
            case O_PROJ -> {
                if (fusedNorms) {
                    linears.run(w.o(), attended, normed, beforeNorm(w.postNorm(), 0), stream);
                } else {
                    linears.run(w.o(), attended, delta, stream);
                    completePartialSums(stream);
                }
            }
            case GATE_UP_PROJ -> linears.run(w.gateUp(), normed, gateUp, normed(0, false), stream);
            case SILU_MUL -> kernels.siluMul(gateUp, activated, batch, shape.intermediate(), stream);
            case DOWN_PROJ -> {
                if (fusedNorms) {
                    DeviceBuffer next =
                            l + 1 < shape.layers() ? weights.layers().get(l + 1).inputNorm() : weights.finalNorm();
                    linears.run(w.down(), activated, normed, beforeNorm(next, 1), stream);
                } else {
                    linears.run(w.down(), activated, delta, stream);
                    completePartialSums(stream);
                }
            }
            case LM_HEAD -> linears.run(weights.lmHead(), normed, logits, normed(1, false), stream);
            case ROUTER, TOP_K, EXPERTS_GATE_UP, EXPERTS_SILU_MUL, EXPERTS_DOWN, EXPERTS_COMBINE ->
                experts(o, l, w.experts(), stream);
        }
    }

    /**
     * Layer {@code l}'s q/k/v product with RoPE and the KV append in its epilogue, one launch per part of the stack.
     * FP8 parts of a shape GemvKernels runs on the tensor cores at one row take them only where the attention's split
     * pass after it launches in stream order ({@link #splitInStreamOrder}), and the CUDA cores elsewhere: on an H200
     * the Llama-3-8B FP8 batch 1 step took 11.3–13.4 µs less at 1k on the tensor cores than with RoPE launched apart,
     * but 30–34 µs more at 8k, where the split pass launches early; on the CUDA cores it took 2.7–6.0 µs less there
     * (docs/measurements/2026-11-28-issue15-fp8-rope-tc-h200).
     */
    private void qkvRopeAppend(StackedWeights w, int l, Stream stream) {
        boolean tensorCores = splitInStreamOrder();
        long first = 0;
        int head0 = 0;
        for (DeviceWeights p : w.parts()) {
            long bytes = 2L * p.rows();
            kernels.qkvRopeAppend(
                    p,
                    normed,
                    qkv.slice(first, bytes),
                    normed(1, l == 0),
                    head0,
                    kCache[l],
                    vCache[l],
                    kv,
                    positions,
                    invFreq,
                    shape.heads(),
                    shape.kvHeads(),
                    shape.headDim(),
                    capacity,
                    tensorCores,
                    stream);
            first += bytes;
            head0 += p.rows() / shape.headDim();
        }
    }

    /** On a tensor-parallel GPU, the all-reduce that turns its part of o or down's output into the whole. */
    private void completePartialSums(Stream stream) {
        if (partialSums != null) {
            partialSums.allReduce(delta, (long) batch * shape.hidden(), stream);
        }
    }

    /** One layer's launch of a mixture-of-experts operator: from {@code normed} to the residual's {@code delta}. */
    private void experts(DecoderOperator o, int l, ExpertWeights w, Stream stream) {
        ExpertBuffers x = experts;
        int e = shape.experts();
        int k = shape.topK();
        switch (o) {
            case ROUTER -> linears.gemv(w.router(), normed, x.logits(), stream);
            case TOP_K -> x.kernels().topK(x.logits(), x.ids(l), x.weights(l), batch, e, k, stream);
            case EXPERTS_GATE_UP -> x.kernels().up(w.gateUp(), e, normed, x.ids(l), x.gateUp(), batch, k, stream);
            case EXPERTS_SILU_MUL ->
                kernels.siluMul(x.gateUp(), x.activated(), batch * k, shape.intermediate(), stream);
            case EXPERTS_DOWN ->
                x.kernels().down(w.down(), e, x.activated(), x.ids(l), x.weights(l), x.out(), batch, k, stream);
            case EXPERTS_COMBINE -> x.kernels().combine(x.out(), delta, batch, shape.hidden(), k, stream);
            default -> throw new IllegalArgumentException(o + " is not an operator of the experts");
        }
    }

    private DeviceBuffer buffer(long bytes) {
        return owned.add(DeviceBuffer.allocate(bytes));
    }

    /** Frees the caches, the buffers and the kernels (not the weights); idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            closeOwned(null);
        }
    }

    private void closeOwned(RuntimeException failure) {
        try {
            owned.close();
        } catch (RuntimeException e) {
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }
}
