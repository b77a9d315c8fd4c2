// Probe for issue 20's 16-row NVFP4 GEMV on Hopper's wgmma and on bulk copies
// (docs/measurements/2026-11-27-issue20-m16-wgmma-h200): tiled_splitk.cu's layout packing and harness as of fac9659,
// with its variants replaced by namespace wg's kernels (wg, rg, tm, bk, wp) and the shipped kernels they are timed
// against. Build and run from the repository root (sm_90a: H100 / H200):
//   nvcc -std=c++17 -O3 -gencode arch=compute_90a,code=sm_90a -o wg docs/measurements/2026-11-27-issue20-m16-wgmma-h200/wg.cu
//   ./wg NVFP4 "" 16
// This state lists run 7's variants; runs 1-6 listed others of the same kernels (their names in each run's output).
// The text below down to namespace wg is tiled_splitk.cu's.
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
#include "../../../roofline-cuda/src/main/cuda/gemv.cu"

#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../../../roofline-cuda/src/bench/gemv/bench_timing.cuh"

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

// ---- wg: the 16-row NVFP4 GEMV on wgmma, x from shared memory ----
namespace wg {
using namespace roofline_gemv;

__device__ int g_desc_swap; // 0: LBO = the K-direction core-matrix stride (256 B), SBO = the N-direction one (128 B)

__device__ __forceinline__ uint64_t desc_of(uint32_t saddr) {
    const uint32_t lbo = g_desc_swap ? 128u : 256u, sbo = g_desc_swap ? 256u : 128u;
    return static_cast<uint64_t>((saddr & 0x3FFFFu) >> 4) | (static_cast<uint64_t>(lbo >> 4) << 16)
           | (static_cast<uint64_t>(sbo >> 4) << 32);
}
__device__ __forceinline__ void wgmma_f16(float (&d)[8], const uint32_t (&a)[4], uint64_t desc, int sd) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %13, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, p, 1, 1, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc), "r"(sd));
}
__device__ __forceinline__ void wg_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wg_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wg_wait() { asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory"); }
__device__ __forceinline__ void fence_acc(float (&d)[8]) {
    #pragma unroll
    for (int i = 0; i < 8; i++) asm volatile("" : "+f"(d[i])::"memory");
}
__device__ __forceinline__ void st_shared(uint32_t addr, uint32_t v) {
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}

// A block of NWG warpgroups owns 4 tiles (64 rows, warp w of each warpgroup tile 4 blockIdx + w); warpgroup wgi takes
// groups wgi, wgi + NWG, ... One step = one group: each warp decodes its tile's 8 A fragments (gemv_tiled.cu's
// decode and NVFP4 scales), and the warpgroup runs 8 wgmma m64n16k16 with B = x[16 tokens][the group] from a stage of
// shared memory, laid in core matrices in the mma's k-slot order: mma i = 4h + j's slots 2q, 2q + 1 (8ks + ..) hold
// physical k 64h + 16q + 4j + 2ks + {0, 1}. Stage of mma i at i * 512: core (ks, tg) at ks * 256 + tg * 128, token
// 8tg + r's 16-byte row at r * 16, word q at 4q. Thread t of a warpgroup stages token 8((t >> 5) & 1) + ((t >> 2) & 7),
// inputs 64(t >> 6) + 16(t & 3) .. + 15 of the group: 2 loads, 8 stores of 4 bytes (each a warp's 128 contiguous bytes).
// PW: the weights' window (loads of step c + PW - 1 issued at step c), XL: x loaded XL steps ahead, stored 1 ahead.
template <int NWG, int PW, int XL, int MINB>
__global__ void __launch_bounds__(NWG * 128, MINB)
    wg_nvfp4_m16(const void* Wv, const void* Sv, const __half* x, __half* y, int M, int N, int K, float global,
                 GemvEpilogue) {
    constexpr int R = 4, S = 4; // the unrolled ring of registers, stages of x
    static_assert(PW >= 1 && PW <= R && XL >= 2 && XL <= R - 1, "windows");
    extern __shared__ __align__(1024) uint8_t xs_dyn[]; // NWG x S stages of 4096 bytes
    uint8_t (*xs)[S][4096] = reinterpret_cast<uint8_t (*)[S][4096]>(xs_dyn);
    __shared__ float red[NWG > 1 ? NWG - 1 : 1][8][128];
    using TC = roofline_tiled::Tc<Fmt::NVFP4, false>;
    using H2 = typename TC::H2;
    const int t = threadIdx.x & 127, wgi = threadIdx.x >> 7, warp = t >> 5, lane = t & 31;
    const int G = K / 128, tiles = N / 16;
    const int tile_raw = blockIdx.x * 4 + warp, tile = tile_raw < tiles ? tile_raw : 0;
    const uint8_t* pw = static_cast<const uint8_t*>(Wv) + (static_cast<size_t>(tile) * G + wgi) * 1024 + 16 * lane;
    const uint8_t* ps = static_cast<const uint8_t*>(Sv) + (static_cast<size_t>(tile) * G + wgi) * 128 + 4 * lane;
    const int xq = t & 3, xr = (t >> 2) & 7, xtg = (t >> 5) & 1, xh = t >> 6, token = 8 * xtg + xr;
    const __half* px = x + static_cast<size_t>(token < M ? token : 0) * K + 128 * wgi + 64 * xh + 16 * xq;
    const uint32_t xs_base = static_cast<uint32_t>(__cvta_generic_to_shared(&xs[wgi][0][0]));
    const uint32_t sts = xs_base + 4 * xh * 512 + xtg * 128 + xr * 16 + xq * 4;
    const int n = wgi < G ? (G - wgi + NWG - 1) / NWG : 0;
    const size_t wstride = static_cast<size_t>(1024) * NWG;
    const int sstride = 128 * NWG, xstride = 128 * NWG;
    uint4 w[R][2];
    uint32_t s[R];
    uint4 xv[R][2];
    float acc[8]; // the first wgmma's scale-d = 0 defines them: a definition by other instructions inside the
                  // pipeline would serialize the wgmma (ptxas C7515)
    auto load_w = [&](uint4 (&wd)[2], uint32_t& sd, int c) {
        wd[0] = load_stream<0>(pw + c * wstride);
        wd[1] = load_stream<0>(pw + c * wstride + 512);
        sd = __ldg(reinterpret_cast<const uint32_t*>(ps + static_cast<size_t>(c) * sstride));
    };
    auto load_x = [&](uint4 (&xd)[2], int c) {
        const uint4* p = reinterpret_cast<const uint4*>(px + static_cast<size_t>(c) * xstride);
        xd[0] = __ldg(p);
        xd[1] = __ldg(p + 1);
    };
    auto store_x = [&](const uint4 (&xd)[2], int stage) {
        const uint32_t b = sts + stage * 4096;
        st_shared(b, xd[0].x);
        st_shared(b + 256, xd[0].y);
        st_shared(b + 512, xd[0].z);
        st_shared(b + 768, xd[0].w);
        st_shared(b + 1024, xd[1].x);
        st_shared(b + 1280, xd[1].y);
        st_shared(b + 1536, xd[1].z);
        st_shared(b + 1792, xd[1].w);
    };
    #pragma unroll
    for (int c = 0; c < PW - 1; c++)
        if (c < n) load_w(w[c], s[c], c);
    #pragma unroll
    for (int c = 0; c < XL; c++)
        if (c < n) load_x(xv[c], c);
    if (n > 0) store_x(xv[0], 0);
    for (int i = 0; i < n; i += R) {
        #pragma unroll
        for (int d = 0; d < R; d++) {
            const int c = i + d;
            if (c < n) {
                if (c + PW - 1 < n) load_w(w[(d + PW - 1) % R], s[(d + PW - 1) % R], c + PW - 1);
                if (c + XL < n) load_x(xv[(d + XL) % R], c + XL);
                if (c + 1 < n) store_x(xv[(d + 1) % R], (d + 1) % S);
                uint32_t a[8][4];
                const uint32_t words[8] = {w[d][0].x, w[d][0].y, w[d][0].z, w[d][0].w,
                                           w[d][1].x, w[d][1].y, w[d][1].z, w[d][1].w};
                const H2 lo = TC::nvfp4_scales(s[d] & 0xFFFFu), hi = TC::nvfp4_scales(s[d] >> 16);
                const H2 sg[2] = {TC::low(lo), TC::low(hi)}, sg8[2] = {TC::high(lo), TC::high(hi)};
                #pragma unroll
                for (int m = 0; m < 8; m++) {
                    roofline_tiled::decode_word<Fmt::NVFP4, false>(words[m], a[m]);
                    a[m][0] = TC::scaled(a[m][0], sg[m >> 2]);
                    a[m][1] = TC::scaled(a[m][1], sg8[m >> 2]);
                    a[m][2] = TC::scaled(a[m][2], sg[m >> 2]);
                    a[m][3] = TC::scaled(a[m][3], sg8[m >> 2]);
                }
                asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
                asm volatile("bar.sync %0, 128;" ::"r"(1 + wgi) : "memory");
                wg_fence();
                const uint32_t stage = xs_base + (d % S) * 4096;
                #pragma unroll
                for (int m = 0; m < 8; m++) wgmma_f16(acc, a[m], desc_of(stage + m * 512), c > 0 || m > 0);
                wg_commit();
                wg_wait<1>();
            }
        }
    }
    wg_wait<0>();
    fence_acc(acc);
    if (n == 0) {
        #pragma unroll
        for (int e = 0; e < 8; e++) acc[e] = 0.f;
    }
    // acc[4f + c]: row 16 warp + g + 8(c >> 1), token 8f + 2q + (c & 1)
    if (wgi > 0) {
        #pragma unroll
        for (int e = 0; e < 8; e++) red[wgi - 1][e][t] = acc[e];
    }
    __syncthreads();
    if (wgi == 0) {
        const int g = lane >> 2, q = lane & 3;
        const float out_scale = global * 256.f;
        #pragma unroll
        for (int e = 0; e < 8; e++) {
            float v = acc[e];
            #pragma unroll
            for (int r = 0; r < NWG - 1; r++) v += red[r][e][t];
            const int row = tile_raw * 16 + g + 8 * ((e & 3) >> 1), m = 8 * (e >> 2) + 2 * q + (e & 1);
            if (tile_raw < tiles && m < M) y[static_cast<size_t>(m) * N + row] = __float2half(v * out_scale);
        }
    }
}

__device__ __forceinline__ void cp16(uint32_t s, const void* g) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(g) : "memory");
}
__device__ __forceinline__ void cp4(uint32_t s, const void* g) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(s), "l"(g) : "memory");
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_wait() { asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory"); }

// rg: wg's block with a ring of S stages a warpgroup filled by cp.async, S - 2 steps ahead: each stage holds the
// warpgroup's 4 tiles' weights of one group (4 KiB, warp w's at w * 1024, each lane's 32 bytes where it reads them back),
// their scales (512 bytes) and x in wg's core-matrix order (4 KiB, 8 copies of 4 bytes a thread). A stage is refilled
// at the end of step c for step c + S - 2 (the slot of step c - 2, whose wgmma every warp waited for before barrier c).
template <int NWG, int S, int MINB, bool NOFENCE = false>
__global__ void __launch_bounds__(NWG * 128, MINB)
    rg_nvfp4_m16(const void* Wv, const void* Sv, const __half* x, __half* y, int M, int N, int K, float global,
                 GemvEpilogue) {
    constexpr int SW = 4096, SS = 512, SX = 4096, STAGE = SW + SS + SX;
    static_assert(S >= 3, "stages");
    extern __shared__ __align__(1024) uint8_t smem[];
    __shared__ float red[NWG > 1 ? NWG - 1 : 1][8][128];
    using TC = roofline_tiled::Tc<Fmt::NVFP4, false>;
    using H2 = typename TC::H2;
    const int t = threadIdx.x & 127, wgi = threadIdx.x >> 7, warp = t >> 5, lane = t & 31;
    const int G = K / 128, tiles = N / 16;
    const int tile_raw = blockIdx.x * 4 + warp, tile = tile_raw < tiles ? tile_raw : 0;
    const uint8_t* pw = static_cast<const uint8_t*>(Wv) + (static_cast<size_t>(tile) * G + wgi) * 1024 + 16 * lane;
    const uint8_t* ps = static_cast<const uint8_t*>(Sv) + (static_cast<size_t>(tile) * G + wgi) * 128 + 4 * lane;
    const int xq = t & 3, xr = (t >> 2) & 7, xtg = (t >> 5) & 1, xh = t >> 6, token = 8 * xtg + xr;
    const __half* px = x + static_cast<size_t>(token < M ? token : 0) * K + 128 * wgi + 64 * xh + 16 * xq;
    const uint32_t ring = static_cast<uint32_t>(__cvta_generic_to_shared(smem)) + wgi * S * STAGE;
    const uint32_t w_off = warp * 1024 + 16 * lane, s_off = SW + warp * 128 + 4 * lane;
    const uint32_t x_off = SW + SS + 4 * xh * 512 + xtg * 128 + xr * 16 + xq * 4;
    const int n = wgi < G ? (G - wgi + NWG - 1) / NWG : 0;
    const size_t wstride = static_cast<size_t>(1024) * NWG;
    const int sstride = 128 * NWG, xstride = 128 * NWG;
    float acc[8]; // the first wgmma's scale-d = 0 defines them: a definition by other instructions inside the
                  // pipeline would serialize the wgmma (ptxas C7515)
    // step c's copies into slot, one commit group a call; past the last step the last step's bytes again (a slot
    // nobody reads before it is refilled), so that no branch splits the wgmma pipeline (ptxas serializes it then)
    auto issue = [&](int c, int slot) {
        c = c < n ? c : n - 1;
        const uint32_t b = ring + slot * STAGE;
        cp16(b + w_off, pw + c * wstride);
        cp16(b + w_off + 512, pw + c * wstride + 512);
        cp4(b + s_off, ps + static_cast<size_t>(c) * sstride);
        const __half* p = px + static_cast<size_t>(c) * xstride;
        #pragma unroll
        for (int j = 0; j < 4; j++) {
            cp4(b + x_off + j * 512, p + 4 * j);
            cp4(b + x_off + j * 512 + 256, p + 4 * j + 2);
        }
        cp_commit();
    };
    if (n > 0) {
        #pragma unroll
        for (int c = 0; c < S - 2; c++) issue(c, c);
    }
    int slot = 0, fill = S - 2;
    for (int c = 0; c < n; c++) {
        cp_wait<S - 3>();
        if constexpr (!NOFENCE) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("bar.sync %0, 128;" ::"r"(1 + wgi) : "memory");
        const uint32_t b = ring + slot * STAGE;
        uint4 w0, w1;
        uint32_t sc;
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(w0.x), "=r"(w0.y), "=r"(w0.z), "=r"(w0.w) : "r"(b + w_off));
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(w1.x), "=r"(w1.y), "=r"(w1.z), "=r"(w1.w) : "r"(b + w_off + 512));
        asm volatile("ld.shared.u32 %0, [%1];" : "=r"(sc) : "r"(b + s_off));
        uint32_t a[8][4];
        const uint32_t words[8] = {w0.x, w0.y, w0.z, w0.w, w1.x, w1.y, w1.z, w1.w};
        const H2 lo = TC::nvfp4_scales(sc & 0xFFFFu), hi = TC::nvfp4_scales(sc >> 16);
        const H2 sg[2] = {TC::low(lo), TC::low(hi)}, sg8[2] = {TC::high(lo), TC::high(hi)};
        #pragma unroll
        for (int m = 0; m < 8; m++) {
            roofline_tiled::decode_word<Fmt::NVFP4, false>(words[m], a[m]);
            a[m][0] = TC::scaled(a[m][0], sg[m >> 2]);
            a[m][1] = TC::scaled(a[m][1], sg8[m >> 2]);
            a[m][2] = TC::scaled(a[m][2], sg[m >> 2]);
            a[m][3] = TC::scaled(a[m][3], sg8[m >> 2]);
        }
        wg_fence();
        const uint32_t xb = b + SW + SS;
        #pragma unroll
        for (int m = 0; m < 8; m++) wgmma_f16(acc, a[m], desc_of(xb + m * 512), c > 0 || m > 0);
        wg_commit();
        wg_wait<1>();
        issue(c + S - 2, fill);
        slot = slot + 1 == S ? 0 : slot + 1;
        fill = fill + 1 == S ? 0 : fill + 1;
    }
    wg_wait<0>();
    fence_acc(acc);
    if (n == 0) {
        #pragma unroll
        for (int e = 0; e < 8; e++) acc[e] = 0.f;
    }
    if (wgi > 0) {
        #pragma unroll
        for (int e = 0; e < 8; e++) red[wgi - 1][e][t] = acc[e];
    }
    __syncthreads();
    if (wgi == 0) {
        const int g = lane >> 2, q = lane & 3;
        const float out_scale = global * 256.f;
        #pragma unroll
        for (int e = 0; e < 8; e++) {
            float v = acc[e];
            #pragma unroll
            for (int r = 0; r < NWG - 1; r++) v += red[r][e][t];
            const int row = tile_raw * 16 + g + 8 * ((e & 3) >> 1), m = 8 * (e >> 2) + 2 * q + (e & 1);
            if (tile_raw < tiles && m < M) y[static_cast<size_t>(m) * N + row] = __float2half(v * out_scale);
        }
    }
}

__device__ __forceinline__ void mbar_init(uint32_t a, int count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint32_t a, uint32_t parity) {
    asm volatile("{\n.reg .pred P1;\nWAIT_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
                 "@!P1 bra WAIT_%=;\n}\n" ::"r"(a), "r"(parity) : "memory");
}
// where on: arm mbar for bytes w + s and bulk-copy w bytes and s bytes from gw, gs (predicated, no branch)
__device__ __forceinline__ void bulk2(bool on, uint32_t mbar, uint32_t dw, const void* gw, uint32_t ds, const void* gs) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %0, 0;\n"
                 "@p mbarrier.arrive.expect_tx.shared::cta.b64 _, [%1], 1152;\n"
                 "@p cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%2], [%3], 1024, [%1];\n"
                 "@p cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%4], [%5], 128, [%1];\n}\n"
                 ::"r"(static_cast<int>(on)), "r"(mbar), "r"(dw), "l"(gw), "r"(ds), "l"(gs) : "memory");
}

// tm: wg's block with each warp's weights and scales (1024 + 128 bytes a group, contiguous in the layout) streamed by
// bulk copies (lane 0, an mbarrier per slot) into a ring of S slots of its own, S steps ahead, refilled as soon as the
// warp has read a slot into registers; x staged as in wg (2 loads ahead by registers, 8 stores of 4 bytes, one step
// ahead into 4 stages), the step's 8 wgmma pipelined one step deep. The main loop runs two steps a trip (x's two
// register sets) and an odd last step after it.
template <int NWG, int S, int MINB, int ACC = 1>
__global__ void __launch_bounds__(NWG * 128, MINB)
    tm_nvfp4_m16(const void* Wv, const void* Sv, const __half* x, __half* y, int M, int N, int K, float global,
                 GemvEpilogue) {
    constexpr int WSLOT = 1152, XS = 4096;
    extern __shared__ __align__(1024) uint8_t smem[];
    __shared__ float red[NWG > 1 ? NWG - 1 : 1][8][128];
    __shared__ __align__(8) uint64_t mbar[NWG * 4][S];
    using TC = roofline_tiled::Tc<Fmt::NVFP4, false>;
    using H2 = typename TC::H2;
    const int t = threadIdx.x & 127, wgi = threadIdx.x >> 7, warp = t >> 5, lane = t & 31, gwarp = threadIdx.x >> 5;
    const int G = K / 128, tiles = N / 16;
    const int tile_raw = blockIdx.x * 4 + warp, tile = tile_raw < tiles ? tile_raw : 0;
    const uint8_t* gw0 = static_cast<const uint8_t*>(Wv) + (static_cast<size_t>(tile) * G + wgi) * 1024;
    const uint8_t* gs0 = static_cast<const uint8_t*>(Sv) + (static_cast<size_t>(tile) * G + wgi) * 128;
    const int xq = t & 3, xr = (t >> 2) & 7, xtg = (t >> 5) & 1, xh = t >> 6, token = 8 * xtg + xr;
    const __half* px = x + static_cast<size_t>(token < M ? token : 0) * K + 128 * wgi + 64 * xh + 16 * xq;
    const uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
    const uint32_t xs_base = base + wgi * 4 * XS;                       // 4 stages of x a warpgroup
    const uint32_t wring = base + NWG * 4 * XS + gwarp * S * WSLOT;     // this warp's S slots
    const uint32_t mb = static_cast<uint32_t>(__cvta_generic_to_shared(&mbar[gwarp][0]));
    const uint32_t sts = xs_base + 4 * xh * 512 + xtg * 128 + xr * 16 + xq * 4;
    const int n = wgi < G ? (G - wgi + NWG - 1) / NWG : 0;
    const size_t wstride = static_cast<size_t>(1024) * NWG, sstride = static_cast<size_t>(128) * NWG;
    const int xstride = 128 * NWG;
    if (lane == 0) {
        #pragma unroll
        for (int s = 0; s < S; s++) mbar_init(mb + 8 * s, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncwarp();
    #pragma unroll
    for (int s = 0; s < S; s++)
        bulk2(lane == 0 && s < n, mb + 8 * s, wring + s * WSLOT, gw0 + s * wstride, wring + s * WSLOT + 1024,
              gs0 + s * sstride);
    float accs[ACC][8]; // ACC chains of wgmma a step, each defined by its first wgmma's scale-d = 0 (see wg)
    uint4 xa[2], xb[2]; // x of even and odd steps
    auto load_x = [&](uint4 (&xd)[2], int c) {
        c = c < n ? c : (n > 0 ? n - 1 : 0);
        const uint4* p = reinterpret_cast<const uint4*>(px + static_cast<size_t>(c) * xstride);
        xd[0] = __ldg(p);
        xd[1] = __ldg(p + 1);
    };
    auto store_x = [&](const uint4 (&xd)[2], int stage) {
        const uint32_t b = sts + stage * XS;
        st_shared(b, xd[0].x);
        st_shared(b + 256, xd[0].y);
        st_shared(b + 512, xd[0].z);
        st_shared(b + 768, xd[0].w);
        st_shared(b + 1024, xd[1].x);
        st_shared(b + 1280, xd[1].y);
        st_shared(b + 1536, xd[1].z);
        st_shared(b + 1792, xd[1].w);
    };
    load_x(xa, 0);
    load_x(xb, 1);
    store_x(xa, 0);
    load_x(xa, 2);
    // step c; xn holds x of step c + 1 (stored here into its stage, then loaded again with step c + 3's)
    auto step = [&](int c, uint4 (&xn)[2]) {
        const int slot = c % S;
        const uint32_t sl = wring + slot * WSLOT;
        mbar_wait(mb + 8 * slot, (c / S) & 1);
        uint4 w0, w1;
        uint32_t sc;
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(w0.x), "=r"(w0.y), "=r"(w0.z), "=r"(w0.w) : "r"(sl + 16 * lane) : "memory");
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(w1.x), "=r"(w1.y), "=r"(w1.z), "=r"(w1.w) : "r"(sl + 512 + 16 * lane) : "memory");
        asm volatile("ld.shared.u32 %0, [%1];" : "=r"(sc) : "r"(sl + 1024 + 4 * lane) : "memory");
        __syncwarp();
        bulk2(lane == 0 && c + S < n, mb + 8 * slot, sl, gw0 + (c + S) * wstride, sl + 1024, gs0 + (c + S) * sstride);
        store_x(xn, (c + 1) & 3);
        load_x(xn, c + 3);
        uint32_t a[8][4];
        const uint32_t words[8] = {w0.x, w0.y, w0.z, w0.w, w1.x, w1.y, w1.z, w1.w};
        const H2 lo = TC::nvfp4_scales(sc & 0xFFFFu), hi = TC::nvfp4_scales(sc >> 16);
        const H2 sg[2] = {TC::low(lo), TC::low(hi)}, sg8[2] = {TC::high(lo), TC::high(hi)};
        #pragma unroll
        for (int m = 0; m < 8; m++) {
            roofline_tiled::decode_word<Fmt::NVFP4, false>(words[m], a[m]);
            a[m][0] = TC::scaled(a[m][0], sg[m >> 2]);
            a[m][1] = TC::scaled(a[m][1], sg8[m >> 2]);
            a[m][2] = TC::scaled(a[m][2], sg[m >> 2]);
            a[m][3] = TC::scaled(a[m][3], sg8[m >> 2]);
        }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("bar.sync %0, 128;" ::"r"(1 + wgi) : "memory");
        wg_fence();
        const uint32_t xst = xs_base + (c & 3) * XS;
        #pragma unroll
        for (int m = 0; m < 8; m++) wgmma_f16(accs[m % ACC], a[m], desc_of(xst + m * 512), c > 0 || m >= ACC);
        wg_commit();
        wg_wait<1>();
    };
    int c = 0;
    for (; c + 1 < n; c += 2) {
        step(c, xb);
        step(c + 1, xa);
    }
    wg_wait<0>();
    if (c < n) step(c, xb);
    wg_wait<0>();
    float acc[8];
    #pragma unroll
    for (int e = 0; e < 8; e++) {
        acc[e] = 0.f;
        #pragma unroll
        for (int r = 0; r < ACC; r++) {
            fence_acc(accs[r]);
            acc[e] += accs[r][e];
        }
    }
    if (n == 0) {
        #pragma unroll
        for (int e = 0; e < 8; e++) acc[e] = 0.f;
    }
    if (wgi > 0) {
        #pragma unroll
        for (int e = 0; e < 8; e++) red[wgi - 1][e][t] = acc[e];
    }
    __syncthreads();
    if (wgi == 0) {
        const int g = lane >> 2, q = lane & 3;
        const float out_scale = global * 256.f;
        #pragma unroll
        for (int e = 0; e < 8; e++) {
            float v = acc[e];
            #pragma unroll
            for (int r = 0; r < NWG - 1; r++) v += red[r][e][t];
            const int row = tile_raw * 16 + g + 8 * ((e & 3) >> 1), m = 8 * (e >> 2) + 2 * q + (e & 1);
            if (tile_raw < tiles && m < M) y[static_cast<size_t>(m) * N + row] = __float2half(v * out_scale);
        }
    }
}

__device__ __forceinline__ void bulk_pair(uint32_t mbar, uint32_t dw, const void* gw, uint32_t ds, const void* gs) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];\n"
                 "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%3], [%4], 128, [%2];\n"
                 ::"r"(dw), "l"(gw), "r"(mbar), "r"(ds), "l"(gs) : "memory");
}
__device__ __forceinline__ void mbar_expect(uint32_t mbar, int bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mbar), "r"(bytes) : "memory");
}

// bk: the shipped 16-row NVFP4 kernel (two tiles a block, 8 warps splitting K, gemv_tiled.cu's step with x loaded
// into registers) with each warp's weights and scales of a step (2 x (1024 + 128) bytes) streamed by bulk copies into
// a ring of S slots of its own, S steps ahead, instead of loaded into registers one step ahead.
template <int S, int MINB>
__global__ void __launch_bounds__(256, MINB)
    bk_nvfp4_m16(const void* Wv, const void* Sv, const __half* x, __half* y, int M, int N, int K, float global,
                 GemvEpilogue) {
    constexpr int T = 2, WARPS = 8, NB = 2, SLOT = T * 1152;
    extern __shared__ __align__(1024) uint8_t smem[];
    __shared__ float red[WARPS][T][NB][4][32];
    __shared__ __align__(8) uint64_t mbar[WARPS][S];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, q = lane & 3;
    const int G = K / 128, tiles = N / 16, bt = blockIdx.x;
    const uint8_t* gw[T];
    const uint8_t* gs[T];
    #pragma unroll
    for (int j = 0; j < T; j++) {
        const int tj = bt * T + j < tiles ? bt * T + j : 0;
        gw[j] = static_cast<const uint8_t*>(Wv) + (static_cast<size_t>(tj) * G + warp) * 1024;
        gs[j] = static_cast<const uint8_t*>(Sv) + (static_cast<size_t>(tj) * G + warp) * 128;
    }
    const uint32_t ring = static_cast<uint32_t>(__cvta_generic_to_shared(smem)) + warp * S * SLOT;
    const uint32_t mb = static_cast<uint32_t>(__cvta_generic_to_shared(&mbar[warp][0]));
    const int n = warp < G ? (G - warp + WARPS - 1) / WARPS : 0;
    if (lane == 0) {
        #pragma unroll
        for (int s = 0; s < S; s++) mbar_init(mb + 8 * s, 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncwarp();
    auto fill = [&](int c, int slot) {
        const uint32_t sl = ring + slot * SLOT;
        mbar_expect(mb + 8 * slot, SLOT);
        #pragma unroll
        for (int j = 0; j < T; j++)
            bulk_pair(mb + 8 * slot, sl + j * 1024, gw[j] + static_cast<size_t>(c) * WARPS * 1024,
                      sl + T * 1024 + j * 128, gs[j] + static_cast<size_t>(c) * WARPS * 128);
    };
    if (lane == 0) {
        #pragma unroll
        for (int s = 0; s < S; s++)
            if (s < n) fill(s, s);
    }
    const __half* px[NB];
    #pragma unroll
    for (int f = 0; f < NB; f++) px[f] = x + static_cast<size_t>(8 * f + g < M ? 8 * f + g : 0) * K + 16 * q + 128 * warp;
    float acc[T][NB][4];
    #pragma unroll
    for (int j = 0; j < T; j++)
        #pragma unroll
        for (int f = 0; f < NB; f++)
            #pragma unroll
            for (int c = 0; c < 4; c++) acc[j][f][c] = 0.f;
    const uint32_t rmax[T][2] = {{0, 0}, {0, 0}};
    int slot = 0;
    uint32_t parity = 0;
    for (int c = 0; c < n; c++) {
        uint4 xv[NB][4];
        #pragma unroll
        for (int f = 0; f < NB; f++)
            #pragma unroll
            for (int i = 0; i < 4; i++)
                xv[f][i] = __ldg(reinterpret_cast<const uint4*>(px[f] + static_cast<size_t>(c) * 128 * WARPS + 64 * (i >> 1) + 8 * (i & 1)));
        const uint32_t sl = ring + slot * SLOT;
        mbar_wait(mb + 8 * slot, parity);
        uint4 w[T][2];
        uint2 s[T];
        #pragma unroll
        for (int j = 0; j < T; j++) {
            asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(w[j][0].x), "=r"(w[j][0].y), "=r"(w[j][0].z), "=r"(w[j][0].w) : "r"(sl + j * 1024 + 16 * lane) : "memory");
            asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(w[j][1].x), "=r"(w[j][1].y), "=r"(w[j][1].z), "=r"(w[j][1].w) : "r"(sl + j * 1024 + 512 + 16 * lane) : "memory");
            asm volatile("ld.shared.u32 %0, [%1];" : "=r"(s[j].x) : "r"(sl + T * 1024 + j * 128 + 4 * lane) : "memory");
            s[j].y = 0;
        }
        __syncwarp();
        if (lane == 0 && c + S < n) fill(c + S, slot);
        roofline_tiled::step<Fmt::NVFP4, 16, T, false, 1>(w, s, xv, NB, acc, rmax);
        if (++slot == S) {
            slot = 0;
            parity ^= 1;
        }
    }
    #pragma unroll
    for (int j = 0; j < T; j++)
        #pragma unroll
        for (int f = 0; f < NB; f++)
            #pragma unroll
            for (int c = 0; c < 4; c++) red[warp][j][f][c][lane] = acc[j][f][c];
    __syncthreads();
    const float out_scale = global * 256.f;
    for (int e = threadIdx.x; e < T * NB * 4 * 32; e += WARPS * 32) {
        const int j = e / (NB * 128), f = (e / 128) % NB, c = (e / 32) & 3, l = e & 31;
        const int row = (bt * T + j) * 16 + (l >> 2) + 8 * (c >> 1), m = 8 * f + 2 * (l & 3) + (c & 1);
        if (m < M && row < N) {
            float v = 0.f;
            #pragma unroll
            for (int ww = 0; ww < WARPS; ww++) v += red[ww][j][f][c][l];
            y[static_cast<size_t>(m) * N + row] = __float2half(v * out_scale);
        }
    }
}

// wp: wg with the step loop free of branches, so that ptxas pipelines the wgmma: two steps a trip (weights and x of
// even and odd steps in two register sets), each step's weights loaded two steps ahead and its x three (stored one
// ahead), every load's step clamped to the last instead of skipped; an odd last step after the loop.
template <int NWG, int MINB>
__global__ void __launch_bounds__(NWG * 128, MINB)
    wp_nvfp4_m16(const void* Wv, const void* Sv, const __half* x, __half* y, int M, int N, int K, float global,
                 GemvEpilogue) {
    constexpr int S = 4, XS = 4096;
    extern __shared__ __align__(1024) uint8_t smem[];
    __shared__ float red[NWG > 1 ? NWG - 1 : 1][8][128];
    using TC = roofline_tiled::Tc<Fmt::NVFP4, false>;
    using H2 = typename TC::H2;
    const int t = threadIdx.x & 127, wgi = threadIdx.x >> 7, warp = t >> 5, lane = t & 31;
    const int G = K / 128, tiles = N / 16;
    const int tile_raw = blockIdx.x * 4 + warp, tile = tile_raw < tiles ? tile_raw : 0;
    const uint8_t* pw = static_cast<const uint8_t*>(Wv) + (static_cast<size_t>(tile) * G + wgi) * 1024 + 16 * lane;
    const uint8_t* ps = static_cast<const uint8_t*>(Sv) + (static_cast<size_t>(tile) * G + wgi) * 128 + 4 * lane;
    const int xq = t & 3, xr = (t >> 2) & 7, xtg = (t >> 5) & 1, xh = t >> 6, token = 8 * xtg + xr;
    const __half* px = x + static_cast<size_t>(token < M ? token : 0) * K + 128 * wgi + 64 * xh + 16 * xq;
    const uint32_t xs_base = static_cast<uint32_t>(__cvta_generic_to_shared(smem)) + wgi * S * XS;
    const uint32_t sts = xs_base + 4 * xh * 512 + xtg * 128 + xr * 16 + xq * 4;
    const int n = wgi < G ? (G - wgi + NWG - 1) / NWG : 0;
    const int last = n > 0 ? n - 1 : 0;
    const size_t wstride = static_cast<size_t>(1024) * NWG;
    const int sstride = 128 * NWG, xstride = 128 * NWG;
    struct Wt { uint4 w0, w1; uint32_t s; };
    auto load_w = [&](Wt& d, int c) {
        c = c < n ? c : last;
        d.w0 = load_stream<0>(pw + c * wstride);
        d.w1 = load_stream<0>(pw + c * wstride + 512);
        d.s = __ldg(reinterpret_cast<const uint32_t*>(ps + static_cast<size_t>(c) * sstride));
    };
    auto load_x = [&](uint4 (&xd)[2], int c) {
        c = c < n ? c : last;
        const uint4* p = reinterpret_cast<const uint4*>(px + static_cast<size_t>(c) * xstride);
        xd[0] = __ldg(p);
        xd[1] = __ldg(p + 1);
    };
    auto store_x = [&](const uint4 (&xd)[2], int stage) {
        const uint32_t b = sts + stage * XS;
        st_shared(b, xd[0].x);
        st_shared(b + 256, xd[0].y);
        st_shared(b + 512, xd[0].z);
        st_shared(b + 768, xd[0].w);
        st_shared(b + 1024, xd[1].x);
        st_shared(b + 1280, xd[1].y);
        st_shared(b + 1536, xd[1].z);
        st_shared(b + 1792, xd[1].w);
    };
    float acc[8]; // defined by the first wgmma's scale-d = 0 (see wg)
    Wt wa, wb;
    uint4 xa[2], xb[2];
    load_w(wa, 0);
    load_w(wb, 1);
    load_x(xa, 0);
    load_x(xb, 1);
    store_x(xa, 0);
    load_x(xa, 2);
    // step c on weights wc (reloaded with step c + 2's); xn holds x of step c + 1 (stored, then reloaded with c + 3's)
    auto step = [&](int c, Wt& wc, uint4 (&xn)[2]) {
        const uint32_t words[8] = {wc.w0.x, wc.w0.y, wc.w0.z, wc.w0.w, wc.w1.x, wc.w1.y, wc.w1.z, wc.w1.w};
        const uint32_t sc = wc.s;
        store_x(xn, (c + 1) & 3);
        load_x(xn, c + 3);
        uint32_t a[8][4];
        const H2 lo = TC::nvfp4_scales(sc & 0xFFFFu), hi = TC::nvfp4_scales(sc >> 16);
        const H2 sg[2] = {TC::low(lo), TC::low(hi)}, sg8[2] = {TC::high(lo), TC::high(hi)};
        #pragma unroll
        for (int m = 0; m < 8; m++) {
            roofline_tiled::decode_word<Fmt::NVFP4, false>(words[m], a[m]);
            a[m][0] = TC::scaled(a[m][0], sg[m >> 2]);
            a[m][1] = TC::scaled(a[m][1], sg8[m >> 2]);
            a[m][2] = TC::scaled(a[m][2], sg[m >> 2]);
            a[m][3] = TC::scaled(a[m][3], sg8[m >> 2]);
        }
        load_w(wc, c + 2);
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        asm volatile("bar.sync %0, 128;" ::"r"(1 + wgi) : "memory");
        wg_fence();
        const uint32_t xst = xs_base + (c & 3) * XS;
        #pragma unroll
        for (int m = 0; m < 8; m++) wgmma_f16(acc, a[m], desc_of(xst + m * 512), c > 0 || m > 0);
        wg_commit();
        wg_wait<1>();
    };
    int c = 0;
    for (; c + 1 < n; c += 2) {
        step(c, wa, xb);
        step(c + 1, wb, xa);
    }
    wg_wait<0>();
    if (c < n) step(c, wa, xb);
    wg_wait<0>();
    fence_acc(acc);
    if (n == 0) {
        #pragma unroll
        for (int e = 0; e < 8; e++) acc[e] = 0.f;
    }
    if (wgi > 0) {
        #pragma unroll
        for (int e = 0; e < 8; e++) red[wgi - 1][e][t] = acc[e];
    }
    __syncthreads();
    if (wgi == 0) {
        const int g = lane >> 2, q = lane & 3;
        const float out_scale = global * 256.f;
        #pragma unroll
        for (int e = 0; e < 8; e++) {
            float v = acc[e];
            #pragma unroll
            for (int r = 0; r < NWG - 1; r++) v += red[r][e][t];
            const int row = tile_raw * 16 + g + 8 * ((e & 3) >> 1), m = 8 * (e >> 2) + 2 * q + (e & 1);
            if (tile_raw < tiles && m < M) y[static_cast<size_t>(m) * N + row] = __float2half(v * out_scale);
        }
    }
}
} // namespace wg

#define WGK(NWG, PW, XL, MINB) wg::wg_nvfp4_m16<NWG, PW, XL, MINB>
#define RGK(NWG, S, MINB) wg::rg_nvfp4_m16<NWG, S, MINB>
#define RGN(NWG, S, MINB) wg::rg_nvfp4_m16<NWG, S, MINB, true>
#define TMK(NWG, S, MINB) wg::tm_nvfp4_m16<NWG, S, MINB>
#define BKK(S, MINB) wg::bk_nvfp4_m16<S, MINB>
#define WPK(NWG, MINB) wg::wp_nvfp4_m16<NWG, MINB>
#define TMA(NWG, S, MINB, ACC) wg::tm_nvfp4_m16<NWG, S, MINB, ACC>

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
    int unused_bf16 = 0;   // BF16 activations at 1 and 16 rows: the row-major _w8 kernel, the tiled one (timed only)
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
        {"NVFP4", Fmt::NVFP4, 16, 1, {gemv_nvfp4_f16_m1_w8, gemv_nvfp4_f16_m8_w8, gemv_nvfp4_f16_m16_w8},
         {{"tiled m1", gemv_nvfp4_f16_m1_tiled, 1, 0, 16}, {"shipped b4", gemv_nvfp4_f16_m1_tiled_b4, 1, 0, 16},
          {"tiled m16", gemv_nvfp4_f16_m16_tiled, 16, 0, 32}, {"shipped b3", gemv_nvfp4_f16_m16_tiled_b3, 16, 0, 16},
          {"wg4 p2 x2", WGK(4, 2, 2, 1), 16, 0, 64, 16}, {"wp4", WPK(4, 1), 16, 0, 64, 16},
          {"wp2 b2", WPK(2, 2), 16, 0, 64, 8}, {"wp2", WPK(2, 1), 16, 0, 64, 8}, {"wp1 b4", WPK(1, 4), 16, 0, 64, 4},
          {"wp1 b3", WPK(1, 3), 16, 0, 64, 4}},
         {}},
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




static size_t smem_of(const Variant& v, int) {
    if (std::strncmp(v.name, "wg", 2) == 0) return v.warps / 4 * 16384;
    if (std::strncmp(v.name, "tm", 2) == 0) {
        const int nwg = v.warps / 4, s = std::atoi(v.name + std::strcspn(v.name, "s") + 1);
        return static_cast<size_t>(nwg) * 4 * 4096 + static_cast<size_t>(nwg) * 4 * s * 1152;
    }
    if (std::strncmp(v.name, "wp", 2) == 0) return v.warps / 4 * 16384;
    if (std::strncmp(v.name, "bk", 2) == 0) return static_cast<size_t>(std::atoi(v.name + std::strcspn(v.name, "s") + 1)) * 8 * 2304;
    if (std::strncmp(v.name, "rg", 2) == 0) return v.warps / 4 * static_cast<size_t>(std::atoi(v.name + std::strcspn(v.name, "s") + 1)) * 8704;
    return 0;
}

static void launch_variant(const Variant& v, const Set& set, const __half* x, int M, int N, int K, float global,
                           cudaStream_t st) {
    const int grid = (N + v.rows - 1) / v.rows * v.split;
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
    std::vector<std::pair<int, int>> shapes = {{8192, 8192}, {28672, 8192}, {8192, 28672}, {6144, 4096}, {4096, 4096}, {28672, 4096}, {4096, 14336}, {1024, 4096}, {2096, 8576}};
    int n_arg = 0, k_arg = 0;
    if (std::sscanf(only_shape.c_str(), "%dx%d", &n_arg, &k_arg) == 2 && n_arg > 0 && k_arg > 0)
        shapes = {{n_arg, k_arg}}; // any N x K named on the command line
    const float global = 1.f / 2688;
    for (const Format& f : formats()) {
        if (!only_format.empty() && only_format.find(f.name) == std::string::npos) continue;
        for (const Variant& v : f.variants)
            if (smem_of(v, 0)) CK(cudaFuncSetAttribute(v.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem_of(v, 0))));
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
                    if (std::strstr(v.name, "nofence") == nullptr && (v.name[0] == 'w' || v.name[0] == 'r' || v.name[0] == 't' || v.name[0] == 'b') && !(diff <= w4::MAX_REL_DIFF)) {
                        int sw = 0;
                        CK(cudaMemcpyFromSymbol(&sw, wg::g_desc_swap, sizeof sw));
                        sw = 1 - sw;
                        CK(cudaMemcpyToSymbol(wg::g_desc_swap, &sw, sizeof sw));
                        std::printf("%s: diff %.2e; descriptor swap now %d\n", v.name, diff, sw);
                        run_once([&](const Set& s) { launch_variant(v, s, x, M, N, K, global, st); }, got);
                        diff = 0;
                        for (size_t i = 0; i < outs; i++) {
                            const double dd = std::fabs(static_cast<double>(__half2float(got[i])) - __half2float(ref[i]));
                            diff = std::isnan(dd) ? INFINITY : std::max(diff, dd);
                        }
                        diff /= refmax;
                    }
                    if (std::strstr(v.name, "nofence") == nullptr) ok &= diff <= w4::MAX_REL_DIFF;
                    const float us = time_graph(st, sets, [&](const Set& s) { launch_variant(v, s, x, M, N, K, global, st); });
                    if (std::strncmp(v.name, "tiled", 5) == 0) tiled_us = us; // the shipped kernel, listed first
                    const double gbs = total / (us * 1e-6) / 1e9;
                    std::printf("%-6s %-12s %2d  %-14s %6.1f %8.2f %8.0f %5.1f%% %8.3fx  %.2e%s\n", f.name, shape, M, v.name,
                                smem / 1024.0, us, gbs, 100 * gbs * 1e9 / copy, tiled_us / us, diff,
                                diff <= w4::MAX_REL_DIFF ? "" : "  FAIL");
                    std::fflush(stdout);
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
