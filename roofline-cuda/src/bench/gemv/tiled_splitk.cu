// Variants of the 4-bit tiled GEMV (INT4 g128, NVFP4, MXFP4 weights in TiledLayout's layout x FP16 activations) at 1,
// 8, 12 and 16 activation rows (or any count up to 16 named on the command line): K split over a thread-block cluster
// with x staged once per block in shared memory (sk), a rolling window of loads (pipe), and MXFP4's one-row step with x
// on the diagonal of B (gemv_tiled.cu's step_diag) in other blocks than the shipped one (dg). A development tool: it
// times these variants L2-cold against the shipped tiled kernels (gemv_tiled.cu) and checks them against the shipped
// row-major tensor-core kernels' outputs, in one process; the numbers that count remain GemvBenchmark's.
//
//   nvcc -std=c++17 -O3 -arch=sm_90a -o tsk roofline-cuda/src/bench/gemv/tiled_splitk.cu   (sm_90a: H100 / H200)
//   ./tsk [format-filter] [NxK] [M]   (NxK: that shape only, listed or not; N % 16 == 0, K % 128 == 0)
//
// sk. In the shipped tiled kernels each block of 16T rows reads all of x, its 8 warps splitting K, so at 16 rows x
// costs 1 byte of L2 traffic per weight element (4 KB of x per 2 KB of weights a step at T = 2), twice the weights'
// own DRAM bytes. Here a block of 8 warps owns 128 rows (one tile a warp) and one K range of a cluster of KS blocks:
// the block stages its range of x once (cp.async, in chunks of 4 groups, each waited for just before use) and every
// warp reads it from shared memory, so x costs 16 x 2 / 128 = 0.25 byte per weight element at 16 rows; the KS blocks
// of a cluster then add their partial sums through distributed shared memory, each writing 128 / KS rows' outputs.
//
// Packing: the layout (pack_* below, as TiledLayout writes it) from random row-major weights and scales, on the GPU
// and, for the first copy, on the host, which must agree and unpack back byte for byte.
// The layout and the step's decode are gemv_tiled.cu's (its header says how each lane's load holds A fragments).
//
// pipe. gemv_tiled's block (T tiles, 8 warps splitting K) with its rolling window of D steps (ROLL = D): the loads of
// the warp's step c + D - 1 are issued before step c is computed, where gemv_tiled's shipped kernels issue UNROLL
// steps' loads, then compute them.
#include "../../main/cuda/gemv.cu"

#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_timing.cuh"

namespace w4 {

constexpr double MAX_REL_DIFF = 2e-3; // FP32 sums in another order, rounded to fp16: ~1 ulp of the largest output
constexpr int TILE_ROWS = 16, GROUP_K = 128; // a tile's rows, a group's k

// E2M1 bit places per fragment register p (code bits m, e0, e1, s) and the left shifts that bring them to 9..11, 15
__host__ __device__ constexpr int e2m1_bit(int p, int b) {
    constexpr int BITS[4][4] = {{9, 10, 11, 15}, {6, 7, 8, 12}, {0, 1, 2, 13}, {3, 4, 5, 14}};
    return BITS[p][b];
}
// E2M1_EM_SHIFT = {0, 3, 9, 6}, E2M1_SIGN_SHIFT = {0, 3, 2, 1}: written out in decode_word

// ---- the layout's index maps (one bijection each, used to pack on the GPU and on the host, and to unpack) ----

// whether format F's lanes hold k 64h + 16q + 4j of a group (gemv_tiled.cu's ONE_LINE), else 32q + 16h + 4j
inline bool one_line(Fmt F) {
    return F == Fmt::INT4    ? roofline_tiled::ONE_LINE<Fmt::INT4>
           : F == Fmt::NVFP4 ? roofline_tiled::ONE_LINE<Fmt::NVFP4>
                             : roofline_tiled::ONE_LINE<Fmt::MXFP4>;
}
// the first input of word j of lane (q = lane % 4) in half h of group kg
__host__ __device__ inline int word_k0(int kg, int h, int q, int j, bool one_line) {
    return GROUP_K * kg + (one_line ? 64 * h + 16 * q : 32 * q + 16 * h) + 4 * j;
}
// element e (0..7) of layout word w (4-byte index): its weight row n and input k
__host__ __device__ inline void word_element(size_t w, int e, int G, bool one_line, int& n, int& k) {
    const int j = static_cast<int>(w & 3), lane = static_cast<int>((w >> 2) & 31), h = static_cast<int>((w >> 7) & 1);
    const size_t tg = w >> 8; // tile * G + group
    const int t = static_cast<int>(tg / G), kg = static_cast<int>(tg % G);
    const int g = lane >> 2, q = lane & 3, rho = e & 1, c = e >> 1;
    n = TILE_ROWS * t + g + 8 * rho;
    k = word_k0(kg, h, q, j, one_line) + c;
}
// bit b (0: lowest) of element e's 4-bit code: its place in the layout word
__host__ __device__ inline int element_bit(bool e2m1, int e, int b) {
    const int rho = e & 1, c = e >> 1, p = rho + 2 * (c >> 1);
    return e2m1 ? 16 * (c & 1) + e2m1_bit(p, b) : 4 * (p + 4 * (c & 1)) + b;
}
// layout word w from the row-major bytes (row n: K / 2 bytes, element 2i in the low nibble)
__host__ __device__ inline uint32_t pack_word(const uint8_t* src, size_t w, bool e2m1, bool one_line, int K) {
    uint32_t v = 0;
    for (int e = 0; e < 8; e++) {
        int n, k;
        word_element(w, e, K / GROUP_K, one_line, n, k);
        const uint32_t code = (src[static_cast<size_t>(n) * (K / 2) + k / 2] >> (4 * (k & 1))) & 0xF;
        for (int b = 0; b < 4; b++) v |= ((code >> b) & 1u) << element_bit(e2m1, e, b);
    }
    return v;
}
// the row-major scale entry that layout entry d holds (INT4: float entries; NVFP4, MXFP4: byte entries)
__host__ __device__ inline size_t scale_source(Fmt F, size_t d, int K) {
    const int G = K / GROUP_K;
    const int per = F == Fmt::INT4 ? 16 : F == Fmt::NVFP4 ? 128 : 64; // entries per (tile, group)
    const size_t tg = d / per;
    const int r = static_cast<int>(d % per), t = static_cast<int>(tg / G), kg = static_cast<int>(tg % G);
    if (F == Fmt::INT4) { // float2 {s[g], s[g+8]} per g
        const int g = r >> 1, rho = r & 1;
        return static_cast<size_t>(TILE_ROWS * t + g + 8 * rho) * G + kg;
    }
    if (F == Fmt::NVFP4) { // 4 bytes per lane {s[g][q], s[g+8][q], s[g][q+4], s[g+8][q+4]}
        const int lane = r >> 2, b = r & 3, g = lane >> 2, q = lane & 3, rho = b & 1;
        return static_cast<size_t>(TILE_ROWS * t + g + 8 * rho) * (K / 16) + 8 * kg + q + 4 * (b >> 1);
    }
    const int lane = r >> 1, g = lane >> 2, q = lane & 3, rho = r & 1; // MXFP4: 2 bytes per lane {s[g][q], s[g+8][q]}
    return static_cast<size_t>(TILE_ROWS * t + g + 8 * rho) * (K / 32) + 4 * kg + q;
}

__global__ void pack_weights_kernel(const uint8_t* src, uint32_t* dst, size_t words, bool e2m1, bool one_line, int K) {
    for (size_t w = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; w < words;
         w += static_cast<size_t>(gridDim.x) * blockDim.x)
        dst[w] = pack_word(src, w, e2m1, one_line, K);
}
__global__ void pack_scales_kernel(Fmt F, const uint8_t* src, uint8_t* dst, size_t entries, int K) {
    for (size_t d = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; d < entries;
         d += static_cast<size_t>(gridDim.x) * blockDim.x) {
        const size_t s = scale_source(F, d, K);
        if (F == Fmt::INT4) reinterpret_cast<uint32_t*>(dst)[d] = reinterpret_cast<const uint32_t*>(src)[s];
        else dst[d] = src[s];
    }
}

// host: row-major -> layout, and back. A word holds inputs k0 .. k0 + 3 (word_k0, even) of rows g and g + 8, i.e. 2
// row-major bytes of each: tables from those 16 bits (row g, row g + 8) to the word's bits, and from each byte of the
// word back to the 16 bits of both rows (low half: row g).
struct HostTables {
    std::vector<uint32_t> to_word[2];   // [rho][16 bits of row g + 8 rho]
    std::vector<uint32_t> from_byte[4]; // [byte of the word][its value]: row g's bits | row g + 8's bits << 16
    explicit HostTables(bool e2m1) {
        for (int rho = 0; rho < 2; rho++) {
            to_word[rho].assign(65536, 0);
            for (uint32_t u = 0; u < 65536; u++)
                for (int c = 0; c < 4; c++)
                    for (int b = 0; b < 4; b++)
                        to_word[rho][u] |= ((u >> (4 * c + b)) & 1u) << element_bit(e2m1, rho + 2 * c, b);
        }
        for (int by = 0; by < 4; by++) {
            from_byte[by].assign(256, 0);
            for (uint32_t u = 0; u < 256; u++)
                for (int e = 0; e < 8; e++)
                    for (int b = 0; b < 4; b++) {
                        const int pos = element_bit(e2m1, e, b);
                        if (pos / 8 == by && ((u >> (pos % 8)) & 1u))
                            from_byte[by][u] |= 1u << (16 * (e & 1) + 4 * (e >> 1) + b);
                    }
        }
    }
};
// calls f(word index, byte offset of row g's 2 bytes, the same of row g + 8) for every word, in layout order
template <typename F>
static void for_each_word(int N, int K, bool one_line, F&& f) {
    const int G = K / GROUP_K;
    const size_t row_bytes = static_cast<size_t>(K) / 2;
    size_t w = 0;
    for (int t = 0; t < N / TILE_ROWS; t++)
        for (int kg = 0; kg < G; kg++)
            for (int h = 0; h < 2; h++)
                for (int lane = 0; lane < 32; lane++)
                    for (int j = 0; j < 4; j++, w++) {
                        const int g = lane >> 2, k0 = word_k0(kg, h, lane & 3, j, one_line);
                        const size_t o = static_cast<size_t>(TILE_ROWS * t + g) * row_bytes + k0 / 2;
                        f(w, o, o + 8 * row_bytes);
                    }
}
static void pack_weights_host(const uint8_t* src, uint32_t* dst, int N, int K, bool e2m1, bool one_line) {
    const HostTables tab(e2m1);
    for_each_word(N, K, one_line, [&](size_t w, size_t o0, size_t o1) {
        dst[w] = tab.to_word[0][src[o0] | src[o0 + 1] << 8] | tab.to_word[1][src[o1] | src[o1 + 1] << 8];
    });
}
static void unpack_weights_host(const uint32_t* src, uint8_t* dst, int N, int K, bool e2m1, bool one_line) {
    const HostTables tab(e2m1);
    for_each_word(N, K, one_line, [&](size_t w, size_t o0, size_t o1) {
        const uint32_t v = src[w];
        const uint32_t r = tab.from_byte[0][v & 0xFF] | tab.from_byte[1][(v >> 8) & 0xFF]
                         | tab.from_byte[2][(v >> 16) & 0xFF] | tab.from_byte[3][v >> 24];
        dst[o0] = static_cast<uint8_t>(r); dst[o0 + 1] = static_cast<uint8_t>(r >> 8);
        dst[o1] = static_cast<uint8_t>(r >> 16); dst[o1 + 1] = static_cast<uint8_t>(r >> 24);
    });
}
static void pack_scales_host(Fmt F, const uint8_t* src, uint8_t* dst, size_t entries, int K, bool back) {
    const size_t bytes = F == Fmt::INT4 ? 4 : 1;
    for (size_t d = 0; d < entries; d++) {
        const size_t s = scale_source(F, d, K);
        if (back) std::memcpy(const_cast<uint8_t*>(src) + s * bytes, dst + d * bytes, bytes);
        else std::memcpy(dst + d * bytes, src + s * bytes, bytes);
    }
}

} // namespace w4

namespace sk {
using namespace roofline_gemv;
using roofline_tiled::GROUP_BYTES;
using roofline_tiled::GROUP_K;
using roofline_tiled::NB_OF;
using roofline_tiled::TILE_ROWS;

// decode.cu's cp_async16 with zeros for rows past M (src-size 0); commits are decode.cu's cp_async_commit
__device__ __forceinline__ void cp_async16_zfill(void* shared, const void* global, bool valid) {
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(shared));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(s), "l"(global), "r"(valid ? 16 : 0) : "memory");
}
__device__ __forceinline__ void cp_async_wait_upto(int n) { // at most n committed groups still in flight, n <= 7
    switch (n) {
    case 0: asm volatile("cp.async.wait_group 0;" ::: "memory"); break;
    case 1: asm volatile("cp.async.wait_group 1;" ::: "memory"); break;
    case 2: asm volatile("cp.async.wait_group 2;" ::: "memory"); break;
    case 3: asm volatile("cp.async.wait_group 3;" ::: "memory"); break;
    case 4: asm volatile("cp.async.wait_group 4;" ::: "memory"); break;
    case 5: asm volatile("cp.async.wait_group 5;" ::: "memory"); break;
    case 6: asm volatile("cp.async.wait_group 6;" ::: "memory"); break;
    default: asm volatile("cp.async.wait_group 7;" ::: "memory"); break;
    }
}

constexpr int WARPS = 8, CHUNK = 4; // 8 warps (one tile each, 128 rows a block); x staged 4 groups at a time

// groups of K each rank of a cluster of KS takes
__host__ __device__ inline int groups_per_rank(int K, int KS) { return (K / GROUP_K + KS - 1) / KS; }
// dynamic shared memory: the staged x of one rank's groups, NB fragments x 4 loads x 32 lanes x 16 bytes a group
__host__ __device__ inline size_t x_bytes(int MAXM, int K, int KS) {
    return static_cast<size_t>(groups_per_rank(K, KS)) * (MAXM <= 8 ? 1 : MAXM <= 16 ? 2 : 4) * 4 * 32 * 16;
}

template <Fmt F, int MAXM, int KS, int U>
__device__ __forceinline__ void gemv_sk(const void* __restrict__ Wv, const void* __restrict__ Sv,
                                        const __half* __restrict__ x, __half* __restrict__ y, int M, int N, int K,
                                        float global) {
    constexpr int NB = NB_OF<MAXM>;
    constexpr int SB = F == Fmt::INT4 ? 64 : F == Fmt::NVFP4 ? 128 : 64;
    extern __shared__ uint4 xs[]; // [group][f][i][lane]
    __shared__ float red[WARPS * NB * 4 * 32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2;
    const int rank = KS == 1 ? 0 : static_cast<int>(__clusterRelativeBlockRank());
    const int G = K / GROUP_K, tiles = N / TILE_ROWS, per = groups_per_rank(K, KS);
    const int g0 = min(G, rank * per), ng = min(G, g0 + per) - g0;
    const int tile = (static_cast<int>(blockIdx.x) / KS) * WARPS + warp;
    const bool live = tile < tiles;
    const int t = live ? tile : 0;
    const int m_count = MAXM == 1 ? 1 : M;
    const int nf = NB == 1 ? 1 : min(NB, (M + 7) >> 3);
    const int lane_scale = F == Fmt::INT4 ? 8 * g : F == Fmt::NVFP4 ? 4 * lane : 2 * lane;
    const uint8_t* pw = static_cast<const uint8_t*>(Wv) + (static_cast<size_t>(t) * G + g0) * GROUP_BYTES + 16 * lane;
    const uint8_t* ps = static_cast<const uint8_t*>(Sv) + (static_cast<size_t>(t) * G + g0) * SB + lane_scale;
    uint32_t rmax[1][2] = {{0, 0}};
    if constexpr (F == Fmt::MXFP4) {
        const uint8_t* row_emax = static_cast<const uint8_t*>(Sv) + static_cast<size_t>(N) * (K / 32);
        rmax[0][0] = __ldg(row_emax + TILE_ROWS * t + g);
        rmax[0][1] = __ldg(row_emax + TILE_ROWS * t + g + 8);
    }
    roofline_launch::wait_for_previous_kernel();
    // stage x: chunk c = groups 4c .. 4c + 3 of the range, one commit group each
    const int chunks = (ng + CHUNK - 1) / CHUNK;
    for (int c = 0; c < chunks; c++) {
        const int e1 = min(ng, CHUNK * (c + 1)) * NB * 128;
        for (int e = CHUNK * c * NB * 128 + static_cast<int>(threadIdx.x); e < e1; e += WARPS * 32) {
            const int l = e & 31, i = (e >> 5) & 3, f = (e >> 7) % NB, s = e / (128 * NB);
            const int row = 8 * f + (l >> 2);
            const bool valid = row < m_count;
            const __half* src = x + static_cast<size_t>(valid ? row : 0) * K + GROUP_K * (g0 + s)
                               + (roofline_tiled::ONE_LINE<F> ? 16 * (l & 3) + 64 * (i >> 1) + 8 * (i & 1)
                                                              : 32 * (l & 3) + 8 * i);
            cp_async16_zfill(&xs[e], src, valid);
        }
        cp_async_commit();
    }
    float acc[1][NB][4];
    #pragma unroll
    for (int f = 0; f < NB; f++)
        #pragma unroll
        for (int c = 0; c < 4; c++) acc[0][f][c] = 0.f;
    auto compute = [&](const uint4 (&w)[1][2], const uint2 (&s)[1], int grp) {
        uint4 xv[NB][4];
        #pragma unroll
        for (int f = 0; f < NB; f++)
            #pragma unroll
            for (int i = 0; i < 4; i++) xv[f][i] = xs[((grp * NB + f) * 4 + i) * 32 + lane];
        roofline_tiled::step<F, MAXM, 1>(w, s, xv, nf, acc, rmax);
    };
    // batches of U groups (a chunk holds whole batches: U divides CHUNK); the batch's weights are asked for before
    // the wait for its chunk of x
    static_assert(CHUNK % U == 0, "U divides CHUNK");
    int waited = -1;
    for (int s0 = 0; s0 < ng; s0 += U) {
        uint4 w[U][1][2];
        uint2 sc[U][1];
        #pragma unroll
        for (int u = 0; u < U; u++)
            if (live && s0 + u < ng) {
                w[u][0][0] = load_stream<0>(pw + GROUP_BYTES * (s0 + u));
                w[u][0][1] = load_stream<0>(pw + GROUP_BYTES * (s0 + u) + 512);
                sc[u][0] = roofline_tiled::load_scale<F>(ps + SB * (s0 + u));
            }
        const int c = s0 / CHUNK;
        if (c != waited) {
            cp_async_wait_upto(min(7, chunks - 1 - c));
            __syncthreads();
            waited = c;
        }
        if (live) {
            #pragma unroll
            for (int u = 0; u < U; u++)
                if (s0 + u < ng) compute(w[u], sc[u], s0 + u);
        }
    }
    #pragma unroll
    for (int f = 0; f < NB; f++)
        #pragma unroll
        for (int c = 0; c < 4; c++) red[((warp * NB + f) * 4 + c) * 32 + lane] = acc[0][f][c];
    if constexpr (KS > 1) {
        __cluster_barrier_arrive();
        __cluster_barrier_wait();
    } else {
        __syncthreads();
    }
    const float out_scale = F == Fmt::NVFP4 ? global * 256.f : 1.f;
    constexpr int E = WARPS * NB * 4 * 32, SHARE = E / KS;
    for (int e = rank * SHARE + static_cast<int>(threadIdx.x); e < (rank + 1) * SHARE; e += WARPS * 32) {
        const int l = e & 31, c = (e >> 5) & 3, f = (e >> 7) % NB, w = e / (128 * NB);
        const int tl = (static_cast<int>(blockIdx.x) / KS) * WARPS + w;
        const int row = tl * TILE_ROWS + (l >> 2) + 8 * (c >> 1);
        const int m = 8 * f + 2 * (l & 3) + (c & 1);
        if (tl < tiles && m < m_count) {
            float v = 0.f;
            #pragma unroll
            for (int r = 0; r < KS; r++)
                v += KS == 1 ? red[e] : *static_cast<const float*>(__cluster_map_shared_rank(&red[e], r));
            const float sc = F == Fmt::MXFP4
                    ? e8m0_to_float(__ldg(static_cast<const uint8_t*>(Sv) + static_cast<size_t>(N) * (K / 32) + row)) * 0.5f
                    : out_scale;
            y[static_cast<size_t>(m) * N + row] = __float2half_rn(v * sc);
        }
    }
    if constexpr (KS > 1) { // no block leaves while another still reads its partial sums
        __cluster_barrier_arrive();
        __cluster_barrier_wait();
    }
}

} // namespace sk

#define SK_KERNEL(FMT, fmt, MAXM, KS, U)                                                                              \
    extern "C" __global__ void __cluster_dims__(KS, 1, 1) __launch_bounds__(256)                                     \
    sk_##fmt##_m##MAXM##_ks##KS##_u##U(const void* W, const void* s, const __half* x, __half* y, int M, int N, int K, \
                                       float g, GemvEpilogue) {                                                      \
        sk::gemv_sk<Fmt::FMT, MAXM, KS, U>(W, s, x, y, M, N, K, g);                                                  \
    }
#define SK_FORMAT(FMT, fmt) SK_KERNEL(FMT, fmt, 16, 8, 2) // call 19 also timed KS 2, 4 and U 4, all slower
SK_FORMAT(INT4, int4)
SK_FORMAT(NVFP4, nvfp4)
SK_FORMAT(MXFP4, mxfp4)

#define PIPE_KERNEL(FMT, fmt, MAXM, T, D, BOUNDS) \
    ROOFLINE_GEMV_TILED_NAMED(pipe_##fmt##_m##MAXM##_t##T##_d##D, FMT, MAXM, T, 1, D, BOUNDS)
#define PIPE_FORMAT(FMT, fmt)                              \
    PIPE_KERNEL(FMT, fmt, 1, 1, 3, __launch_bounds__(256)) \
    PIPE_KERNEL(FMT, fmt, 1, 1, 4, __launch_bounds__(256)) \
    PIPE_KERNEL(FMT, fmt, 8, 1, 3, __launch_bounds__(256)) \
    PIPE_KERNEL(FMT, fmt, 8, 1, 4, __launch_bounds__(256)) \
    PIPE_KERNEL(FMT, fmt, 8, 1, 6, __launch_bounds__(256)) \
    PIPE_KERNEL(FMT, fmt, 16, 2, 2, __launch_bounds__(256)) \
    PIPE_KERNEL(FMT, fmt, 16, 2, 3, __launch_bounds__(256)) \
    PIPE_KERNEL(FMT, fmt, 16, 1, 3, __launch_bounds__(256)) \
    PIPE_KERNEL(FMT, fmt, 16, 1, 4, __launch_bounds__(256))
PIPE_FORMAT(INT4, int4)
PIPE_KERNEL(NVFP4, nvfp4_b4, 1, 1, 3, __launch_bounds__(256, 4)) // one row, 4 blocks an SM, as INT4's shipped window
PIPE_KERNEL(MXFP4, mxfp4_b4, 1, 1, 3, __launch_bounds__(256, 4))
PIPE_KERNEL(INT4, int4_b4, 8, 1, 3, __launch_bounds__(256, 4)) // 2-8 rows, 4 blocks an SM: one wave up to 4 x SMs
PIPE_KERNEL(INT4, int4, 1, 2, 3, __launch_bounds__(256))        // one row, two tiles a block: x's loads serve both
PIPE_KERNEL(INT4, int4, 1, 1, 2, __launch_bounds__(256))        // one row, a window of 2
PIPE_KERNEL(MXFP4, mxfp4, 1, 2, 3, __launch_bounds__(256))
PIPE_KERNEL(INT4, int4_b5, 1, 1, 2, __launch_bounds__(256, 5))   // one row, a window of 2, 5 blocks an SM
PIPE_KERNEL(MXFP4, mxfp4, 1, 1, 2, __launch_bounds__(256))
PIPE_KERNEL(MXFP4, mxfp4_b5, 1, 1, 2, __launch_bounds__(256, 5))
PIPE_KERNEL(NVFP4, nvfp4, 1, 1, 2, __launch_bounds__(256))
PIPE_KERNEL(NVFP4, nvfp4_b5, 1, 1, 2, __launch_bounds__(256, 5))
ROOFLINE_GEMV_TILED_NAMED(unroll_int4_m1_u2, INT4, 1, 1, 2, 0, __launch_bounds__(256)) // one row, 2 steps a trip
PIPE_FORMAT(NVFP4, nvfp4)
PIPE_FORMAT(MXFP4, mxfp4)
// ks2: the 16-row kernels with each block's K split over a cluster of 2 (gemv_tiled's KS); NVFP4's and MXFP4's
// are shipped (gemv_<fmt>_f16_m16_tiled_k2)
ROOFLINE_GEMV_TILED_NAMED_TCD(ks2_int4_m16, __half, INT4, 16, 2, 1, 0, 2, true, false, 2,
                              __cluster_dims__(2, 1, 1) __launch_bounds__(256))
#define ks2_nvfp4_m16 gemv_nvfp4_f16_m16_tiled_k2
#define ks2_mxfp4_m16 gemv_mxfp4_f16_m16_tiled_k2
// ks2 at one row: the one-row small-grid kernels' blocks with K split over a cluster of 2; NVFP4's capped one and
// MXFP4's diagonal one are shipped (gemv_<fmt>_f16_m1_tiled_k2)
#define KS2_M1(name, FMT, UNR, ROLL, BOUNDS)                                                \
    ROOFLINE_GEMV_TILED_NAMED_TCD(name, __half, FMT, 1, 1, UNR, ROLL, 1, false, false, 2, \
                                  __cluster_dims__(2, 1, 1) BOUNDS)
KS2_M1(ks2_int4_m1_b3, INT4, 4, 0, __launch_bounds__(256, 3))
KS2_M1(ks2_int4_m1_r2, INT4, 1, 2, __launch_bounds__(256))
#define ks2_nvfp4_m1_b4 gemv_nvfp4_f16_m1_tiled_k2
KS2_M1(ks2_nvfp4_m1, NVFP4, 2, 0, __launch_bounds__(256, 5))
#define ks2_mxfp4_m1_dg gemv_mxfp4_f16_m1_tiled_k2
KS2_M1(ks2_mxfp4_m1_r2, MXFP4, 1, 2, __launch_bounds__(256))

// dg: MXFP4's one-row step with x on the B fragment's diagonal (gemv_tiled.cu's step_diag) in other blocks than the
// shipped _dg's (4 steps a trip, capped at 4 blocks an SM)
#define DG_KERNEL(name, UNR, ROLL, BOUNDS) \
    ROOFLINE_GEMV_TILED_NAMED_TCD(name, __half, MXFP4, 1, 1, UNR, ROLL, 1, false, true, 1, BOUNDS)
DG_KERNEL(dg_mxfp4_u2_b5, 2, 0, __launch_bounds__(256, 5))
DG_KERNEL(dg_mxfp4_r2, 1, 2, __launch_bounds__(256))

// ---- the harness ----

using Kernel = void (*)(const void*, const void*, const __half*, __half*, int, int, int, float, GemvEpilogue);

struct Variant {
    const char* name;
    Kernel kernel;
    int maxm;
    int ks; // 0: a shipped tiled kernel (rows per block in rows), else a split-K kernel over a cluster of ks
    int rows;
    int warps = 8; // a block's warps
    int split = 1; // blocks of a cluster splitting each block's K (the grid is split x the blocks of rows)
};

struct Format {
    const char* name;
    Fmt fmt;
    int scale_k;     // weights per scale entry
    int entry_bytes; // bytes per scale entry
    Kernel reference[3]; // row-major tensor-core kernels at 1, 8, 16 rows (16 rows a block)
    std::vector<Variant> variants;
    Kernel bf16[2][2];   // BF16 activations at 1 and 16 rows: the row-major _w8 kernel, the tiled one (timed only)
};

#define SK_VARIANTS(fmt)                                                                                    \
    {"tiled m1", gemv_##fmt##_f16_m1_tiled, 1, 0, 16}, {"pipe t1 d3", pipe_##fmt##_m1_t1_d3, 1, 0, 16},   \
    {"pipe t1 d4", pipe_##fmt##_m1_t1_d4, 1, 0, 16},                                                        \
    {"tiled m8", gemv_##fmt##_f16_m8_tiled, 8, 0, 16}, {"pipe t1 d3", pipe_##fmt##_m8_t1_d3, 8, 0, 16},   \
    {"pipe t1 d4", pipe_##fmt##_m8_t1_d4, 8, 0, 16}, {"pipe t1 d6", pipe_##fmt##_m8_t1_d6, 8, 0, 16},       \
    {"tiled m16", gemv_##fmt##_f16_m16_tiled, 16, 0, 32}, {"ks2 m16", ks2_##fmt##_m16, 16, 0, 32, 8, 2},     \
    {"pipe t2 d2", pipe_##fmt##_m16_t2_d2, 16, 0, 32}, {"pipe t2 d3", pipe_##fmt##_m16_t2_d3, 16, 0, 32},  \
    {"pipe t1 d3", pipe_##fmt##_m16_t1_d3, 16, 0, 16}, {"pipe t1 d4", pipe_##fmt##_m16_t1_d4, 16, 0, 16},  \
    {"sk ks8 u2", sk_##fmt##_m16_ks8_u2, 16, 8, 128}

// a BF16-activation kernel under the harness's one kernel type (its x and y are bf16: timing only, no check here)
#define AS_KERNEL(k) reinterpret_cast<Kernel>(k)

static std::vector<Format> formats() {
    return {
        {"INT4", Fmt::INT4, 128, 4, {gemv_int4_f16_m1_w8, gemv_int4_f16_m8_w8, gemv_int4_f16_m16_w8}, {SK_VARIANTS(int4), {"shipped r2", gemv_int4_f16_m1_tiled_r2, 1, 0, 16}, {"shipped b3", gemv_int4_f16_m1_tiled_b3, 1, 0, 16}, {"shipped w2", gemv_int4_f16_m1_tiled_w2, 1, 0, 16, 2}, {"shipped m8 r3", gemv_int4_f16_m8_tiled_r3, 8, 0, 16}, {"pipe t1 d3 b4", pipe_int4_b4_m8_t1_d3, 8, 0, 16}, {"pipe t2 d3", pipe_int4_m1_t2_d3, 1, 0, 32}, {"pipe t1 d2", pipe_int4_m1_t1_d2, 1, 0, 16}, {"pipe t1 d2 b5", pipe_int4_b5_m1_t1_d2, 1, 0, 16}, {"unroll 2", unroll_int4_m1_u2, 1, 0, 16}, {"ks2 m1 b3", ks2_int4_m1_b3, 1, 0, 16, 8, 2}, {"ks2 m1 r2", ks2_int4_m1_r2, 1, 0, 16, 8, 2}}, {{AS_KERNEL(gemv_int4_bf16_m1_w8), AS_KERNEL(gemv_int4_bf16_m1_tiled)}, {AS_KERNEL(gemv_int4_bf16_m16_w8), AS_KERNEL(gemv_int4_bf16_m16_tiled)}}},
        {"NVFP4", Fmt::NVFP4, 16, 1, {gemv_nvfp4_f16_m1_w8, gemv_nvfp4_f16_m8_w8, gemv_nvfp4_f16_m16_w8}, {SK_VARIANTS(nvfp4), {"shipped b4", gemv_nvfp4_f16_m1_tiled_b4, 1, 0, 16}, {"pipe t1 d3 b4", pipe_nvfp4_b4_m1_t1_d3, 1, 0, 16}, {"pipe t1 d2", pipe_nvfp4_m1_t1_d2, 1, 0, 16}, {"pipe t1 d2 b5", pipe_nvfp4_b5_m1_t1_d2, 1, 0, 16}, {"ks2 m1 b4", ks2_nvfp4_m1_b4, 1, 0, 16, 8, 2}, {"ks2 m1", ks2_nvfp4_m1, 1, 0, 16, 8, 2}}, {{AS_KERNEL(gemv_nvfp4_bf16_m1_w8), AS_KERNEL(gemv_nvfp4_bf16_m1_tiled)}, {AS_KERNEL(gemv_nvfp4_bf16_m16_w8), AS_KERNEL(gemv_nvfp4_bf16_m16_tiled)}}},
        {"MXFP4", Fmt::MXFP4, 32, 1, {gemv_mxfp4_f16_m1_w8, gemv_mxfp4_f16_m8_w8, gemv_mxfp4_f16_m16_w8}, {SK_VARIANTS(mxfp4), {"shipped m8 r3", gemv_mxfp4_f16_m8_tiled_r3, 8, 0, 16}, {"pipe t1 d3 b4", pipe_mxfp4_b4_m1_t1_d3, 1, 0, 16}, {"shipped r2", gemv_mxfp4_f16_m1_tiled_r2, 1, 0, 16}, {"shipped m8 t2", gemv_mxfp4_f16_m8_tiled_t2, 8, 0, 32}, {"pipe t2 d3", pipe_mxfp4_m1_t2_d3, 1, 0, 32}, {"pipe t1 d2", pipe_mxfp4_m1_t1_d2, 1, 0, 16}, {"pipe t1 d2 b5", pipe_mxfp4_b5_m1_t1_d2, 1, 0, 16}, {"shipped dg", gemv_mxfp4_f16_m1_tiled_dg, 1, 0, 16}, {"dg u2 b5", dg_mxfp4_u2_b5, 1, 0, 16}, {"dg r2", dg_mxfp4_r2, 1, 0, 16}, {"ks2 m1 dg", ks2_mxfp4_m1_dg, 1, 0, 16, 8, 2}, {"ks2 m1 r2", ks2_mxfp4_m1_r2, 1, 0, 16, 8, 2}}, {{AS_KERNEL(gemv_mxfp4_bf16_m1_w8), AS_KERNEL(gemv_mxfp4_bf16_m1_tiled)}, {AS_KERNEL(gemv_mxfp4_bf16_m16_w8), AS_KERNEL(gemv_mxfp4_bf16_m16_tiled)}}},
    };
}
__device__ uint32_t mix_d(uint64_t i, uint32_t seed) {
    uint64_t h = i * 0x9E3779B97F4A7C15ull ^ (static_cast<uint64_t>(seed) << 32 | seed);
    h ^= h >> 31; h *= 0xBF58476D1CE4E5B9ull; h ^= h >> 29; h *= 0x94D049BB133111EBull; h ^= h >> 32;
    return static_cast<uint32_t>(h);
}
// every byte value (weights), a byte range [lo, hi) (e4m3 / e8m0 scales), floats in [0.005, 0.015) (INT4 scales),
// halves in [-1, 1) (activations)
__global__ void fill_bytes(uint8_t* p, size_t n, uint32_t seed, int lo, int hi) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x)
        p[i] = static_cast<uint8_t>(lo + mix_d(i, seed) % static_cast<uint32_t>(hi - lo));
}
__global__ void fill_float(float* p, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x)
        p[i] = 0.005f + 0.01f * (mix_d(i, seed) >> 8) / 16777216.f;
}
__global__ void fill_half(__half* p, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x)
        p[i] = __float2half(((mix_d(i, seed) >> 8) / 16777216.f) * 2.f - 1.f);
}
__global__ void row_max_codes(uint8_t* s, int N, int nb) { // each row's largest code, after the N x nb codes
    for (int n = blockIdx.x * blockDim.x + threadIdx.x; n < N; n += gridDim.x * blockDim.x) {
        uint8_t m = 0;
        for (int i = 0; i < nb; i++) m = max(m, s[static_cast<size_t>(n) * nb + i]);
        s[static_cast<size_t>(N) * nb + n] = m;
    }
}

struct Set {
    void* w = nullptr;  // row-major weights (the shipped kernel's)
    void* s = nullptr;  // row-major scales (+ MXFP4's N row maxima)
    void* lw = nullptr; // the layout's weights
    void* ls = nullptr; // the layout's scales (+ MXFP4's N row maxima, unchanged)
    __half* y = nullptr;
};




static size_t smem_of(const Variant& v, int K) { return v.ks ? sk::x_bytes(v.maxm, K, v.ks) : 0; }

static void launch_variant(const Variant& v, const Set& set, const __half* x, int M, int N, int K, float global,
                           cudaStream_t st) {
    const int grid = v.ks ? (N / w4::TILE_ROWS + sk::WARPS - 1) / sk::WARPS * v.ks : (N + v.rows - 1) / v.rows * v.split;
    v.kernel<<<grid, 32 * v.warps, smem_of(v, K), st>>>(set.lw, set.ls, x, set.y, M, N, K, global, GemvEpilogue{});
}
static void launch_reference(Kernel k, const Set& set, const __half* x, int M, int N, int K, float global, cudaStream_t st) {
    k<<<(N + 15) / 16, 256, 0, st>>>(set.w, set.s, x, set.y, M, N, K, global, GemvEpilogue{});
}

// microseconds per launch: a graph of one launch per set, median of 30 replays after 3
template <typename Launch>
static float time_graph(cudaStream_t st, const std::vector<Set>& sets, Launch&& one) {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    for (const Set& set : sets) one(set);
    CK(cudaStreamEndCapture(st, &graph));
    CK(cudaGraphInstantiate(&exec, graph, 0));
    const float ms = median_event_ms(st, 3, 30, [&] { CK(cudaGraphLaunch(exec, st)); });
    CK(cudaGraphExecDestroy(exec));
    CK(cudaGraphDestroy(graph));
    return ms * 1000.f / sets.size();
}


// the host's layout of set 0 against the GPU's, and unpacked against the row-major bytes
static bool round_trip(const Format& f, const Set& set, int N, int K, size_t wbytes, size_t sentries) {
    const bool e2m1 = f.fmt != Fmt::INT4;
    const size_t sbytes = sentries * f.entry_bytes;
    std::vector<uint8_t> w(wbytes), s(sbytes), gw(wbytes), gs(sbytes), back(wbytes), sback(sbytes);
    std::vector<uint32_t> hw(wbytes / 4);
    std::vector<uint8_t> hs(sbytes);
    CK(cudaMemcpy(w.data(), set.w, wbytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(s.data(), set.s, sbytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gw.data(), set.lw, wbytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gs.data(), set.ls, sbytes, cudaMemcpyDeviceToHost));
    const bool one_line = w4::one_line(f.fmt);
    w4::pack_weights_host(w.data(), hw.data(), N, K, e2m1, one_line);
    w4::pack_scales_host(f.fmt, s.data(), hs.data(), sentries, K, false);
    const bool same = std::memcmp(hw.data(), gw.data(), wbytes) == 0 && std::memcmp(hs.data(), gs.data(), sbytes) == 0;
    w4::unpack_weights_host(hw.data(), back.data(), N, K, e2m1, one_line);
    w4::pack_scales_host(f.fmt, sback.data(), hs.data(), sentries, K, true);
    const bool wback = std::memcmp(back.data(), w.data(), wbytes) == 0, sback_ok = std::memcmp(sback.data(), s.data(), sbytes) == 0;
    std::printf("%-6s %dx%d layout: host == GPU %s, unpacked == row-major weights %s, scales %s\n", f.name, N, K,
                same ? "yes" : "NO", wback ? "yes" : "NO", sback_ok ? "yes" : "NO");
    return same && wback && sback_ok;
}

int main(int argc, char** argv) {
    const std::string only_format = argc > 1 ? argv[1] : "";
    const std::string only_shape = argc > 2 ? argv[2] : "";
    const int only_m = argc > 3 ? std::atoi(argv[3]) : 0;
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    if (prop.major < 9) {
        std::fprintf(stderr, "%s is sm_%d%d; these kernels are built for sm_90a\n", prop.name, prop.major, prop.minor);
        return 2;
    }
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    const double copy = copy_rate(st, size_t(256) << 20, 20);
    std::printf("device %s, %d SMs, L2 %d MiB; device-to-device copy (read + write) %.0f GB/s\n", prop.name,
                prop.multiProcessorCount, prop.l2CacheSize >> 20, copy / 1e9);
    std::printf("format shape         M  variant        smem KiB      us     GB/s  %%copy  vs tiled  max diff / max |reference|\n");
    bool ok = true;
    std::vector<std::pair<int, int>> shapes = {{8192, 8192}, {28672, 8192}, {8192, 28672}, {1024, 4096}, {2096, 8576}};
    int n_arg = 0, k_arg = 0;
    if (std::sscanf(only_shape.c_str(), "%dx%d", &n_arg, &k_arg) == 2 && n_arg > 0 && k_arg > 0)
        shapes = {{n_arg, k_arg}}; // any N x K named on the command line
    const float global = 1.f / 2688;
    for (const Format& f : formats()) {
        if (!only_format.empty() && only_format.find(f.name) == std::string::npos) continue;
        for (const Variant& v : f.variants)
            if (v.ks) CK(cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
        for (auto& sh : shapes) {
            const int N = sh.first, K = sh.second;
            char shape[32];
            std::snprintf(shape, sizeof shape, "%dx%d", N, K);
            if (!only_shape.empty() && only_shape != shape) continue;
            if (N % w4::TILE_ROWS != 0 || K % w4::GROUP_K != 0) {
                std::fprintf(stderr, "%s: the layout needs N %% 16 == 0 and K %% 128 == 0\n", shape);
                return 2;
            }
            const size_t wbytes = static_cast<size_t>(N) * K / 2;
            const size_t sentries = static_cast<size_t>(N) * (K / f.scale_k);
            const size_t sbytes = sentries * f.entry_bytes;
            const size_t extra = f.fmt == Fmt::MXFP4 ? N : 0; // MXFP4: each row's largest code
            const size_t total = wbytes + sbytes;
            const int nsets = static_cast<int>(std::max<size_t>(2, (4 * static_cast<size_t>(prop.l2CacheSize) + total - 1) / total));
            std::vector<Set> sets(nsets);
            for (int i = 0; i < nsets; i++) {
                Set& s = sets[i];
                CK(cudaMalloc(&s.w, wbytes));
                CK(cudaMalloc(&s.lw, wbytes));
                CK(cudaMalloc(&s.s, sbytes + extra));
                CK(cudaMalloc(&s.ls, sbytes + extra));
                CK(cudaMalloc(&s.y, 16 * 2 * static_cast<size_t>(N)));
                fill_bytes<<<1024, 256, 0, st>>>(static_cast<uint8_t*>(s.w), wbytes, 7u + i, 0, 256);
                if (f.fmt == Fmt::INT4) fill_float<<<1024, 256, 0, st>>>(static_cast<float*>(s.s), sentries, 3u + i);
                else if (f.fmt == Fmt::NVFP4) fill_bytes<<<1024, 256, 0, st>>>(static_cast<uint8_t*>(s.s), sbytes, 3u + i, 0x18, 0x50);
                else {
                    fill_bytes<<<1024, 256, 0, st>>>(static_cast<uint8_t*>(s.s), sbytes, 3u + i, 119, 129);
                    row_max_codes<<<(N + 255) / 256, 256, 0, st>>>(static_cast<uint8_t*>(s.s), N, K / 32);
                }
                CK(cudaGetLastError());
                w4::pack_weights_kernel<<<2048, 256, 0, st>>>(static_cast<const uint8_t*>(s.w), static_cast<uint32_t*>(s.lw),
                                                              wbytes / 4, f.fmt != Fmt::INT4, w4::one_line(f.fmt), K);
                w4::pack_scales_kernel<<<1024, 256, 0, st>>>(f.fmt, static_cast<const uint8_t*>(s.s),
                                                             static_cast<uint8_t*>(s.ls), sentries, K);
                CK(cudaGetLastError());
                if (extra) CK(cudaMemcpyAsync(static_cast<uint8_t*>(s.ls) + sbytes, static_cast<uint8_t*>(s.s) + sbytes,
                                              extra, cudaMemcpyDeviceToDevice, st));
            }
            __half* x;
            CK(cudaMalloc(&x, 16 * 2 * static_cast<size_t>(K)));
            fill_half<<<256, 256, 0, st>>>(x, 16 * static_cast<size_t>(K), 11u);
            CK(cudaGetLastError());
            CK(cudaStreamSynchronize(st));
            if (N <= 8192 && K <= 8192) ok &= round_trip(f, sets[0], N, K, wbytes, sentries);

            std::vector<int> Ms = {1, 8, 12, 16};
            if (only_m >= 1 && only_m <= 16) Ms = {only_m}; // any row count up to 16 named on the command line
            for (int M : Ms) {
                const int maxm = M == 1 ? 1 : M <= 8 ? 8 : 16;
                const size_t outs = static_cast<size_t>(M) * N;
                std::vector<__half> ref(outs), got(outs);
                auto run_once = [&](auto&& launch_fn, std::vector<__half>& out) {
                    CK(cudaMemsetAsync(sets[0].y, 0xFF, 2 * outs, st)); // NaN: an unwritten output shows
                    launch_fn(sets[0]);
                    CK(cudaGetLastError());
                    CK(cudaStreamSynchronize(st));
                    CK(cudaMemcpy(out.data(), sets[0].y, 2 * outs, cudaMemcpyDeviceToHost));
                };
                const Kernel reference = f.reference[maxm == 1 ? 0 : maxm == 8 ? 1 : 2];
                run_once([&](const Set& s) { launch_reference(reference, s, x, M, N, K, global, st); }, ref);
                double refmax = 0;
                for (size_t i = 0; i < outs; i++) refmax = std::max(refmax, std::fabs(static_cast<double>(__half2float(ref[i]))));
                if (!(refmax > 0) || std::isinf(refmax)) {
                    std::printf("%-6s %-12s %2d  reference output's largest magnitude is %g\n", f.name, shape, M, refmax);
                    ok = false;
                    continue;
                }
                float tiled_us = 0;
                for (const Variant& v : f.variants) {
                    if (v.maxm != maxm) continue;
                    const size_t smem = smem_of(v, K);
                    if (smem > 200 * 1024) continue;
                    run_once([&](const Set& s) { launch_variant(v, s, x, M, N, K, global, st); }, got);
                    double diff = 0;
                    for (size_t i = 0; i < outs; i++) {
                        const double d = std::fabs(static_cast<double>(__half2float(got[i])) - __half2float(ref[i]));
                        diff = std::isnan(d) ? INFINITY : std::max(diff, d);
                    }
                    diff /= refmax;
                    ok &= diff <= w4::MAX_REL_DIFF;
                    const float us = time_graph(st, sets, [&](const Set& s) { launch_variant(v, s, x, M, N, K, global, st); });
                    if (std::strncmp(v.name, "tiled", 5) == 0) tiled_us = us; // the shipped kernel, listed first
                    const double gbs = total / (us * 1e-6) / 1e9;
                    std::printf("%-6s %-12s %2d  %-14s %6.1f %8.2f %8.0f %5.1f%% %8.3fx  %.2e%s\n", f.name, shape, M, v.name,
                                smem / 1024.0, us, gbs, 100 * gbs * 1e9 / copy, tiled_us / us, diff,
                                diff <= w4::MAX_REL_DIFF ? "" : "  FAIL");
                    std::fflush(stdout);
                }
            }
            // BF16 activations, timed only (GemvKernelsIT checks their outputs): row-major _w8 against tiled
            if (only_m == 0 || only_m == 1 || only_m == 16)
                for (int mi = 0; mi < 2; mi++) {
                    const int M = mi == 0 ? 1 : 16;
                    if (only_m != 0 && only_m != M) continue;
                    const Kernel rm = f.bf16[mi][0], tl = f.bf16[mi][1];
                    const float rm_us = time_graph(st, sets, [&](const Set& s) {
                        rm<<<N / 16, 256, 0, st>>>(s.w, s.s, x, s.y, M, N, K, global, GemvEpilogue{});
                    });
                    const float tl_us = time_graph(st, sets, [&](const Set& s) {
                        tl<<<N / (M == 16 ? 32 : 16) + (M == 16 && N % 32 ? 1 : 0), 256, 0, st>>>(s.lw, s.ls, x, s.y, M, N, K, global, GemvEpilogue{});
                    });
                    std::printf("%-6s %-12s %2d  bf16 row-major %8.2f us, bf16 tiled %8.2f us, %.3fx\n", f.name, shape, M,
                                rm_us, tl_us, rm_us / tl_us);
                    std::fflush(stdout);
                }
            for (Set& s : sets) {
                CK(cudaFree(s.w));
                CK(cudaFree(s.lw));
                CK(cudaFree(s.s));
                CK(cudaFree(s.ls));
                CK(cudaFree(s.y));
            }
            CK(cudaFree(x));
        }
    }
    CK(cudaStreamDestroy(st));
    std::printf(ok ? "all checks passed\n" : "CORRECTNESS FAILURE (see NO / FAIL above)\n");
    return ok ? 0 : 1;
}
