package dev.roofline.cuda.kernels;

import dev.roofline.core.precision.Precision;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.internal.Cudart;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The non-linear operators of one Llama-family decode step on the GPU, FP16 activations with FP32 arithmetic
 * ({@code decode.cu}, in the same fatbin as the GEMV kernels): the residual add fused with RMSNorm, rotary embedding,
 * the KV-cache append, flash-decoding attention and SiLU·up. Layouts are row-major with the batch outermost:
 * hidden states {@code half[B][hidden]}, {@code q half[B][H][D]}, this step's {@code k, v half[B][G][D]}, caches
 * {@code half[B][G][capacity][D]}, {@code positions} and {@code lengths} {@code int[B]}. Calls are enqueued on the
 * given stream; {@link dev.roofline.cuda.decode.DecodeReference} computes the same in double on the CPU.
 *
 * <pre>{@code
 * try (DecodeKernels k = DecodeKernels.load()) {
 *     k.attention(q, kCache, vCache, lengths, workspace, out, batch, 32, 8, 128, capacity, longest, stream);
 * }
 * }</pre>
 */
public final class DecodeKernels implements AutoCloseable {
    /**
     * The most tokens one block of the attention's first pass reads (its chunk of the context) for groups of up to 4
     * query heads per KV head; groups of 8 take {@link #ATTENTION_MAX_CHUNK_GROUP8} (ATTENTION_MAX_CHUNK in decode.cu:
     * the block keeps a logit per head and token in shared memory, beside its 32 KiB of KV tiles and under the 48 KiB a
     * block's static shared memory may take).
     */
    public static final int ATTENTION_MAX_CHUNK = 512;
    /** {@link #ATTENTION_MAX_CHUNK} for groups of more than 4 query heads per KV head. */
    public static final int ATTENTION_MAX_CHUNK_GROUP8 = 256;
    /** The fewest tokens one block of the attention's first pass reads, unless the context is shorter. */
    public static final int ATTENTION_MIN_CHUNK = 32;
    /**
     * The most splits whose merge runs 16 columns of a head a warp (MERGE_FEW_SPLITS in decode.cu); above, 8 a warp
     * with twice the split lanes ({@link #attentionMergeColumns}).
     */
    static final int ATTENTION_MERGE_FEW_SPLITS = 32;
    /** Threads of a block of the attention's merge, each warp on its own columns of one head (MERGE_THREADS). */
    static final int ATTENTION_MERGE_THREADS = 128;
    /**
     * Chunks are whole multiples of this many tokens (the token rows the attention block reads at once: 8 or 16). The
     * split pass is correct at any chunk; multiples of 1, 8, 32 or 64 tokens ran the FP16 attention at one sequence
     * and 8k or 16k tokens no faster on an H200, up to 3.7 % slower
     * (docs/measurements/2026-11-27-issue15-fp8-gateup-grid-h200).
     */
    static final int ATTENTION_CHUNK_STEP = 16;
    /**
     * The widest row {@link #addRmsNorm} takes: its 256 threads keep eight 16-byte pieces each in registers
     * (NORM_PIECES in decode.cu).
     */
    public static final int NORM_MAX_HIDDEN = 256 * 8 * 8;
    /** Head sizes the attention kernels are built for. */
    public static final List<Integer> HEAD_DIMS = List.of(64, 128);
    /** Query heads per KV head the attention kernels are built for (GQA group sizes; 1 is multi-head attention). */
    public static final List<Integer> GROUP_SIZES = List.of(1, 2, 4, 8);

    private final KernelLibrary library;
    private final int smCount;
    private final int sharedPerSm;

    private DecodeKernels(KernelLibrary library, int smCount, int sharedPerSm) {
        this.library = library;
        this.smCount = smCount;
        this.sharedPerSm = sharedPerSm;
    }

    /** Loads the embedded fatbin into the current device's context and looks up every decode kernel. */
    public static DecodeKernels load() {
        return load(KernelLaunch.ORDERED);
    }

    /** {@link #load()}, each launch then made as {@code launch} says. */
    public static DecodeKernels load(KernelLaunch launch) {
        Device device = Cuda.currentDevice();
        return new DecodeKernels(
                KernelLibrary.load("decode kernel library", kernelNames(), launch),
                device.smCount(),
                Cudart.sharedMemoryPerSm(device.ordinal()));
    }

    static List<String> kernelNames() {
        List<String> names = new ArrayList<>(List.of(
                "decode_add_rmsnorm_f16",
                "decode_rope_f16",
                "decode_kv_append_f16",
                "decode_silu_mul_f16",
                "decode_attention_merge_d64_c8",
                "decode_attention_merge_d64_c16",
                "decode_attention_merge_d128_c8",
                "decode_attention_merge_d128_c16"));
        for (Precision p : KvCacheFormat.PRECISIONS) {
            KvCacheFormat kv = KvCacheFormat.of(p);
            names.add(ropeAppendKernel(kv));
            names.add(qkvRopeAppendKernel(WeightFormat.FP16, false, kv));
            names.add(qkvRopeAppendKernel(WeightFormat.FP8_E4M3, false, kv));
            names.add(qkvRopeAppendKernel(WeightFormat.FP8_E4M3, true, kv));
            for (int d : HEAD_DIMS) {
                for (int group : GROUP_SIZES) {
                    names.add(attentionSplitKernel(d, group, kv));
                }
            }
        }
        return List.copyOf(names);
    }

    private static String ropeAppendKernel(KvCacheFormat kv) {
        return "decode_rope_append_" + kv.kernelSuffix();
    }

    /**
     * The fused q/k/v kernel for weights of {@code format} (FP16 or FP8) and caches of {@code kv}, on the tensor cores
     * ({@code tc}, FP8 only) or the CUDA cores.
     */
    private static String qkvRopeAppendKernel(WeightFormat format, boolean tc, KvCacheFormat kv) {
        return "decode_qkv_rope_append_" + (format == WeightFormat.FP8_E4M3 ? (tc ? "fp8_tc_" : "fp8_") : "")
                + kv.kernelSuffix();
    }

    private static String attentionSplitKernel(int headDim, int group, KvCacheFormat kv) {
        return "decode_attention_split_d" + headDim + "_q" + group + "_" + kv.kernelSuffix();
    }

    /**
     * {@code residual += delta} (skipped when {@code delta} is null), then {@code out = residual / rms(residual) ·
     * weight}, rms = sqrt(mean(residual²) + eps), per row. The sum is rounded to FP16 before the norm, as an FP16
     * residual stream holds it. {@code hidden} is a multiple of 8 up to {@link #NORM_MAX_HIDDEN}.
     */
    public void addRmsNorm(
            DeviceBuffer residual,
            DeviceBuffer delta,
            DeviceBuffer weight,
            DeviceBuffer out,
            int rows,
            int hidden,
            float eps,
            Stream stream) {
        positive("rows", rows);
        if (hidden <= 0 || hidden % 8 != 0 || hidden > NORM_MAX_HIDDEN) {
            throw new IllegalArgumentException(
                    "hidden must be a multiple of 8 in [8, " + NORM_MAX_HIDDEN + "], got " + hidden);
        }
        long bytes = 2L * rows * hidden;
        requireBytes("residual", residual, bytes);
        if (delta != null) {
            requireBytes("delta", delta, bytes);
        }
        requireBytes("weight", weight, 2L * hidden);
        requireBytes("out", out, bytes);
        if (!(eps > 0) || Float.isInfinite(eps)) {
            throw new IllegalArgumentException("eps must be positive and finite, got " + eps);
        }
        library.launch("decode_add_rmsnorm_f16", rows, 256, stream, residual, delta, weight, out, hidden, eps);
    }

    /**
     * Rotary embedding in place on {@code q} ({@code heads}) and {@code k} ({@code kvHeads}) at each row's position;
     * {@code invFreq} holds {@code headDim / 2} doubles ({@link dev.roofline.cuda.decode.RopeFrequencies}).
     */
    public void rope(
            DeviceBuffer q,
            DeviceBuffer k,
            DeviceBuffer positions,
            DeviceBuffer invFreq,
            int rows,
            int heads,
            int kvHeads,
            int headDim,
            Stream stream) {
        heads(heads, kvHeads, headDim);
        positive("rows", rows);
        requireBytes("q", q, 2L * rows * heads * headDim);
        requireBytes("k", k, 2L * rows * kvHeads * headDim);
        requireBytes("positions", positions, 4L * rows);
        requireBytes("invFreq", invFreq, 8L * (headDim / 2));
        library.launch("decode_rope_f16", rows, 128, stream, q, k, positions, invFreq, heads, kvHeads, headDim);
    }

    /**
     * RoPE and the KV append in one launch over the merged q/k/v projection's output {@code qkv} =
     * {@code half[rows][(heads + 2·kvHeads)·headDim]} (q heads, then k heads, then v heads): q and k are rotated in
     * place as {@link #rope} rotates them, and k and v are written into the caches at each row's position. Attention
     * then reads q in place ({@link AttentionGeometry#mergedQkv}).
     */
    public void ropeAppend(
            DeviceBuffer qkv,
            DeviceBuffer kCache,
            DeviceBuffer vCache,
            DeviceBuffer positions,
            DeviceBuffer invFreq,
            int rows,
            int heads,
            int kvHeads,
            int headDim,
            int capacity,
            Stream stream) {
        ropeAppend(
                qkv,
                kCache,
                vCache,
                KvCacheFormat.FP16,
                positions,
                invFreq,
                rows,
                heads,
                kvHeads,
                headDim,
                capacity,
                stream);
    }

    /**
     * {@link #ropeAppend} into caches stored as {@code kv} says: each rotated key and each value (FP16, as the
     * projection wrote it) over its scale, rounded to the cache's element type.
     */
    public void ropeAppend(
            DeviceBuffer qkv,
            DeviceBuffer kCache,
            DeviceBuffer vCache,
            KvCacheFormat kv,
            DeviceBuffer positions,
            DeviceBuffer invFreq,
            int rows,
            int heads,
            int kvHeads,
            int headDim,
            int capacity,
            Stream stream) {
        heads(heads, kvHeads, headDim);
        positive("rows", rows);
        positive("capacity", capacity);
        Objects.requireNonNull(kv, "kv");
        requireBytes("qkv", qkv, 2L * rows * (heads + 2L * kvHeads) * headDim);
        requireAppendBuffers(kCache, vCache, kv, positions, invFreq, rows, kvHeads, headDim, capacity);
        library.launch(
                ropeAppendKernel(kv),
                Math.multiplyExact(rows, heads + 2 * kvHeads),
                128,
                stream,
                qkv,
                kCache,
                vCache,
                positions,
                invFreq,
                heads,
                kvHeads,
                headDim,
                capacity,
                1f / kv.keyScale(),
                1f / kv.valueScale());
    }

    /**
     * The merged q/k/v product of one row with {@link #ropeAppend} in its epilogue, in one launch: {@code qkv = x · Wᵀ}
     * as {@link GemvKernels} computes it for FP16 or FP8 weights and FP16 activations at one row (with {@code
     * epilogue}'s norm scale or cleared sums; FP8 on the tensor cores where {@link GemvKernels} runs that shape there
     * and {@code tensorCores} allows it, else on the CUDA cores, whose sums can differ from the tensor cores' by a
     * rounding), then q and k rotated and k and v appended at {@code positions[0]}, leaving in {@code qkv} and the
     * caches the bits that product followed by {@link #ropeAppend} leaves. {@code w} holds whole
     * heads, from head {@code head0} of the {@code heads + 2·kvHeads} on: the stacked q/k/v matrix with {@code head0} =
     * 0, or one of its parts with {@code qkv} that part's slice of the output. {@code positions[0]} and {@code invFreq}
     * are read before the kernel's programmatic wait: the kernel enqueued before it must not write them.
     *
     * @throws IllegalArgumentException for weights other than row-major FP16 or FP8, rows not whole heads or past the
     *                                  last head, an epilogue with a residual add, or a buffer smaller than the shape
     *                                  needs
     */
    public void qkvRopeAppend(
            DeviceWeights w,
            DeviceBuffer x,
            DeviceBuffer qkv,
            GemvKernels.Epilogue epilogue,
            int head0,
            DeviceBuffer kCache,
            DeviceBuffer vCache,
            KvCacheFormat kv,
            DeviceBuffer positions,
            DeviceBuffer invFreq,
            int heads,
            int kvHeads,
            int headDim,
            int capacity,
            boolean tensorCores,
            Stream stream) {
        Objects.requireNonNull(w, "w");
        Objects.requireNonNull(epilogue, "epilogue");
        Objects.requireNonNull(kv, "kv");
        heads(heads, kvHeads, headDim);
        positive("capacity", capacity);
        boolean fp8 = w.format() == WeightFormat.FP8_E4M3;
        if ((w.format() != WeightFormat.FP16 && !fp8) || w.tiled()) {
            throw new IllegalArgumentException("the q/k/v product with RoPE runs on row-major FP16 or FP8 weights, got "
                    + w.format() + (w.tiled() ? " (tiled)" : ""));
        }
        if (epilogue.addsResidual()) {
            throw new IllegalArgumentException(
                    "the q/k/v product with RoPE takes a norm scale or sums to clear, not a" + " residual add");
        }
        int total = heads + 2 * kvHeads;
        if (w.rows() % headDim != 0 || head0 < 0 || head0 + w.rows() / headDim > total) {
            throw new IllegalArgumentException("w's " + w.rows() + " rows from head " + head0
                    + " must be whole heads of " + headDim + " within the " + total + " q, k and v heads");
        }
        requireBytes("x", x, 2L * w.cols());
        requireBytes("qkv", qkv, 2L * w.rows());
        GemvShape.check(
                w.format(),
                1,
                w.rows(),
                w.cols(),
                w.weights().byteSize(),
                fp8 ? w.scales().byteSize() : 0,
                x.byteSize(),
                qkv.byteSize(),
                Activation.F16.bytes());
        requireAppendBuffers(kCache, vCache, kv, positions, invFreq, 1, kvHeads, headDim, capacity);
        // FP8 on the tensor cores where GemvKernels runs that shape there, with the blocks it launches
        boolean tc = tensorCores
                && fp8
                && GemvKernels.oneRowOnTensorCores(w.format(), Activation.F16, 1, w.rows(), w.cols());
        int blocks = Math.ceilDiv(w.rows(), 8); // the CUDA-core kernels: 8 rows a block of 4 warps
        int threads = 128;
        if (tc) {
            GemvKernels.RowMajorLaunch product =
                    GemvKernels.rowMajorLaunch(w.format(), Activation.F16, 1, w.rows(), w.cols(), false);
            blocks = product.blocks();
            threads = product.threadsPerBlock();
        }
        List<Object> args = new ArrayList<>(List.of(w.weights()));
        if (fp8) {
            args.add(w.scales());
        }
        args.addAll(List.of(
                x,
                qkv,
                w.rows(),
                w.cols(),
                epilogue,
                kCache,
                vCache,
                positions,
                invFreq,
                heads,
                kvHeads,
                headDim,
                capacity,
                head0,
                1f / kv.keyScale(),
                1f / kv.valueScale()));
        library.launch(qkvRopeAppendKernel(w.format(), tc, kv), blocks, threads, stream, args.toArray());
    }

    /** The caches, positions and inverse frequencies RoPE and the KV append of {@code rows} sequences read and write. */
    private static void requireAppendBuffers(
            DeviceBuffer kCache,
            DeviceBuffer vCache,
            KvCacheFormat kv,
            DeviceBuffer positions,
            DeviceBuffer invFreq,
            int rows,
            int kvHeads,
            int headDim,
            int capacity) {
        long cacheBytes = (long) kv.elementBytes() * rows * kvHeads * capacity * headDim;
        requireBytes("kCache", kCache, cacheBytes);
        requireBytes("vCache", vCache, cacheBytes);
        requireBytes("positions", positions, 4L * rows);
        requireBytes("invFreq", invFreq, 8L * (headDim / 2));
    }

    /** Writes this step's {@code k} and {@code v} into the caches at each row's position (below {@code capacity}). */
    public void kvAppend(
            DeviceBuffer k,
            DeviceBuffer v,
            DeviceBuffer kCache,
            DeviceBuffer vCache,
            DeviceBuffer positions,
            int rows,
            int kvHeads,
            int headDim,
            int capacity,
            Stream stream) {
        positive("rows", rows);
        positive("kvHeads", kvHeads);
        positive("headDim", headDim);
        positive("capacity", capacity);
        long step = 2L * rows * kvHeads * headDim;
        requireBytes("k", k, step);
        requireBytes("v", v, step);
        requireBytes("kCache", kCache, step * capacity);
        requireBytes("vCache", vCache, step * capacity);
        requireBytes("positions", positions, 4L * rows);
        library.launch(
                "decode_kv_append_f16",
                Math.multiplyExact(rows, kvHeads),
                128,
                stream,
                k,
                v,
                kCache,
                vCache,
                positions,
                kvHeads,
                headDim,
                capacity);
    }

    /** {@code out = silu(gate) · up} for {@code gateUp} = {@code half[rows][2·inter]} with gate first. */
    public void siluMul(DeviceBuffer gateUp, DeviceBuffer out, int rows, int inter, Stream stream) {
        positive("rows", rows);
        positive("inter", inter);
        requireBytes("gateUp", gateUp, 4L * rows * inter);
        requireBytes("out", out, 2L * rows * inter);
        library.launch(
                "decode_silu_mul_f16",
                Math.multiplyExact(rows, Math.ceilDiv(inter, 256)),
                256,
                stream,
                gateUp,
                out,
                inter);
    }

    /**
     * Shared memory the system keeps per block (1 KiB from compute capability 8.0 on: CUDA C++ Programming Guide,
     * "Shared Memory" of each compute capability), beside the block's own.
     */
    static final int RESERVED_SHARED_PER_BLOCK = 1024;

    /**
     * Static shared memory of one block of the attention's first pass (attention_split in decode.cu): the ring of 4
     * KV tiles of 8 KiB, a logit per head and token of its longest chunk, the 8 or 16 rows of partial outputs (4 KiB at
     * either head size) and each warp's max and sum per head: 45,184 bytes for groups of 4, 45,312 for 8, as ptxas
     * reports them for sm_90a for FP8 caches at head size 64. With FP16 and BF16 caches, and FP8 ones at head size 128,
     * the products run on the tensor cores with a ring of 3 tiles, logit rows 8 floats longer and without the rows of
     * partial outputs (33,024 and 33,280 bytes), so this bound holds for every cache type.
     */
    static int attentionBlockSharedBytes(int group) {
        return ATTENTION_STAGES * ATTENTION_TILE_BYTES
                + 4 * group * attentionMaxChunk(group)
                + 4096
                + 2 * 4 * group * 4;
    }

    /** Bytes of KV one tile of the attention's shared-memory ring holds (ATTENTION_TILE_BYTES in decode.cu). */
    static final int ATTENTION_TILE_BYTES = 8192;
    /** Tiles in the attention's shared-memory ring on the CUDA cores (ATTENTION_STAGES in decode.cu), the most. */
    static final int ATTENTION_STAGES = 4;

    /**
     * Blocks of the attention's first pass one SM holds at once, as the split count assumes: what the registers allow
     * (5 for groups of up to 4 query heads per KV head, whose launch bounds ask the compiler for five; 3 for groups of
     * 8, whose twice as many accumulators take ~160 registers a thread on the CUDA cores (FP8 caches at head size 64),
     * 3 blocks of 128 threads in 64 K registers; FP16 caches' tensor-core kernel for groups of 8 takes 89 and would fit
     * 5, which measured faster at one row up to 16k tokens and slower at 32k and at 8 rows, so the rule keeps 3 for
     * every cache type: docs/measurements/2026-11-26-issue15-attention-tensor-cores-h200, run 10),
     * and no more than {@code sharedPerSm} bytes of shared memory hold: 5 on an H100 or H200 (228 KiB), 2 where an SM
     * has 100 KiB (compute capability 12.x, as GB10).
     */
    static int attentionBlocksPerSm(int group, int sharedPerSm) {
        int byShared = sharedPerSm / (attentionBlockSharedBytes(group) + RESERVED_SHARED_PER_BLOCK);
        return Math.max(1, Math.min(group > 4 ? 3 : 5, byShared));
    }

    /** The most tokens a block of the attention's first pass reads for groups of {@code group} query heads. */
    static int attentionMaxChunk(int group) {
        return group > 4 ? ATTENTION_MAX_CHUNK_GROUP8 : ATTENTION_MAX_CHUNK;
    }

    /**
     * Tokens per block of the attention's first pass on a GPU of {@code smCount} SMs with {@code sharedPerSm} bytes of
     * shared memory each ({@link #attentionBlocksPerSm}). The blocks ({@code rows ×
     * kvHeads} KV heads times the splits) are sized to fill whole waves of resident blocks: the fewest splits chunks
     * of {@link #attentionMaxChunk} tokens allow, raised to as many as the waves those need can hold, then the chunk
     * that many splits need, rounded up to a multiple of 16 and kept in [{@link #ATTENTION_MIN_CHUNK},
     * {@link #attentionMaxChunk}]. A last wave a third full would otherwise leave most SMs idle while it runs.
     */
    public static int attentionChunk(int smCount, int sharedPerSm, int rows, int heads, int kvHeads, int maxLength) {
        positive("smCount", smCount);
        positive("sharedPerSm", sharedPerSm);
        positive("rows", rows);
        groups(heads, kvHeads);
        positive("maxLength", maxLength);
        long kvRows = (long) rows * kvHeads;
        int maxChunk = attentionMaxChunk(heads / kvHeads);
        long slots = attentionSlots(smCount, sharedPerSm, heads / kvHeads);
        long fewest = Math.ceilDiv(maxLength, maxChunk);
        long waves = Math.ceilDiv(kvRows * fewest, slots);
        long splits = Math.max(fewest, waves * slots / kvRows);
        long chunk = Math.ceilDiv(Math.ceilDiv(maxLength, splits), ATTENTION_CHUNK_STEP) * ATTENTION_CHUNK_STEP;
        return Math.clamp(chunk, ATTENTION_MIN_CHUNK, maxChunk);
    }

    /**
     * Whether the attention's first pass on a GPU of {@code smCount} SMs ({@code sharedPerSm} bytes of shared memory
     * each) makes at most half as many blocks ({@code rows × kvHeads} times {@link #attentionSplits}) as one wave of
     * resident blocks holds ({@link #attentionBlocksPerSm} on every SM): at contexts so short that the chunks stay at
     * {@link #ATTENTION_MIN_CHUNK} tokens.
     */
    public static boolean attentionSplitFillsHalfAWave(
            int smCount, int sharedPerSm, int rows, int heads, int kvHeads, int maxLength) {
        long blocks = (long) rows * kvHeads * attentionSplits(smCount, sharedPerSm, rows, heads, kvHeads, maxLength);
        return 2 * blocks <= attentionSlots(smCount, sharedPerSm, heads / kvHeads);
    }

    /** Blocks of the attention's first pass the whole GPU holds at once: {@link #attentionBlocksPerSm} on every SM. */
    private static long attentionSlots(int smCount, int sharedPerSm, int group) {
        return (long) smCount * attentionBlocksPerSm(group, sharedPerSm);
    }

    /** {@link #attentionSplitFillsHalfAWave(int, int, int, int, int, int)} on the GPU these kernels were loaded on. */
    public boolean attentionSplitFillsHalfAWave(int rows, int heads, int kvHeads, int maxLength) {
        return attentionSplitFillsHalfAWave(smCount, sharedPerSm, rows, heads, kvHeads, maxLength);
    }

    /** Splits of the context the attention's first pass makes: the longest row over {@link #attentionChunk}. */
    public static int attentionSplits(int smCount, int sharedPerSm, int rows, int heads, int kvHeads, int maxLength) {
        return Math.ceilDiv(maxLength, attentionChunk(smCount, sharedPerSm, rows, heads, kvHeads, maxLength));
    }

    /**
     * The most splits any longest row up to {@code maxLength} tokens makes. Not the splits at {@code maxLength}
     * itself: the chunk grows with the rows, so a shorter row can make more splits.
     */
    public static int maxAttentionSplits(
            int smCount, int sharedPerSm, int rows, int heads, int kvHeads, int maxLength) {
        positive("maxLength", maxLength);
        int most = 0;
        for (int length = 1; length <= maxLength; length++) {
            most = Math.max(most, attentionSplits(smCount, sharedPerSm, rows, heads, kvHeads, length));
        }
        return most;
    }

    /**
     * Bytes of FP32 workspace {@link #attention} needs on a GPU of {@code smCount} SMs ({@code sharedPerSm} bytes of
     * shared memory each) for any longest row up to
     * {@code maxLength} tokens (so a decoder's workspace for its capacity serves every step): per head and split a
     * max and a sum (that part rounded up to 16 bytes, so the partial outputs after it are aligned for 16-byte loads)
     * and {@code headDim} partial outputs, for {@link #maxAttentionSplits} splits.
     */
    public static long attentionWorkspaceBytes(
            int smCount, int sharedPerSm, int rows, int heads, int kvHeads, int headDim, int maxLength) {
        long partials = (long) rows * heads * maxAttentionSplits(smCount, sharedPerSm, rows, heads, kvHeads, maxLength);
        return workspaceBytes(partials, headDim);
    }

    /** Workspace for {@code partials} heads' splits: their maxes and sums, then their {@code headDim} outputs. */
    private static long workspaceBytes(long partials, int headDim) {
        return maxSumBytes(partials) + 4L * partials * headDim;
    }

    /** {@link #attentionWorkspaceBytes(int, int, int, int, int, int, int)} on the GPU these kernels were loaded on. */
    public long attentionWorkspaceBytes(int rows, int heads, int kvHeads, int headDim, int maxLength) {
        return attentionWorkspaceBytes(smCount, sharedPerSm, rows, heads, kvHeads, headDim, maxLength);
    }

    /**
     * Bytes of partials the attention's merge reads at {@code maxLength} tokens on the GPU these kernels were loaded on:
     * every head's max, sum and {@code headDim} outputs of each of {@link #attentionSplits} splits.
     */
    public long attentionPartialBytes(int rows, int heads, int kvHeads, int headDim, int maxLength) {
        return attentionPartialBytes(smCount, sharedPerSm, rows, heads, kvHeads, headDim, maxLength);
    }

    /** {@link #attentionPartialBytes(int, int, int, int, int)} on {@code smCount} SMs of {@code sharedPerSm} bytes. */
    static long attentionPartialBytes(
            int smCount, int sharedPerSm, int rows, int heads, int kvHeads, int headDim, int maxLength) {
        long partials = (long) rows * heads * attentionSplits(smCount, sharedPerSm, rows, heads, kvHeads, maxLength);
        return workspaceBytes(partials, headDim);
    }

    private static long maxSumBytes(long partials) {
        return Math.ceilDiv(8L * partials, 16) * 16;
    }

    /**
     * Decode attention over each row's first {@code lengths[row]} cached tokens (this step's included), GQA with
     * {@code heads / kvHeads} query heads per KV head ({@link #GROUP_SIZES}), which read each K and V row once
     * together, scale {@code 1/sqrt(headDim)}; two launches (flash-decoding: chunks of {@link #attentionChunk} tokens
     * in parallel, then their merge). q is packed, {@code half[rows][heads][headDim]}.
     *
     * @param maxLength the longest row's length (at most {@code capacity}): it sets the number of splits
     * @param workspace at least {@link #attentionWorkspaceBytes} bytes
     */
    public void attention(
            DeviceBuffer q,
            DeviceBuffer kCache,
            DeviceBuffer vCache,
            DeviceBuffer lengths,
            DeviceBuffer workspace,
            DeviceBuffer out,
            int rows,
            int heads,
            int kvHeads,
            int headDim,
            int capacity,
            int maxLength,
            Stream stream) {
        attention(
                q,
                kCache,
                vCache,
                lengths,
                workspace,
                out,
                AttentionGeometry.packed(rows, heads, kvHeads, headDim, capacity),
                maxLength,
                stream);
    }

    /** {@link #attention} with q laid out as {@code geometry} says (e.g. read in place from the merged q/k/v output). */
    public void attention(
            DeviceBuffer q,
            DeviceBuffer kCache,
            DeviceBuffer vCache,
            DeviceBuffer lengths,
            DeviceBuffer workspace,
            DeviceBuffer out,
            AttentionGeometry geometry,
            int maxLength,
            Stream stream) {
        attention(q, kCache, vCache, KvCacheFormat.FP16, lengths, workspace, out, geometry, maxLength, stream);
    }

    /**
     * {@link #attention} over caches stored as {@code kv} says: each key and value read as its code times the cache's
     * scale (the key scale folded into q, the value scale applied once to each split's output).
     */
    public void attention(
            DeviceBuffer q,
            DeviceBuffer kCache,
            DeviceBuffer vCache,
            KvCacheFormat kv,
            DeviceBuffer lengths,
            DeviceBuffer workspace,
            DeviceBuffer out,
            AttentionGeometry geometry,
            int maxLength,
            Stream stream) {
        attention(q, kCache, vCache, kv, lengths, workspace, out, geometry, maxLength, false, stream);
    }

    /**
     * {@link #attention(DeviceBuffer, DeviceBuffer, DeviceBuffer, KvCacheFormat, DeviceBuffer, DeviceBuffer,
     * DeviceBuffer, AttentionGeometry, int, Stream)} with the first pass launched in plain stream order where
     * {@code splitInStreamOrder} (it starts once the kernel before it has finished), else as these kernels were loaded
     * to launch ({@link #load(KernelLaunch)}). {@link #attentionSplitFillsHalfAWave} is where a decoder asks for it. The
     * merge launches as the kernels were loaded, and the split pass lets it launch only as each of its blocks ends.
     */
    public void attention(
            DeviceBuffer q,
            DeviceBuffer kCache,
            DeviceBuffer vCache,
            KvCacheFormat kv,
            DeviceBuffer lengths,
            DeviceBuffer workspace,
            DeviceBuffer out,
            AttentionGeometry geometry,
            int maxLength,
            boolean splitInStreamOrder,
            Stream stream) {
        Objects.requireNonNull(kv, "kv");
        int rows = geometry.rows();
        int heads = geometry.heads();
        int kvHeads = geometry.kvHeads();
        int headDim = geometry.headDim();
        int capacity = geometry.capacity();
        attentionHeadDim(headDim);
        int group = geometry.group();
        if (!GROUP_SIZES.contains(group)) {
            throw new IllegalArgumentException("attention is built for " + GROUP_SIZES
                    + " query heads per KV head, got " + heads + " / " + kvHeads + " = " + group);
        }
        if (maxLength < 1 || maxLength > capacity) {
            throw new IllegalArgumentException(
                    "maxLength must be in [1, capacity = " + capacity + "], got " + maxLength);
        }
        requireBytes("q", q, geometry.qBytes());
        requireBytes("kCache", kCache, kv.elementBytes() * geometry.cacheElements());
        requireBytes("vCache", vCache, kv.elementBytes() * geometry.cacheElements());
        requireBytes("lengths", lengths, 4L * rows);
        int chunk = attentionChunk(smCount, sharedPerSm, rows, heads, kvHeads, maxLength);
        int splits = Math.ceilDiv(maxLength, chunk); // attentionSplits
        long partials = (long) rows * heads * splits;
        requireBytes("workspace", workspace, workspaceBytes(partials, headDim));
        requireBytes("out", out, 2L * rows * heads * headDim);
        int rowsHeads = Math.multiplyExact(rows, heads);
        MemorySegment ml = workspace.pointer();
        MemorySegment acc = MemorySegment.ofAddress(ml.address() + maxSumBytes(partials));
        Object[] splitArgs = {
            q.pointer(),
            kCache.pointer(),
            vCache.pointer(),
            lengths.pointer(),
            ml,
            acc,
            geometry.qRowStride(),
            heads,
            kvHeads,
            capacity,
            splits,
            chunk,
            kv.keyScale(),
            kv.valueScale()
        };
        String split = attentionSplitKernel(headDim, group, kv);
        int splitGrid = Math.multiplyExact(Math.multiplyExact(rows, kvHeads), splits);
        if (splitInStreamOrder) {
            library.launchOrdered(split, splitGrid, 128, stream, splitArgs);
        } else {
            library.launch(split, splitGrid, 128, stream, splitArgs);
        }
        // The merge launches as these kernels were loaded (programmatically on sm_90+), and the split pass lets it
        // launch only as each of its blocks ends: made resident from the pass's start, beside split blocks holding
        // ~45 KiB of shared memory each, it made steps with FP8 weights at 8 and 16 rows 8-23 % slower
        // (docs/design/decode-kernels.md).
        library.launch(
                attentionMergeKernel(headDim, splits),
                attentionMergeBlocks(rowsHeads, headDim, splits),
                ATTENTION_MERGE_THREADS,
                stream,
                ml,
                acc,
                out,
                splits);
    }

    /**
     * Columns of a head each warp of the attention's merge takes for {@code splits} splits: 16 up to
     * {@link #ATTENTION_MERGE_FEW_SPLITS}, whose 8 split lanes then hold at most 4 splits each, 8 above, with 16 split
     * lanes (attention_merge in decode.cu says what each measured).
     */
    static int attentionMergeColumns(int splits) {
        positive("splits", splits);
        return splits <= ATTENTION_MERGE_FEW_SPLITS ? 16 : 8;
    }

    /** The merge kernel for head size {@code headDim} and {@code splits} splits. */
    static String attentionMergeKernel(int headDim, int splits) {
        return "decode_attention_merge_d" + headDim + "_c" + attentionMergeColumns(splits);
    }

    /**
     * Blocks of the attention's merge: a warp per {@link #attentionMergeColumns} columns of each of {@code rowsHeads}
     * heads, {@link #ATTENTION_MERGE_THREADS} / 32 warps a block (a head's warps, 4 to 16 at head sizes 64 and 128,
     * fill whole blocks).
     */
    static int attentionMergeBlocks(int rowsHeads, int headDim, int splits) {
        positive("rowsHeads", rowsHeads);
        attentionHeadDim(headDim);
        int warps = Math.multiplyExact(rowsHeads, headDim / attentionMergeColumns(splits));
        return warps / (ATTENTION_MERGE_THREADS / 32);
    }

    /** Refuses a head size the attention kernels are not built for ({@link #HEAD_DIMS}), naming it. */
    static void attentionHeadDim(int headDim) {
        if (!HEAD_DIMS.contains(headDim)) {
            throw new IllegalArgumentException("attention is built for head_dim " + HEAD_DIMS + ", got " + headDim);
        }
    }

    static void heads(int heads, int kvHeads, int headDim) {
        groups(heads, kvHeads);
        if (headDim <= 0 || headDim % 2 != 0 || headDim > 256) {
            throw new IllegalArgumentException("headDim must be even and in [2, 256], got " + headDim);
        }
    }

    /** Positive head counts, the query heads a whole number of groups of KV heads. */
    static void groups(int heads, int kvHeads) {
        positive("heads", heads);
        positive("kvHeads", kvHeads);
        if (heads % kvHeads != 0) {
            throw new IllegalArgumentException("heads (" + heads + ") must be a multiple of kvHeads (" + kvHeads + ")");
        }
    }

    static void positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, got " + value);
        }
    }

    /** Refuses a null buffer, or one smaller than {@code bytes}, naming it. */
    static void requireBytes(String name, DeviceBuffer b, long bytes) {
        if (b == null) {
            throw new NullPointerException(name + " must not be null");
        }
        if (b.byteSize() < bytes) {
            throw new IllegalArgumentException(name + " holds " + b.byteSize() + " bytes; the shape needs " + bytes);
        }
    }

    /** Unloads the library and frees its image, the first time only; launches already enqueued still run. */
    @Override
    public void close() {
        library.close();
    }
}
