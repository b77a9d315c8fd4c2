// roofline weight-only GEMV kernels: y[M x N] = x[M x K] . W[N x K]^T, FP32 accumulation, M = 1..16.
//
// Weights are stored exactly as roofline-quant writes them (row n holds the K inputs of output n):
//   fp16 / bf16 : W 2 bytes per element
//   fp8  (E4M3) : W 1 byte, scales = float[N] (per output channel)
//   int8        : W 1 byte (two's complement), scales = float[N]
//   int4        : W 4 bits (two's complement, element 2i in the low nibble), scales = float[N * K/128] (group 128)
//   nvfp4       : W E2M1 (element 2i low nibble), scales = E4M3 byte[N * K/16], global = ModelOpt weight_scale_2
//   mxfp4       : W E2M1 (element 2i low nibble), scales = E8M0 byte[N * K/32]
// Activations x and outputs y are fp16 or bf16, row-major. Every kernel has the same parameters:
//   (const void* W, const void* scales, const T* x, T* y, int M, int N, int K, float global)
// One warp computes one output row; each lane streams 16-byte chunks of the row. K must be a multiple of
// 16 bytes' worth of elements (8, 16 or 32) and, for int4, of 128. Kernel names are extern "C" so the Java side
// can find them with cudaLibraryGetKernel: gemv_<format>_<activation>_m<1|16>.
//
// Decoding uses register bit tricks, never a table in shared memory (a 256-entry table costs ~4-way bank conflicts
// per lookup and caps 4-bit formats near half the memory bandwidth):
//   int8  : byte ^ 0x80 placed under 0x64 is the half 1024 + 128 + b; subtracting 1152 in half is exact.
//   int4  : nibble ^ 8 under 0x6400 is the half 1024 + 8 + n; subtracting 1032 is exact.
//   e2m1  : sign to bit 15, exponent and mantissa to bits 9..11 gives the half value * 2^-14 (subnormal for 0.5);
//           the 2^14 is folded into the FP32 block scale.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <stdint.h>

namespace {

constexpr int WARPS_PER_BLOCK = 4;
constexpr int UNROLL = 4;
constexpr float E2M1_FIXUP = 16384.f; // 2^14, see the header

__device__ __forceinline__ uint4 load_stream(const void* p) {
    uint4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}

__device__ __forceinline__ float2 half2_bits_to_float2(uint32_t two) {
    return __half22float2(*reinterpret_cast<__half2*>(&two));
}
__device__ __forceinline__ float2 bf162_bits_to_float2(uint32_t two) {
    return make_float2(__uint_as_float(two << 16), __uint_as_float(two & 0xFFFF0000u));
}
// a - b on two halves, as bits
__device__ __forceinline__ uint32_t hsub2_bits(uint32_t a, uint32_t b) {
    __half2 r = __hsub2(*reinterpret_cast<__half2*>(&a), *reinterpret_cast<__half2*>(&b));
    return *reinterpret_cast<uint32_t*>(&r);
}

template <typename T> __device__ __forceinline__ float2 to_float2(uint32_t two);
template <> __device__ __forceinline__ float2 to_float2<__half>(uint32_t two) { return half2_bits_to_float2(two); }
template <> __device__ __forceinline__ float2 to_float2<__nv_bfloat16>(uint32_t two) { return bf162_bits_to_float2(two); }
template <typename T> __device__ __forceinline__ T from_float(float v);
template <> __device__ __forceinline__ __half from_float<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_float<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

// the 8 activations x[m][k0 .. k0+8) as floats
template <typename T>
__device__ __forceinline__ void load_x8(const T* x, float (&xf)[8]) {
    uint4 v = __ldg(reinterpret_cast<const uint4*>(x));
    float2 a = to_float2<T>(v.x), b = to_float2<T>(v.y), c = to_float2<T>(v.z), d = to_float2<T>(v.w);
    xf[0] = a.x; xf[1] = a.y; xf[2] = b.x; xf[3] = b.y; xf[4] = c.x; xf[5] = c.y; xf[6] = d.x; xf[7] = d.y;
}

enum class Fmt { F16, BF16, FP8, INT8, INT4, NVFP4, MXFP4 };

template <Fmt F> struct Traits;
template <> struct Traits<Fmt::F16>   { static constexpr int EPC = 8; };
template <> struct Traits<Fmt::BF16>  { static constexpr int EPC = 8; };
template <> struct Traits<Fmt::FP8>   { static constexpr int EPC = 16; };
template <> struct Traits<Fmt::INT8>  { static constexpr int EPC = 16; };
template <> struct Traits<Fmt::INT4>  { static constexpr int EPC = 32; };
template <> struct Traits<Fmt::NVFP4> { static constexpr int EPC = 32; };
template <> struct Traits<Fmt::MXFP4> { static constexpr int EPC = 32; };

// One 16-byte chunk of weights as EPC floats in element order, before any per-block/group scale
// (e2m1 values come out multiplied by 2^-14).
template <Fmt F>
__device__ __forceinline__ void decode(uint4 w, float (&wf)[Traits<F>::EPC]) {
    const uint32_t words[4] = {w.x, w.y, w.z, w.w};
    #pragma unroll
    for (int i = 0; i < 4; i++) {
        const uint32_t v = words[i];
        if constexpr (F == Fmt::F16 || F == Fmt::BF16) {
            float2 p = F == Fmt::F16 ? half2_bits_to_float2(v) : bf162_bits_to_float2(v);
            wf[2 * i] = p.x; wf[2 * i + 1] = p.y;
        } else if constexpr (F == Fmt::FP8) {
            __half2_raw lo = __nv_cvt_fp8x2_to_halfraw2(static_cast<__nv_fp8x2_storage_t>(v & 0xFFFF), __NV_E4M3);
            __half2_raw hi = __nv_cvt_fp8x2_to_halfraw2(static_cast<__nv_fp8x2_storage_t>(v >> 16), __NV_E4M3);
            float2 a = __half22float2(*reinterpret_cast<__half2*>(&lo));
            float2 b = __half22float2(*reinterpret_cast<__half2*>(&hi));
            wf[4 * i] = a.x; wf[4 * i + 1] = a.y; wf[4 * i + 2] = b.x; wf[4 * i + 3] = b.y;
        } else if constexpr (F == Fmt::INT8) {
            const uint32_t t = v ^ 0x80808080u;
            float2 a = half2_bits_to_float2(hsub2_bits(__byte_perm(t, 0x64646464u, 0x4140), 0x64806480u));
            float2 b = half2_bits_to_float2(hsub2_bits(__byte_perm(t, 0x64646464u, 0x4342), 0x64806480u));
            wf[4 * i] = a.x; wf[4 * i + 1] = a.y; wf[4 * i + 2] = b.x; wf[4 * i + 3] = b.y;
        } else if constexpr (F == Fmt::INT4) {
            #pragma unroll
            for (int s = 0; s < 4; s++) { // elements s and s + 4 of this word
                const uint32_t h = ((v >> (4 * s)) & 0x000F000Fu) ^ 0x64086408u;
                float2 p = half2_bits_to_float2(hsub2_bits(h, 0x64086408u));
                wf[8 * i + s] = p.x; wf[8 * i + s + 4] = p.y;
            }
        } else { // NVFP4, MXFP4: E2M1
            #pragma unroll
            for (int s = 0; s < 4; s++) { // elements s and s + 4: nibbles moved to bits 12..15 and 28..31
                const uint32_t t = v << (12 - 4 * s);
                const uint32_t h = (t & 0x80008000u) | ((t & 0x70007000u) >> 3);
                float2 p = half2_bits_to_float2(h);
                wf[8 * i + s] = p.x; wf[8 * i + s + 4] = p.y;
            }
        }
    }
}

__device__ __forceinline__ float e4m3_to_float(uint32_t code) {
    __half_raw h = __nv_cvt_fp8_to_halfraw(static_cast<__nv_fp8_storage_t>(code), __NV_E4M3);
    return __half2float(*reinterpret_cast<__half*>(&h));
}

__device__ __forceinline__ float e8m0_to_float(uint32_t code) {
    if (code == 0xFF) return __uint_as_float(0x7FC00000u);                    // NaN
    return code == 0 ? __uint_as_float(0x00400000u) : __uint_as_float(code << 23); // 2^(code - 127)
}

template <Fmt F, typename T, int MAXM>
__device__ __forceinline__ void gemv(const void* __restrict__ Wv, const void* __restrict__ scales,
                                     const T* __restrict__ x, T* __restrict__ y, int M, int N, int K, float global) {
    constexpr int EPC = Traits<F>::EPC;
    const int lane = threadIdx.x & 31;
    const int n = blockIdx.x * WARPS_PER_BLOCK + (threadIdx.x >> 5);
    if (n >= N) return;
    const int m_count = MAXM == 1 ? 1 : M;
    const int chunks = K / EPC;
    const uint8_t* row = static_cast<const uint8_t*>(Wv) + static_cast<size_t>(n) * chunks * 16;

    float acc[MAXM];
    #pragma unroll
    for (int m = 0; m < MAXM; m++) acc[m] = 0.f;

    for (int c0 = lane; c0 < chunks; c0 += 32 * UNROLL) {
        uint4 w[UNROLL];
        #pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            int c = c0 + 32 * u;
            if (c < chunks) w[u] = load_stream(row + static_cast<size_t>(c) * 16);
        }
        #pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            int c = c0 + 32 * u;
            if (c >= chunks) break;
            float wf[EPC];
            decode<F>(w[u], wf);
            const int k0 = c * EPC;
            // block / group scales inside this chunk: s0 for its first half, s1 for its second
            float s0 = 1.f, s1 = 1.f;
            if constexpr (F == Fmt::NVFP4) {
                const uint8_t* sc = static_cast<const uint8_t*>(scales) + static_cast<size_t>(n) * (K / 16) + k0 / 16;
                const uint32_t two = __ldg(reinterpret_cast<const unsigned short*>(sc)); // k0 / 16 is even
                s0 = e4m3_to_float(two & 0xFF) * (global * E2M1_FIXUP);
                s1 = e4m3_to_float(two >> 8) * (global * E2M1_FIXUP);
            } else if constexpr (F == Fmt::MXFP4) {
                s0 = s1 = e8m0_to_float(__ldg(static_cast<const uint8_t*>(scales) + static_cast<size_t>(n) * (K / 32) + k0 / 32))
                        * E2M1_FIXUP;
            } else if constexpr (F == Fmt::INT4) {
                s0 = s1 = __ldg(static_cast<const float*>(scales) + static_cast<size_t>(n) * (K / 128) + k0 / 128);
            }
            #pragma unroll
            for (int m = 0; m < MAXM; m++) {
                if (m >= m_count) break;
                const T* xr = x + static_cast<size_t>(m) * K + k0;
                float part0 = 0.f, part1 = 0.f;
                #pragma unroll
                for (int e = 0; e < EPC; e += 8) {
                    float xf[8];
                    load_x8<T>(xr + e, xf);
                    #pragma unroll
                    for (int j = 0; j < 8; j++) {
                        if (e + j < EPC / 2) part0 = fmaf(wf[e + j], xf[j], part0);
                        else part1 = fmaf(wf[e + j], xf[j], part1);
                    }
                }
                acc[m] = fmaf(part0, s0, fmaf(part1, s1, acc[m]));
            }
        }
    }
    float row_scale = 1.f;
    if constexpr (F == Fmt::FP8 || F == Fmt::INT8) row_scale = static_cast<const float*>(scales)[n];
    #pragma unroll
    for (int m = 0; m < MAXM; m++) {
        if (m >= m_count) break;
        float v = acc[m];
        #pragma unroll
        for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, off);
        if (lane == 0) y[static_cast<size_t>(m) * N + n] = from_float<T>(v * row_scale);
    }
}

} // namespace

#define ROOFLINE_GEMV(FMT, fmt, T, act, MAXM)                                                                   \
    extern "C" __global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)                                           \
    gemv_##fmt##_##act##_m##MAXM(const void* W, const void* scales, const T* x, T* y, int M, int N, int K,      \
                                 float global) {                                                                \
        gemv<Fmt::FMT, T, MAXM>(W, scales, x, y, M, N, K, global);                                              \
    }
#define ROOFLINE_GEMV_ALL(FMT, fmt)                      \
    ROOFLINE_GEMV(FMT, fmt, __half, f16, 1)              \
    ROOFLINE_GEMV(FMT, fmt, __half, f16, 16)             \
    ROOFLINE_GEMV(FMT, fmt, __nv_bfloat16, bf16, 1)      \
    ROOFLINE_GEMV(FMT, fmt, __nv_bfloat16, bf16, 16)

ROOFLINE_GEMV_ALL(F16, fp16)
ROOFLINE_GEMV_ALL(BF16, bf16)
ROOFLINE_GEMV_ALL(FP8, fp8)
ROOFLINE_GEMV_ALL(INT8, int8)
ROOFLINE_GEMV_ALL(INT4, int4)
ROOFLINE_GEMV_ALL(NVFP4, nvfp4)
ROOFLINE_GEMV_ALL(MXFP4, mxfp4)
