// 4-bit weight-only GEMV (INT4 g128, NVFP4, MXFP4 weights x FP16 activations, mma.sync m16n8k16) on weights laid out
// at upload so that each lane's 16-byte load is four A fragments in the mma's own k order: no shuffle of the weights,
// no byte permute of x, one scale load per lane per 128-k step. A development tool: it times these variants L2-cold
// against the shipped tensor-core kernels of gemv.cu (same format, same M) in one process and checks them against
// the shipped outputs; the numbers that count remain GemvBenchmark's.
//
//   nvcc -std=c++17 -O3 -arch=sm_90a -o w4 roofline-cuda/src/bench/gemv/w4_layout.cu   (sm_90a: H100 / H200)
//   ./w4 [format-filter] [NxK-filter]
//
// Per (format, shape N x K): random row-major weights and scales (seeded), rearranged on the GPU, the first copy also
// on the host, where the host's and the GPU's layouts must agree and unpacking must give back the row-major bytes byte
// for byte. Enough copies to cover >= 4x the L2, a CUDA graph of one launch per copy, CUDA events around 30 replays
// after 3 warm-up replays, median per launch. Per (format, shape, M = 1 / 16, variant): microseconds, weight + scale
// bytes per second, % of the measured device-to-device copy rate (read + write), speedup over the shipped kernel and
// the largest difference from the shipped kernel's output relative to that output's largest magnitude. Exits 1 on a
// failed round trip or a difference above MAX_REL_DIFF.
//
// The layout. Tile t = rows 16t .. 16t + 15, group kg = k 128kg .. 128kg + 127 (INT4's scale group, and one step of a
// warp). Each (tile, group) is 1024 contiguous bytes: two 512-byte halves h, each 32 lanes x 16 bytes; word j of lane
// (g = lane / 4, q = lane % 4) in half h is the whole A fragment of mma i = 4h + j. The mma's k slots of lane q are
// given the physical inputs k = 128kg + 32q + 4i + c (c = 0..3 for slots 2q, 2q+1, 2q+8, 2q+9), so lane q's B
// fragments of the step are x[128kg + 32q .. +31], 64 contiguous bytes: b0, b1 of mma i are words 2(i%2), 2(i%2)+1 of
// the (i/2)-th 16-byte load, as they lie in memory. A word's element e (row g + 8(e%2), c = e/2) goes to fragment
// register p = e%2 + 2(c/2), half c%2 (lower k in the lower half):
//   INT4 : nibble p + 4(c%2), so register p is nibbles (p, p + 4), 16 bits apart: one LOP3 (mask, xor 8, under 0x6400)
//          and one HSUB2 / HFMA2 per register (gemv.cu's int4_pair), and one shift (IMAD.HI) per word for p = 2, 3.
//   E2M1 : the code's bits (m, e0, e1, s) at E2M1_BITS[p] of the half (+16 for the upper half), chosen so that a left
//          shift by E2M1_EM_SHIFT[p] puts (m, e0, e1) at bits 9..11 and one by E2M1_SIGN_SHIFT[p] the sign at 15 (value
//          x 2^-14, as gemv.cu decodes): registers 0 and 1 take one LOP3 each, 2 and 3 two. Four translates of
//          {9, 10, 11, 15} cannot tile 16 bits, so no layout decodes all four registers with one LOP3 each.
// Scales, per (tile, group), as one lane reads them: INT4 float2 {s[g], s[g+8]} per g (8 bytes; lanes of one g read the
// same address); NVFP4 4 bytes per lane {s[g][2q], s[g+8][2q], s[g][2q+1], s[g+8][2q+1]} (16-k blocks 2q for mma 0..3
// and 2q + 1 for mma 4..7: lane q's k all lie in these two); MXFP4 2 bytes per lane {s[g][q], s[g+8][q]} (lane q's k lie
// in 32-k block q), then N bytes of each row's largest code, as gemv.cu's MXFP4 scales end.
// Where the scale goes: INT4 on the FP32 partial sums of the step (one group per row per step, exact, 4 FFMA per 8
// mma; 2 at M = 1); NVFP4 and MXFP4 on A in half, as gemv.cu does (exact; see there). NVFP4 on the accumulator instead
// would need one 16-k block per mma, which takes lane q's x out of one contiguous piece (8-byte loads, twice the load
// instructions), and an FFMA per accumulator per mma instead of one HMUL2 per register per decoded word, i.e. twice
// the scaling work at M = 16.
#include "../../roofline-cuda/src/main/cuda/gemv.cu"

#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(call)                                                                                       \
    do {                                                                                               \
        cudaError_t e_ = (call);                                                                       \
        if (e_ != cudaSuccess) {                                                                       \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            std::exit(2);                                                                              \
        }                                                                                              \
    } while (0)

namespace w4 {

constexpr double MAX_REL_DIFF = 2e-3; // FP32 sums in another order, rounded to fp16: ~1 ulp of the largest output
constexpr int TILE_ROWS = 16, GROUP_K = 128, GROUP_BYTES = 1024; // one (tile, group) of the layout

// E2M1 bit places per fragment register p (code bits m, e0, e1, s) and the left shifts that bring them to 9..11, 15
__host__ __device__ constexpr int e2m1_bit(int p, int b) {
    constexpr int BITS[4][4] = {{9, 10, 11, 15}, {6, 7, 8, 12}, {0, 1, 2, 13}, {3, 4, 5, 14}};
    return BITS[p][b];
}
// E2M1_EM_SHIFT = {0, 3, 9, 6}, E2M1_SIGN_SHIFT = {0, 3, 2, 1}: written out in decode_word

// ---- the layout's index maps (one bijection each, used to pack on the GPU and on the host, and to unpack) ----

// element e (0..7) of layout word w (4-byte index): its weight row n and input k
__host__ __device__ inline void word_element(size_t w, int e, int G, int& n, int& k) {
    const int j = static_cast<int>(w & 3), lane = static_cast<int>((w >> 2) & 31), h = static_cast<int>((w >> 7) & 1);
    const size_t tg = w >> 8; // tile * G + group
    const int t = static_cast<int>(tg / G), kg = static_cast<int>(tg % G);
    const int g = lane >> 2, q = lane & 3, i = 4 * h + j, rho = e & 1, c = e >> 1;
    n = TILE_ROWS * t + g + 8 * rho;
    k = GROUP_K * kg + 32 * q + 4 * i + c;
}
// bit b (0: lowest) of element e's 4-bit code: its place in the layout word
__host__ __device__ inline int element_bit(bool e2m1, int e, int b) {
    const int rho = e & 1, c = e >> 1, p = rho + 2 * (c >> 1);
    return e2m1 ? 16 * (c & 1) + e2m1_bit(p, b) : 4 * (p + 4 * (c & 1)) + b;
}
// layout word w from the row-major bytes (row n: K / 2 bytes, element 2i in the low nibble)
__host__ __device__ inline uint32_t pack_word(const uint8_t* src, size_t w, bool e2m1, int K) {
    uint32_t v = 0;
    for (int e = 0; e < 8; e++) {
        int n, k;
        word_element(w, e, K / GROUP_K, n, k);
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
    if (F == Fmt::NVFP4) { // 4 bytes per lane {s[g][2q], s[g+8][2q], s[g][2q+1], s[g+8][2q+1]}
        const int lane = r >> 2, b = r & 3, g = lane >> 2, q = lane & 3, rho = b & 1;
        return static_cast<size_t>(TILE_ROWS * t + g + 8 * rho) * (K / 16) + 8 * kg + 2 * q + (b >> 1);
    }
    const int lane = r >> 1, g = lane >> 2, q = lane & 3, rho = r & 1; // MXFP4: 2 bytes per lane {s[g][q], s[g+8][q]}
    return static_cast<size_t>(TILE_ROWS * t + g + 8 * rho) * (K / 32) + 4 * kg + q;
}

__global__ void pack_weights_kernel(const uint8_t* src, uint32_t* dst, size_t words, bool e2m1, int K) {
    for (size_t w = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; w < words;
         w += static_cast<size_t>(gridDim.x) * blockDim.x)
        dst[w] = pack_word(src, w, e2m1, K);
}
__global__ void pack_scales_kernel(Fmt F, const uint8_t* src, uint8_t* dst, size_t entries, int K) {
    for (size_t d = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; d < entries;
         d += static_cast<size_t>(gridDim.x) * blockDim.x) {
        const size_t s = scale_source(F, d, K);
        if (F == Fmt::INT4) reinterpret_cast<uint32_t*>(dst)[d] = reinterpret_cast<const uint32_t*>(src)[s];
        else dst[d] = src[s];
    }
}

// host: row-major -> layout, and back. A word holds inputs k0 .. k0 + 3 (k0 = 128kg + 32q + 4i, even) of rows g and
// g + 8, i.e. 2 row-major bytes of each: tables from those 16 bits (row g, row g + 8) to the word's bits, and from each
// byte of the word back to the 16 bits of both rows (low half: row g).
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
static void for_each_word(int N, int K, F&& f) {
    const int G = K / GROUP_K;
    const size_t row_bytes = static_cast<size_t>(K) / 2;
    size_t w = 0;
    for (int t = 0; t < N / TILE_ROWS; t++)
        for (int kg = 0; kg < G; kg++)
            for (int h = 0; h < 2; h++)
                for (int lane = 0; lane < 32; lane++)
                    for (int j = 0; j < 4; j++, w++) {
                        const int g = lane >> 2, q = lane & 3, k0 = GROUP_K * kg + 32 * q + 4 * (4 * h + j);
                        const size_t o = static_cast<size_t>(TILE_ROWS * t + g) * row_bytes + k0 / 2;
                        f(w, o, o + 8 * row_bytes);
                    }
}
static void pack_weights_host(const uint8_t* src, uint32_t* dst, int N, int K, bool e2m1) {
    const HostTables tab(e2m1);
    for_each_word(N, K, [&](size_t w, size_t o0, size_t o1) {
        dst[w] = tab.to_word[0][src[o0] | src[o0 + 1] << 8] | tab.to_word[1][src[o1] | src[o1 + 1] << 8];
    });
}
static void unpack_weights_host(const uint32_t* src, uint8_t* dst, int N, int K, bool e2m1) {
    const HostTables tab(e2m1);
    for_each_word(N, K, [&](size_t w, size_t o0, size_t o1) {
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

// ---- device: decode and one step ----

__device__ __forceinline__ uint32_t lop3_or_and(uint32_t a, uint32_t b, uint32_t c) { // a | (b & c)
    uint32_t r;
    asm("lop3.b32 %0, %1, %2, %3, 0xf8;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}
__device__ __forceinline__ uint32_t and_mask(uint32_t a, uint32_t m) {
    uint32_t r;
    asm("and.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(m));
    return r;
}
// one layout word as the four A registers of its mma: INT4 integers, E2M1 value x 2^-14 (before the block scale)
template <Fmt F>
__device__ __forceinline__ void decode_word(uint32_t v, uint32_t (&a)[4]) {
    if constexpr (F == Fmt::INT4) {
        a[0] = int4_pair<0>(v);
        a[1] = int4_pair<1>(v);
        a[2] = int4_pair<2>(v);
        a[3] = int4_pair<3>(v);
    } else {
        a[0] = and_mask(v, 0x8E008E00u);
        a[1] = and_mask(v * 8u, 0x8E008E00u);
        a[2] = lop3_or_and(and_mask(v * 512u, 0x0E000E00u), v * 4u, 0x80008000u);
        a[3] = lop3_or_and(and_mask(v * 64u, 0x0E000E00u), v * 2u, 0x80008000u);
    }
}

template <int MAXM>
inline constexpr int NB_OF = MAXM <= 8 ? 1 : 2; // B fragments: activation rows 0..7, 8..15

// One 128-k step of T tiles: w[j] = tile j's two 16-byte loads, s[j] its scale entry (INT4: two float bits, NVFP4:
// 4 bytes in .x, MXFP4: 2 bytes in .x), xv[f] = 64 bytes of x of fragment f, rmax (MXFP4) rows g / g + 8's largest code.
template <Fmt F, int MAXM, int T>
__device__ __forceinline__ void step(const uint4 (&w)[T][2], const uint2 (&s)[T], const uint4 (&xv)[NB_OF<MAXM>][4],
                                     int nf, float (&acc)[T][NB_OF<MAXM>][4], const uint32_t (&rmax)[T][2]) {
    constexpr int NB = NB_OF<MAXM>;
    constexpr bool CHAIN = F != Fmt::INT4;
    #pragma unroll
    for (int j = 0; j < T; j++) {
        __half2 sg[2], sg8[2]; // A multipliers of rows g / g + 8 for mma 0..3 and 4..7
        if constexpr (F == Fmt::NVFP4) {
            const __half2 lo = e4m3x2_times_64(s[j].x & 0xFFFFu), hi = e4m3x2_times_64(s[j].x >> 16);
            sg[0] = __low2half2(lo); sg8[0] = __high2half2(lo);
            sg[1] = __low2half2(hi); sg8[1] = __high2half2(hi);
        } else if constexpr (F == Fmt::MXFP4) {
            sg[0] = sg[1] = e8m0_rel_half2(s[j].x & 0xFFu, rmax[j][0]);
            sg8[0] = sg8[1] = e8m0_rel_half2((s[j].x >> 8) & 0xFFu, rmax[j][1]);
        }
        float part[NB][4];
        #pragma unroll
        for (int f = 0; f < NB; f++)
            #pragma unroll
            for (int c = 0; c < 4; c++) part[f][c] = 0.f;
        float (&d)[NB][4] = CHAIN ? acc[j] : part;
        const uint32_t words[8] = {w[j][0].x, w[j][0].y, w[j][0].z, w[j][0].w,
                                   w[j][1].x, w[j][1].y, w[j][1].z, w[j][1].w};
        #pragma unroll
        for (int i = 0; i < 8; i++) {
            uint32_t a[4];
            decode_word<F>(words[i], a);
            if constexpr (F != Fmt::INT4) {
                a[0] = hmul2_bits(a[0], sg[i >> 2]);
                a[1] = hmul2_bits(a[1], sg8[i >> 2]);
                a[2] = hmul2_bits(a[2], sg[i >> 2]);
                a[3] = hmul2_bits(a[3], sg8[i >> 2]);
            }
            #pragma unroll
            for (int f = 0; f < NB; f++) {
                if (f >= nf) break;
                const uint4 X = xv[f][i >> 1];
                mma_16816(d[f], a[0], a[1], a[2], a[3], (i & 1) ? X.z : X.x, (i & 1) ? X.w : X.y);
            }
        }
        if constexpr (!CHAIN) {
            const float fa = __uint_as_float(s[j].x), fb = __uint_as_float(s[j].y);
            #pragma unroll
            for (int f = 0; f < NB; f++) {
                acc[j][f][0] = fmaf(part[f][0], fa, acc[j][f][0]);
                acc[j][f][2] = fmaf(part[f][2], fb, acc[j][f][2]);
                if constexpr (MAXM > 1) { // at one row only D column 0 (c0, c2 of lanes q = 0) is stored
                    acc[j][f][1] = fmaf(part[f][1], fa, acc[j][f][1]);
                    acc[j][f][3] = fmaf(part[f][3], fb, acc[j][f][3]);
                }
            }
        }
    }
}

// lane's scale entry of one (tile, group)
template <Fmt F>
__device__ __forceinline__ uint2 load_scale(const uint8_t* p) {
    if constexpr (F == Fmt::INT4) return __ldg(reinterpret_cast<const uint2*>(p));
    else if constexpr (F == Fmt::NVFP4) return make_uint2(__ldg(reinterpret_cast<const uint32_t*>(p)), 0u);
    else return make_uint2(__ldg(reinterpret_cast<const unsigned short*>(p)), 0u);
}

// A block of WARPS warps owns T tiles (16T rows); the warps split K (group it goes to warp it % WARPS), UNROLL groups of
// loads per trip, and add their partial sums in shared memory at the end. N % 16 == 0 and K % 128 == 0 (the host
// checks); activation rows past M read row 0 and are not stored.
template <Fmt F, int MAXM, int T, int UNROLL, int WARPS>
__device__ __forceinline__ void gemv_w4(const void* __restrict__ Wv, const void* __restrict__ Sv,
                                        const __half* __restrict__ x, __half* __restrict__ y, int M, int N, int K,
                                        float global) {
    constexpr int NB = NB_OF<MAXM>;
    constexpr int SB = F == Fmt::INT4 ? 64 : F == Fmt::NVFP4 ? 128 : 64; // scale bytes per (tile, group)
    __shared__ float red[WARPS][T][NB][4][32];
    if (blockDim.x != WARPS * 32) __trap();
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, q = lane & 3;
    const int G = K / GROUP_K, tiles = N / TILE_ROWS;
    const int m_count = MAXM == 1 ? 1 : M;
    const int nf = NB == 1 ? 1 : min(NB, (M + 7) >> 3);
    const int lane_scale = F == Fmt::INT4 ? 8 * g : F == Fmt::NVFP4 ? 4 * lane : 2 * lane;
    const uint8_t* pw[T];
    const uint8_t* ps[T];
    uint32_t rmax[T][2];
    #pragma unroll
    for (int j = 0; j < T; j++) {
        const int t = blockIdx.x * T + j < tiles ? blockIdx.x * T + j : 0;
        pw[j] = static_cast<const uint8_t*>(Wv) + (static_cast<size_t>(t) * G + warp) * GROUP_BYTES + 16 * lane;
        ps[j] = static_cast<const uint8_t*>(Sv) + (static_cast<size_t>(t) * G + warp) * SB + lane_scale;
        rmax[j][0] = rmax[j][1] = 0;
        if constexpr (F == Fmt::MXFP4) {
            const uint8_t* row_emax = static_cast<const uint8_t*>(Sv) + static_cast<size_t>(N) * (K / 32);
            rmax[j][0] = __ldg(row_emax + TILE_ROWS * t + g);
            rmax[j][1] = __ldg(row_emax + TILE_ROWS * t + g + 8);
        }
    }
    const __half* px[NB];
    #pragma unroll
    for (int f = 0; f < NB; f++) px[f] = x + static_cast<size_t>(8 * f + g < m_count ? 8 * f + g : 0) * K + 32 * q + GROUP_K * warp;

    float acc[T][NB][4];
    #pragma unroll
    for (int j = 0; j < T; j++)
        #pragma unroll
        for (int f = 0; f < NB; f++)
            #pragma unroll
            for (int c = 0; c < 4; c++) acc[j][f][c] = 0.f;

    auto advance = [&](int steps) {
        #pragma unroll
        for (int j = 0; j < T; j++) {
            pw[j] += static_cast<size_t>(GROUP_BYTES) * WARPS * steps;
            ps[j] += SB * WARPS * steps;
        }
        #pragma unroll
        for (int f = 0; f < NB; f++) px[f] += GROUP_K * WARPS * steps;
    };
    auto load_x = [&](uint4 (&xv)[NB][4], int u) {
        #pragma unroll
        for (int f = 0; f < NB; f++)
            #pragma unroll
            for (int i = 0; i < 4; i++)
                xv[f][i] = f < nf ? __ldg(reinterpret_cast<const uint4*>(px[f] + GROUP_K * WARPS * u) + i) : make_uint4(0, 0, 0, 0);
    };
    int it = warp;
    for (; it + WARPS * (UNROLL - 1) < G; it += WARPS * UNROLL) {
        uint4 w[UNROLL][T][2];
        uint2 s[UNROLL][T];
        #pragma unroll
        for (int u = 0; u < UNROLL; u++)
            #pragma unroll
            for (int j = 0; j < T; j++) {
                w[u][j][0] = load_stream<0>(pw[j] + GROUP_BYTES * WARPS * u);
                w[u][j][1] = load_stream<0>(pw[j] + GROUP_BYTES * WARPS * u + 512);
                s[u][j] = load_scale<F>(ps[j] + SB * WARPS * u);
            }
        #pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            uint4 xv[NB][4];
            load_x(xv, u);
            step<F, MAXM, T>(w[u], s[u], xv, nf, acc, rmax);
        }
        advance(UNROLL);
    }
    for (; it < G; it += WARPS) { // at most UNROLL - 1 groups per warp
        uint4 w[T][2];
        uint2 s[T];
        #pragma unroll
        for (int j = 0; j < T; j++) {
            w[j][0] = load_stream<0>(pw[j]);
            w[j][1] = load_stream<0>(pw[j] + 512);
            s[j] = load_scale<F>(ps[j]);
        }
        uint4 xv[NB][4];
        load_x(xv, 0);
        step<F, MAXM, T>(w, s, xv, nf, acc, rmax);
        advance(1);
    }
    #pragma unroll
    for (int j = 0; j < T; j++)
        #pragma unroll
        for (int f = 0; f < NB; f++)
            #pragma unroll
            for (int c = 0; c < 4; c++) red[warp][j][f][c][lane] = acc[j][f][c];
    __syncthreads();
    const float out_scale = F == Fmt::NVFP4 ? global * 256.f : 1.f; // NVFP4: 2^-14 (e2m1) x 2^6 (scale) = 2^-8
    for (int e = threadIdx.x; e < T * NB * 4 * 32; e += WARPS * 32) {
        const int j = e / (NB * 128), f = (e / 128) % NB, c = (e / 32) & 3, l = e & 31;
        const int row = (blockIdx.x * T + j) * TILE_ROWS + (l >> 2) + 8 * (c >> 1);
        const int m = 8 * f + 2 * (l & 3) + (c & 1);
        if (m < m_count && row < N) {
            float v = 0.f;
            #pragma unroll
            for (int ww = 0; ww < WARPS; ww++) v += red[ww][j][f][c][l];
            // MXFP4: 2^(Emax - 128) = 2^(Emax - 127) x 2^14 (e2m1) x 2^-15 (e8m0_rel_half2), as in gemv.cu
            const float sc = F == Fmt::MXFP4
                    ? e8m0_to_float(__ldg(static_cast<const uint8_t*>(Sv) + static_cast<size_t>(N) * (K / 32) + row)) * 0.5f
                    : out_scale;
            y[static_cast<size_t>(m) * N + row] = __float2half_rn(v * sc);
        }
    }
}

} // namespace w4

// Variants: _m<M>_t<tiles per warp>_u<groups of loads per trip>, 8 warps splitting K, 16T rows per block.
#define W4_KERNEL(FMT, fmt, MAXM, T, U, BOUNDS)                                                                    \
    extern "C" __global__ void BOUNDS w4_##fmt##_m##MAXM##_t##T##_u##U(const void* W, const void* s, const __half* x, \
                                                                        __half* y, int M, int N, int K, float g,       \
                                                                        GemvEpilogue) {                                \
        w4::gemv_w4<Fmt::FMT, MAXM, T, U, 8>(W, s, x, y, M, N, K, g);                                              \
    }
// The second one-row variant: NVFP4 and MXFP4 capped at 48 registers (5 blocks per SM, as gemv.cu's NVFP4), INT4 with
// gemv.cu's INT4 unroll of 6 instead (under the cap it spills 16 bytes).
#define W4_FORMAT(FMT, fmt, U2, BOUNDS2)                             \
    W4_KERNEL(FMT, fmt, 1, 1, 4, __launch_bounds__(256))             \
    W4_KERNEL(FMT, fmt, 1, 1, U2, BOUNDS2)                           \
    W4_KERNEL(FMT, fmt, 1, 2, 2, __launch_bounds__(256))             \
    W4_KERNEL(FMT, fmt, 16, 1, 2, __launch_bounds__(256))            \
    W4_KERNEL(FMT, fmt, 16, 2, 1, __launch_bounds__(256))            \
    W4_KERNEL(FMT, fmt, 16, 2, 2, __launch_bounds__(256))            \
    W4_KERNEL(FMT, fmt, 8, 1, 2, __launch_bounds__(256))             \
    W4_KERNEL(FMT, fmt, 8, 1, 4, __launch_bounds__(256))             \
    W4_KERNEL(FMT, fmt, 8, 2, 1, __launch_bounds__(256))             \
    W4_KERNEL(FMT, fmt, 8, 2, 2, __launch_bounds__(256))             \
    W4_KERNEL(FMT, fmt, 8, 4, 1, __launch_bounds__(256))             \
    W4_KERNEL(FMT, fmt, 16, 4, 1, __launch_bounds__(256))            \
    W4_KERNEL(FMT, fmt, 16, 3, 1, __launch_bounds__(256))
W4_FORMAT(INT4, int4, 6, __launch_bounds__(256))
W4_FORMAT(NVFP4, nvfp4, 2, __launch_bounds__(256, 5))
W4_FORMAT(MXFP4, mxfp4, 2, __launch_bounds__(256, 5))

// ---- the harness ----

using Kernel = void (*)(const void*, const void*, const __half*, __half*, int, int, int, float, GemvEpilogue);

struct Variant {
    const char* name;
    Kernel kernel;
    int rows_per_block; // 256 threads each
};

struct Format {
    const char* name;
    Fmt fmt;
    int scale_k;     // weights per scale entry
    int entry_bytes; // bytes per scale entry
    Kernel shipped[3];                // M = 1, M = 16: gemv.cu's 8-warp tensor-core kernels (GemvKernels picks _w8 from 6144 rows)
    std::vector<Variant> variants[3]; // M = 1, M = 16, M = 2..8
};

#define W4_VARIANTS(fmt, U2, NAME2)                                                                                    \
    {{"w4 t1 u4", w4_##fmt##_m1_t1_u4, 16}, {NAME2, w4_##fmt##_m1_t1_u##U2, 16}, {"w4 t2 u2", w4_##fmt##_m1_t2_u2, 32}}, \
    {{"w4 t1 u2", w4_##fmt##_m16_t1_u2, 16}, {"w4 t2 u1", w4_##fmt##_m16_t2_u1, 32}, {"w4 t2 u2", w4_##fmt##_m16_t2_u2, 32}, {"w4 t3 u1", w4_##fmt##_m16_t3_u1, 48}, {"w4 t4 u1", w4_##fmt##_m16_t4_u1, 64}, {"tiled m16", gemv_##fmt##_f16_m16_tiled, 32}}, \
    {{"w4 t1 u2", w4_##fmt##_m8_t1_u2, 16}, {"w4 t1 u4", w4_##fmt##_m8_t1_u4, 16}, {"w4 t2 u1", w4_##fmt##_m8_t2_u1, 32}, {"w4 t2 u2", w4_##fmt##_m8_t2_u2, 32}, {"w4 t4 u1", w4_##fmt##_m8_t4_u1, 64}, {"tiled m8", gemv_##fmt##_f16_m8_tiled, 16}}

static std::vector<Format> formats() {
    return {
        {"INT4", Fmt::INT4, 128, 4, {gemv_int4_f16_m1_w8, gemv_int4_f16_m16_w8, gemv_int4_f16_m8_w8}, {W4_VARIANTS(int4, 6, "w4 t1 u6")}},
        {"NVFP4", Fmt::NVFP4, 16, 1, {gemv_nvfp4_f16_m1_w8, gemv_nvfp4_f16_m16_w8, gemv_nvfp4_f16_m8_w8}, {W4_VARIANTS(nvfp4, 2, "w4 t1 u2 b5")}},
        {"MXFP4", Fmt::MXFP4, 32, 1, {gemv_mxfp4_f16_m1_w8, gemv_mxfp4_f16_m16_w8, gemv_mxfp4_f16_m8_w8}, {W4_VARIANTS(mxfp4, 2, "w4 t1 u2 b5")}},
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

template <typename Work>
static float median_event_ms(cudaStream_t st, int warmup, int reps, Work&& work) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int r = 0; r < warmup + reps; r++) {
        CK(cudaEventRecord(a, st));
        work();
        CK(cudaEventRecord(b, st));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (r >= warmup) t.push_back(ms);
    }
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

static void launch(Kernel k, int rows_per_block, const Set& set, bool layout, const __half* x, int M, int N, int K,
                   float global, cudaStream_t st) {
    k<<<(N + rows_per_block - 1) / rows_per_block, 256, 0, st>>>(layout ? set.lw : set.w, layout ? set.ls : set.s, x,
                                                                 set.y, M, N, K, global, GemvEpilogue{});
}

// microseconds per launch: a graph of one launch per set, median of 30 replays after 3
static float time_graph(cudaStream_t st, const std::vector<Set>& sets, Kernel k, int rows_per_block, bool layout,
                        const __half* x, int M, int N, int K, float global) {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    for (const Set& set : sets) launch(k, rows_per_block, set, layout, x, M, N, K, global, st);
    CK(cudaStreamEndCapture(st, &graph));
    CK(cudaGraphInstantiate(&exec, graph, 0));
    const float ms = median_event_ms(st, 3, 30, [&] { CK(cudaGraphLaunch(exec, st)); });
    CK(cudaGraphExecDestroy(exec));
    CK(cudaGraphDestroy(graph));
    return ms * 1000.f / sets.size();
}

static double copy_rate(cudaStream_t st) { // read + write bytes per second of a 256 MiB device-to-device copy
    const size_t bytes = size_t(256) << 20;
    void *a, *b;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    CK(cudaMemsetAsync(a, 1, bytes, st));
    const float ms = median_event_ms(st, 3, 20, [&] { CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, st)); });
    CK(cudaFree(a));
    CK(cudaFree(b));
    return 2.0 * bytes / (ms * 1e-3);
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
    w4::pack_weights_host(w.data(), hw.data(), N, K, e2m1);
    w4::pack_scales_host(f.fmt, s.data(), hs.data(), sentries, K, false);
    const bool same = std::memcmp(hw.data(), gw.data(), wbytes) == 0 && std::memcmp(hs.data(), gs.data(), sbytes) == 0;
    w4::unpack_weights_host(hw.data(), back.data(), N, K, e2m1);
    w4::pack_scales_host(f.fmt, sback.data(), hs.data(), sentries, K, true);
    const bool wback = std::memcmp(back.data(), w.data(), wbytes) == 0, sback_ok = std::memcmp(sback.data(), s.data(), sbytes) == 0;
    std::printf("%-6s %dx%d layout: host == GPU %s, unpacked == row-major weights %s, scales %s\n", f.name, N, K,
                same ? "yes" : "NO", wback ? "yes" : "NO", sback_ok ? "yes" : "NO");
    return same && wback && sback_ok;
}

int main(int argc, char** argv) {
    const std::string only_format = argc > 1 ? argv[1] : "";
    const std::string only_shape = argc > 2 ? argv[2] : "";
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    if (prop.major < 9) {
        std::fprintf(stderr, "%s is sm_%d%d; these kernels are built for sm_90a\n", prop.name, prop.major, prop.minor);
        return 2;
    }
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    const double copy = copy_rate(st);
    std::printf("device %s, %d SMs, L2 %d MiB; device-to-device copy (read + write) %.0f GB/s\n", prop.name,
                prop.multiProcessorCount, prop.l2CacheSize >> 20, copy / 1e9);
    std::printf("format shape         M  variant          rows      us     GB/s  %%copy  vs shipped  max diff / max |shipped|\n");
    bool ok = true;
    const int shapes[][2] = {{8192, 8192}, {28672, 8192}, {8192, 28672}};
    const float global = 1.f / 2688;
    for (const Format& f : formats()) {
        if (!only_format.empty() && only_format.find(f.name) == std::string::npos) continue;
        for (auto& sh : shapes) {
            const int N = sh[0], K = sh[1];
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
                                                              wbytes / 4, f.fmt != Fmt::INT4, K);
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
            ok &= round_trip(f, sets[0], N, K, wbytes, sentries);

            for (int mi = 0; mi < 4; mi++) {
                const int M = mi == 0 ? 1 : mi == 1 ? 16 : mi == 2 ? 2 : 8;
                const int si = mi < 2 ? mi : 2;
                const size_t outs = static_cast<size_t>(M) * N;
                std::vector<__half> ref(outs), got(outs);
                auto run_once = [&](Kernel k, int rpb, bool layout, std::vector<__half>& out) {
                    CK(cudaMemsetAsync(sets[0].y, 0xFF, 2 * outs, st)); // NaN: an unwritten output shows
                    launch(k, rpb, sets[0], layout, x, M, N, K, global, st);
                    CK(cudaGetLastError());
                    CK(cudaStreamSynchronize(st));
                    CK(cudaMemcpy(out.data(), sets[0].y, 2 * outs, cudaMemcpyDeviceToHost));
                };
                run_once(f.shipped[si], 16, false, ref);
                double refmax = 0;
                for (size_t i = 0; i < outs; i++) refmax = std::max(refmax, std::fabs(static_cast<double>(__half2float(ref[i]))));
                if (!(refmax > 0) || std::isinf(refmax)) {
                    std::printf("%-6s %-12s %2d  shipped output's largest magnitude is %g\n", f.name, shape, M, refmax);
                    ok = false;
                    continue;
                }
                const float shipped_us = time_graph(st, sets, f.shipped[si], 16, false, x, M, N, K, global);
                auto line = [&](const char* name, int rows, float us, double diff) {
                    const double gbs = total / (us * 1e-6) / 1e9;
                    std::printf("%-6s %-12s %2d  %-14s %5d %8.2f %8.0f %5.1f%% %9.3fx  %.2e%s\n", f.name, shape, M, name,
                                rows, us, gbs, 100 * gbs * 1e9 / copy, shipped_us / us, diff,
                                diff <= w4::MAX_REL_DIFF ? "" : "  FAIL");
                    std::fflush(stdout);
                };
                line("shipped", 16, shipped_us, 0.0);
                for (const Variant& v : f.variants[si]) {
                    run_once(v.kernel, v.rows_per_block, true, got);
                    double diff = 0;
                    for (size_t i = 0; i < outs; i++) {
                        const double d = std::fabs(static_cast<double>(__half2float(got[i])) - __half2float(ref[i]));
                        diff = std::isnan(d) ? INFINITY : std::max(diff, d);
                    }
                    diff /= refmax;
                    ok &= diff <= w4::MAX_REL_DIFF;
                    line(v.name, v.rows_per_block, time_graph(st, sets, v.kernel, v.rows_per_block, true, x, M, N, K, global), diff);
                }
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
