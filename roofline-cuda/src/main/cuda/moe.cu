// roofline mixture-of-experts kernels for one decode step (Mixtral style: every layer routed, no shared experts),
// FP16 activations, FP32 arithmetic. gemv.cu includes this file after its GEMV templates, which the grouped expert
// GEMVs run on gathered rows.
//
// Layouts (row-major, B = batch rows, E = experts, TOPK = experts per token, slot s = b * TOPK + j):
//   router logits   half[B][E]                 (the router GEMV's output)
//   routing         ids int[B][TOPK], weights float[B][TOPK]: token b's j-th expert, best first, and its weight
//   expert weights  E matrices of N x K stacked: expert e's rows are e*N .. e*N + N - 1 of one matrix, its element
//                   bytes at e * (N x K element bytes) and its scales at e * (its scale bytes): the format's scales
//                   run row by row (FP8, INT8: float[N]; INT4: float[N][K/128]; NVFP4: byte[N][K/16]), so a stack of
//                   experts is one matrix of E*N rows. NVFP4 takes one global scale for the stack. MXFP4 is not built:
//                   its device scales end with each row's largest code after all rows of the matrix.
//   gate/up         half[B*TOPK][2*inter]: slot s's expert's gate rows then up rows applied to token b
//   expert outputs  float[B*TOPK][hidden]: slot s's down projection times its routing weight
// Kernel names are extern "C" for cudaLibraryGetKernel. Every kernel takes a 1-D grid of 1-D blocks.
#include <climits>
#include <cuda_fp16.h>
#include <math_constants.h>

#include "launch_order.cuh"

namespace roofline_moe {

constexpr int MAX_TOP_K = 8;
constexpr int MAX_ROWS = 16;     // tokens per launch: the GEMV templates take up to 16 activation rows
constexpr int MAX_EXPERTS = 128; // the grouped GEMVs find their expert in a bit mask of this many

// Element and scale bytes of one expert's N x K matrix in format F (the expert's offset in the stack).
template <Fmt F>
__device__ __forceinline__ size_t expert_weight_bytes(int N, int K) {
    constexpr int BITS = F == Fmt::F16 || F == Fmt::BF16 ? 16 : F == Fmt::FP8 || F == Fmt::INT8 ? 8 : 4;
    return static_cast<size_t>(N) * K * BITS / 8;
}
template <Fmt F>
__device__ __forceinline__ size_t expert_scale_bytes(int N, int K) {
    if constexpr (F == Fmt::FP8 || F == Fmt::INT8) return static_cast<size_t>(N) * 4;
    else if constexpr (F == Fmt::INT4) return static_cast<size_t>(N) * (K / 128) * 4;
    else if constexpr (F == Fmt::NVFP4) return static_cast<size_t>(N) * (K / 16);
    else return 0;
}

// The rows one expert's block computes: the slots routed to it, gathered from the routing table. Activation row m is
// token slot[m] / TOPK's row of x (gate/up reads the normed hidden state) or, for DOWN, slot slot[m]'s row (down reads
// the slot's SiLU·up). Gate/up stores half[slot][N]; down stores float[slot][N] times the slot's routing weight.
template <bool DOWN>
struct RoutedRows {
    static constexpr bool SUMS = false;
    static constexpr bool PAIRED = false;
    const __half* __restrict__ x;
    void* __restrict__ y;
    const float* __restrict__ weights;
    const int* slot; // shared memory
    int top_k;
    __device__ __forceinline__ const __half* x_row(int m, int K) const {
        const int r = DOWN ? slot[m] : slot[m] / top_k;
        return x + static_cast<size_t>(r) * K;
    }
    __device__ __forceinline__ void prefetch(int, int, int) const {}
    __device__ __forceinline__ void store(int m, int n, int N, float v) const {
        const size_t at = static_cast<size_t>(slot[m]) * N + n;
        if constexpr (DOWN) static_cast<float*>(y)[at] = v * weights[slot[m]];
        else static_cast<__half*>(y)[at] = __float2half_rn(v);
    }
};

// The block's expert and the slots routed to it. Block group j of a grouped GEMV serves the j-th smallest expert
// id the batch picked, so the grid needs only min(E, B * TOPK) groups and none serves an expert no token picked.
// Warp 0 finds it: each lane loads up to 4 of the B * TOPK <= 128 ids (one round trip for all), the warp ORs their
// bits into a 128-bit mask of the picked experts and counts its way to the j-th, then compacts that expert's slots
// into slot[] in slot order with ballots. A token picks an expert at most once, so at most `rows` slots match. Every
// thread gets the expert (-1 when the batch picked fewer than j + 1 experts) and the count; ids outside [0, E) are
// ignored.
struct Group {
    int expert;
    int count;
};
__device__ __forceinline__ Group find_group(const int* ids, int rows, int top_k, int experts, int j, int* slot) {
    static_assert(MAX_EXPERTS == 128 && MAX_ROWS * MAX_TOP_K == 128, "4 words of 32 experts, 4 ids per lane");
    __shared__ Group group;
    if (threadIdx.x < 32) {
        constexpr unsigned ALL = 0xffffffffu;
        const int lane = threadIdx.x;
        const int n = rows * top_k;
        int mine[4];
        unsigned word[4] = {0u, 0u, 0u, 0u}; // experts 32w .. 32w + 31 this lane's ids picked
        #pragma unroll
        for (int r = 0; r < 4; r++) {
            const int s = lane + 32 * r;
            mine[r] = s < n ? ids[s] : -1;
        }
        #pragma unroll
        for (int r = 0; r < 4; r++) {
            const int e = mine[r];
            #pragma unroll
            for (int w = 0; w < 4; w++) // constant indices: the words stay in registers
                if (e >= 0 && e < experts && (e >> 5) == w) word[w] |= 1u << (e & 31);
        }
        int expert = -1;
        int left = j;
        #pragma unroll
        for (int w = 0; w < 4; w++) {
            unsigned m = __reduce_or_sync(ALL, word[w]);
            const int c = __popc(m);
            if (expert < 0 && left < c) {
                for (int i = 0; i < left; i++) m &= m - 1; // drop the lower picked experts
                expert = 32 * w + __ffs(m) - 1;
            }
            left -= c;
        }
        int count = 0;
        #pragma unroll
        for (int r = 0; r < 4; r++) {
            const bool hit = expert >= 0 && mine[r] == expert;
            const unsigned ballot = __ballot_sync(ALL, hit);
            const int at = count + __popc(ballot & ((1u << lane) - 1u));
            if (hit && at < MAX_ROWS) slot[at] = lane + 32 * r;
            count += __popc(ballot);
        }
        if (lane == 0) group = Group{expert, min(count, MAX_ROWS)};
    }
    __syncthreads();
    return group;
}

// Grouped GEMV on the CUDA cores: block (j, tile) of grid min(E, B * TOPK) * tiles computes rows tile * 4 * RPW .. of
// the j-th expert the batch picked (find_group) for the slots routed to it, and returns at once when the batch picked
// fewer: each expert the batch picked is read once per step, whatever number of its tokens picked it, and no other.
template <Fmt F, int MAXM, int UNROLL, int RPW, bool DOWN>
__device__ __forceinline__ void grouped_gemv(const void* W, const void* scales, const __half* x, void* y,
                                             const int* ids, const float* weights, int rows, int top_k, int experts,
                                             int N, int K, float global) {
    __shared__ int slot[MAX_ROWS];
    const int tiles = (N + WARPS_PER_BLOCK * RPW - 1) / (WARPS_PER_BLOCK * RPW);
    const int j = blockIdx.x / tiles;
    const int tile = blockIdx.x - j * tiles;
    const Group g = find_group(ids, rows, top_k, experts, j, slot);
    if (g.count == 0) return;
    const int e = g.expert;
    const int m = g.count;
    const RoutedRows<DOWN> io{x, y, weights, slot, top_k};
    gemv<F, __half, MAXM, UNROLL, RPW>(static_cast<const uint8_t*>(W) + e * expert_weight_bytes<F>(N, K),
                                       scales == nullptr ? nullptr
                                                         : static_cast<const uint8_t*>(scales)
                                                                   + e * expert_scale_bytes<F>(N, K),
                                       io, m, N, K, global, tile);
}

// The same on the tensor cores (4-bit weights; every format above one row): block (j, tile) computes rows
// tile * TC_ROWS .. of the j-th expert.
template <Fmt F, int MAXM, int UNROLL, int WARPS, bool DOWN>
__device__ __forceinline__ void grouped_gemv_tc(const void* W, const void* scales, const __half* x, void* y,
                                                const int* ids, const float* weights, int rows, int top_k, int experts,
                                                int N, int K, float global) {
    __shared__ int slot[MAX_ROWS];
    const int tiles = (N + TC_ROWS - 1) / TC_ROWS;
    const int j = blockIdx.x / tiles;
    const int tile = blockIdx.x - j * tiles;
    const Group g = find_group(ids, rows, top_k, experts, j, slot);
    if (g.count == 0) return;
    const int e = g.expert;
    const int m = g.count;
    const RoutedRows<DOWN> io{x, y, weights, slot, top_k};
    gemv_tc<F, __half, MAXM, UNROLL, WARPS>(static_cast<const uint8_t*>(W) + e * expert_weight_bytes<F>(N, K),
                                             static_cast<const uint8_t*>(scales) + e * expert_scale_bytes<F>(N, K),
                                             io, m, N, K, global, tile);
}

// (value, index) a ranks before b: the larger value, the lower index on a tie
__device__ __forceinline__ bool ranks_before(float va, int ia, float vb, int ib) {
    return va > vb || (va == vb && ia < ib);
}

} // namespace roofline_moe

using namespace roofline_moe;

// Routing: for token b = blockIdx.x (one warp per token), the TOPK largest of its E logits, ties to the lower expert
// index, a NaN logit below every number; weights = softmax over all E, the chosen k divided by their sum (Mixtral's
// rule), which is the softmax over the chosen k logits alone: exp(l_j - l_max) / sum over the chosen. ids and
// weights are written best first. top_k <= MAX_TOP_K.
extern "C" __global__ void __launch_bounds__(32)
    moe_top_k_f16(const __half* logits, int* ids, float* weights, int experts, int top_k) {
    roofline_launch::wait_for_previous_kernel();
    const int b = blockIdx.x;
    const int lane = threadIdx.x;
    const __half* row = logits + static_cast<size_t>(b) * experts;
    int chosen[MAX_TOP_K];
    float value[MAX_TOP_K];
    for (int j = 0; j < top_k; j++) {
        float best = -CUDART_INF_F;
        int best_i = INT_MAX;
        for (int i = lane; i < experts; i += 32) {
            bool taken = false;
            for (int c = 0; c < j; c++) taken |= chosen[c] == i;
            float v = __half2float(row[i]);
            v = isnan(v) ? -CUDART_INF_F : v;
            if (!taken && ranks_before(v, i, best, best_i)) {
                best = v;
                best_i = i;
            }
        }
        for (int o = 16; o > 0; o >>= 1) {
            const float ov = __shfl_xor_sync(0xffffffffu, best, o);
            const int oi = __shfl_xor_sync(0xffffffffu, best_i, o);
            if (ranks_before(ov, oi, best, best_i)) {
                best = ov;
                best_i = oi;
            }
        }
        chosen[j] = best_i;
        value[j] = best;
    }
    if (lane == 0) {
        float sum = 0.f;
        for (int j = 0; j < top_k; j++) sum += __expf(value[j] - value[0]);
        for (int j = 0; j < top_k; j++) {
            ids[b * top_k + j] = chosen[j];
            weights[b * top_k + j] = __expf(value[j] - value[0]) / sum;
        }
    }
}

// delta[b][n] = the sum over j of expert_out[b * TOPK + j][n] (already weighted), in j order, rounded to half once.
// grid = B * ceil(hidden / 256).
extern "C" __global__ void __launch_bounds__(256)
    moe_combine_f16(const float* expert_out, __half* delta, int hidden, int top_k) {
    roofline_launch::wait_for_previous_kernel();
    const int blocks_per_row = (hidden + 255) / 256;
    const int b = blockIdx.x / blocks_per_row;
    const int n = (blockIdx.x - b * blocks_per_row) * 256 + threadIdx.x;
    if (n >= hidden) return;
    float s = 0.f;
    for (int j = 0; j < top_k; j++) s += expert_out[(static_cast<size_t>(b) * top_k + j) * hidden + n];
    delta[static_cast<size_t>(b) * hidden + n] = __float2half_rn(s);
}

// Grouped expert GEMVs: moe_<up|down>_<format>_f16_m<1|16>, and _w<8|16> for the tensor-core formats, with the dense
// kernels' tuning (UNR, RPW, warps). up: y = half gate/up[slot][N] from x = normed[token][K]; down: y = float
// out[slot][N] = routing weight x (x = SiLU·up[slot][K]). grid = min(E, B * TOPK) * ceil(N / rows per block)
// (MoeKernels).
#define ROOFLINE_MOE_PARAMS                                                                                        \
    const void *W, const void *scales, const __half *x, void *y, const int *ids, const float *weights, int rows,  \
        int top_k, int experts, int N, int K, float global
#define ROOFLINE_MOE_ARGS W, scales, x, y, ids, weights, rows, top_k, experts, N, K, global
#define ROOFLINE_MOE(FMT, fmt, MAXM, UNR, RPW)                                                                      \
    extern "C" __global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)                                             \
        moe_up_##fmt##_f16_m##MAXM(ROOFLINE_MOE_PARAMS) {                                                         \
        roofline_launch::wait_for_previous_kernel();                                                              \
        grouped_gemv<Fmt::FMT, MAXM, UNR, RPW, false>(ROOFLINE_MOE_ARGS);                                         \
    }                                                                                                             \
    extern "C" __global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)                                             \
        moe_down_##fmt##_f16_m##MAXM(ROOFLINE_MOE_PARAMS) {                                                       \
        roofline_launch::wait_for_previous_kernel();                                                              \
        grouped_gemv<Fmt::FMT, MAXM, UNR, RPW, true>(ROOFLINE_MOE_ARGS);                                          \
    }

#define ROOFLINE_MOE_TC(FMT, fmt, MAXM, UNR, WARPS)                                                                 \
    extern "C" __global__ void __launch_bounds__(WARPS * 32)                                                      \
        moe_up_##fmt##_f16_m##MAXM##_w##WARPS(ROOFLINE_MOE_PARAMS) {                                              \
        roofline_launch::wait_for_previous_kernel();                                                              \
        grouped_gemv_tc<Fmt::FMT, MAXM, UNR, WARPS, false>(ROOFLINE_MOE_ARGS);                                    \
    }                                                                                                             \
    extern "C" __global__ void __launch_bounds__(WARPS * 32)                                                      \
        moe_down_##fmt##_f16_m##MAXM##_w##WARPS(ROOFLINE_MOE_PARAMS) {                                            \
        roofline_launch::wait_for_previous_kernel();                                                              \
        grouped_gemv_tc<Fmt::FMT, MAXM, UNR, WARPS, true>(ROOFLINE_MOE_ARGS);                                     \
    }
#define ROOFLINE_MOE_TC_M16(FMT, fmt)   \
    ROOFLINE_MOE_TC(FMT, fmt, 16, 2, 8) \
    ROOFLINE_MOE_TC(FMT, fmt, 16, 2, 16)
#define ROOFLINE_MOE_4BIT(FMT, fmt, UNR)  \
    ROOFLINE_MOE_TC(FMT, fmt, 1, UNR, 8)  \
    ROOFLINE_MOE_TC(FMT, fmt, 1, UNR, 16) \
    ROOFLINE_MOE_TC_M16(FMT, fmt)
// the 8- and 16-bit formats as the dense kernels: CUDA cores at one row, tensor cores above
#define ROOFLINE_MOE_8_16BIT(FMT, fmt) \
    ROOFLINE_MOE(FMT, fmt, 1, 2, 2)    \
    ROOFLINE_MOE_TC_M16(FMT, fmt)
ROOFLINE_MOE_8_16BIT(F16, fp16)
ROOFLINE_MOE_8_16BIT(BF16, bf16)
ROOFLINE_MOE_8_16BIT(FP8, fp8)
ROOFLINE_MOE_8_16BIT(INT8, int8)
ROOFLINE_MOE_4BIT(INT4, int4, 6)
ROOFLINE_MOE_4BIT(NVFP4, nvfp4, 4)
