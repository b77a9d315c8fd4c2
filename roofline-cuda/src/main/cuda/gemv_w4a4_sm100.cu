// NVFP4 weights x NVFP4 activations (W4A4) on the block-scaled tensor cores of sm_100a (B200, GB200), which have no
// block-scaled mma.sync and reach them only through tcgen05.mma. The contract of gemv_w4a4.cu's kernels: W E2M1
// [N][K/2] (element 2i in the low nibble), E4M3 scales [N][K/16], the FP32 global; x from quantize_x_nvfp4_f16 as
// xq [M][K/2], xs [M][K/16], x_global; y[m][n] FP16 = global x x_global x sum_k, FP32 accumulation; M <= 8; K a
// multiple of 128. gemv.cu includes this file after gemv_w4a4.cu; on targets other than sm_100a the kernels trap.
//
// The instruction (PTX ISA 9.0, "TensorCore 5th Generation Family Instructions", tcgen05.mma):
//   tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [d], a_desc, b_desc, idesc, [sfa], [sfb], p
// D (M x N FP32, tensor memory) = (A x scale_A)(B x scale_B) + (p ? D : 0); A (M x 64) and B (64 x N) E2M1 in shared
// memory, two to a byte with no padding ("Packing format used for matrix A and B by .kind::mxf4 and .kind::mxf4nvf4
// in Shared Memory"); scale_A (M x 4) and scale_B (4 x N) UE4M3 in tensor memory, one per 16 k ("Valid combinations
// of scale_vectorsize and shapes": scale_vec::4X, K = 64). Weight rows are A's M = 128, the one M of .kind::mxf4nvf4
// with cta_group::1; activation rows are B's N = 8, the smallest N (8..256 in steps of 8: "Various combinations of
// .kind and shapes", #tcgen05-kind-shapes). Padding priced: an MMA covers 128 x 64 weights (4096 + 512 scale bytes)
// with 2 x 128 x 8 x 64 FLOPs, 28 FLOPs a byte; at B200's 7.7 TB/s that asks 220 TFLOPS of the 9000 dense FP4 TFLOPS
// (hardware registry), 2.4 %, so the 7 of 8 columns an M = 1 product throws away cost no time the memory bound shows.
//
// Layouts, each from the PTX ISA 9.0 tcgen05 sections named:
// - Instruction descriptor ("Instruction descriptor format for .kind::mxf4 and .kind::mxf4nvf4",
//   #tcgen05-instuction-desc-kind-mxf4-mxf4nvf4): bits 0-1, 3, 6, 12, 24-26 reserved 0; 2 sparsity (dense 0); 4-5
//   scale_B ID (0: scale_vec::4X uses all four bytes of a column, "Layout of the Scale Factor B Matrix for
//   scale_vec::4X"); 7-9 atype, 10-11 btype (E2M1 = 1); 13, 14 negate A, B; 15, 16 transpose A, B (0 = K-major, the only
//   choice for this kind, "Transpose and Negate operation for various MMA-Kind"); 17-22 N >> 3; 23 scale type (UE4M3 =
//   0); 27-28 M >> 7; 29-30 scale_A ID (0); 31 K (0: dense K = 64).
// - Shared memory descriptor ("Shared memory descriptor layout", #tcgen05-shared-memory-desc-layout): bits 0-13 start
//   address, 16-29 leading dimension byte offset (LBO), 32-45 stride dimension byte offset (SBO), each as
//   (x & 0x3FFFF) >> 4; 46-48 the constant 0b001; 49-51 base offset (0 without swizzling); 52 LBO mode (0: relative);
//   61-63 swizzling (0: none). Without swizzling a K-major operand is 8-row x 16-byte core matrices (Table "Layout for
//   swizzle atoms": None, K, 8x1 of 128-bit elements), LBO the stride between the two 16-byte k columns of the MMA's
//   8 x 2 tile ("Leading Dimension Stride", K-Major, No-Swizzling) and SBO the stride from 8 rows to the next 8 ("Stride
//   Dimension Byte Offset", K-Major). Here a stage of 128 k (64 bytes a row) puts core matrix (8-row group g, k
//   column c) at g x 512 + c x 128: LBO 128, SBO 512, MMA j of the stage starting 256 j bytes in; B's 8 rows are
//   group 0.
// - D in tensor memory ("Layout D (M = 128 + cta-group::1)"): row m in lane m, column n in column n, FP32; warp w reads
//   lanes 32 (w % 4) .. 32 (w % 4) + 31 (tcgen05.ld .32x32b: lane i of the warp gets lane 32 (w % 4) + i), so the CTA's
//   four warps read the 128 rows, thread t row t.
// - scale_A with scale_vec::4X ("Layout of the Scale Factor A Matrix for scale_vec::4X/block16 with K=64/K=128", drawn
//   only in a figure): row m's four scales (k blocks 0..3 of the MMA, byte b of the 32-bit word = block b) in lane
//   m % 32, column m / 32, so M = 128 takes 4 columns. That is the 128 x 4 scale tile cuBLASLt reads
//   ((r % 32) x 16 + (r / 32) x 4 + b bytes, roofline-core's ScaleTiles) as tcgen05.cp .32x128b.warpx4 puts it in
//   tensor memory (32 lanes x 16 bytes, 4 bytes a column), the way CUTLASS's SM100 block-scaled collectives move
//   scales. scale_B the same by column ("Layout of the Scale Factor B Matrix for scale_vec::4X/block16"): N = 8 takes
//   lanes 0..7 of one column. "Block Scaling": both must be duplicated in all four 32-lane quarters of tensor memory,
//   so each of the four warps writes its quarter (tcgen05.st from registers, in place of tcgen05.cp from shared memory).
// - Tensor memory addresses ("Tensor Memory Addressing"): lane in bits 31-16, column in bits 15-0; tcgen05.alloc
//   takes a power of two >= 32 columns and writes the base address to shared memory.
//
// Order between threads and the tensor core ("Memory Consistency Model for 5th generation of TensorCore operations"):
// tcgen05.st, then tcgen05.wait::st and tcgen05.fence::before_thread_sync before the barrier, and
// tcgen05.fence::after_thread_sync after it before the tcgen05.mma that reads what was stored; shared memory written
// by cp.async (generic proxy) and read by the MMA (async proxy) is fenced with fence.proxy.async.shared::cta by each
// writer before the barrier; tcgen05.commit makes an mbarrier complete a phase when the thread's MMAs so far are done,
// after which their shared memory may be rewritten and D read (tcgen05.fence::after_thread_sync, tcgen05.ld,
// tcgen05.wait::ld).
//
// The kernel: 128 weight rows a CTA, 4 warps; K in stages of 128 (two MMAs) through a 4-stage cp.async ring, every
// thread loading, thread 0 issuing the MMAs and committing each stage to that stage's mbarrier. gemv_nvfp4_w4a4_sm100_s<S>
// splits K over a cluster of S CTAs (__cluster_dims__(S, 1, 1), one-dimensional grid of ceil(N / 128) x S): each CTA
// sums its range in its own tensor memory, then each reduces 128 / S rows of all S partial sums through distributed
// shared memory in rank order and writes them.
#pragma once

namespace roofline_w4a4_sm100 {

constexpr int ROWS = 128;                    // weight rows a CTA: the MMA's M
constexpr int COLS = 8;                      // activation rows: the MMA's N
constexpr int THREADS = 128;                 // one warp per 32-lane quarter of tensor memory
constexpr int STAGE_K = 128;                 // k a stage: two MMAs of K = 64
constexpr int STAGE_BYTES = STAGE_K / 2;     // E2M1 bytes of a row in a stage
constexpr int CHUNKS = STAGE_BYTES / 16;     // 16-byte k columns of a row in a stage
constexpr int STAGE_SCALES = STAGE_K / 16;   // scale bytes of a row in a stage: 4 per MMA
constexpr int STAGES = 4;
constexpr uint32_t CORE = 128;               // one core matrix: 8 rows x 16 bytes
constexpr uint32_t LBO = CORE;               // the next 16-byte k column of an 8-row group
constexpr uint32_t SBO = CHUNKS * CORE;      // the next 8 rows
constexpr uint32_t MMA_BYTES = 2 * CORE;     // an MMA's K = 64 is two k columns
constexpr int A_STAGE = ROWS * STAGE_BYTES;  // 8 KiB
constexpr int B_STAGE = COLS * STAGE_BYTES;  // 512 bytes

// Tensor memory columns of a CTA: D, then per stage s and MMA j scale_A (4 columns) and scale_B (1 column).
constexpr uint32_t TMEM_COLS = 64;
constexpr uint32_t D_COL = 0;
constexpr uint32_t SFA_COL = 16;             // + 8 s + 4 j
constexpr uint32_t SFB_COL = 48;             // + 2 s + j
static_assert(D_COL + COLS <= SFA_COL && SFA_COL + 8 * STAGES <= SFB_COL && SFB_COL + 2 * STAGES <= TMEM_COLS,
              "tensor memory columns overlap or exceed the allocation");
static_assert(ROWS * CHUNKS == 4 * THREADS, "each thread copies four 16-byte pieces of A a stage");

// matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4 ("Shared memory descriptor layout")
__host__ __device__ constexpr uint64_t descriptor_encode(uint32_t x) { return (x & 0x3FFFFu) >> 4; }

// A K-major operand without swizzling at shared address addr: start, LBO, SBO, the constant 0b001 at bits 46-48;
// base offset, LBO mode and swizzling 0.
__host__ __device__ constexpr uint64_t smem_descriptor(uint32_t addr, uint32_t lbo, uint32_t sbo) {
    return descriptor_encode(addr) | descriptor_encode(lbo) << 16 | descriptor_encode(sbo) << 32 | uint64_t{1} << 46;
}

// .kind::mxf4nvf4, dense, E2M1 x E2M1, UE4M3 scales with IDs 0, K-major A and B, no negation, K = 64.
__host__ __device__ constexpr uint32_t instruction_descriptor(int m, int n) {
    return 1u << 7 | 1u << 10 | static_cast<uint32_t>(n >> 3) << 17 | static_cast<uint32_t>(m >> 7) << 27;
}

// Hand values from the tables: atype 1 << 7 = 0x80, btype 1 << 10 = 0x400, N 8 >> 3 = 1 at bit 17 = 0x20000, M 128 >> 7
// = 1 at bit 27 = 0x8000000; the descriptor of 0x400 with LBO 128 and SBO 512: 0x40, 8 << 16 = 0x80000,
// 32 << 32 = 0x2000000000, 1 << 46 = 0x400000000000.
static_assert(instruction_descriptor(ROWS, COLS) == 0x08020480u, "instruction descriptor of the 128 x 8 x 64 MMA");
static_assert(instruction_descriptor(256, 256) == 0x10400480u, "M >> 7 at bits 27-28, N >> 3 at bits 17-22");
static_assert(smem_descriptor(0x400, LBO, SBO) == 0x0000402000080040ull, "shared memory descriptor");
static_assert(smem_descriptor(0x3FFF0, 16, 0x3FFF0) == 0x00007FFF00013FFFull, "14-bit fields and the 0b001 constant");

#if defined(__CUDA_ARCH_FEAT_SM100_ALL)

using roofline_gemv::smem_address;

__device__ __forceinline__ void copy16(uint32_t dst, const void* src) { // the weight stream: L2 only
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void copy8(uint32_t dst, const void* src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(dst), "l"(src) : "memory");
}
__device__ __forceinline__ void copies_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int PENDING>
__device__ __forceinline__ void copies_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(PENDING) : "memory"); }

__device__ __forceinline__ void mbarrier_wait(uint32_t bar, uint32_t parity) {
    uint32_t done;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(bar), "r"(parity)
                     : "memory");
    } while (!done);
}

__device__ __forceinline__ void fence_before_sync() { asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory"); }
__device__ __forceinline__ void fence_after_sync() { asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory"); }

// 8 (scale_A of both MMAs) and 2 (scale_B) consecutive columns of this warp's 32 lanes, one word per lane each
__device__ __forceinline__ void tmem_store8(uint32_t taddr, const uint32_t (&v)[8]) {
    asm volatile("tcgen05.st.sync.aligned.32x32b.x8.b32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8};" ::"r"(taddr),
                 "r"(v[0]), "r"(v[1]), "r"(v[2]), "r"(v[3]), "r"(v[4]), "r"(v[5]), "r"(v[6]), "r"(v[7])
                 : "memory");
}
__device__ __forceinline__ void tmem_store2(uint32_t taddr, uint32_t v0, uint32_t v1) {
    asm volatile("tcgen05.st.sync.aligned.32x32b.x2.b32 [%0], {%1, %2};" ::"r"(taddr), "r"(v0), "r"(v1) : "memory");
}
__device__ __forceinline__ void tmem_load8(uint32_t taddr, float (&v)[8]) {
    uint32_t r[8];
    asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]), "=r"(r[4]), "=r"(r[5]), "=r"(r[6]), "=r"(r[7])
                 : "r"(taddr)
                 : "memory");
    asm volatile("tcgen05.wait::ld.sync.aligned;" ::: "memory");
    #pragma unroll
    for (int i = 0; i < 8; i++) v[i] = __uint_as_float(r[i]);
}

__device__ __forceinline__ void mma(uint32_t d, uint64_t a, uint64_t b, uint32_t sfa, uint32_t sfb, bool accumulate) {
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.b32 p, %6, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [%0], %1, %2, %3, [%4], [%5], p;\n\t}"
                 ::"r"(d), "l"(a), "l"(b), "r"(instruction_descriptor(ROWS, COLS)), "r"(sfa), "r"(sfb),
                 "r"(static_cast<uint32_t>(accumulate))
                 : "memory");
}

// y rows n0 .. n0 + 127 (n0 = 128 x the cluster's index) from K split in equal ranges of whole stages over the SPLIT
// CTAs of a cluster.
template <int SPLIT>
__device__ __forceinline__ void gemv(const uint8_t* __restrict__ W, const uint8_t* __restrict__ scales,
                                     const uint8_t* __restrict__ xq, const uint8_t* __restrict__ xs,
                                     __half* __restrict__ y, int M, int N, int K, float out_scale) {
    static_assert(ROWS % SPLIT == 0, "each CTA of the cluster writes ROWS / SPLIT rows");
    __shared__ alignas(1024) uint8_t a_smem[STAGES][A_STAGE];
    __shared__ alignas(128) uint8_t b_smem[STAGES][B_STAGE];
    __shared__ alignas(16) uint2 sfa_smem[STAGES][ROWS]; // a row's 8 scale bytes of the stage: word j for MMA j
    __shared__ alignas(16) uint2 sfb_smem[STAGES][COLS];
    __shared__ alignas(16) float partial[COLS][ROWS];
    __shared__ alignas(8) uint64_t mma_done[STAGES];
    __shared__ uint32_t tmem_base;
    if (blockDim.x != THREADS || K % STAGE_K != 0 || M < 1 || M > COLS) __trap();

    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int rank = SPLIT == 1 ? 0 : static_cast<int>(__clusterRelativeBlockRank());
    const int n0 = static_cast<int>(SPLIT == 1 ? blockIdx.x : __clusterIdx().x) * ROWS;
    const int stages_k = K / STAGE_K;
    const int first = stages_k * rank / SPLIT, count = stages_k * (rank + 1) / SPLIT - first;
    const size_t row_bytes = static_cast<size_t>(K) / 2, row_scales = static_cast<size_t>(K) / 16;

    if (warp == 0) {
        asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;" ::"r"(smem_address(&tmem_base)),
                     "r"(TMEM_COLS)
                     : "memory");
        asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
    }
    if (tid == 0) {
        #pragma unroll
        for (int s = 0; s < STAGES; s++)
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_address(&mma_done[s])) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    fence_before_sync();
    __syncthreads();
    fence_after_sync();
    const uint32_t tmem = tmem_base;
    const uint32_t quarter = tmem + (static_cast<uint32_t>(32 * warp) << 16); // this warp's lanes

    // This thread's copies: A rows tid / 4 + 32 u (u = 0..3), k column tid % 4, so a warp's 32 pieces are 8 rows x 64
    // bytes of global memory and 512 contiguous bytes of shared memory; rows past N read row 0 (never written out).
    const int col = tid & 3;
    const uint8_t* a_src[4];
    uint32_t a_dst[4];
    #pragma unroll
    for (int u = 0; u < 4; u++) {
        const int r = tid / 4 + 32 * u;
        a_src[u] = W + static_cast<size_t>(n0 + r < N ? n0 + r : 0) * row_bytes + 16 * col;
        a_dst[u] = smem_address(a_smem) + (r / 8) * SBO + col * LBO + (r % 8) * 16;
    }
    const int b_row = (tid >> 2) & 7;           // threads 0..31: B rows 0..7; activation rows past M read row 0
    const uint8_t* b_src = xq + static_cast<size_t>(b_row < M ? b_row : 0) * row_bytes + 16 * col;
    const uint32_t b_dst = smem_address(b_smem) + col * LBO + b_row * 16;
    const uint8_t* sfa_src = scales + static_cast<size_t>(n0 + tid < N ? n0 + tid : 0) * row_scales;
    const uint8_t* sfb_src = xs + static_cast<size_t>((tid & 7) < M ? (tid & 7) : 0) * row_scales;
    auto load = [&](int k_stage, int s) {
        const size_t at = static_cast<size_t>(k_stage) * STAGE_BYTES;
        #pragma unroll
        for (int u = 0; u < 4; u++) copy16(a_dst[u] + s * A_STAGE, a_src[u] + at);
        if (tid < 32) copy16(b_dst + s * B_STAGE, b_src + at);
        copy8(smem_address(&sfa_smem[s][tid]), sfa_src + static_cast<size_t>(k_stage) * STAGE_SCALES);
        if (tid < COLS) copy8(smem_address(&sfb_smem[s][tid]), sfb_src + static_cast<size_t>(k_stage) * STAGE_SCALES);
    };

    #pragma unroll
    for (int p = 0; p < STAGES - 1; p++) {
        if (p < count) load(first + p, p);
        copies_commit();
    }
    for (int i = 0; i < count; i++) {
        const int s = i % STAGES;
        copies_wait<STAGES - 2>(); // this thread's copies of stage i
        __syncthreads();           // and everyone's
        // scale_A of rows lane, 32 + lane, 64 + lane, 96 + lane (columns 0..3 of each MMA), scale_B of column lane % 8
        uint32_t sfa[8];
        #pragma unroll
        for (int c = 0; c < 4; c++) {
            const uint2 v = sfa_smem[s][32 * c + lane];
            sfa[c] = v.x;
            sfa[4 + c] = v.y;
        }
        const uint2 sfb = sfb_smem[s][lane & 7];
        tmem_store8(quarter + SFA_COL + 8 * s, sfa);
        tmem_store2(quarter + SFB_COL + 2 * s, sfb.x, sfb.y);
        asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        fence_before_sync();
        __syncthreads();
        if (tid == 0) {
            fence_after_sync();
            const uint32_t a = smem_address(a_smem[s]), b = smem_address(b_smem[s]);
            #pragma unroll
            for (int j = 0; j < 2; j++)
                mma(tmem + D_COL, smem_descriptor(a + j * MMA_BYTES, LBO, SBO),
                    smem_descriptor(b + j * MMA_BYTES, LBO, SBO), tmem + SFA_COL + 8 * s + 4 * j,
                    tmem + SFB_COL + 2 * s + j, i > 0 || j > 0);
            asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];" ::"r"(
                             smem_address(&mma_done[s]))
                         : "memory");
        }
        // stage (i - 1) % STAGES takes k stage i + STAGES - 1 once the MMAs of stage i - 1 have read it
        if (i > 0) {
            mbarrier_wait(smem_address(&mma_done[(i - 1) % STAGES]), ((i - 1) / STAGES) & 1);
            fence_after_sync();
        }
        if (i + STAGES - 1 < count) load(first + i + STAGES - 1, (i + STAGES - 1) % STAGES);
        copies_commit();
    }

    float v[COLS] = {};
    if (count > 0) {
        mbarrier_wait(smem_address(&mma_done[(count - 1) % STAGES]), ((count - 1) / STAGES) & 1);
        fence_after_sync();
        tmem_load8(quarter + D_COL, v); // row tid, columns (activation rows) 0..7
    }
    fence_before_sync();
    __syncthreads();
    if (warp == 0) {
        fence_after_sync();
        asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;" ::"r"(tmem), "r"(TMEM_COLS) : "memory");
    }

    if constexpr (SPLIT == 1) {
        #pragma unroll
        for (int m = 0; m < COLS; m++)
            if (m < M && n0 + tid < N) y[static_cast<size_t>(m) * N + n0 + tid] = __float2half_rn(v[m] * out_scale);
    } else {
        #pragma unroll
        for (int m = 0; m < COLS; m++) partial[m][tid] = v[m];
        __cluster_barrier_arrive(); // release: every CTA's partial sums visible to the cluster
        __cluster_barrier_wait();
        constexpr int SHARE = ROWS / SPLIT;
        for (int e = tid; e < COLS * SHARE; e += THREADS) {
            const int m = e / SHARE, r = rank * SHARE + e % SHARE;
            if (m < M && n0 + r < N) {
                float sum = 0.f;
                #pragma unroll
                for (int q = 0; q < SPLIT; q++)
                    sum += *static_cast<const float*>(__cluster_map_shared_rank(&partial[m][r], q));
                y[static_cast<size_t>(m) * N + n0 + r] = __float2half_rn(sum * out_scale);
            }
        }
        __cluster_barrier_arrive(); // no CTA leaves while another still reads its partial sums
        __cluster_barrier_wait();
    }
}

#endif // __CUDA_ARCH_FEAT_SM100_ALL

} // namespace roofline_w4a4_sm100

// gemv_nvfp4_w4a4_sm100_s<1|4>: M = 1..8 activation rows, 128 threads, grid ceil(N / 128) x S (K split over a cluster
// of S CTAs); W and scales as the other NVFP4 kernels take them, xq / xs from quantize_x_nvfp4_f16, y FP16 [M][N].
// ep is taken for the common parameter tail and ignored (no epilogue). On targets other than sm_100a they trap.
#if defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define ROOFLINE_W4A4_SM100_BODY(S)                                                                                \
    roofline_w4a4_sm100::gemv<S>(static_cast<const uint8_t*>(Wt), static_cast<const uint8_t*>(scales),            \
                                 static_cast<const uint8_t*>(xq), static_cast<const uint8_t*>(xs), y, M, N, K,     \
                                 global * x_global);
#else
#define ROOFLINE_W4A4_SM100_BODY(S) __trap();
#endif
#define ROOFLINE_GEMV_W4A4_SM100(S)                                                                                \
    extern "C" __global__ void __cluster_dims__(S, 1, 1) __launch_bounds__(roofline_w4a4_sm100::THREADS)           \
    gemv_nvfp4_w4a4_sm100_s##S(const void* Wt, const void* scales, const void* xq, const void* xs, __half* y,      \
                               int M, int N, int K, float global, float x_global, GemvEpilogue ep) {               \
        roofline_launch::wait_for_previous_kernel();                                                               \
        ROOFLINE_W4A4_SM100_BODY(S)                                                                                \
    }
ROOFLINE_GEMV_W4A4_SM100(1)
ROOFLINE_GEMV_W4A4_SM100(4)
#undef ROOFLINE_GEMV_W4A4_SM100
#undef ROOFLINE_W4A4_SM100_BODY
