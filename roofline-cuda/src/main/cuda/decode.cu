// roofline decoder kernels for one decode step of a Llama-family model, FP16 activations, FP32 arithmetic.
// gemv.cu includes this file, so they share its fatbin (one build, one library load per context).
//
// Layouts (row-major, B = batch rows, H = query heads, G = KV heads, D = head_dim, T = the cache's capacity in tokens):
//   hidden states  half[B][hidden]            q  half[B][H][D]      k, v (this step)  half[B][G][D]
//   KV cache       C[B][G][T][D], C = half, bf16 or FP8 E4M3 (KvTraits): a stored code times the cache's scale is
//                  the value (FP8 only; 16-bit caches hold values unscaled)
//   positions      int[B]: the position of this step's token (0-based)
//   lengths        int[B]: tokens the attention reads for each row, this step's included (position + 1)
// Kernel names are extern "C" for cudaLibraryGetKernel. Every kernel takes a 1-D grid of 1-D blocks.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <math_constants.h>

#include <type_traits>

#include "launch_order.cuh"

namespace roofline_decode {

constexpr int NORM_THREADS = 256;

__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

__device__ __forceinline__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) {
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    return v;
}

// The sum of v over the block (NORM_THREADS threads), returned to every thread.
__device__ float block_sum(float v) {
    __shared__ float partial[NORM_THREADS / 32];
    v = warp_sum(v);
    int warp = threadIdx.x / 32;
    if ((threadIdx.x & 31) == 0) {
        partial[warp] = v;
    }
    __syncthreads();
    float s = 0.f;
    for (int w = 0; w < NORM_THREADS / 32; w++) {
        s += partial[w];
    }
    __syncthreads(); // partial is reused by the next call
    return s;
}

// Turns one pair of a head, given its angle's cosine c and sine s, in double (rotate_pair).
__device__ __forceinline__ void rotate_values(half& x1, half& x2, double c, double s) {
    const float a = __half2float(x1);
    const float b = __half2float(x2);
    x1 = __float2half_rn((float)(a * c - b * s));
    x2 = __float2half_rn((float)(b * c + a * s));
}
// Turns the pair (x[i], x[i + half_d]) of one head by angle, in the "rotate half" layout Llama checkpoints use. The
// angle and its sine and cosine are taken in double: at 10^5 positions an FP32 angle is off by ~10^-2 rad.
__device__ __forceinline__ void rotate_pair(half* x, int i, int half_d, double angle) {
    double s, c;
    sincos(angle, &s, &c);
    rotate_values(x[i], x[i + half_d], c, s);
}

// The KV cache's element types. Raw: what one read of eight elements takes (16 bytes of a 16-bit type, 8 of FP8), so
// every cache type keeps the same threads per token row and the same loop shapes. store rounds a float to the type
// (round to nearest even, FP8 saturating to +-448 as vLLM's scaled conversion does).
__device__ __forceinline__ float2 pair_to_float2(half2 p) { return __half22float2(p); }
__device__ __forceinline__ float2 pair_to_float2(__nv_bfloat162 p) { return __bfloat1622float2(p); }

// A 16-bit element type C whose pairs are P (half2, bf162).
template <typename C, typename P> struct KvTraits16 {
    using Raw = uint4;
    __device__ static __forceinline__ void widen8(Raw raw, float* out) {
        const P* h = reinterpret_cast<const P*>(&raw);
#pragma unroll
        for (int j = 0; j < 4; j++) {
            float2 f = pair_to_float2(h[j]);
            out[2 * j] = f.x;
            out[2 * j + 1] = f.y;
        }
    }
};
template <typename C> struct KvTraits;
template <> struct KvTraits<half> : KvTraits16<half, half2> {
    __device__ static __forceinline__ void store(half* p, float v) { *p = __float2half_rn(v); }
};
template <> struct KvTraits<__nv_bfloat16> : KvTraits16<__nv_bfloat16, __nv_bfloat162> {
    __device__ static __forceinline__ void store(__nv_bfloat16* p, float v) { *p = __float2bfloat16_rn(v); }
};
template <> struct KvTraits<__nv_fp8_e4m3> {
    using Raw = uint2;
    __device__ static __forceinline__ void widen8(Raw raw, float* out) {
        const __nv_fp8x2_storage_t* p = reinterpret_cast<const __nv_fp8x2_storage_t*>(&raw);
#pragma unroll
        for (int j = 0; j < 4; j++) {
            // one cvt per pair on sm_89 and later, inline: through gemv.cu's e4m3x2_to_half2_bits this pass took
            // 1.010-1.015x the time on an H200 (docs/measurements/2026-11-27-issue15-bf16-kv-tensor-cores-h200, run 1)
            __half2_raw h = __nv_cvt_fp8x2_to_halfraw2(p[j], __NV_E4M3);
            float2 f = __half22float2(*reinterpret_cast<half2*>(&h));
            out[2 * j] = f.x;
            out[2 * j + 1] = f.y;
        }
    }
    __device__ static __forceinline__ void store(__nv_fp8_e4m3* p, float v) {
        p->__x = __nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E4M3);
    }
};

} // namespace roofline_decode

using namespace roofline_decode;

// residual[b] += delta[b] (when delta is not null), then out[b] = residual[b] / rms(residual[b]) * weight, with
// rms = sqrt(mean(residual^2) + eps). One block of NORM_THREADS per row; grid = B. Each thread keeps its 16-byte pieces
// of the row in registers between the two passes, so the row is read once: hidden must be a multiple of 8 and at most
// NORM_THREADS * 8 * NORM_PIECES (DecodeKernels.addRmsNorm checks).
constexpr int NORM_PIECES = 8;

__device__ __forceinline__ float sum_sq8(uint4 v) {
    const half2* h = reinterpret_cast<const half2*>(&v);
    float s = 0.f;
#pragma unroll
    for (int j = 0; j < 4; j++) {
        float2 f = __half22float2(h[j]);
        s += f.x * f.x + f.y * f.y;
    }
    return s;
}

extern "C" __global__ void __launch_bounds__(NORM_THREADS)
    decode_add_rmsnorm_f16(half* residual, const half* delta, const half* weight, half* out, int hidden, float eps) {
    roofline_launch::wait_for_previous_kernel();
    const int pieces = hidden / 8;
    uint4* r = reinterpret_cast<uint4*>(residual + (size_t)blockIdx.x * hidden);
    const uint4* d = delta == nullptr ? nullptr : reinterpret_cast<const uint4*>(delta + (size_t)blockIdx.x * hidden);
    uint4* o = reinterpret_cast<uint4*>(out + (size_t)blockIdx.x * hidden);
    const uint4* w = reinterpret_cast<const uint4*>(weight);
    uint4 x[NORM_PIECES];
    uint4 y[NORM_PIECES];
    // every load first, then the arithmetic: the loads of a thread's pieces are all in flight together
#pragma unroll
    for (int j = 0; j < NORM_PIECES; j++) {
        int p = threadIdx.x + j * NORM_THREADS;
        if (p < pieces) {
            x[j] = r[p];
            y[j] = d != nullptr ? d[p] : make_uint4(0, 0, 0, 0);
        }
    }
    float sq = 0.f;
#pragma unroll
    for (int j = 0; j < NORM_PIECES; j++) {
        int p = threadIdx.x + j * NORM_THREADS;
        if (p < pieces) {
            if (d != nullptr) {
                // the residual stream is stored in FP16, as the reference engines keep it: the add rounds to half
                half2* a = reinterpret_cast<half2*>(&x[j]);
                const half2* b = reinterpret_cast<const half2*>(&y[j]);
#pragma unroll
                for (int k = 0; k < 4; k++) {
                    a[k] = __hadd2(a[k], b[k]);
                }
                r[p] = x[j];
            }
            sq += sum_sq8(x[j]);
        }
    }
    float inv = rsqrtf(block_sum(sq) / hidden + eps);
#pragma unroll
    for (int j = 0; j < NORM_PIECES; j++) {
        int p = threadIdx.x + j * NORM_THREADS;
        if (p < pieces) {
            uint4 wv = w[p];
            const half2* a = reinterpret_cast<const half2*>(&x[j]);
            const half2* g = reinterpret_cast<const half2*>(&wv);
            uint4 res;
            half2* c = reinterpret_cast<half2*>(&res);
#pragma unroll
            for (int k = 0; k < 4; k++) {
                float2 fa = __half22float2(a[k]);
                float2 fg = __half22float2(g[k]);
                c[k] = __floats2half2_rn(fa.x * inv * fg.x, fa.y * inv * fg.y);
            }
            o[p] = res;
        }
    }
}

// Rotary position embedding on q (H heads) and k (G heads) of row b = blockIdx.x (rotate_pair): element i pairs with
// i + D/2, angle = positions[b] * inv_freq[i] for i < D/2. inv_freq holds D/2 doubles (Llama 3's frequency scaling
// already applied by the host).
extern "C" __global__ void __launch_bounds__(128)
    decode_rope_f16(half* q, half* k, const int* positions, const double* inv_freq, int heads, int kv_heads, int d) {
    roofline_launch::wait_for_previous_kernel();
    int b = blockIdx.x;
    int half_d = d / 2;
    double pos = positions[b];
    int pairs = (heads + kv_heads) * half_d;
    for (int p = threadIdx.x; p < pairs; p += blockDim.x) {
        int head = p / half_d;
        int i = p - head * half_d;
        half* x = head < heads ? q + ((size_t)b * heads + head) * d : k + ((size_t)b * kv_heads + head - heads) * d;
        rotate_pair(x, i, half_d, pos * inv_freq[i]);
    }
}

// RoPE and the KV append in one pass over the merged q/k/v projection's output qkv = half[B][(H + 2G) * D] (q heads,
// then k heads, then v heads, as one product of the stacked q, k and v weights writes them): q and k are rotated in
// place (rotate_pair, as decode_rope_f16 does), and k and v are written into the caches at positions[b], each FP16
// value times k_inv_scale or v_inv_scale rounded to the cache type (the scales are 1 for 16-bit caches, where the
// product is exact). One block per head of each row: grid = B * (H + 2G); blocks of q and k heads rotate, blocks of v
// heads copy.
template <typename C>
__device__ void rope_append(half* qkv, C* k_cache, C* v_cache, const int* positions, const double* inv_freq,
                            int heads, int kv_heads, int d, int capacity, float k_inv_scale, float v_inv_scale) {
    roofline_launch::wait_for_previous_kernel();
    int per_row = heads + 2 * kv_heads;
    int b = blockIdx.x / per_row;
    int head = blockIdx.x - b * per_row;
    int half_d = d / 2;
    int pos = positions[b];
    half* x = qkv + ((size_t)b * per_row + head) * d;
    if (head < heads + kv_heads) {
        size_t dst = (((size_t)b * kv_heads + head - heads) * capacity + pos) * d; // a k head's row in the cache
        for (int i = threadIdx.x; i < half_d; i += blockDim.x) {
            rotate_pair(x, i, half_d, (double)pos * inv_freq[i]);
            if (head >= heads) {
                KvTraits<C>::store(k_cache + dst + i, __half2float(x[i]) * k_inv_scale);
                KvTraits<C>::store(k_cache + dst + i + half_d, __half2float(x[i + half_d]) * k_inv_scale);
            }
        }
    } else {
        size_t dst = (((size_t)b * kv_heads + head - heads - kv_heads) * capacity + pos) * d;
        for (int e = threadIdx.x; e < d; e += blockDim.x) {
            KvTraits<C>::store(v_cache + dst + e, __half2float(x[e]) * v_inv_scale);
        }
    }
}

#define ROOFLINE_ROPE_APPEND(C, sfx)                                                                                 \
    extern "C" __global__ void __launch_bounds__(128) decode_rope_append_##sfx(                                      \
        half* qkv, C* k_cache, C* v_cache, const int* positions, const double* inv_freq, int heads, int kv_heads,    \
        int d, int capacity, float k_inv_scale, float v_inv_scale) {                                                 \
        rope_append<C>(qkv, k_cache, v_cache, positions, inv_freq, heads, kv_heads, d, capacity, k_inv_scale,        \
                       v_inv_scale);                                                                                 \
    }
ROOFLINE_ROPE_APPEND(half, f16)
ROOFLINE_ROPE_APPEND(__nv_bfloat16, bf16)
ROOFLINE_ROPE_APPEND(__nv_fp8_e4m3, e4m3)

// The merged q/k/v product at one row with RoPE and the KV append in its epilogue, in place of the product followed by
// decode_rope_append (FP16 or FP8 weights, FP16 activations; gemv's CUDA-core loop with two rows a warp, an FP8 row's
// scale applied to its sum first, as the plain one-row kernel applies it). Warp w computes the two rows RoPE turns
// together, head * D + i and head * D + i + D/2 (head = w / (D/2), i = w % (D/2)), rounds both to FP16 (after the norm
// scale of ep, as EpilogueRows applies it), turns them by positions[0] * inv_freq[i] when the head is a q or k head
// (rotate_values) and writes them to qkv, where the attention reads q; a k or v head's pair goes into the cache at
// positions[0] over its scale, as rope_append stores it. So qkv and the caches hold the bits the CUDA-core product
// and decode_rope_append leave. The part's rows start at head head0 of the H + 2G heads, so a stack of
// several matrices (q, k and v apart) runs one launch per part.
// FP8 weights at 4096-6144 rows of K >= 4096, where the plain product runs one row on the tensor cores
// (GemvKernels.oneRowOnTensorCores), run the same tensor-core kernel (gemv_tc, 16 warps splitting K) with the block of
// 16 rows at n0 taking rows 8t + r and D/2 + 8t + r - 8 of its head (tc_row; t = its index among the head's D/16
// blocks), so that each lane's rows g and g + 8 are the pair RoPE turns together, in the same sums: the bits of that
// product followed by decode_rope_append.
template <typename C>
struct RopeAppendRows {
    static constexpr bool SUMS = false;
    static constexpr bool PAIRED = true;
    EpilogueRows<half> out; // x, qkv and the norm scale
    C* k_cache;
    C* v_cache;
    int heads, kv_heads, d, capacity, head0, pos;
    float k_inv_scale, v_inv_scale;
    double c, s; // the cosine and sine of this warp's angle
    // tensor cores: the block's 8 pairs' cosines and sines (pair i at 2 (i % 8), + 1; shared memory, written before
    // the product's last barrier), in place of c and s, which held in registers through the K loop spill
    const double* angles = nullptr;
    __device__ __forceinline__ const half* x_row(int m, int K) const { return out.x_row(m, K); }
    __device__ __forceinline__ void begin(int M) const { out.begin(M); }
    __device__ __forceinline__ void prefetch(int, int, int) const {} // no residual: nothing of the tail to ask for
    __device__ __forceinline__ int tc_row(int n0, int r) const {
        const int head_row = n0 - n0 % d;
        return head_row + 8 * ((n0 - head_row) / 16) + (r < 8 ? r : d / 2 + r - 8);
    }
    __device__ __forceinline__ int row(int warp, int r) const {
        const int half_d = d / 2;
        const int head = warp / half_d;
        return head * d + (warp - head * half_d) + r * half_d;
    }
    __device__ __forceinline__ void store_rows(const int* rn, const float* v) const {
        const int half_d = d / 2;
        const int local = rn[0] / d;
        const int i = rn[0] - local * d;
        const int head = head0 + local;
        half x1 = __float2half_rn(out.normed(0, v[0]));
        half x2 = __float2half_rn(out.normed(0, v[1]));
        const double cs = angles != nullptr ? angles[2 * (i & 7)] : c;
        const double sn = angles != nullptr ? angles[2 * (i & 7) + 1] : s;
        if (head < heads + kv_heads) rotate_values(x1, x2, cs, sn);
        out.y[rn[0]] = x1;
        out.y[rn[1]] = x2;
        if (head >= heads) {
            const bool key = head < heads + kv_heads;
            const int g = key ? head - heads : head - heads - kv_heads;
            C* cache = (key ? k_cache : v_cache) + ((size_t)g * capacity + pos) * d;
            const float scale = key ? k_inv_scale : v_inv_scale;
            KvTraits<C>::store(cache + i, __half2float(x1) * scale);
            KvTraits<C>::store(cache + i + half_d, __half2float(x2) * scale);
        }
    }
};

// CUDA cores: grid = ceil(N / 8) blocks of 4 warps (N = the part's rows, a multiple of D); tensor cores (TC): N / 16
// blocks of 16 warps, warp 0's lanes 4j storing (rows 8t + j, D/2 + 8t + j of the head). The angles are taken before
// the wait: positions and inv_freq are written before the step's graph is launched, never by a kernel of it, and the
// double sincos then overlaps the previous kernel's tail instead of lengthening this one's.
template <Fmt F, typename C, bool TC>
__device__ void qkv_rope_append(const void* W, const void* scales, const half* x, half* qkv, int N, int K,
                                GemvEpilogue ep, C* k_cache, C* v_cache, const int* positions, const double* inv_freq,
                                int heads, int kv_heads, int d, int capacity, int head0, float k_inv_scale,
                                float v_inv_scale) {
    int pos;
    double s = 0.0, c = 1.0;
    __shared__ double s_angles[TC ? 16 : 1];
    if constexpr (TC) {
        pos = positions[0];
        if (threadIdx.x < 8) { // pair 8t + j of the head (tc_row)
            sincos((double)pos * inv_freq[8 * ((blockIdx.x * 16) % d / 16) + threadIdx.x], &s, &c);
            s_angles[2 * threadIdx.x] = c;
            s_angles[2 * threadIdx.x + 1] = s;
        }
    } else {
        const int warp = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
        pos = positions[0];
        sincos((double)pos * inv_freq[warp % (d / 2)], &s, &c);
    }
    roofline_launch::wait_for_previous_kernel();
    const RopeAppendRows<C> rows{EpilogueRows<half>{x, qkv, ep}, k_cache, v_cache, heads, kv_heads, d, capacity,
                                 head0, pos, k_inv_scale, v_inv_scale, c, s, TC ? s_angles : nullptr};
    rows.begin(1);
    if constexpr (TC) {
        gemv_tc<F, half, 8, 4, 16>(W, scales, rows, 1, N, K, 1.f, blockIdx.x); // as gemv_fp8_f16_m8_w16(_ep)
    } else {
        gemv<F, half, 1, 2, 2>(W, scales, rows, 1, N, K, 1.f, blockIdx.x);
    }
}

#define ROOFLINE_QKV_ROPE_APPEND(C, sfx)                                                                             \
    extern "C" __global__ void __launch_bounds__(WARPS_PER_BLOCK * 32) decode_qkv_rope_append_##sfx(              \
        const void* W, const half* x, half* qkv, int N, int K, GemvEpilogue ep, C* k_cache, C* v_cache,          \
        const int* positions, const double* inv_freq, int heads, int kv_heads, int d, int capacity, int head0,    \
        float k_inv_scale, float v_inv_scale) {                                                                    \
        qkv_rope_append<Fmt::F16, C, false>(W, nullptr, x, qkv, N, K, ep, k_cache, v_cache, positions, inv_freq,  \
                                            heads, kv_heads, d, capacity, head0, k_inv_scale, v_inv_scale);        \
    }
ROOFLINE_QKV_ROPE_APPEND(half, f16)
ROOFLINE_QKV_ROPE_APPEND(__nv_bfloat16, bf16)
ROOFLINE_QKV_ROPE_APPEND(__nv_fp8_e4m3, e4m3)
// FP8 weights (their row scales after W), by cache type, on the CUDA cores and (_tc) the tensor cores, the latter
// bounded as gemv_fp8_f16_m8_w16_ep is
#define ROOFLINE_QKV_ROPE_APPEND_FP8_KERNEL(C, name, TC, BOUNDS)                                                   \
    extern "C" __global__ void BOUNDS name(const void* W, const void* scales, const half* x, half* qkv, int N,     \
                                           int K, GemvEpilogue ep, C* k_cache, C* v_cache, const int* positions,  \
                                           const double* inv_freq, int heads, int kv_heads, int d, int capacity,  \
                                           int head0, float k_inv_scale, float v_inv_scale) {                      \
        qkv_rope_append<Fmt::FP8, C, TC>(W, scales, x, qkv, N, K, ep, k_cache, v_cache, positions, inv_freq,      \
                                         heads, kv_heads, d, capacity, head0, k_inv_scale, v_inv_scale);           \
    }
#define ROOFLINE_QKV_ROPE_APPEND_FP8(C, sfx)                                                                         \
    ROOFLINE_QKV_ROPE_APPEND_FP8_KERNEL(C, decode_qkv_rope_append_fp8_##sfx, false,                                \
                                        __launch_bounds__(WARPS_PER_BLOCK * 32))                                   \
    ROOFLINE_QKV_ROPE_APPEND_FP8_KERNEL(C, decode_qkv_rope_append_fp8_tc_##sfx, true, __launch_bounds__(512, 3))
ROOFLINE_QKV_ROPE_APPEND_FP8(half, f16)
ROOFLINE_QKV_ROPE_APPEND_FP8(__nv_bfloat16, bf16)
ROOFLINE_QKV_ROPE_APPEND_FP8(__nv_fp8_e4m3, e4m3)

// Writes this step's k and v (half[B][G][D]) into the caches at positions[b]. One block per (row, KV head): grid = B*G.
extern "C" __global__ void __launch_bounds__(128) decode_kv_append_f16(
    const half* k, const half* v, half* k_cache, half* v_cache, const int* positions, int kv_heads, int d, int capacity) {
    roofline_launch::wait_for_previous_kernel();
    int b = blockIdx.x / kv_heads;
    int g = blockIdx.x - b * kv_heads;
    size_t src = ((size_t)b * kv_heads + g) * d;
    size_t dst = (((size_t)b * kv_heads + g) * capacity + positions[b]) * d;
    for (int i = threadIdx.x; i < d; i += blockDim.x) {
        k_cache[dst + i] = k[src + i];
        v_cache[dst + i] = v[src + i];
    }
}

// out = silu(gate) * up for gate_up = half[B][2 * inter] (gate in the first half of each row, up in the second, as
// one product of the merged gate and up projections writes it); out = half[B][inter]. grid = B * ceil(inter / 256).
extern "C" __global__ void __launch_bounds__(256) decode_silu_mul_f16(const half* gate_up, half* out, int inter) {
    roofline_launch::wait_for_previous_kernel();
    int blocks_per_row = (inter + 255) / 256;
    int b = blockIdx.x / blocks_per_row;
    int i = (blockIdx.x - b * blocks_per_row) * 256 + threadIdx.x;
    if (i >= inter) {
        return;
    }
    float g = __half2float(gate_up[(size_t)b * 2 * inter + i]);
    float u = __half2float(gate_up[(size_t)b * 2 * inter + inter + i]);
    out[(size_t)b * inter + i] = __float2half_rn(g / (1.f + __expf(-g)) * u);
}

// Flash-decoding attention, first pass: block (b, g, s) of grid B*G*splits reads tokens [s*chunk, min((s+1)*chunk,
// lengths[b])) of KV head g once for all QPK = H/G query heads that share it, and writes each head's partial softmax:
// max logit m, sum l of exp(logit - m) and the unnormalised output acc = sum exp(logit - m) * v, to
// partial_ml[bh][s][2] and partial_acc[bh][s][D] (FP32, bh = b*H + h). logit = q.k / sqrt(D). Row b of q starts
// q_row_stride halves after row b - 1, so q may be the merged q/k/v projection's output read in place (stride
// (H + 2G) * D) as well as a packed half[B][H][D] (stride H * D).
// Two fusions of this pass measured slower and are not made (docs/design/decode-kernels.md): merging the splits in the
// last block of each KV head instead of decode_attention_merge, and RoPE with the KV append done here instead of in
// decode_rope_append.
// Three phases over the chunk (at most MAX_CHUNK<QPK> tokens): the logits, into shared memory; their max and sum; then
// the values. With FP16 and BF16 caches, and FP8 ones at D = 128, both products run on the tensor cores (mma.sync
// m16n8k16). FP16 and BF16: the group's heads are the rows of A, 8 key rows or 16 value rows the B fragments, each warp
// on a quarter of the head's columns for the values (BF16 ones take A split in two). FP8: each warp takes a quarter of
// the tile's tokens, 16, over all the head's columns, keys as A's rows with q as B and the values' even and odd columns
// in A's two halves of rows, the codes widened to FP16 on their way into the fragments, exactly; the four warps' sums
// are added once a block. FP8 caches at D = 64 take them on the CUDA cores: D/8 threads per token row with one 8-byte
// shared-memory read each for the logits, then the values the same way, each thread summing its 8 columns over every
// ROWS-th token, the ROWS partial sums added through shared memory. On the CUDA cores the FP8 pass was bound by its
// instructions (its widening and FMAs per element): on the tensor cores it runs 1.22-1.29x as fast on an H200 at one to
// 32 rows of 8k-32k tokens (docs/measurements/2026-11-27-issue15-fp8-kv-tensor-cores-h200).
// The chunk reaches shared memory as a stream of ATTENTION_TILE_BYTES tiles, first the keys' then the values', through
// a ring of STAGES slots filled by cp.async (ATTENTION_STAGES, ATTENTION_STAGES_MMA on the tensor cores): STAGES - 1
// tiles are in flight while one is used, and the first
// value tiles are already on their way while the block takes the softmax, so DRAM is never idle on a block's account
// between its first load and its last (loads into registers would hold at most 16 KiB a block in flight, and none
// through the softmax).
constexpr int ATTENTION_THREADS = 128;
// The most tokens of a chunk (DecodeKernels.ATTENTION_MAX_CHUNK): 512 up to 4 query heads per KV head, 256 at 8,
// whose logits would otherwise take the block past 48 KiB of static shared memory.
constexpr int ATTENTION_MAX_CHUNK = 512;
template <int QPK> inline constexpr int MAX_CHUNK = QPK > 4 ? 256 : ATTENTION_MAX_CHUNK;
constexpr int ATTENTION_TILE_BYTES = 8192;
// Ring slots: 4 on the CUDA cores; 3 where both products run on the tensor cores (BF16 caches there too, not measured
// apart): with padded logit rows 3 streamed 0.6-4.6 % faster there than 4 at every FP16 configuration measured on an
// H200, and on the CUDA-core kernel it was 9 % slower (BF16 at batch 1 x 1k;
// docs/measurements/2026-11-26-issue15-attention-ring-h200); FP8 caches at D = 128 took 1.00-1.06x the time with 4
// (before their tokens were split over the warps; docs/measurements/2026-11-27-issue15-fp8-token-split-h200, run 1).
constexpr int ATTENTION_STAGES = 4;
constexpr int ATTENTION_STAGES_MMA = 3;
// Floats past each head's row of logits in shared memory on the tensor cores: rows 8 banks apart, so the fragments'
// accesses (heads lane / 4, tokens 2 (lane % 4) and + 1) fall in 16 different banks instead of 4 lanes on each. The
// CUDA cores' accesses run along a row and keep unpadded rows (padded, FP8 at batch 8 x 32k streamed 0.8 % slower).
constexpr int S_P_PAD_MMA = 8;

// Rows of keys whose dot products one reduce_scatter sums: up to 8 rows x QPK heads values per lane (32 at QPK = 4).
constexpr int SCATTER_ROWS = 8;

__device__ __forceinline__ void load8(const half* p, float* out) {
    KvTraits<half>::widen8(*reinterpret_cast<const uint4*>(p), out);
}

using roofline_gemv::smem_address;

// 16 bytes from global to shared memory, bypassing L1 (cp.async.cg); they land by the matching cp_async_wait.
__device__ __forceinline__ void cp_async16(void* shared, const void* global) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_address(shared)), "l"(global) : "memory");
}
// 16 bytes to shared memory of which the first src_bytes (0 or 16) come from global and the rest are zeros
__device__ __forceinline__ void cp_async16_zfill(void* shared, const void* global, int src_bytes) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem_address(shared)), "l"(global),
                 "r"(src_bytes)
                 : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
// until at most N of this thread's committed groups are still in flight
template <int N> __device__ __forceinline__ void cp_async_wait() {
    asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

// Four 8x8 matrices of 16-bit elements from shared memory, lane t giving the address of row t % 8 of matrix t / 8
// (in the shared window, as smem_address gives it): r[i] of lane t holds row t / 4, columns 2 (t % 4) and
// 2 (t % 4) + 1 of matrix i (ldmatrix), or with TRANS rows 2 (t % 4) and 2 (t % 4) + 1 of column t / 4 (an mma.sync B
// fragment of a row-major [k][n] tile).
template <bool TRANS> __device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t a) {
#define ROOFLINE_LDMATRIX(shape)                                                                                       \
    asm volatile("ldmatrix.sync.aligned.m8n8.x4" shape ".shared.b16 {%0,%1,%2,%3}, [%4];"                              \
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])                                                      \
                 : "r"(a)                                                                                              \
                 : "memory")
    if constexpr (TRANS) {
        ROOFLINE_LDMATRIX(".trans");
    } else {
        ROOFLINE_LDMATRIX("");
    }
#undef ROOFLINE_LDMATRIX
}
// a float stored at a shared-window address; a float pair loaded from an 8-byte aligned one
__device__ __forceinline__ void st_shared_f32(uint32_t a, float v) {
    asm volatile("st.shared.f32 [%0], %1;" ::"r"(a), "f"(v) : "memory");
}
__device__ __forceinline__ float2 ld_shared_f32x2(uint32_t a) {
    float2 v;
    asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "r"(a) : "memory");
    return v;
}
__device__ __forceinline__ uint32_t half2_bits(float lo, float hi) {
    __half2 h = __floats2half2_rn(lo, hi);
    return *reinterpret_cast<uint32_t*>(&h);
}
// A float pair as two BF16 pairs, hi = the floats' top 16 bits and lo = the top 16 bits of the rest (v - hi, exact in
// FP32), both truncated: each normal value of magnitude 2^-112 or more within 2^-14 of itself (relative) as hi + lo
// (the rest of a smaller one may be an FP32 subnormal, whose top bits hold fewer significant ones), and exactly where
// it has at most 16 significant bits (every FP16 value: 8 in hi, the other 3 in lo). Integer ops and FP32 adds, no
// conversion.
__device__ __forceinline__ void bf16x2_split(float a, float b, uint32_t& hi, uint32_t& lo) {
    const uint32_t ua = __float_as_uint(a);
    const uint32_t ub = __float_as_uint(b);
    hi = __byte_perm(ua, ub, 0x7632);
    const float ra = a - __uint_as_float(ua & 0xFFFF0000u);
    const float rb = b - __uint_as_float(ub & 0xFFFF0000u);
    lo = __byte_perm(__float_as_uint(ra), __float_as_uint(rb), 0x7632);
}
// Byte offset of 16-byte piece `piece` of token row `row` in a tile of ROW_BYTES rows whose pieces are swizzled (piece
// XOR row % 8): the 8 rows one ldmatrix reads at the same piece then fall in 8 different bank groups.
template <int ROW_BYTES> __device__ __forceinline__ int swizzled(int row, int piece) {
    return row * ROW_BYTES + ((piece ^ (row & 7)) << 4);
}

// Sums v[0..N) over the LANES lanes of a row group (lanes sub = 0..LANES-1, adjacent in the warp), leaving lane sub
// with the totals of v[sub * N/LANES .. (sub + 1) * N/LANES) in v[0 .. N/LANES): each round halves what a lane holds,
// sending the half its partner keeps and adding the partner's half of its own. N is a multiple of LANES.
// One round per lane bit O, from LANES / 2 down to 1, each a template instance so every index is a constant and v stays
// in registers.
template <int O, int N>
__device__ __forceinline__ void reduce_scatter_round(float* v, int sub) {
    if constexpr (O >= 1) {
        const bool upper = (sub & O) != 0;
#pragma unroll
        for (int i = 0; i < N / 2; i++) {
            float send = upper ? v[i] : v[i + N / 2];
            float keep = upper ? v[i + N / 2] : v[i];
            v[i] = keep + __shfl_xor_sync(0xffffffffu, send, O);
        }
        reduce_scatter_round<O / 2, N / 2>(v, sub);
    }
}

template <int LANES, int N>
__device__ __forceinline__ void reduce_scatter(float* v, int sub) {
    static_assert(N % LANES == 0, "each lane ends with N / LANES sums");
    reduce_scatter_round<LANES / 2, N>(v, sub);
}

// One split's max logit m and sum l of one head (bh = b * H + h) into partial_ml[bh][s], as the merge reads them
__device__ __forceinline__ void store_ml(float* partial_ml, size_t bh, int splits, int s, float m, float l) {
    reinterpret_cast<float2*>(partial_ml)[bh * splits + s] = make_float2(m, l);
}

// q . k over one thread's 8 columns, summed in column order
__device__ __forceinline__ float dot8(const float (&q)[8], const float (&k)[8]) {
    float dot = 0.f;
#pragma unroll
    for (int e = 0; e < 8; e++) {
        dot += q[e] * k[e];
    }
    return dot;
}

template <typename C, int D, int QPK>
__device__ void attention_split(const half* q, const C* k_cache, const C* v_cache, const int* lengths,
                                float* partial_ml, float* partial_acc, int q_row_stride, int heads, int kv_heads,
                                int capacity, int splits, int chunk, float k_scale, float v_scale) {
    using Raw = typename KvTraits<C>::Raw;
    constexpr int VEC = 8;
    constexpr int LANES = D / VEC;                  // threads per token row: 16 (D = 128) or 8 (D = 64)
    constexpr int ROWS = ATTENTION_THREADS / LANES; // token rows read at once: 8 or 16
    constexpr int ROW_BYTES = D * (int)sizeof(C);
    constexpr int TILE = ATTENTION_TILE_BYTES / ROW_BYTES; // tokens per tile: 32 (D = 128, 16-bit) .. 128 (64, FP8)
    constexpr int RPT = TILE / ROWS;                        // token rows per thread per tile: 4 (16-bit) or 8 (FP8)
    constexpr int COPIES = ATTENTION_TILE_BYTES / 16 / ATTENTION_THREADS; // cp.async per thread per tile
    constexpr int SR = RPT < SCATTER_ROWS ? RPT : SCATTER_ROWS;
    // FP16 caches take both products on the tensor cores (mma.sync m16n8k16, FP32 accumulators): the heads are the rows
    // of A, at most 8 of its 16. FP8 ones at D = 128 (MMA8) split the tile's tokens over the warps instead, 16 each
    // over all the columns: the keys' 16 rows are A with q as B, and the values meet each head's weights twice in A, in
    // rows 0-7 for the even columns and 8-15 for the odd, q staying FP16 and the codes widened to FP16. With the heads
    // as A's rows they filled at most 8 of its 16, and each warp on a quarter of the columns rebuilt the same weights
    // and permuted the values' bytes into column order; split by tokens the pass ran 1.10-1.19x as fast on an H200 at 1
    // to 32 rows of 8k-32k tokens (docs/measurements/2026-11-27-issue15-fp8-token-split-h200, run 3). BF16
    // ones (BF) take the BF16 mma with A split into bf16 hi + lo (bf16x2_split), hi in A's rows 0-7 and lo in its rows
    // 8-15, which FP16 leaves zero, so each output is D's row g plus its row g + 8 for the same mma count: q exactly,
    // the weights within 2^-14 (FP16 rounds them within 2^-11); a BF16 value need not be an FP16 one, so the codes
    // cannot be widened instead. Each warp splits all of q itself (the four hold the same fragments): splitting it
    // between them through shared memory, behind a barrier, ran 1.03-1.09x slower at one sequence on an H200, and every
    // warp splitting it by conversions 1.03-1.12x slower than that (docs/measurements/
    // 2026-11-27-issue15-bf16-kv-tensor-cores-h200, runs 8 and 4). FP8 caches at D = 64 stay on the CUDA cores: on the
    // tensor cores (64-byte rows swizzled by (row / 2) % 4, 46ef481) they ran 0.89-1.29x as fast on an H200, slower at
    // 32 rows of 1k and one row of 32k (docs/measurements/2026-11-27-issue15-fp8-kv-tensor-cores-h200, run 3).
    constexpr bool BF = std::is_same<C, __nv_bfloat16>::value;
    constexpr bool MMA16 = std::is_same<C, half>::value || BF; // mma_16816(_bf16): gemv.cu's, which includes this file
    constexpr bool MMA8 = std::is_same<C, __nv_fp8_e4m3>::value && D == 128; // FP8 codes widened to FP16 fragments
    constexpr bool MMA = MMA16 || MMA8;
    constexpr int STAGES = MMA ? ATTENTION_STAGES_MMA : ATTENTION_STAGES;
    constexpr int S_P_PAD = MMA ? S_P_PAD_MMA : 0;
    static_assert(TILE % ROWS == 0 && MAX_CHUNK<QPK> % TILE == 0, "whole tiles of whole row groups");
    static_assert(!MMA || (QPK <= 8 && TILE % 16 == 0 && D % 64 == 0), "whole fragments");
    static_assert(!MMA8 || TILE == 16 * (ATTENTION_THREADS / 32), "FP8: 16 of a tile's tokens to each warp");
    __shared__ __align__(MMA8 ? 128 : MMA16 ? 256 : 16) unsigned char s_tiles[STAGES][ATTENTION_TILE_BYTES];
    __shared__ __align__(8) float s_p[QPK][MAX_CHUNK<QPK> + S_P_PAD];
    __shared__ float s_acc[ROWS][D];
    __shared__ float s_max[QPK][ATTENTION_THREADS / 32];
    __shared__ float s_sum[QPK][ATTENTION_THREADS / 32];

    int bg = blockIdx.x / splits;
    int s = blockIdx.x - bg * splits;
    int b = bg / kv_heads;
    int g = bg - b * kv_heads;
    int begin = s * chunk;
    int n = min(begin + chunk, lengths[b]) - begin; // tokens in this split; uniform over the block
    // the merge after this pass launches programmatically as each block ends (let_next_kernel_launch below): resident
    // from the pass's start instead, it slowed the steps at one sequence (docs/design/decode-kernels.md)
    roofline_launch::wait_for_previous_kernel_only();
    int sub = threadIdx.x % LANES;
    int row = threadIdx.x / LANES;
    const float scale = rsqrtf((float)D) * k_scale; // the keys' scale folded into q: logit = q.(code * k_scale)

    if (n <= 0) { // no token in this split (a short row of a ragged batch)
        for (int j = 0; j < QPK; j++) {
            size_t bh = (size_t)b * heads + g * QPK + j;
            if (threadIdx.x == 0) {
                store_ml(partial_ml, bh, splits, s, -CUDART_INF_F, 0.f);
            }
            for (int i = threadIdx.x; i < D; i += ATTENTION_THREADS) {
                partial_acc[(bh * splits + s) * D + i] = 0.f;
            }
        }
        roofline_launch::let_next_kernel_launch();
        return;
    }

    // Tile i < kt is keys [i * TILE, (i + 1) * TILE), tile kt + i the same tokens' values; the split's tokens are
    // contiguous in the cache, so a tile is one contiguous span of bytes, copied in 16-byte pieces by consecutive
    // threads. On the CUDA cores rows at or past n are not copied (their slot keeps an older tile's bytes, or none yet)
    // and the products skip them. On the tensor cores tiles are copied whole, the rows at or past n as zeros
    // (cp.async's zero fill, from no global byte), and the softmax writes zero weights up to the last tile's end, so
    // the products run over whole 16-token groups unmasked: a zero key row reaches only its own logit, 0, which phase
    // 2 reads no further than n and overwrites with a zero weight, and a zero value row meets a zero weight. Masking
    // those rows in the values product instead took FP16 and BF16 caches 1.00-1.10x the time on an H200 at 1 to 32
    // rows of 8k-32k (1.10x at D = 64, one row of 32k; docs/measurements/2026-11-27-issue15-fp8-token-split-h200,
    // run 5).
    const int kt = (n + TILE - 1) / TILE;
    const int tiles = 2 * kt;
    size_t first = (((size_t)b * kv_heads + g) * capacity + begin) * ROW_BYTES;
    const unsigned char* k_bytes = reinterpret_cast<const unsigned char*>(k_cache) + first;
    const unsigned char* v_bytes = reinterpret_cast<const unsigned char*>(v_cache) + first;
    // FP8 caches at D = 128 (MMA8): thread t copies bytes c * STEP + 16 t .. + 15 of a tile (c < COPIES), to the same
    // offsets in its ring slot plus one constant (a step is a whole number of 8-row groups, and a piece's swizzle
    // depends on its row % 8 only), and the slots are counted, since the tiles are issued, and taken (next), in order.
    // With this form the other caches took up to 2.4 % longer at one sequence (FP16 at 1k tokens, FP8 at D = 64) and
    // keep theirs (docs/measurements/2026-11-27-issue15-fp8-token-split-h200, run 3).
    constexpr int STEP = ATTENTION_THREADS * 16;
    static_assert(!MMA8 || (STEP / ROW_BYTES) % 8 == 0, "a copy step of whole groups of 8 rows");
    const int cp_src = threadIdx.x * 16;
    const int cp_dst = swizzled<ROW_BYTES>(cp_src / ROW_BYTES, (cp_src % ROW_BYTES) / 16);
    int wslot = 0; // MMA8: the slot of the next tile issued
    auto issue = [&](int i) {
        if (i < tiles) {
            int tile = i < kt ? i : i - kt;
            const unsigned char* base = i < kt ? k_bytes : v_bytes;
            const unsigned char* src = base + (size_t)tile * ATTENTION_TILE_BYTES;
            int bytes = min(TILE, n - tile * TILE) * ROW_BYTES;
            if constexpr (MMA8) {
                const int left = bytes - cp_src; // from this thread's first piece on
                unsigned char* dst = s_tiles[wslot] + cp_dst;
#pragma unroll
                for (int c = 0; c < COPIES; c++) {
                    const bool in = c * STEP < left;
                    cp_async16_zfill(dst + c * STEP, in ? src + cp_src + c * STEP : base, in ? 16 : 0);
                }
                wslot = wslot + 1 == STAGES ? 0 : wslot + 1;
            } else {
                unsigned char* dst = s_tiles[i % STAGES];
#pragma unroll
                for (int c = 0; c < COPIES; c++) {
                    int off = (c * ATTENTION_THREADS + threadIdx.x) * 16;
                    if constexpr (MMA) {
                        cp_async16_zfill(dst + swizzled<ROW_BYTES>(off / ROW_BYTES, (off % ROW_BYTES) / 16),
                                         off < bytes ? src + off : base, off < bytes ? 16 : 0);
                    } else if (off < bytes) {
                        cp_async16(dst + off, src + off);
                    }
                }
            }
        }
        cp_async_commit(); // an empty group past the last tile keeps the count the waits rely on
    };
#pragma unroll
    for (int i = 0; i < STAGES - 1; i++) {
        issue(i);
    }

    float qv[QPK][VEC];
    // the tensor cores' A fragments of q (rows: the heads, lane / 4 of them in each lane's rows; rows 8-15 zero, for
    // BF16 caches q's lo parts (ql); the heads past QPK zero): halves 2 (lane % 4), +1 and +8, +9 of each 16 of the
    // head's D; for FP8 keys q is B (columns: the heads, head lane / 4 in each lane's), halves 4 (lane % 4) .. +3 of
    // each 16, the k of the 4 key bytes each lane's ldmatrix register holds (the logits below)
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int qh = lane >> 2;
    // MMA8: this lane's ldmatrix row (token) and piece lane / 16 in a tile; piece 2j + lane / 16 lies at this offset
    // XOR 32 j (the swizzle XORs the piece with row % 8 and 2j only moves bits 1-2 of the piece), so with slots aligned
    // to 128 bytes each ldmatrix address is one XOR; and the lane's logit and weight addresses in s_p at t0 = 0. With
    // these, and the upper code pairs converted in place (e4m3x2_hi_to_half2_bits), the pass ran 1.01-1.05x as fast at
    // one row of 1k-32k tokens on an H200, 1.00-1.03x at 8 and 32 rows
    // (docs/measurements/2026-11-27-issue15-fp8-attention-instructions-h200, run 3)
    const int tok8 = warp * 16 + (lane & 7) + ((lane >> 3) & 1) * 8;
    const uint32_t frag_off = swizzled<ROW_BYTES>(tok8, lane >> 4);
    const uint32_t sp_lane = smem_address(&s_p[(lane & 3) * 2 < QPK ? (lane & 3) * 2 : 0][warp * 16 + (lane >> 2)]);
    const uint32_t wp_lane = smem_address(&s_p[qh < QPK ? qh : 0][warp * 16 + (lane & 3) * 2]);
    // MMA16: the same for the FP16 and BF16 products: the logits' ldmatrix (row lane % 8 of the group, piece 4 kk +
    // lane / 8) at this offset XOR 64 kk, with slots aligned to 256 bytes; the lane's s_p address at token 0. On an
    // H200 0.998-1.016x the time before at 1, 8 and 32 rows of 1k-32k, one row of 8k 1.009x (FP16) and 1.014x (BF16)
    // (docs/measurements/2026-11-27-issue15-fp8-attention-instructions-h200, run 4)
    const uint32_t frag_k16 = (lane & 7) * ROW_BYTES + (((lane >> 3) ^ (lane & 7)) << 4);
    const uint32_t lp16 = smem_address(&s_p[qh < QPK ? qh : 0][(lane & 3) * 2]);
    uint32_t qa[MMA ? D / 16 : 1][2];
    uint32_t ql[BF ? D / 16 : 1][2]; // BF16: q = qa + ql, hi and lo
    if constexpr (MMA) {
#pragma unroll
        for (int ks = 0; ks < D / 16; ks++) {
            qa[ks][0] = 0u;
            qa[ks][1] = 0u;
            if constexpr (BF) {
                ql[ks][0] = 0u;
                ql[ks][1] = 0u;
            }
            if (qh < QPK) {
                const half* qp = q + (size_t)b * q_row_stride + (size_t)(g * QPK + qh) * D + ks * 16 +
                                 (lane & 3) * (MMA8 ? 4 : 2);
                qa[ks][0] = *reinterpret_cast<const uint32_t*>(qp);
                qa[ks][1] = *reinterpret_cast<const uint32_t*>(qp + (MMA8 ? 2 : 8));
                if constexpr (BF) { // hi stays in qa, lo goes to ql
#pragma unroll
                    for (int h = 0; h < 2; h++) {
                        const float2 v = roofline_gemv::half2_bits_to_float2(qa[ks][h]);
                        bf16x2_split(v.x, v.y, qa[ks][h], ql[ks][h]);
                    }
                }
            }
        }
    } else {
#pragma unroll
        for (int j = 0; j < QPK; j++) {
            load8(q + (size_t)b * q_row_stride + (size_t)(g * QPK + j) * D + sub * VEC, qv[j]);
#pragma unroll
            for (int e = 0; e < VEC; e++) {
                qv[j][e] *= scale;
            }
        }
    }
    constexpr int WARPS = ATTENTION_THREADS / 32;
    float m[QPK];
    float l[QPK];
#pragma unroll
    for (int j = 0; j < QPK; j++) {
        m[j] = -CUDART_INF_F;
        l[j] = 0.f;
    }
    // tile i in its slot, landed for the whole block; the next tile but STAGES - 2 on its way
    int rslot = 0; // MMA8: the slot of the next tile taken
    auto next = [&](int i) -> const unsigned char* {
        cp_async_wait<STAGES - 2>(); // this thread's pieces of tile i have landed
        __syncthreads(); // everyone's have, and every thread is done with tile i - 1, whose slot the next issue fills
        issue(i + STAGES - 1);
        if constexpr (MMA8) {
            const unsigned char* tile = s_tiles[rslot];
            rslot = rslot + 1 == STAGES ? 0 : rslot + 1;
            return tile;
        } else {
            return s_tiles[i % STAGES];
        }
    };

    // MMA: each lane's largest logit of its heads over the tokens below n it writes (MMA8: heads 2 (lane % 4) and + 1;
    // MMA16: head lane / 4), reduced over the warp before the barrier that ends the keys and over the warps after it,
    // in place of a pass over s_p and a barrier: on an H200 0.96-0.99x the time at one row of 1k-32k (FP8), 0.98-1.00x
    // (FP16; BF16 takes the same code, not timed apart), at 8 rows 0.96-0.99x at 1k and 1.00x at 8k-32k
    // (docs/measurements/2026-11-28-issue15-attention-merge-h200, run 7)
    float mk[2] = {-CUDART_INF_F, -CUDART_INF_F};
    for (int i = 0; i < kt; i++) {
        const unsigned char* tile = next(i);
        // 1. logits of this tile's tokens t = t0 + u * ROWS + row
        const int t0 = i * TILE;
        if constexpr (MMA) {
            if constexpr (MMA8) {
                // FP8: warp w the tile's tokens [16 w, 16 w + 16) as A (rows: tokens, widened keys), q as B (columns:
                // heads): lane (g, q) holds logits of tokens g and g + 8 for heads 2q and 2q + 1
                const int tb = t0 + warp * 16;
                if (tb < n) {
                    float sa[4] = {0.f, 0.f, 0.f, 0.f};
                    float sb[4] = {0.f, 0.f, 0.f, 0.f};
                    const uint32_t ts = smem_address(tile) + frag_off;
#pragma unroll
                    for (int j = 0; j < D / 32; j++) {
                        uint32_t r[4]; // tokens 0-7 and 8-15 of piece 2j, then of piece 2j + 1
                        ldmatrix_x4<false>(r, ts ^ (j << 5));
                        roofline_gemv::mma_16816(sa, roofline_gemv::e4m3x2_to_half2_bits(r[0]),
                                                 roofline_gemv::e4m3x2_to_half2_bits(r[1]),
                                                 roofline_gemv::e4m3x2_hi_to_half2_bits(r[0]),
                                                 roofline_gemv::e4m3x2_hi_to_half2_bits(r[1]), qa[2 * j][0],
                                                 qa[2 * j][1]);
                        roofline_gemv::mma_16816(sb, roofline_gemv::e4m3x2_to_half2_bits(r[2]),
                                                 roofline_gemv::e4m3x2_to_half2_bits(r[3]),
                                                 roofline_gemv::e4m3x2_hi_to_half2_bits(r[2]),
                                                 roofline_gemv::e4m3x2_hi_to_half2_bits(r[3]), qa[2 * j + 1][0],
                                                 qa[2 * j + 1][1]);
                    }
                    if ((lane & 3) * 2 < QPK) { // then the next head too, but at QPK = 1
                        constexpr int RS = MAX_CHUNK<QPK> + S_P_PAD; // s_p's row stride
                        const uint32_t sp = sp_lane + t0 * 4;
                        // tokens at or past n too (zero keys, logit 0, inside the row): phase 2 reads below n only
#pragma unroll
                        for (int e = 0; e < 4; e++) {
                            if (QPK > 1 || (e & 1) == 0) {
                                const float v = (sa[e] + sb[e]) * scale;
                                st_shared_f32(sp + ((e & 1) * RS + (e >> 1) * 8) * 4, v);
                                if (tb + (lane >> 2) + (e >> 1) * 8 < n) {
                                    mk[e & 1] = fmaxf(mk[e & 1], v);
                                }
                            }
                        }
                    }
                }
            } else {
                // FP16 and BF16: warp w the tile's 8-token groups w, w + WARPS, ..., S = q . K^T of a group in D/16
                // steps (A: q, B: 8 key rows by ldmatrix), lane holding heads' logits of tokens 2 (lane % 4), +1
                for (int grp = warp; grp < TILE / 8 && t0 + grp * 8 < n; grp += ATTENTION_THREADS / 32) {
                    float sacc[4] = {0.f, 0.f, 0.f, 0.f};
                    const uint32_t ts = smem_address(tile) + grp * 8 * ROW_BYTES + frag_k16;
#pragma unroll
                    for (int kk = 0; kk < D / 32; kk++) {
                        uint32_t r[4];
                        ldmatrix_x4<false>(r, ts ^ (kk << 6));
                        if constexpr (BF) {
#pragma unroll
                            for (int h = 0; h < 2; h++) {
                                const int ks = 2 * kk + h;
                                roofline_gemv::mma_16816_bf16(sacc, qa[ks][0], ql[ks][0], qa[ks][1], ql[ks][1],
                                                              r[2 * h], r[2 * h + 1]);
                            }
                        } else {
                            roofline_gemv::mma_16816(sacc, qa[2 * kk][0], 0u, qa[2 * kk][1], 0u, r[0], r[1]);
                            roofline_gemv::mma_16816(sacc, qa[2 * kk + 1][0], 0u, qa[2 * kk + 1][1], 0u, r[2],
                                                     r[3]);
                        }
                    }
                    if (qh < QPK) { // tokens at or past n too (zero keys, logit 0, inside the row)
                        const uint32_t sp = lp16 + (t0 + grp * 8) * 4;
                        const float v0 = (BF ? sacc[0] + sacc[2] : sacc[0]) * scale;
                        const float v1 = (BF ? sacc[1] + sacc[3] : sacc[1]) * scale;
                        st_shared_f32(sp, v0);
                        st_shared_f32(sp + 4, v1);
                        const int t = t0 + grp * 8 + (lane & 3) * 2;
                        mk[0] = fmaxf(mk[0], t < n ? v0 : -CUDART_INF_F);
                        mk[0] = fmaxf(mk[0], t + 1 < n ? v1 : -CUDART_INF_F);
                    }
                }
            }
        } else {
            const unsigned char* slot = tile + row * ROW_BYTES + sub * VEC * (int)sizeof(C);
            Raw raw[RPT];
#pragma unroll
            for (int u = 0; u < RPT; u++) {
                raw[u] = *reinterpret_cast<const Raw*>(slot + u * ROWS * ROW_BYTES);
            }
            if constexpr (SR * QPK >= LANES) {
                // SR rows' QPK dot products reduced across the row's LANES lanes together (reduce_scatter):
                // log2(LANES) rounds in which each lane sends half of what it still holds, so the lanes end up with
                // the whole sums between them, SR * QPK - 1 shuffles instead of SR * QPK * log2(LANES)
#pragma unroll
                for (int u0 = 0; u0 < RPT; u0 += SR) {
                    constexpr int NV = SR * QPK;
                    float vals[NV]; // vals[r * QPK + j]: row u0 + r, head j
#pragma unroll
                    for (int r = 0; r < SR; r++) {
                        float kv[VEC];
                        KvTraits<C>::widen8(raw[u0 + r], kv);
#pragma unroll
                        for (int j = 0; j < QPK; j++) {
                            vals[r * QPK + j] = dot8(qv[j], kv);
                        }
                    }
                    reduce_scatter<LANES, NV>(vals, sub);
                    constexpr int PER = NV / LANES;
#pragma unroll
                    for (int p = 0; p < PER; p++) {
                        int idx = p + sub * PER; // the sum this lane now holds (reduce_scatter)
                        int t = t0 + (u0 + idx / QPK) * ROWS + row;
                        if (t < n) {
                            s_p[idx % QPK][t] = vals[p];
                        }
                    }
                }
            } else {
#pragma unroll
                for (int u = 0; u < RPT; u++) {
                    int t = t0 + u * ROWS + row;
                    float kv[VEC];
                    KvTraits<C>::widen8(raw[u], kv);
#pragma unroll
                    for (int j = 0; j < QPK; j++) {
                        float dot = dot8(qv[j], kv);
#pragma unroll
                        for (int o = LANES / 2; o > 0; o >>= 1) {
                            dot += __shfl_xor_sync(0xffffffffu, dot, o);
                        }
                        if (sub == 0 && t < n) {
                            s_p[j][t] = dot;
                        }
                    }
                }
            }
        }
    }
    // 2. every head's max, then exp and sum (s_p becomes the unnormalised weights), the heads side by side in each pass
    // so the block meets at three barriers (two on the tensor cores, whose max is the lanes'), not more per head; the
    // first value tiles are in flight meanwhile
    if constexpr (MMA8) { // over the lanes of one head pair (lane % 4): tokens lane / 4
#pragma unroll
        for (int h = 0; h < 2; h++) {
#pragma unroll
            for (int o = 4; o < 32; o <<= 1) {
                mk[h] = fmaxf(mk[h], __shfl_xor_sync(0xffffffffu, mk[h], o));
            }
            if (lane < 4 && 2 * lane + h < QPK) {
                s_max[2 * lane + h][warp] = mk[h];
            }
        }
    } else if constexpr (MMA) { // over the 4 lanes of one head (lane / 4)
#pragma unroll
        for (int o = 1; o < 4; o <<= 1) {
            mk[0] = fmaxf(mk[0], __shfl_xor_sync(0xffffffffu, mk[0], o));
        }
        if ((lane & 3) == 0 && qh < QPK) {
            s_max[qh][warp] = mk[0];
        }
    }
    __syncthreads(); // every logit is in s_p, and on the tensor cores every warp's max in s_max
    if constexpr (!MMA) {
        for (int t = threadIdx.x; t < n; t += ATTENTION_THREADS) {
#pragma unroll
            for (int j = 0; j < QPK; j++) {
                m[j] = fmaxf(m[j], s_p[j][t]);
            }
        }
#pragma unroll
        for (int j = 0; j < QPK; j++) {
            m[j] = warp_max(m[j]);
            if ((threadIdx.x & 31) == 0) {
                s_max[j][threadIdx.x / 32] = m[j];
            }
        }
        __syncthreads();
    }
#pragma unroll
    for (int j = 0; j < QPK; j++) {
        m[j] = s_max[j][0];
#pragma unroll
        for (int w = 1; w < WARPS; w++) {
            m[j] = fmaxf(m[j], s_max[j][w]);
        }
    }
    for (int t = threadIdx.x; t < (MMA ? kt * TILE : n); t += ATTENTION_THREADS) {
#pragma unroll
        for (int j = 0; j < QPK; j++) {
            float p = t < n ? __expf(s_p[j][t] - m[j]) : 0.f;
            s_p[j][t] = p;
            l[j] += p;
        }
    }
#pragma unroll
    for (int j = 0; j < QPK; j++) {
        l[j] = warp_sum(l[j]);
        if ((threadIdx.x & 31) == 0) {
            s_sum[j][threadIdx.x / 32] = l[j];
        }
    }
    __syncthreads(); // also orders every thread's weights in s_p before phase 3 reads them
#pragma unroll
    for (int j = 0; j < QPK; j++) {
        l[j] = s_sum[j][0];
#pragma unroll
        for (int w = 1; w < WARPS; w++) {
            l[j] += s_sum[j][w];
        }
    }
    // 3. values: each thread its 8 columns over each tile's tokens row, row + ROWS, ...
    float acc[QPK][VEC];
#pragma unroll
    for (int j = 0; j < QPK; j++) {
#pragma unroll
        for (int e = 0; e < VEC; e++) {
            acc[j][e] = 0.f;
        }
    }
    // on the tensor cores, FP16 and BF16: warp w the columns [w * DW, (w + 1) * DW) of every head, O = P . V in steps
    // of 16 tokens (A: the heads' weights from s_p as FP16, or BF16 hi and lo, B: value rows by ldmatrix.trans), lane
    // holding heads' outputs at columns 2 (lane % 4), +1 of each 8
    constexpr int DW = D / (ATTENTION_THREADS / 32);
    constexpr int NT = DW / 8;
    float oacc[MMA16 ? NT : 1][4];
#pragma unroll
    for (int nt = 0; nt < (MMA16 ? NT : 1); nt++) {
#pragma unroll
        for (int e = 0; e < 4; e++) {
            oacc[nt][e] = 0.f;
        }
    }
    // MMA16: the values' ldmatrix.trans (token row ((lane / 8) % 2) * 8 + lane % 8, piece warp * DW / 8 + 2 np +
    // lane / 16) at this offset XOR 32 np, plus 16 ROW_BYTES per 16-token step
    const uint32_t frag_v16 = ((((lane >> 3) & 1) * 8 + (lane & 7)) * ROW_BYTES) +
                              ((((warp * DW / 8) ^ (lane >> 4)) ^ (lane & 7)) << 4);
    float vacc[MMA8 ? D / 16 : 1][4]; // FP8: piece p's sums, rows 0-7 its even columns, 8-15 its odd
#pragma unroll
    for (int p = 0; p < (MMA8 ? D / 16 : 1); p++) {
#pragma unroll
        for (int e = 0; e < 4; e++) {
            vacc[p][e] = 0.f;
        }
    }
    for (int i = kt; i < tiles; i++) {
        const unsigned char* tile = next(i);
        const int t0 = (i - kt) * TILE;
        if constexpr (MMA8) {
            // FP8: warp w the tile's tokens [16 w, 16 w + 16) over all D columns. The transposing ldmatrix over byte
            // pairs gives lane (g, q) tokens 2q, 2q+1 of columns 2g, 2g + 1 of a 16-column piece, widened as they
            // lie: B's k slots 2q, 2q+1 are token 2q's even and odd column, 2q+8, 2q+9 token 2q+1's. A's rows 0-7
            // take each head's weights at the even slots (zeros at the odd), rows 8-15 at the odd: D's rows 0-7 are
            // the even columns' sums, rows 8-15 the odd ones'. Rows past n are zeros (issue), as are their weights.
            const int tb = t0 + warp * 16;
            if (tb < n) {
                float2 w0 = make_float2(0.f, 0.f);
                float2 w8 = make_float2(0.f, 0.f);
                if (qh < QPK) {
                    w0 = ld_shared_f32x2(wp_lane + t0 * 4);
                    w8 = ld_shared_f32x2(wp_lane + (t0 + 8) * 4);
                }
                const uint32_t pw[2] = {half2_bits(w0.x, w0.y), half2_bits(w8.x, w8.y)};
                uint32_t a[2][4];
#pragma unroll
                for (int hh = 0; hh < 2; hh++) {
                    a[hh][0] = pw[hh] & 0xFFFFu;
                    a[hh][1] = pw[hh] << 16;
                    a[hh][2] = pw[hh] >> 16;
                    a[hh][3] = pw[hh] & 0xFFFF0000u;
                }
                const uint32_t ts = smem_address(tile) + frag_off;
#pragma unroll
                for (int j = 0; j < D / 32; j++) {
                    uint32_t r[4]; // tokens 0-7 and 8-15 of piece 2j, then of piece 2j + 1
                    ldmatrix_x4<true>(r, ts ^ (j << 5));
#pragma unroll
                    for (int pp = 0; pp < 2; pp++) {
#pragma unroll
                        for (int hh = 0; hh < 2; hh++) {
                            const uint32_t v = r[2 * pp + hh];
                            roofline_gemv::mma_16816(vacc[2 * j + pp], a[hh][0], a[hh][1], a[hh][2], a[hh][3],
                                                     roofline_gemv::e4m3x2_to_half2_bits(v),
                                                     roofline_gemv::e4m3x2_hi_to_half2_bits(v));
                        }
                    }
                }
            }
        } else if constexpr (MMA) {
#pragma unroll
            for (int ks = 0; ks < TILE / 16; ks++) {
                const int tb = t0 + ks * 16;
                if (tb >= n) {
                    break;
                }
                uint32_t pa0 = 0u;
                uint32_t pa2 = 0u;
                uint32_t pl0 = 0u; // BF16: the weights' lo pairs, A's rows 8-15 (pa0, pa2 their hi)
                uint32_t pl2 = 0u;
                if (qh < QPK) { // tokens tb + 2 (lane % 4) even, rows of an even length: 8-byte aligned pairs
                    const float2 w0 = ld_shared_f32x2(lp16 + tb * 4);
                    const float2 w8 = ld_shared_f32x2(lp16 + (tb + 8) * 4);
                    if constexpr (BF) {
                        bf16x2_split(w0.x, w0.y, pa0, pl0);
                        bf16x2_split(w8.x, w8.y, pa2, pl2);
                    } else {
                        pa0 = half2_bits(w0.x, w0.y);
                        pa2 = half2_bits(w8.x, w8.y);
                    }
                }
                const uint32_t ta = smem_address(tile) + ks * 16 * ROW_BYTES + frag_v16;
#pragma unroll
                for (int np = 0; np < NT / 2; np++) {
                    uint32_t r[4];
                    ldmatrix_x4<true>(r, ta ^ (np << 5));
                    if constexpr (BF) {
                        roofline_gemv::mma_16816_bf16(oacc[2 * np], pa0, pl0, pa2, pl2, r[0], r[1]);
                        roofline_gemv::mma_16816_bf16(oacc[2 * np + 1], pa0, pl0, pa2, pl2, r[2], r[3]);
                    } else {
                        roofline_gemv::mma_16816(oacc[2 * np], pa0, 0u, pa2, 0u, r[0], r[1]);
                        roofline_gemv::mma_16816(oacc[2 * np + 1], pa0, 0u, pa2, 0u, r[2], r[3]);
                    }
                }
            }
        } else {
            const unsigned char* slot = tile + row * ROW_BYTES + sub * VEC * (int)sizeof(C);
#pragma unroll
            for (int u = 0; u < RPT; u++) {
                int t = t0 + u * ROWS + row;
                if (t < n) {
                    float vv[VEC];
                    KvTraits<C>::widen8(*reinterpret_cast<const Raw*>(slot + u * ROWS * ROW_BYTES), vv);
#pragma unroll
                    for (int j = 0; j < QPK; j++) {
                        float p = s_p[j][t];
#pragma unroll
                        for (int e = 0; e < VEC; e++) {
                            acc[j][e] += p * vv[e];
                        }
                    }
                }
            }
        }
    }
    if constexpr (MMA) {
        if constexpr (MMA8) {
            // the four warps' sums over their tokens added through the ring, free once every warp is past its last
            // tile: lane (g, q) holds head g's columns 16p + 4q .. +3 of each piece p (D's n = 2q, 2q + 1 in rows g,
            // g + 8)
            constexpr int RED = D + 16; // row stride: the 8 lanes of a store phase, heads g and g + 1, 16 banks apart
            static_assert(WARPS * QPK * RED * (int)sizeof(float) <= STAGES * ATTENTION_TILE_BYTES, "fits the ring");
            float* s_red = reinterpret_cast<float*>(&s_tiles[0][0]);
            __syncthreads();
            if (qh < QPK) {
#pragma unroll
                for (int p = 0; p < D / 16; p++) {
                    *reinterpret_cast<float4*>(&s_red[(warp * QPK + qh) * RED + 16 * p + (lane & 3) * 4]) =
                            make_float4(vacc[p][0], vacc[p][2], vacc[p][1], vacc[p][3]);
                }
            }
            __syncthreads();
            for (int i = threadIdx.x; i < QPK * D; i += ATTENTION_THREADS) {
                const int j = i / D;
                const int c = i - j * D;
                float a = s_red[j * RED + c];
#pragma unroll
                for (int w = 1; w < WARPS; w++) {
                    a += s_red[(w * QPK + j) * RED + c];
                }
                size_t bh = (size_t)b * heads + g * QPK + j;
                partial_acc[(bh * splits + s) * D + c] = a * v_scale;
            }
        } else {
            if (qh < QPK) {
                size_t bh = (size_t)b * heads + g * QPK + qh;
                float* o = partial_acc + (bh * splits + s) * D + warp * DW + (lane & 3) * 2;
#pragma unroll
                for (int nt = 0; nt < NT; nt++) {
                    o[nt * 8] = (BF ? oacc[nt][0] + oacc[nt][2] : oacc[nt][0]) * v_scale; // BF16: hi's row + lo's
                    o[nt * 8 + 1] = (BF ? oacc[nt][1] + oacc[nt][3] : oacc[nt][1]) * v_scale;
                }
            }
        }
        if (threadIdx.x == 0) {
#pragma unroll
            for (int j = 0; j < QPK; j++) {
                store_ml(partial_ml, (size_t)b * heads + g * QPK + j, splits, s, m[j], l[j]);
            }
        }
    } else {
#pragma unroll
        for (int j = 0; j < QPK; j++) {
#pragma unroll
            for (int e = 0; e < VEC; e++) {
                s_acc[row][sub * VEC + e] = acc[j][e];
            }
            __syncthreads();
            size_t bh = (size_t)b * heads + g * QPK + j;
            for (int i = threadIdx.x; i < D; i += ATTENTION_THREADS) {
                float a = 0.f;
#pragma unroll
                for (int r = 0; r < ROWS; r++) {
                    a += s_acc[r][i];
                }
                partial_acc[(bh * splits + s) * D + i] = a * v_scale; // the values' scale, once per output
            }
            if (threadIdx.x == 0) {
                store_ml(partial_ml, bh, splits, s, m[j], l[j]);
            }
            __syncthreads();
        }
    }
    roofline_launch::let_next_kernel_launch();
}

// BLOCKS: the blocks per SM the register budget is set for (DecodeKernels.attentionBlocksPerSm). Five keep up to
// 5 x 3 tiles = 120 KiB in flight per SM on the CUDA cores (5 x 2 = 80 KiB on the tensor cores) and fit a Hopper SM's
// shared memory (at most ~45 KiB a block); groups of 8 query
// heads keep twice the accumulators and would spill at five, so they take what fits. One kernel per cache type (sfx:
// f16, bf16, e4m3), head size and group size.
#define ROOFLINE_ATTENTION_SPLIT(C, sfx, D, QPK, BLOCKS)                                                             \
    extern "C" __global__ void __launch_bounds__(ATTENTION_THREADS, BLOCKS)                                          \
        decode_attention_split_d##D##_q##QPK##_##sfx(const half* q, const C* k_cache, const C* v_cache,              \
                                                     const int* lengths, float* partial_ml, float* partial_acc,      \
                                                     int q_row_stride, int heads, int kv_heads, int capacity,        \
                                                     int splits, int chunk, float k_scale, float v_scale) {          \
        attention_split<C, D, QPK>(q, k_cache, v_cache, lengths, partial_ml, partial_acc, q_row_stride, heads,       \
                                   kv_heads, capacity, splits, chunk, k_scale, v_scale);                             \
    }
#define ROOFLINE_ATTENTION_SPLITS(C, sfx)                                                                            \
    ROOFLINE_ATTENTION_SPLIT(C, sfx, 64, 1, 5)                                                                       \
    ROOFLINE_ATTENTION_SPLIT(C, sfx, 64, 2, 5)                                                                       \
    ROOFLINE_ATTENTION_SPLIT(C, sfx, 64, 4, 5)                                                                       \
    ROOFLINE_ATTENTION_SPLIT(C, sfx, 64, 8, 1)                                                                       \
    ROOFLINE_ATTENTION_SPLIT(C, sfx, 128, 1, 5)                                                                      \
    ROOFLINE_ATTENTION_SPLIT(C, sfx, 128, 2, 5)                                                                      \
    ROOFLINE_ATTENTION_SPLIT(C, sfx, 128, 4, 5)                                                                      \
    ROOFLINE_ATTENTION_SPLIT(C, sfx, 128, 8, 1)
ROOFLINE_ATTENTION_SPLITS(half, f16)
ROOFLINE_ATTENTION_SPLITS(__nv_bfloat16, bf16)
ROOFLINE_ATTENTION_SPLITS(__nv_fp8_e4m3, e4m3)

// Flash-decoding attention, second pass: out = sum_s exp(m_s - M) * acc_s / sum_s exp(m_s - M) * l_s, M = max_s m_s,
// over the splits' partials, into out half[B][H][D]. Warp w of the grid (MERGE_THREADS / 32 a block) merges columns
// [c * WCOLS, (c + 1) * WCOLS) of head bh = w / (D / WCOLS), c = w % (D / WCOLS), alone: WCOLS / 4 lanes across the
// columns (4 each, one 16-byte load a split) times SL = 32 / (WCOLS / 4) split lanes, lane r on splits r, r + SL, ...
// A lane loads its first HELD splits' maxes, sums and columns into registers at once, before the max they wait on; the
// max and then the sums are reduced over the split lanes by shuffles, so the merge meets at no barrier and touches no
// shared memory. WCOLS: 16 up to MERGE_FEW_SPLITS splits (DecodeKernels.attentionMergeColumns), whose lanes then hold
// at most 4 splits each, and 8 above, with twice the split lanes. Against the block merge before it (a block's 4 warps'
// split lanes added through shared memory behind two barriers) the split pass and merge took, on an H200, 0.83-0.92x
// the time at 1k tokens (16 columns, 2-32 splits), 0.97-0.99x at 8k and 1.001-1.004x at 8 rows of 16k-32k and 32
// rows of 32k (8 columns, 41-71 splits); 16 columns at 64-82 splits took up to 1.02x in a probe
// (docs/measurements/2026-11-28-issue15-attention-merge-h200, runs 2 and 6).
constexpr int MERGE_THREADS = 128;
constexpr int MERGE_FEW_SPLITS = 32;

template <int D, int WCOLS>
__device__ void attention_merge(const float* partial_ml, const float* partial_acc, half* out, int splits) {
    constexpr int CT = WCOLS / 4;                       // lanes across the columns
    constexpr int SL = 32 / CT;                         // split lanes
    constexpr int HELD = WCOLS == 16 ? MERGE_FEW_SPLITS / SL : 8; // all of them up to 32 splits, or 128
    constexpr int WPH = D / WCOLS;                      // warps a head
    static_assert(WPH % (MERGE_THREADS / 32) == 0, "a block's warps on one head");
    const int w = blockIdx.x * (MERGE_THREADS / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x & 31;
    const int bh = w / WPH;
    const int slice = w - bh * WPH;
    const int col = lane % CT;
    const int sl = lane / CT;
    const float* ml = partial_ml + (size_t)bh * splits * 2;
    const float4* acc4 = reinterpret_cast<const float4*>(partial_acc + (size_t)bh * splits * D) + slice * CT + col;
    float hm[HELD];
    float hl[HELD];
    float4 ha[HELD];
#pragma unroll
    for (int i = 0; i < HELD; i++) {
        int sp = sl + i * SL;
        hm[i] = -CUDART_INF_F;
        hl[i] = 0.f;
        ha[i] = make_float4(0.f, 0.f, 0.f, 0.f);
        if (sp < splits) {
            float2 p = reinterpret_cast<const float2*>(ml)[sp];
            hm[i] = p.x;
            hl[i] = p.y;
            ha[i] = acc4[(size_t)sp * (D / 4)];
        }
    }
    float mm = -CUDART_INF_F;
#pragma unroll
    for (int i = 0; i < HELD; i++) {
        mm = fmaxf(mm, hm[i]);
    }
    for (int sp = sl + HELD * SL; sp < splits; sp += SL) {
        mm = fmaxf(mm, ml[2 * sp]);
    }
#pragma unroll
    for (int o = CT; o < 32; o <<= 1) {
        mm = fmaxf(mm, __shfl_xor_sync(0xffffffffu, mm, o));
    }
    float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
    float l = 0.f;
    auto add = [&](float m, float ls, float4 v) {
        float wt = m == -CUDART_INF_F ? 0.f : __expf(m - mm); // an empty split weighs nothing
        l += wt * ls;
        a.x += wt * v.x;
        a.y += wt * v.y;
        a.z += wt * v.z;
        a.w += wt * v.w;
    };
#pragma unroll
    for (int i = 0; i < HELD; i++) {
        add(hm[i], hl[i], ha[i]);
    }
    for (int sp = sl + HELD * SL; sp < splits; sp += SL) {
        add(ml[2 * sp], ml[2 * sp + 1], acc4[(size_t)sp * (D / 4)]);
    }
#pragma unroll
    for (int o = CT; o < 32; o <<= 1) {
        l += __shfl_xor_sync(0xffffffffu, l, o);
        a.x += __shfl_xor_sync(0xffffffffu, a.x, o);
        a.y += __shfl_xor_sync(0xffffffffu, a.y, o);
        a.z += __shfl_xor_sync(0xffffffffu, a.z, o);
        a.w += __shfl_xor_sync(0xffffffffu, a.w, o);
    }
    if (sl == 0) {
        const float r = 1.f / l;
        *reinterpret_cast<uint2*>(out + (size_t)bh * D + slice * WCOLS + 4 * col) =
                make_uint2(half2_bits(a.x * r, a.y * r), half2_bits(a.z * r, a.w * r));
    }
}

#define ROOFLINE_ATTENTION_MERGE(D, WCOLS)                                                                           \
    extern "C" __global__ void __launch_bounds__(MERGE_THREADS) decode_attention_merge_d##D##_c##WCOLS(              \
        const float* partial_ml, const float* partial_acc, half* out, int splits) {                                  \
        roofline_launch::wait_for_previous_kernel();                                                                 \
        attention_merge<D, WCOLS>(partial_ml, partial_acc, out, splits);                                             \
    }
ROOFLINE_ATTENTION_MERGE(64, 8)
ROOFLINE_ATTENTION_MERGE(64, 16)
ROOFLINE_ATTENTION_MERGE(128, 8)
ROOFLINE_ATTENTION_MERGE(128, 16)
