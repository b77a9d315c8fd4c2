// NVFP4 weights x NVFP4 activations (W4A4) on the block-scaled mma of sm_120a / sm_121a (GeForce and RTX PRO
// Blackwell, GB10). gemv.cu includes this file after its kernels; it uses gemv.cu's load_stream, e4m3_to_float,
// TC_ROWS, TC_LOAD_HINT and GemvEpilogue. The instruction exists on sm_120a / sm_121a only; the emulated kernels below
// check everything feeding it on any GPU (what has run where: docs/design/gemv-kernels.md, "Native FP4 on Blackwell").
//
// mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3 takes E2M1 on both
// operands, so the activations are quantized first (quantize_x_nvfp4_f16), then the product runs on the mma:
//   xq : E2M1 byte[M][K/2] (element 2i in the low nibble, as the weights), xs : E4M3 byte[M][K/16], x_global : float,
// the bytes Nvfp4Quantizer.modelOpt() writes for x when given the same global scale (x_global: a calibrated
// per-tensor scale, amax / (6 x 448), as ModelOpt's input_scale; the kernel takes it as given).
// y[m][n] = x_global x global x sum_k (e2m1(xq) e4m3(xs)) (e2m1(W) e4m3(scales)), FP32 accumulation in the mma.
//
// Fragments (PTX ISA 9.0, "Matrix Fragments for mma.m16n8k64", Figures 93-96; lane t, g = t / 4, q = t % 4; element i
// of a .b32 register is its nibble i, low to high):
//   A (16 weight rows x 64 k): a0 = row g, k 8q .. 8q+7; a1 = row g+8, same k; a2 = row g, k 32+8q ..; a3 = row g+8, same.
//   B (64 k x 8 activation rows): b0 = column g, k 8q .. 8q+7; b1 = column g, k 32+8q ..
//   C/D: c0, c1 = row g, columns 2q, 2q+1; c2, c3 = row g+8.
// Block scales ("Block Scaling for mma.sync", Tables 35-37, Figures 43-45): with scale_vec::4X, scale_A is 16 x 4 and
// scale_B 4 x 8, and all four bytes of a lane's scale register count (byte-id 0): byte j scales k-slots 16j .. 16j+15.
// thread-id-a = 0: lanes with t % 4 == 0 or 1 give scale_A, lane 4g row g's, lane 4g+1 row g+8's; thread-id-b = 0:
// lane 4g gives column g's scale_B. (Which lane of the pair gives which row is drawn only in Figure 43; CUTLASS's
// SM120_16x8x64_TN_VS traits, include/cute/atom/mma_traits_sm120.hpp, SFALayout, say the same.)
//
// So a scale chunk (16 k-slots) is split over lanes q = 2p, 2p+1 (p = q / 2, h = q % 2), 8 slots each: the two halves
// of one 16-k block must sit in the two lanes of a pair, in the same register. A 16-byte load holds two whole blocks,
// so the pair swaps halves: per 128-k step lane q loads bytes 16q .. 16q+15 (blocks 2q, 2q+1 of the step's 8), keeps
// the halves h of its blocks and sends the others to lane q ^ 1 (exchange_halves), after which it holds half h of
// blocks 4p .. 4p+3. mma s (0, 1) of the step takes blocks 4p + 2s (a0, a1, b0: chunk p) and 4p + 2s + 1 (a2, a3, b1:
// chunk 2 + p), i.e. k-slot 8q + e of a0 / b0 is physical k = 16 (4p + 2s) + 8h + e. Its scale register is the row's
// step scales S0 .. S7 as {S(2s), S(4+2s), S(2s+1), S(5+2s)}: one byte permute. x goes through the same exchange.
// K must be a multiple of 128 (8-byte aligned scale loads); the kernels trap otherwise.
#pragma once

namespace roofline_w4a4 {

using roofline_gemv::load_stream;
using roofline_gemv::e4m3_to_float;
using roofline_gemv::TC_ROWS;
using roofline_gemv::TC_LOAD_HINT;

constexpr int BLOCK = 16;                 // NVFP4 elements per scale
constexpr int STEP_K = 128;               // k per step: 16 bytes of each row per lane, 4 lanes per row
constexpr int STEP_SCALE_BYTES = STEP_K / BLOCK;

// ---- activations -> NVFP4 ----
//
// Nvfp4Quantizer's rounding, bit for bit, in the same float operations (IEEE division; nvcc without fast math):
// s = amax(|block|) / (6 x global), 1 when 0, to E4M3 (E4M3Scale.encode); elements E2M1(x / (e4m3(s) x global))
// (E2M1.encode: ties to even, saturating, the sign of the quotient).
__device__ __forceinline__ uint32_t e4m3_scale_code(float s) { // E4M3Scale.encode for s > 0 (and +inf)
    if (s < 0x1p-6f) return static_cast<uint32_t>(rintf(s * 512.f)); // subnormal step 2^-9, ties to even
    const uint32_t bits = __float_as_uint(s);
    const uint32_t rounded = (bits + 0x7FFFFu + ((bits >> 20) & 1u)) >> 20; // nearest E4M3, ties to even
    return min(rounded - ((127u - 7u) << 3), 126u);                          // rebias; beyond 448 saturates
}
__device__ __forceinline__ uint32_t e2m1_code(float x) { // E2M1.encode
    const float m = fabsf(x);
    const uint32_t code = (m > 0.25f) + (m >= 0.75f) + (m > 1.25f) + (m >= 1.75f) + (m > 2.5f) + (m >= 3.5f) + (m > 5.f);
    return x < 0.f ? code | 8u : code;
}

// One thread per 16-element block: x[M][K] FP16 -> xq[M][K/2], xs[M][K/16]. K must be a multiple of 16.
__device__ __forceinline__ void quantize_block(const __half* __restrict__ x, uint8_t* __restrict__ xq,
                                               uint8_t* __restrict__ xs, size_t b, float global) {
    const uint4* src = reinterpret_cast<const uint4*>(x + b * BLOCK);
    const uint4 v0 = __ldg(src), v1 = __ldg(src + 1);
    const uint32_t words[8] = {v0.x, v0.y, v0.z, v0.w, v1.x, v1.y, v1.z, v1.w};
    float f[BLOCK];
    float amax = 0.f;
    #pragma unroll
    for (int i = 0; i < 8; i++) {
        const float2 p = __half22float2(*reinterpret_cast<const __half2*>(&words[i]));
        f[2 * i] = p.x;
        f[2 * i + 1] = p.y;
        amax = fmaxf(amax, fmaxf(fabsf(p.x), fabsf(p.y)));
    }
    float s = amax / (6.f * global);
    if (s == 0.f) s = 1.f;
    const uint32_t code = e4m3_scale_code(s);
    const float scale = e4m3_to_float(code) * global;
    uint32_t packed[2] = {0u, 0u};
    #pragma unroll
    for (int i = 0; i < BLOCK; i++) packed[i / 8] |= e2m1_code(f[i] / scale) << (4 * (i % 8));
    *reinterpret_cast<uint2*>(xq + b * (BLOCK / 2)) = make_uint2(packed[0], packed[1]);
    xs[b] = static_cast<uint8_t>(code);
}

// ---- the product ----

// This lane's 16 bytes (words w.x .. w.w: halves 0, 1 of block 2q, then of block 2q + 1) -> half h of blocks
// 4p .. 4p+3 (out[j]: block 4p + j), by swapping with lane q ^ 1 the halves the other lane keeps.
__device__ __forceinline__ void exchange_halves(const uint4& w, bool h, uint32_t (&out)[4]) {
    const uint32_t ra = __shfl_xor_sync(0xFFFFFFFFu, h ? w.x : w.y, 1);
    const uint32_t rb = __shfl_xor_sync(0xFFFFFFFFu, h ? w.z : w.w, 1);
    out[0] = h ? ra : w.x;
    out[1] = h ? rb : w.z;
    out[2] = h ? w.y : ra;
    out[3] = h ? w.w : rb;
}

// mma s of a step's scale register from the row's step scales (lo = S0..S3, hi = S4..S7): {S(2s), S(4+2s), S(2s+1), S(5+2s)}
__device__ __forceinline__ uint32_t step_scales(uint2 s, int mma) {
    return __byte_perm(s.x, s.y, mma == 0 ? 0x5140 : 0x7362);
}

// The instruction, where it exists. Other targets never instantiate the kernels' bodies (see the kernels below).
struct BlockScaledMma {
    __device__ __forceinline__ static void run(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                               uint32_t b0, uint32_t b1, uint32_t sfa, uint32_t sfb) {
#if defined(__CUDA_ARCH_FEAT_SM120_ALL) || defined(__CUDA_ARCH_FEAT_SM121_ALL)
        asm("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3 "
            "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3}, %10, {0, 0}, %11, {0, 0};"
            : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
            : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(sfa), "r"(sfb));
#else
        __trap();
#endif
    }
};

// The instruction computed from the PTX ISA's tables (the fragment and scale layouts in this file's header, read
// independently of the packing above), one warp at a time through shared memory: what the kernels' loads, half
// exchange and scale permutes feed the mma can be checked on a GPU without the instruction
// (gemv_nvfp4_w4a4_emulated_*, GemvKernelsIT), and beside the instruction on one that has it.
struct EmulatedMma {
    static constexpr int WARPS = 8; // the emulated kernels' blocks
    __device__ static float e2m1_value(uint32_t c) {
        const float mag = (c & 7) < 4 ? 0.5f * (c & 7) : (c & 7) == 4 ? 2.f : (c & 7) == 5 ? 3.f : (c & 7) == 6 ? 4.f : 6.f;
        return (c & 8) ? -mag : mag;
    }
    __device__ static void run(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0,
                               uint32_t b1, uint32_t sfa, uint32_t sfb) {
        __shared__ uint8_t A[WARPS][16][64], B[WARPS][64][8], SA[WARPS][16][4], SB[WARPS][4][8];
        const int w = threadIdx.x >> 5, lane = threadIdx.x & 31, g = lane >> 2, q = lane & 3;
        const uint32_t ar[4] = {a0, a1, a2, a3}, br[2] = {b0, b1};
        __syncwarp();
        for (int i = 0; i < 32; i++) { // a_j nibble e: row g (j even) or g + 8, k 8q + e (+32 for j >= 2)
            const int row = (i < 8 || (i >= 16 && i < 24)) ? g : g + 8;
            A[w][row][q * 8 + (i & 7) + (i >= 16 ? 32 : 0)] = (ar[i / 8] >> (4 * (i % 8))) & 0xF;
        }
        for (int i = 0; i < 16; i++) // b_j nibble e: column g, k 8q + e (+32 for j = 1)
            B[w][q * 8 + (i & 7) + (i >= 8 ? 32 : 0)][g] = (br[i / 8] >> (4 * (i % 8))) & 0xF;
        for (int j = 0; j < 4; j++) { // scale byte j: k 16j .. 16j + 15
            if (q == 0) SA[w][g][j] = (sfa >> (8 * j)) & 0xFF;
            if (q == 1) SA[w][g + 8][j] = (sfa >> (8 * j)) & 0xFF;
            if (q == 0) SB[w][j][g] = (sfb >> (8 * j)) & 0xFF;
        }
        __syncwarp();
        for (int i = 0; i < 4; i++) { // d_i: row g + 8 (i / 2), column 2q + i % 2
            const int row = g + 8 * (i >> 1), col = 2 * q + (i & 1);
            float s = 0.f;
            for (int k = 0; k < 64; k++)
                s += e2m1_value(A[w][row][k]) * e4m3_to_float(SA[w][row][k / 16]) * e2m1_value(B[w][k][col])
                     * e4m3_to_float(SB[w][k / 16][col]);
            d[i] += s;
        }
        __syncwarp();
    }
};

// One 128-k step of this lane: 16 weight bytes of rows g (wa) and g + 8 (wb), the weight scales of row g (q even) or
// g + 8 (q odd), 16 bytes of x and x's scales (the row of column g).
template <typename Mma>
__device__ __forceinline__ void step(const uint4& wa, const uint4& wb, uint2 sw, const uint4& xv, uint2 sx, bool h,
                                     float (&acc)[4]) {
    uint32_t u[4], v[4], b[4];
    exchange_halves(wa, h, u);
    exchange_halves(wb, h, v);
    exchange_halves(xv, h, b);
    #pragma unroll
    for (int s = 0; s < 2; s++)
        Mma::run(acc, u[2 * s], v[2 * s], u[2 * s + 1], v[2 * s + 1], b[2 * s], b[2 * s + 1], step_scales(sw, s),
                 step_scales(sx, s));
}

// y = x . W^T for M <= 8 (column m of B = activation row m; columns past M read row 0 and are not written). A block of
// WARPS warps owns TC_ROWS = 16 output rows and splits K as gemv_tc does (step it to warp it % WARPS, UNROLL steps of
// weight loads in flight, partial sums added in shared memory); x and its scales are loaded where a step uses them.
// out_scale = global x x_global.
template <int MAXM, int UNROLL, int WARPS, typename Mma>
__device__ __forceinline__ void gemv_w4a4(const uint8_t* __restrict__ W, const uint8_t* __restrict__ scales,
                                          const uint8_t* __restrict__ xq, const uint8_t* __restrict__ xs,
                                          __half* __restrict__ y, int M, int N, int K, float out_scale, int tile) {
    static_assert(MAXM >= 1 && MAXM <= 8, "one B fragment: up to 8 activation rows");
    __shared__ float red[WARPS][4][32];
    if (blockDim.x != WARPS * 32 || K % STEP_K != 0) __trap(); // another shape would skip steps or overrun red
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int g = lane >> 2, q = lane & 3;
    const bool h = q & 1;
    const int n0 = tile * TC_ROWS;
    const int m_count = MAXM == 1 ? 1 : M;
    const int r0 = n0 + g < N ? n0 + g : 0, r1 = n0 + g + 8 < N ? n0 + g + 8 : 0; // rows past N read row 0
    const int xr = g < m_count ? g : 0;
    const size_t row_bytes = static_cast<size_t>(K) / 2, row_scales = static_cast<size_t>(K) / BLOCK;
    // this warp's first step in rows g and g + 8, the scales this lane hands to the mma (q = 0: row g, q = 1: g + 8;
    // q = 2, 3 load row g's or g + 8's and go unread), x's row g piece and its scales
    const uint8_t* pw0 = W + r0 * row_bytes + 16 * q + 64 * warp;
    const uint8_t* pw1 = W + r1 * row_bytes + 16 * q + 64 * warp;
    const uint8_t* ps = scales + (h ? r1 : r0) * row_scales + STEP_SCALE_BYTES * warp;
    const uint8_t* px = xq + xr * row_bytes + 16 * q + 64 * warp;
    const uint8_t* pxs = xs + xr * row_scales + STEP_SCALE_BYTES * warp;
    const int steps = K / STEP_K;

    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    auto advance = [&](int n) {
        pw0 += 64 * WARPS * n;
        pw1 += 64 * WARPS * n;
        ps += STEP_SCALE_BYTES * WARPS * n;
        px += 64 * WARPS * n;
        pxs += STEP_SCALE_BYTES * WARPS * n;
    };
    auto x_step = [&](int u, uint4& xv, uint2& sx) {
        xv = __ldg(reinterpret_cast<const uint4*>(px + 64 * WARPS * u));
        sx = __ldg(reinterpret_cast<const uint2*>(pxs + STEP_SCALE_BYTES * WARPS * u));
    };
    int it = warp;
    for (; it + WARPS * (UNROLL - 1) < steps; it += WARPS * UNROLL) {
        uint4 wa[UNROLL], wb[UNROLL];
        uint2 sw[UNROLL];
        #pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            wa[u] = load_stream<TC_LOAD_HINT>(pw0 + 64 * WARPS * u);
            wb[u] = load_stream<TC_LOAD_HINT>(pw1 + 64 * WARPS * u);
            sw[u] = __ldg(reinterpret_cast<const uint2*>(ps + STEP_SCALE_BYTES * WARPS * u));
        }
        #pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            uint4 xv;
            uint2 sx;
            x_step(u, xv, sx);
            step<Mma>(wa[u], wb[u], sw[u], xv, sx, h, acc);
        }
        advance(UNROLL);
    }
    for (; it < steps; it += WARPS) { // at most UNROLL - 1 steps per warp
        const uint4 wa = load_stream<TC_LOAD_HINT>(pw0), wb = load_stream<TC_LOAD_HINT>(pw1);
        const uint2 sw = __ldg(reinterpret_cast<const uint2*>(ps));
        uint4 xv;
        uint2 sx;
        x_step(0, xv, sx);
        step<Mma>(wa, wb, sw, xv, sx, h, acc);
        advance(1);
    }
    #pragma unroll
    for (int c = 0; c < 4; c++) red[warp][c][lane] = acc[c];
    __syncthreads();
    for (int e = threadIdx.x; e < 4 * 32; e += WARPS * 32) {
        const int c = e / 32, l = e & 31;
        const int row = n0 + (l >> 2) + 8 * (c >> 1);
        const int m = 2 * (l & 3) + (c & 1);
        if (m < m_count && row < N) {
            float v = 0.f;
            #pragma unroll
            for (int w = 0; w < WARPS; w++) v += red[w][c][l];
            y[static_cast<size_t>(m) * N + row] = __float2half_rn(v * out_scale);
        }
    }
}

} // namespace roofline_w4a4

// x[M][K] FP16 -> NVFP4 (xq, xs) with the global scale x_global: one thread per 16 elements, any 1-D grid (grid-stride).
// Runs on every target.
extern "C" __global__ void __launch_bounds__(256)
quantize_x_nvfp4_f16(const __half* x, uint8_t* xq, uint8_t* xs, int M, int K, float x_global) {
    roofline_launch::wait_for_previous_kernel();
    const size_t blocks = static_cast<size_t>(M) * (K / roofline_w4a4::BLOCK);
    for (size_t b = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; b < blocks;
         b += static_cast<size_t>(gridDim.x) * blockDim.x)
        roofline_w4a4::quantize_block(x, xq, xs, b, x_global);
}

// gemv_nvfp4_w4a4_m<1|8>_w<8|16>: M = 1 or 2..8 activation rows, K split over 8 or 16 warps (blockDim.x = 32 x warps),
// one block per TC_ROWS output rows; W and scales as the other NVFP4 kernels take them, xq / xs from
// quantize_x_nvfp4_f16, y FP16 [M][N]. ep is taken for the common parameter tail and ignored (no epilogue).
// On targets without the instruction the kernels exist and trap.
#if defined(__CUDA_ARCH_FEAT_SM120_ALL) || defined(__CUDA_ARCH_FEAT_SM121_ALL)
#define ROOFLINE_W4A4_BODY(MAXM, UNR, W)                                                                         \
    roofline_w4a4::gemv_w4a4<MAXM, UNR, W, roofline_w4a4::BlockScaledMma>(                                       \
            static_cast<const uint8_t*>(Wt), static_cast<const uint8_t*>(scales), static_cast<const uint8_t*>(xq), \
            static_cast<const uint8_t*>(xs), y, M, N, K, global * x_global, blockIdx.x);
#else
#define ROOFLINE_W4A4_BODY(MAXM, UNR, W) __trap();
#endif
#define ROOFLINE_GEMV_W4A4(MAXM, UNR, W)                                                                         \
    extern "C" __global__ void __launch_bounds__(W * 32)                                                         \
    gemv_nvfp4_w4a4_m##MAXM##_w##W(const void* Wt, const void* scales, const void* xq, const void* xs, __half* y, \
                                   int M, int N, int K, float global, float x_global, GemvEpilogue ep) {          \
        roofline_launch::wait_for_previous_kernel();                                                            \
        ROOFLINE_W4A4_BODY(MAXM, UNR, W)                                                                         \
    }
ROOFLINE_GEMV_W4A4(1, 4, 8)
ROOFLINE_GEMV_W4A4(1, 4, 16)
ROOFLINE_GEMV_W4A4(8, 4, 8)
ROOFLINE_GEMV_W4A4(8, 4, 16)
#undef ROOFLINE_GEMV_W4A4
#undef ROOFLINE_W4A4_BODY
// the same kernels with the mma emulated (EmulatedMma), 8 warps, on every target
#define ROOFLINE_GEMV_W4A4_EMULATED(MAXM)                                                                        \
    extern "C" __global__ void __launch_bounds__(roofline_w4a4::EmulatedMma::WARPS * 32)                         \
    gemv_nvfp4_w4a4_emulated_m##MAXM##_w8(const void* Wt, const void* scales, const void* xq, const void* xs,    \
                                          __half* y, int M, int N, int K, float global, float x_global,         \
                                          GemvEpilogue ep) {                                                    \
        roofline_launch::wait_for_previous_kernel();                                                            \
        roofline_w4a4::gemv_w4a4<MAXM, 4, roofline_w4a4::EmulatedMma::WARPS, roofline_w4a4::EmulatedMma>(       \
                static_cast<const uint8_t*>(Wt), static_cast<const uint8_t*>(scales),                           \
                static_cast<const uint8_t*>(xq), static_cast<const uint8_t*>(xs), y, M, N, K, global * x_global, \
                blockIdx.x);                                                                                    \
    }
ROOFLINE_GEMV_W4A4_EMULATED(1)
ROOFLINE_GEMV_W4A4_EMULATED(8)
#undef ROOFLINE_GEMV_W4A4_EMULATED
