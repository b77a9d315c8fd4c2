// roofline weight-only GEMV kernels: y[M x N] = x[M x K] . W[N x K]^T, FP32 accumulation, M = 1..32.
//
// Weights and scales are the bytes roofline-quant writes (row n holds the K inputs of output n), MXFP4's scales with
// one derived byte per row after them:
//   fp16 / bf16 : W 2 bytes per element
//   fp8  (E4M3) : W 1 byte, scales = float[N] (per output channel)
//   int8        : W 1 byte (two's complement), scales = float[N]
//   int4        : W 4 bits (two's complement, element 2i in the low nibble), scales = float[N * K/128] (group 128)
//   nvfp4       : W E2M1 (element 2i low nibble), scales = E4M3 byte[N * K/16], global = ModelOpt weight_scale_2
//   mxfp4       : W E2M1 (element 2i low nibble), scales = E8M0 byte[N * K/32], then byte[N]: each row's largest
//                 E8M0 code (read by the tensor-core kernels; DeviceWeights.upload appends it)
// Activations x and outputs y are fp16 or bf16, row-major. Every kernel has the same parameters:
//   (const void* W, const void* scales, const T* x, T* y, int M, int N, int K, float global, GemvEpilogue ep)
// ep (below) adds a decoder's residual add and RMSNorm to the outputs; all null, the kernel is the plain product.
// One warp computes one output row (two at M = 1 for the 8- and 16-bit formats); each lane streams 16-byte chunks of
// the row (except NVFP4, MXFP4 and INT4, and every format above one row where its activations allow, which run on the
// tensor cores with 16 rows per block: see gemv_tc and the kernel list at the end). K must be a multiple of 16
// bytes' worth of elements (8, 16 or 32) and, for int4, of 128. Kernel
// names are extern "C" so the Java side can find them with cudaLibraryGetKernel: gemv_<format>_<activation>_m<1|16>,
// and for the tensor-core kernels gemv_<format>_<activation>_m<1|8|16|32> with their K split appended (_w8 or _w16).
//
// Decoding uses register bit tricks, never a table in shared memory (a 256-entry table costs ~4-way bank conflicts
// per lookup and caps 4-bit formats near half the memory bandwidth):
//   int8  : byte ^ 0x80 placed under 0x64 is the half 1024 + 128 + b; subtracting 1152 in half is exact.
//   int4  : nibble ^ 8 under 0x6400 is the half 1024 + 8 + n; subtracting 1032 is exact (under 0x4300 the bf16
//           128 + 8 + n, less 136).
//   e2m1  : sign to bit 15, exponent and mantissa to bits 9..11 gives the half value * 2^-14 (subnormal for 0.5; to
//           bits 6..8 the bf16 value * 2^-126); the power of two is folded into the block scale.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <stdint.h>
#include <type_traits>

#include "launch_order.cuh"

// A named namespace, not an anonymous one: nvcc names an anonymous namespace after the source's path, and those names
// reach the fatbin, which would then differ from one checkout folder to another.
namespace roofline_gemv {

constexpr int WARPS_PER_BLOCK = 4;

// The weight stream's loads: read once, so not kept in L1. HINT 1 and 2 add an L2 prefetch size (.L2::128B, .L2::256B:
// an L2 miss fetches the aligned 128 / 256 bytes around the 16 read), 3 an L2 evict_first policy, 4 both 2 and 3.
// The tensor-core kernels use 1 (TC_LOAD_HINT): one load covers 64 bytes of 8 rows, and the larger fetch brings in the
// next K-split warp's piece of each row. The CUDA-core kernels use 0: one load already covers 512 bytes of one row.
// 2 gains nothing over 1; 3 and 4 are slower (docs/design/gemv-kernels.md#weight-loads-and-the-l2-prefetch-size).
template <int HINT = 0>
__device__ __forceinline__ uint4 load_stream(const void* p) {
    uint4 v;
    if constexpr (HINT == 0) {
        asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    } else if constexpr (HINT == 1) {
        asm volatile("ld.global.nc.L1::no_allocate.L2::128B.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    } else if constexpr (HINT == 2) {
        asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    } else {
        uint64_t pol;
        asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
        if constexpr (HINT == 3)
            asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                         : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(pol));
        else
            asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4], %5;"
                         : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p), "l"(pol));
    }
    return v;
}

// Asks L1 for the line holding p; no register holds anything until the load that uses it. The tensor-core kernels ask
// at their start for their tail's operands (row scales, the epilogue's residual and norm weight), so that the tail,
// with no weight bytes left in flight, does not wait a memory round trip for them: Llama-3-8B's FP8 steps on an H200
// 14-15 us faster at batch 1 and 20 us at batch 8. Not the norm's sums, one line that every block would ask for at
// once, nor in the CUDA-core kernels: the two together made the gate/up product 1.5-2x slower in the step
// (docs/measurements/2026-11-27-issue15-in-step-h200).
__device__ __forceinline__ void prefetch_l1(const void* p) {
    asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
}

// A shared-memory address in the shared window (32 bits), as cp.async, ldmatrix and the other .shared instructions
// take it; a thread may keep it so that each later access is one add or XOR on it
__device__ __forceinline__ uint32_t smem_address(const void* p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ float2 half2_bits_to_float2(uint32_t two) {
    return __half22float2(*reinterpret_cast<__half2*>(&two));
}
// The E4M3 codes in the low two bytes of `two` as an FP16 pair, the lower byte in the lower half, exactly (every E4M3
// value is an FP16 value; one cvt.rn.f16x2.e4m3x2 on sm_89 and later)
__device__ __forceinline__ uint32_t e4m3x2_to_half2_bits(uint32_t two) {
    __half2_raw h = __nv_cvt_fp8x2_to_halfraw2(static_cast<__nv_fp8x2_storage_t>(two & 0xFFFFu), __NV_E4M3);
    return *reinterpret_cast<uint32_t*>(&h);
}
// The same of the codes in the upper two bytes: the conversion given the register's upper half (PTX mov.b32 {lo, hi}),
// which it reads in place, where two >> 16 costs a shift first. The FP8 attention (decode.cu) takes it; the FP8 GEMV
// decodes keep the shift: in the same form their 8-row kernels grew by 248-304 SASS instructions and the one-row
// 6144 x 4096 product, which runs one, took 1.23x the time on an H200
// (docs/measurements/2026-11-27-issue15-fp8-attention-instructions-h200, run 3).
__device__ __forceinline__ uint32_t e4m3x2_hi_to_half2_bits(uint32_t two) {
    uint32_t h;
    asm("{\n\t.reg .b16 lo, hi;\n\tmov.b32 {lo, hi}, %1;\n\tcvt.rn.f16x2.e4m3x2 %0, hi;\n\t}" : "=r"(h) : "r"(two));
    return h;
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

// Where a GEMV's activation rows come from and where its outputs go: the plain layout, x[M][K] and y[M][N]. The
// kernels take this as a parameter so that the grouped expert GEMVs (moe.cu) run the same loops on gathered rows.
// SUMS: whether store returns a value whose per-row sums the kernel hands to flush (EpilogueRows); false here.
// PAIRED: whether the CUDA-core kernel's warp w reads the rows row(w, r) and hands all its outputs to store_rows at
// once (RopeAppendRows in decode.cu: the two rows RoPE turns together), instead of rows w * RPW + r one by one; and
// whether the tensor-core kernel's block at rows n0 reads rows tc_row(n0, r) (r < 16) and hands each lane's outputs
// of its rows g and g + 8 to store_rows together.
template <typename T>
struct PlainRows {
    static constexpr bool SUMS = false;
    static constexpr bool PAIRED = false;
    const T* __restrict__ x;
    T* __restrict__ y;
    __device__ __forceinline__ const T* x_row(int m, int K) const { return x + static_cast<size_t>(m) * K; }
    __device__ __forceinline__ void store(int m, int n, int N, float v) const {
        y[static_cast<size_t>(m) * N + n] = from_float<T>(v);
    }
    __device__ __forceinline__ void begin(int) const {}
    __device__ __forceinline__ void prefetch(int, int, int) const {}
};

// What a GEMV does with its outputs besides storing them, so that a decoder's RMSNorm needs no launch of its own
// (DecoderLinears, DenseDecoder). Every kernel takes one by value (GemvKernels.Epilogue writes the same 48 bytes); all
// pointers null is the plain product y = x . W^T.
//   residual != null (the product before a norm, o_proj or down_proj): r = residual[m][n] + round(v), rounded to T as
//     an FP16 residual stream holds it, is written back to residual; y[m][n] = round(r * norm_weight[n]), the norm's
//     input before its 1 / rms; r^2 summed per row into sumsq[m][SUM_SPREAD] (FP32 atomics, one per warp and row,
//     each warp into one of SUM_SPREAD partial sums: thousands of atomics on one address at a product's tail would
//     queue there).
//   sumsq_clear != null: block 0 zeroes sumsq_clear[M][SUM_SPREAD] after the wait (the other of the decoder's two
//     sums, which the product before this one's consumer has read).
//   row_sumsq != null (the product after a norm): y[m][n] = round(v / sqrt(sum_j row_sumsq[m][j] * inv_k + eps)), the
//     norm's 1 / rms applied to the FP32 sums, inv_k = 1 / hidden.
// So the normed input is round(r * g), not round(r * g / rms) as the norm kernel rounds it: the same relative rounding,
// and |r * g| must stay below the type's largest value (65504 for FP16).
struct GemvEpilogue {
    void* residual;
    const void* norm_weight;
    float* sumsq;
    float* sumsq_clear;
    const float* row_sumsq;
    float inv_k;
    float eps;
};

constexpr int SUM_SPREAD = 8; // GemvKernels.Epilogue.SUM_SPREAD

__device__ __forceinline__ float to_float1(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_float1(__nv_bfloat16 v) { return __bfloat162float(v); }

template <typename T>
struct EpilogueRows {
    static constexpr bool SUMS = true;
    static constexpr bool PAIRED = false;
    const T* __restrict__ x;
    T* __restrict__ y;
    GemvEpilogue ep;
    __device__ __forceinline__ const T* x_row(int m, int K) const { return x + static_cast<size_t>(m) * K; }
    // v times row m's norm scale, when the product reads a norm's output (row_sumsq); else v
    __device__ __forceinline__ float normed(int m, float v) const {
        if (ep.row_sumsq != nullptr) {
            const float4* p = reinterpret_cast<const float4*>(ep.row_sumsq + m * SUM_SPREAD);
            const float4 a = p[0], b = p[1];
            v *= rsqrtf(((a.x + a.y) + (a.z + a.w) + ((b.x + b.y) + (b.z + b.w))) * ep.inv_k + ep.eps);
        }
        return v;
    }
    // stores output (m, n) and returns what it adds to row m's sum of squares
    __device__ __forceinline__ float store(int m, int n, int N, float v) const {
        const size_t i = static_cast<size_t>(m) * N + n;
        v = normed(m, v);
        if (ep.residual == nullptr) {
            y[i] = from_float<T>(v);
            return 0.f;
        }
        T* res = static_cast<T*>(ep.residual);
        const T r = __hadd(res[i], from_float<T>(v));
        res[i] = r;
        const float rf = to_float1(r);
        y[i] = from_float<T>(rf * to_float1(static_cast<const T*>(ep.norm_weight)[n]));
        return rf * rf;
    }
    // row m's sum of squares from one warp; part picks its partial sum
    __device__ __forceinline__ void flush(int m, float sq, int part) const {
        if (ep.sumsq != nullptr) atomicAdd(ep.sumsq + m * SUM_SPREAD + (part & (SUM_SPREAD - 1)), sq);
    }
    // the residual and norm weight store(m, n, N, ...) reads, asked of L1 (after the wait: earlier kernels write the
    // residual)
    __device__ __forceinline__ void prefetch(int m, int n, int N) const {
        if (ep.residual != nullptr) {
            prefetch_l1(static_cast<const T*>(ep.residual) + static_cast<size_t>(m) * N + n);
            prefetch_l1(static_cast<const T*>(ep.norm_weight) + n);
        }
    }
    // after the wait: block 0 zeroes the sums the next producer adds into
    __device__ __forceinline__ void begin(int M) const {
        if (ep.sumsq_clear != nullptr && blockIdx.x == 0 && threadIdx.x < M * SUM_SPREAD)
            ep.sumsq_clear[threadIdx.x] = 0.f;
    }
};

// UNROLL 16-byte chunks per lane in flight for each of the warp's RPW rows (rows n0 .. n0 + RPW - 1 share the x loads).
// The block computes rows tile * (warps per block) * RPW onwards; activation row m is rows.x_row(m), output (m, n) goes
// to rows.store.
template <Fmt F, typename T, int MAXM, int UNROLL = 4, int RPW = 1, int HINT = 0, typename Rows>
__device__ __forceinline__ void gemv(const void* __restrict__ Wv, const void* __restrict__ scales, const Rows& rows,
                                     int M, int N, int K, float global, int tile) {
    constexpr int EPC = Traits<F>::EPC;
    const int lane = threadIdx.x & 31;
    const int warp = tile * (blockDim.x >> 5) + (threadIdx.x >> 5);
    const int n0 = warp * RPW;
    if (n0 >= N) return;
    const int m_count = MAXM == 1 ? 1 : M;
    const int chunks = K / EPC;
    int rn[RPW]; // the rows read: a row past N reads row n0 again and is not written
    const uint8_t* row[RPW];
    #pragma unroll
    for (int r = 0; r < RPW; r++) {
        if constexpr (Rows::PAIRED) rn[r] = rows.row(warp, r);
        else rn[r] = n0 + r < N ? n0 + r : n0;
        row[r] = static_cast<const uint8_t*>(Wv) + static_cast<size_t>(rn[r]) * chunks * 16;
    }

    float acc[RPW][MAXM];
    #pragma unroll
    for (int r = 0; r < RPW; r++)
        #pragma unroll
        for (int m = 0; m < MAXM; m++) acc[r][m] = 0.f;

    for (int c0 = lane; c0 < chunks; c0 += 32 * UNROLL) {
        uint4 w[UNROLL][RPW];
        #pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            const int c = c0 + 32 * u;
            #pragma unroll
            for (int r = 0; r < RPW; r++)
                if (c < chunks) w[u][r] = load_stream<HINT>(row[r] + static_cast<size_t>(c) * 16);
        }
        #pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            const int c = c0 + 32 * u;
            if (c >= chunks) break;
            const int k0 = c * EPC;
            float wf[RPW][EPC];
            #pragma unroll
            for (int r = 0; r < RPW; r++) decode<F>(w[u][r], wf[r]);
            #pragma unroll
            for (int m = 0; m < MAXM; m++) {
                if (m >= m_count) break;
                const T* xr = rows.x_row(m, K) + k0;
                // the chunk's two halves summed apart, then added to the row's sum second half first
                float part0[RPW], part1[RPW];
                #pragma unroll
                for (int r = 0; r < RPW; r++) part0[r] = part1[r] = 0.f;
                #pragma unroll
                for (int e = 0; e < EPC; e += 8) {
                    float xf[8];
                    load_x8<T>(xr + e, xf);
                    #pragma unroll
                    for (int r = 0; r < RPW; r++)
                        #pragma unroll
                        for (int j = 0; j < 8; j++) {
                            if (e + j < EPC / 2) part0[r] = fmaf(wf[r][e + j], xf[j], part0[r]);
                            else part1[r] = fmaf(wf[r][e + j], xf[j], part1[r]);
                        }
                }
                // added as FFMAs by 1 (exact, as adds), the instructions the kernels' measured timings ran
                #pragma unroll
                for (int r = 0; r < RPW; r++) acc[r][m] = fmaf(part0[r], 1.f, fmaf(part1[r], 1.f, acc[r][m]));
            }
        }
    }
    float row_scale[RPW];
    #pragma unroll
    for (int r = 0; r < RPW; r++) {
        row_scale[r] = 1.f;
        if constexpr ((F == Fmt::FP8 || F == Fmt::INT8) && Rows::PAIRED)
            row_scale[r] = static_cast<const float*>(scales)[rn[r]];
        else if constexpr (F == Fmt::FP8 || F == Fmt::INT8)
            if (n0 + r < N) row_scale[r] = static_cast<const float*>(scales)[n0 + r];
    }
    if constexpr (Rows::PAIRED) {
        static_assert(MAXM == 1 && (F == Fmt::F16 || F == Fmt::FP8), "paired rows: FP16 or FP8 weights at one row");
        float v[RPW];
        #pragma unroll
        for (int r = 0; r < RPW; r++) {
            v[r] = acc[r][0];
            #pragma unroll
            for (int off = 16; off > 0; off >>= 1) v[r] += __shfl_xor_sync(0xFFFFFFFFu, v[r], off);
            if constexpr (F == Fmt::FP8) v[r] *= row_scale[r];
        }
        if (lane == 0) rows.store_rows(rn, v);
    } else {
        #pragma unroll
        for (int m = 0; m < MAXM; m++) {
            if (m >= m_count) break;
            float sq = 0.f;
            #pragma unroll
            for (int r = 0; r < RPW; r++) {
                if (n0 + r >= N) break;
                float v = acc[r][m];
                #pragma unroll
                for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, off);
                if (lane == 0) {
                    if constexpr (Rows::SUMS) sq += rows.store(m, n0 + r, N, v * row_scale[r]);
                    else rows.store(m, n0 + r, N, v * row_scale[r]);
                }
            }
            if constexpr (Rows::SUMS)
                if (lane == 0) rows.flush(m, sq, n0 / RPW);
        }
    }
}


// ---- 4-bit weights x FP16 or BF16 activations on the tensor cores (mma.sync m16n8k16, FP32 accumulators) ----
//
// A block of W = WARPS warps (compile-time: 8 or 16 shipped; blockDim.x must be 32 W) owns 16 output rows; the warps split K
// (iteration it = 128 k goes to warp it % W)
// and add their partial sums in shared memory at the end. In the mma, A = 16 weight rows x 16 k, B = 16 k x 8 columns
// of x (column c = activation row m = 8f + c, f = 0 for M <= 8, f = 1 for rows 8..15), D = FP32.
// Lane t (g = t / 4, q = t % 4) loads, per iteration at kb, 16 bytes (k = kb + 32q .. +31) of rows g and g + 8, so
// each row segment of 64 bytes is read by 4 consecutive lanes. K is permuted inside the mma: in step (i, st), i = the
// 32-bit word 0..3 of the lane's 16 bytes and st in {0, 1}, the fragment's k slots {2q, 2q+1, 2q+8, 2q+9} (PTX ISA,
// "Matrix Fragments for mma.m16n8k16 with floating point type": a0,a1 = row g, cols 2q,2q+1; a2,a3 = row g+8, same
// cols; a4..a7 = cols + 8; b0,b1 = rows 2q,2q+1, col g; b2,b3 = rows 2q+8,2q+9) hold the word's nibbles
// {2st, 2st + 4, 2st + 1, 2st + 5}, i.e. physical k = kb + 32q + 8i + {2st, 2st+4, 2st+1, 2st+5}. Nibbles s and s + 4
// of a word sit 16 bits apart, so one mask and one shift-add turn both into a half2 at once (e2m1_pair, int4_pair:
// the masks run on the ALU pipe, the shifts as IMAD on the FMA pipe; the ALU pipe issues every other cycle and bounds
// these kernels). B takes x[m][k] in the same order: one byte permute per register.
// E2M1 -> half bits ((n & 8) << 12) | ((n & 7) << 9) is value x 2^-14 (exact; code 1 is an fp16 subnormal). The 4
// nibbles of a step lie in one 16-k block, (kb + 32q + 8i) / 16, so A is scaled before the mma in half:
// A = decoded x fp16(e4m3 x 2^6). Exact: |A| >= 2^-15 x 2^-9 x 2^6 = 2^-18 (a multiple of the fp16 subnormal step
// 2^-24) with at most 2 + 4 significant bits, and |A| <= 6 x 2^-14 x 448 x 2^6 = 10.5. At the end D x global x 2^8.
constexpr int TC_ROWS = 16;   // output rows per block (GemvKernels.rowsPerBlock)
constexpr int TC_LOAD_HINT = 1; // load_stream<1>: .L2::128B


// E2M1 nibbles S and S + 4 of word v as a half2 (value x 2^-14): sign to bit 15 / 31, exponent and mantissa to bits
// 9..11 / 25..27. Two masks and one shift-add (S = 3: a high multiply, em >> 3).
template <int S>
__device__ __forceinline__ uint32_t e2m1_pair(uint32_t v) {
    const uint32_t em = v & (0x00070007u << (4 * S)), sign = v & (0x00080008u << (4 * S));
    if constexpr (S < 3) return em * (1u << (9 - 4 * S)) + sign * (1u << (12 - 4 * S));
    else return __umulhi(em, 1u << 29) + sign;
}
__device__ __forceinline__ uint32_t hmul2_bits(uint32_t a, __half2 b) {
    __half2 r = __hmul2(*reinterpret_cast<__half2*>(&a), b);
    return *reinterpret_cast<uint32_t*>(&r);
}
__device__ __forceinline__ void mma_16816(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                          uint32_t b0, uint32_t b1) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}
__device__ __forceinline__ void mma_16816_bf16(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                               uint32_t b0, uint32_t b1) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}
// x's 16-byte piece i of B fragment f: from a step's loads made up front (an array) or loaded where it is used (a
// functor; gemv_tc's LAZY_X)
template <int NB, int XV>
__device__ __forceinline__ uint4 x_at(const uint4 (&xv)[NB][XV], int f, int i) { return xv[f][i]; }
template <typename XL>
__device__ __forceinline__ uint4 x_at(const XL& xv, int f, int i) { return xv(f, i); }

__device__ __forceinline__ __half2 e4m3x2_times_64(uint32_t two) { // (scale of low byte, of high byte) x 2^6
    __half2_raw h = __nv_cvt_fp8x2_to_halfraw2(static_cast<__nv_fp8x2_storage_t>(two), __NV_E4M3);
    return __hmul2(*reinterpret_cast<__half2*>(&h), __float2half2_rn(64.f));
}

// INT4 (two's complement) nibbles S and S + 4 of word v as a half2 of their integer values, exactly: the nibble
// pair (S = 2, 3: of v >> 8, a high multiply) masked and xor-ed with 8 under 0x6400 is 1024 + 8 + n (S even; one HSUB2
// of 1032) or 1024 + 16 (n + 8) (S odd; one HFMA2: x 1/16 - 72). One mask op per 2 weights.
// (v & MASK) ^ MAGIC in one LOP3 (left to itself the compiler may spend two)
template <uint32_t MASK, uint32_t MAGIC>
__device__ __forceinline__ uint32_t and_xor(uint32_t v) {
    uint32_t r;
    asm("lop3.b32 %0, %1, %2, %3, 0x6a;" : "=r"(r) : "r"(v), "n"(MASK), "n"(MAGIC)); // (a & b) ^ c
    return r;
}
template <int S>
__device__ __forceinline__ uint32_t int4_pair(uint32_t v) {
    const uint32_t w = S < 2 ? v : __umulhi(v, 1u << 24);
    if constexpr ((S & 1) == 0) return hsub2_bits(and_xor<0x000F000Fu, 0x64086408u>(w), 0x64086408u);
    const uint32_t h = and_xor<0x00F000F0u, 0x64806480u>(w);
    __half2 r = __hfma2(*reinterpret_cast<const __half2*>(&h), __float2half2_rn(0.0625f), __float2half2_rn(-72.f));
    return *reinterpret_cast<uint32_t*>(&r);
}
// 2^(e - emax + 15) in half (e <= emax): exact down to 2^-24 (e - emax >= -39), 0 below
__device__ __forceinline__ __half2 e8m0_rel_half2(uint32_t e, uint32_t emax) {
    const int b = static_cast<int>(e) - static_cast<int>(emax) + 142;
    return __float2half2_rn(b > 0 ? __uint_as_float(static_cast<uint32_t>(b) << 23) : 0.f);
}

// The same decodes for BF16 activations, whose mma takes BF16 A: E2M1 nibbles S and S + 4 as a bf16 pair of value
// e2m1 x 2^-126, (m, e0, e1) at bits 6..8 of each half and the sign at 15 (bf16's exponent bias is 127, E2M1's 1; the
// codes with e = 0, 0 and 0.5, are bf16 subnormals); INT4 nibbles under 0x4300 (bf16 128, a mantissa step of 1) as
// 128 + 8 + n less 136, exactly; the NVFP4 scale as bf16(e4m3 x 2^119) and the MXFP4 one as bf16(2^(E - Emax + 119)),
// so that A x scale = e2m1 x e4m3 x 2^-7 (2^-17 .. 21, at most 6 significant bits: exact) or e2m1 x 2^(E - Emax - 7)
// (exact while E - Emax >= -125, on bf16's subnormal grid from -118 down; below, a block rounds to that grid or to 0,
// an absolute error in the weight under 2^(Emax - 254)).
template <int S>
__device__ __forceinline__ uint32_t e2m1_pair_bf16(uint32_t v) {
    const uint32_t em = v & (0x00070007u << (4 * S)), sign = v & (0x00080008u << (4 * S));
    const uint32_t m = S < 2 ? em << (6 - 4 * S) : em >> (4 * S - 6);
    return m | (sign << (12 - 4 * S));
}
__device__ __forceinline__ uint32_t hsub2_bf16_bits(uint32_t a, uint32_t b) {
    __nv_bfloat162 r = __hsub2(*reinterpret_cast<__nv_bfloat162*>(&a), *reinterpret_cast<__nv_bfloat162*>(&b));
    return *reinterpret_cast<uint32_t*>(&r);
}
template <int S>
__device__ __forceinline__ uint32_t int4_pair_bf16(uint32_t v) {
    return hsub2_bf16_bits(and_xor<0x000F000Fu, 0x43084308u>(v >> (4 * S)), 0x43084308u);
}
__device__ __forceinline__ uint32_t hmul2_bf16_bits(uint32_t a, __nv_bfloat162 b) {
    __nv_bfloat162 r = __hmul2(*reinterpret_cast<__nv_bfloat162*>(&a), b);
    return *reinterpret_cast<uint32_t*>(&r);
}
__device__ __forceinline__ __nv_bfloat162 e4m3x2_bf16_times_2p119(uint32_t two) { // (low byte, high byte) x 2^119
    __half2_raw h = __nv_cvt_fp8x2_to_halfraw2(static_cast<__nv_fp8x2_storage_t>(two), __NV_E4M3);
    const float2 f = __half22float2(*reinterpret_cast<__half2*>(&h));
    return __floats2bfloat162_rn(f.x * 0x1p119f, f.y * 0x1p119f);
}
__device__ __forceinline__ __nv_bfloat162 e8m0_rel_bf16x2(uint32_t e, uint32_t emax) { // 2^(e - emax + 119), 0 below 2^-126
    const int b = static_cast<int>(e) - static_cast<int>(emax) + 246;
    return __float2bfloat162_rn(b > 0 ? __uint_as_float(static_cast<uint32_t>(b) << 23) : 0.f);
}

// The 4-bit formats on the tensor cores, with FP16 activations (with BF16 ones: the BF16 decodes above, D x global x
// 2^7 for NVFP4 and 2^(Emax - 120) for MXFP4). The three formats share loads, K order, B fragments,
// the mma chain and the reduction; they differ in the decode and where the scale goes:
//   NVFP4: e4m3 x 2^6 folded into A in half (exact, see above); one FP32 chain over all of K; D x global x 2^8.
//   INT4 : g128 = one 128-k step, so every row's group is constant over a step: A = the integer (exact), the step's
//          8 (m16: 16) mmas start from zero and the FP32 partial sums get the row's float scale before joining acc.
//   MXFP4: each row's largest E8M0 code over all of K, Emax, comes precomputed in the N bytes after the scales
//          (finding it in the kernel costs a dependent load round trip and a barrier ahead of the first weight load;
//          see docs/design/gemv-kernels.md). A = e2m1 x 2^-14 x half(2^(E-Emax+15)), exact when E - Emax >= -24 (the value
//          0.5 x 2^(E-Emax+1) stays a multiple of fp16's 2^-24); a block more than 24 binades below its row's largest
//          rounds to that grid, an absolute error under 2^(Emax - 153), i.e. below 2^-28 of the row's largest |w|
//          (>= 4 x 2^(Emax-127) under OCP's scale choice). One FP32 chain over all of K as for NVFP4; D x 2^(Emax-128).
// Activation rows past M and weight rows past N are read from row 0 (valid memory) instead of being zeroed: a B column
// only reaches its own D column, and D columns / rows that do not exist are never written. Only the last, partial
// step of a K that is not a multiple of 128 zeroes what lies past K.
// B fragments of 8 activation rows each: 1 up to 8 rows, 2 up to 16, 4 up to 32
template <int MAXM>
inline constexpr int B_FRAGMENTS = MAXM <= 8 ? 1 : MAXM <= 16 ? 2 : 4;

template <Fmt F, typename T, int MAXM>
struct TcStep {
    static constexpr int NB = B_FRAGMENTS<MAXM>; // B fragments: activation rows 0..7, 8..15, ...
    static constexpr bool BF = std::is_same_v<T, __nv_bfloat16>; // BF16 activations: the decodes above, the BF16 mma
    using H2 = std::conditional_t<BF, __nv_bfloat162, __half2>;
    // nibbles S and S + 4 of word v as the A register of their two weights (INT4: the integers; E2M1: before the scale)
    template <int S>
    __device__ __forceinline__ static uint32_t pair(uint32_t v) {
        if constexpr (F == Fmt::INT4) return BF ? int4_pair_bf16<S>(v) : int4_pair<S>(v);
        else return BF ? e2m1_pair_bf16<S>(v) : e2m1_pair<S>(v);
    }
    __device__ __forceinline__ static uint32_t scaled(uint32_t a, H2 s) {
        if constexpr (BF) return hmul2_bf16_bits(a, s);
        else return hmul2_bits(a, s);
    }
    // two E4M3 block scales (low byte, high byte) as A multipliers: x 2^6 in half, x 2^119 in bf16
    __device__ __forceinline__ static H2 nvfp4_scales(uint32_t two) {
        if constexpr (BF) return e4m3x2_bf16_times_2p119(two);
        else return e4m3x2_times_64(two);
    }
    // an E8M0 block scale relative to its row's largest code emax as an A multiplier (both halves)
    __device__ __forceinline__ static H2 mxfp4_scale(uint32_t e, uint32_t emax) {
        if constexpr (BF) return e8m0_rel_bf16x2(e, emax);
        else return e8m0_rel_half2(e, emax);
    }
    // the low / high half of v in both halves
    __device__ __forceinline__ static H2 low(H2 v) {
        if constexpr (BF) return __low2bfloat162(v);
        else return __low2half2(v);
    }
    __device__ __forceinline__ static H2 high(H2 v) {
        if constexpr (BF) return __high2bfloat162(v);
        else return __high2half2(v);
    }
    // d += A B on the mma of the activations' type
    __device__ __forceinline__ static void mma(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                               uint32_t b0, uint32_t b1) {
        if constexpr (BF) mma_16816_bf16(d, a0, a1, a2, a3, b0, b1);
        else mma_16816(d, a0, a1, a2, a3, b0, b1);
    }
    // one 128-k step of this lane: 16 weight bytes of rows g (wa) and g + 8 (wb), their scale entries, x as 4 x 8
    // elements per fragment (x_at(xv, f, i): the i-th 16 bytes of fragment f's)
    // MXFP4: ra / rb = the largest E8M0 code of rows g / g + 8 over all of K
    template <typename XL>
    __device__ __forceinline__ static void run(const uint4& wa, const uint4& wb, uint32_t sa, uint32_t sb,
                                               const XL& xv, int nf, float (&acc)[NB][4],
                                               uint32_t ra, uint32_t rb) {
        // half (bf16) multipliers of A for rows g / g + 8 (words 0-1 and 2-3), FP32 factors of the step's partial sums
        H2 sp0[2], sp1[2];
        float fa = 1.f, fb = 1.f;
        if constexpr (F == Fmt::NVFP4) {
            const H2 sc0 = nvfp4_scales(sa), sc1 = nvfp4_scales(sb);
            sp0[0] = low(sc0); sp0[1] = high(sc0);
            sp1[0] = low(sc1); sp1[1] = high(sc1);
        } else if constexpr (F == Fmt::MXFP4) {
            sp0[0] = sp0[1] = mxfp4_scale(sa, ra);
            sp1[0] = sp1[1] = mxfp4_scale(sb, rb);
        } else {
            fa = __uint_as_float(sa);
            fb = __uint_as_float(sb);
        }
        constexpr bool CHAIN = F != Fmt::INT4; // scale folded into A: accumulate straight into acc
        float part[NB][4];
        #pragma unroll
        for (int f = 0; f < NB; f++)
            #pragma unroll
            for (int c = 0; c < 4; c++) part[f][c] = 0.f;
        float (&d)[NB][4] = CHAIN ? acc : part;
        const uint32_t va[4] = {wa.x, wa.y, wa.z, wa.w};
        const uint32_t vb[4] = {wb.x, wb.y, wb.z, wb.w};
        #pragma unroll
        for (int i = 0; i < 4; i++) {
            #pragma unroll
            for (int st = 0; st < 2; st++) { // nibbles 2st, 2st + 4 (k slots 2q, 2q+1) and 2st + 1, 2st + 5 (2q+8, 2q+9)
                uint32_t a0, a1, a2, a3;     // row g, row g + 8; then the same rows' second pair
                if (st == 0) {
                    a0 = pair<0>(va[i]); a1 = pair<0>(vb[i]); a2 = pair<1>(va[i]); a3 = pair<1>(vb[i]);
                } else {
                    a0 = pair<2>(va[i]); a1 = pair<2>(vb[i]); a2 = pair<3>(va[i]); a3 = pair<3>(vb[i]);
                }
                if constexpr (F != Fmt::INT4) {
                    a0 = scaled(a0, sp0[i >> 1]);
                    a1 = scaled(a1, sp1[i >> 1]);
                    a2 = scaled(a2, sp0[i >> 1]);
                    a3 = scaled(a3, sp1[i >> 1]);
                }
                #pragma unroll
                for (int f = 0; f < NB; f++) {
                    if (f >= nf) break; // fragments past the rows there are
                    const uint4 X = x_at(xv, f, i); // x[8i + 0..7] of this lane's 32, two per register
                    const uint32_t lo = st == 0 ? X.x : X.y, hi = st == 0 ? X.z : X.w; // (x 2st, 2st+1), (x 2st+4, 2st+5)
                    mma(d[f], a0, a1, a2, a3, __byte_perm(lo, hi, 0x5410), __byte_perm(lo, hi, 0x7632));
                }
            }
        }
        if constexpr (!CHAIN) {
            #pragma unroll
            for (int f = 0; f < NB; f++) {
                acc[f][0] = fmaf(part[f][0], fa, acc[f][0]);
                acc[f][1] = fmaf(part[f][1], fa, acc[f][1]);
                acc[f][2] = fmaf(part[f][2], fb, acc[f][2]);
                acc[f][3] = fmaf(part[f][3], fb, acc[f][3]);
            }
        }
    }
};

// The 8-bit formats with FP16 activations on the tensor cores. Lane (g, q) loads, per 64-k step at kb, 16 bytes
// (k = kb + 16q .. +15) of rows g and g + 8: the same 64-byte row segments per step as the 4-bit formats. mma j (0..3)
// takes word j of the lane's 16 bytes, bytes 0, 1 in k slots 2q, 2q+1 and bytes 2, 3 in 2q+8, 2q+9, i.e. physical
// k = kb + 16q + 4j + {0, 1, 2, 3}; B takes the same 4 halves of x, two per register as they lie in memory (no
// permute). Both decodes are exact: FP8 E4M3 -> half (cvt.rn.f16x2.e4m3x2: every E4M3 value is an fp16 value), INT8
// -> half under 0x64 as in decode above. The per-row float scale multiplies D at the end.
template <Fmt F, int MAXM>
struct TcStep8 {
    static_assert(F == Fmt::FP8 || F == Fmt::INT8, "8-bit formats only");
    static constexpr int NB = B_FRAGMENTS<MAXM>; // B fragments: activation rows 0..7, 8..15, ...
    // bytes 0, 1 (HI: 2, 3) of word v as a half2, the lower byte in the lower half
    template <bool HI>
    __device__ __forceinline__ static uint32_t pair(uint32_t v) {
        if constexpr (F == Fmt::FP8) {
            return e4m3x2_to_half2_bits(HI ? v >> 16 : v);
        } else {
            return hsub2_bits(__byte_perm(v ^ 0x80808080u, 0x64646464u, HI ? 0x4342 : 0x4140), 0x64806480u);
        }
    }
    // one 64-k step of this lane: 16 weight bytes of rows g (wa) and g + 8 (wb), x as 2 x 8 halves per fragment
    template <typename XL>
    __device__ __forceinline__ static void run(const uint4& wa, const uint4& wb, const XL& xv, int nf,
                                               float (&acc)[NB][4]) {
        const uint32_t va[4] = {wa.x, wa.y, wa.z, wa.w};
        const uint32_t vb[4] = {wb.x, wb.y, wb.z, wb.w};
        #pragma unroll
        for (int j = 0; j < 4; j++) {
            const uint32_t a0 = pair<false>(va[j]), a1 = pair<false>(vb[j]);
            const uint32_t a2 = pair<true>(va[j]), a3 = pair<true>(vb[j]);
            #pragma unroll
            for (int f = 0; f < NB; f++) {
                if (f >= nf) break; // fragments past the rows there are
                const uint4 X = x_at(xv, f, j >> 1); // halves x[8 (j / 2) + 0..7] of this lane's 16
                mma_16816(acc[f], a0, a1, a2, a3, (j & 1) ? X.z : X.x, (j & 1) ? X.w : X.y);
            }
        }
    }
};

// The 16-bit formats on the tensor cores. Lane (g, q) loads, per 32-k step at kb, 16 bytes (k = kb + 8q .. +7) of rows
// g and g + 8: again 64-byte row segments. mma j (0, 1) takes words 2j (k slots 2q, 2q+1) and 2j + 1 (2q+8, 2q+9) of
// the lane's 16 bytes, i.e. physical k = kb + 8q + 4j + {0, 1, 2, 3}; B takes x's words 2j and 2j + 1 as they lie in
// memory. Weights and activations of one type run the mma of that type with no decode at all. BF16 weights with FP16
// activations (a decoder's BF16 checkpoint) run the BF16 mma twice, on x split into x_hi = bf16(x) and
// x_lo = bf16(x - x_hi): 8 + 8 significant bits hold fp16's 11 exactly (x - x_hi is exact in FP32, and its 3 or fewer
// significant bits fit bf16; fp16 subnormals are normal bf16 values), so W x_hi + W x_lo = W x with every product
// exact, summed in FP32 as in every other kernel. No weight is rounded, whatever its range.
template <Fmt F, typename T, int MAXM>
struct TcStep16 {
    static_assert(F == Fmt::F16 || F == Fmt::BF16, "16-bit formats only");
    static_assert(F == Fmt::BF16 || std::is_same_v<T, __half>, "FP16 weights run with FP16 activations");
    static constexpr int NB = B_FRAGMENTS<MAXM>; // B fragments: activation rows 0..7, 8..15, ...
    static constexpr bool SPLIT = F == Fmt::BF16 && std::is_same_v<T, __half>;
    __device__ __forceinline__ static void mma(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                               uint32_t b0, uint32_t b1) {
        if constexpr (F == Fmt::F16) mma_16816(d, a0, a1, a2, a3, b0, b1);
        else mma_16816_bf16(d, a0, a1, a2, a3, b0, b1);
    }
    // two fp16 values as bf16 x_hi (hi) and the exact rest x - x_hi (lo)
    __device__ __forceinline__ static void split(uint32_t two, uint32_t& hi, uint32_t& lo) {
        const float2 v = half2_bits_to_float2(two);
        const __nv_bfloat162 h = __floats2bfloat162_rn(v.x, v.y);
        const float2 hf = __bfloat1622float2(h);
        const __nv_bfloat162 l = __floats2bfloat162_rn(v.x - hf.x, v.y - hf.y);
        hi = *reinterpret_cast<const uint32_t*>(&h);
        lo = *reinterpret_cast<const uint32_t*>(&l);
    }
    // one 32-k step of this lane: 16 weight bytes of rows g (wa) and g + 8 (wb), x as 8 elements per fragment
    template <typename XL>
    __device__ __forceinline__ static void run(const uint4& wa, const uint4& wb, const XL& xv, int nf,
                                               float (&acc)[NB][4]) {
        const uint32_t va[4] = {wa.x, wa.y, wa.z, wa.w};
        const uint32_t vb[4] = {wb.x, wb.y, wb.z, wb.w};
        #pragma unroll
        for (int f = 0; f < NB; f++) {
            if (f >= nf) break; // fragments past the rows there are
            const uint4 X = x_at(xv, f, 0);
            const uint32_t xw[4] = {X.x, X.y, X.z, X.w};
            #pragma unroll
            for (int j = 0; j < 2; j++) {
                if constexpr (SPLIT) {
                    uint32_t h0, l0, h1, l1;
                    split(xw[2 * j], h0, l0);
                    split(xw[2 * j + 1], h1, l1);
                    mma(acc[f], va[2 * j], vb[2 * j], va[2 * j + 1], vb[2 * j + 1], h0, h1);
                    mma(acc[f], va[2 * j], vb[2 * j], va[2 * j + 1], vb[2 * j + 1], l0, l1);
                } else {
                    mma(acc[f], va[2 * j], vb[2 * j], va[2 * j + 1], vb[2 * j + 1], xw[2 * j], xw[2 * j + 1]);
                }
            }
        }
    }
};

// Output e (0 .. NB * 4 * 32 - 1) of a tensor-core block whose rows start at n0: accumulator c of B fragment f in lane
// l, which holds weight row n0 + (l >> 2) + 8 (c >> 1) and activation row 8 f + 2 (l & 3) + (c & 1) (D's layout:
// c0, c1 = row g, columns 2q, 2q+1; c2, c3 = row g + 8)
struct TcOutput {
    int f, c, l, row, m;
};
__device__ __forceinline__ TcOutput tc_output(int e, int n0) {
    const int f = e / 128, c = (e / 32) & 3, l = e & 31;
    return {f, c, l, n0 + (l >> 2) + 8 * (c >> 1), 8 * f + 2 * (l & 3) + (c & 1)};
}

// this lane's scale entry of one step: NVFP4 2 e4m3 bytes (blocks 2q, 2q+1), MXFP4 1 E8M0 byte (block q), INT4 the float
template <Fmt F>
__device__ __forceinline__ uint32_t load_step_scale(const uint8_t* p) {
    if constexpr (F == Fmt::NVFP4) return __ldg(reinterpret_cast<const unsigned short*>(p)); // 2-byte aligned
    else if constexpr (F == Fmt::MXFP4) return __ldg(p);
    else return __ldg(reinterpret_cast<const uint32_t*>(p));
}

// WARPS warps split K (step it goes to warp it % WARPS); UNROLL steps of loads in flight per warp. Full trips of
// UNROLL steps run without bounds checks at immediate offsets; the steps left over run one at a time, checked.
// A step is one 64-byte segment of each of the block's rows: 128 k of the 4-bit formats (TcStep), 64 k of the 8-bit
// ones (TcStep8), whose per-row scale multiplies D at the end, 32 k of the 16-bit ones (TcStep16). T is the
// activations' type: FP16 for every format, BF16 for BF16 and the 4-bit weights too. The block computes rows
// tile * TC_ROWS onwards;
// activations and outputs go through rows as in gemv above.
template <Fmt F, typename T, int MAXM, int UNROLL, int WARPS, int HINT = TC_LOAD_HINT, typename Rows>
__device__ __forceinline__ void gemv_tc(const void* __restrict__ Wv, const void* __restrict__ scales,
                                        const Rows& rows, int M, int N, int K, float global, int tile) {
    constexpr bool FOUR = F == Fmt::NVFP4 || F == Fmt::MXFP4 || F == Fmt::INT4;
    constexpr bool ROW_SCALE = F == Fmt::FP8 || F == Fmt::INT8; // one float per row, applied at the end
    constexpr bool SIXTEEN = F == Fmt::F16 || F == Fmt::BF16;
    static_assert(FOUR || ROW_SCALE || SIXTEEN, "a weight format");
    static_assert(SIXTEEN || std::is_same_v<T, __half> || (FOUR && std::is_same_v<T, __nv_bfloat16>),
                  "the 8-bit formats decode to FP16: FP16 activations; the 4-bit ones to either");
    constexpr int NB = B_FRAGMENTS<MAXM>;
    constexpr int STEP_K = FOUR ? 128 : ROW_SCALE ? 64 : 32; // k per step, 16 bytes per lane
    constexpr int LANE_K = STEP_K / 4;
    constexpr int XV = LANE_K / 8; // 16-byte loads of x per fragment per step
    // x loaded where each mma takes it rather than all of a step's at once: for the 16-bit formats from 9 rows up
    // (at 9..16, with their 80-register bound, 5-7 % faster at two of the three issue shapes on an H100 and within 1 %
    // at the third); the 4- and 8-bit formats load a whole step's x ahead at every row count: at 17..32 rows 1.5-1.6x
    // (8-bit) and 2.9-4.7x (4-bit) faster than loading it at each mma on an H200, although INT4's 16-warp kernel spills
    // (docs/design/gemv-kernels.md#17-to-32-rows-_m32)
    constexpr bool LAZY_X = SIXTEEN && MAXM >= 16;
    // per-row scale entries along K, bytes per entry, scale bytes per row per step, entries one lane skips (4-bit)
    constexpr int SCALE_K = F == Fmt::NVFP4 ? 16 : F == Fmt::MXFP4 ? 32 : 128;
    constexpr int SCALE_BYTES = F == Fmt::INT4 ? 4 : 1;
    constexpr int STEP_SCALE_BYTES = FOUR ? 128 / SCALE_K * SCALE_BYTES : 0;
    constexpr int LANE_SCALES = F == Fmt::INT4 || !FOUR ? 0 : 32 / SCALE_K;
    __shared__ float red[WARPS][NB][4][32];
    if (blockDim.x != WARPS * 32) __trap(); // a launch of another shape would skip K steps or overrun red
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int g = lane >> 2, q = lane & 3;
    const int n0 = tile * TC_ROWS;
    const int m_count = MAXM == 1 ? 1 : M;
    const int nf = NB == 1 ? 1 : min(NB, (M + 7) >> 3); // B fragments holding rows; warp-uniform
    // the block's rows n0 + r, or with paired rows tc_row(n0, r) (r < 16)
    int r0, r1;
    if constexpr (Rows::PAIRED) {
        r0 = rows.tc_row(n0, g);
        r1 = rows.tc_row(n0, g + 8);
    } else {
        r0 = n0 + g < N ? n0 + g : 0;
        r1 = n0 + g + 8 < N ? n0 + g + 8 : 0;
    }
    const size_t row_bytes = FOUR ? static_cast<size_t>(K) / 2 : SIXTEEN ? 2 * static_cast<size_t>(K) : static_cast<size_t>(K);
    const size_t row_scales = FOUR ? static_cast<size_t>(K) / SCALE_K * SCALE_BYTES : 0;
    // this warp's first step (k = STEP_K warp + LANE_K q) in rows g and g + 8, their scales and x
    const uint8_t* pw0 = static_cast<const uint8_t*>(Wv) + r0 * row_bytes + 16 * q + 64 * warp;
    const uint8_t* pw1 = static_cast<const uint8_t*>(Wv) + r1 * row_bytes + 16 * q + 64 * warp;
    const uint8_t* ps0 = static_cast<const uint8_t*>(scales) + r0 * row_scales + LANE_SCALES * q * SCALE_BYTES
            + STEP_SCALE_BYTES * warp;
    const uint8_t* ps1 = static_cast<const uint8_t*>(scales) + r1 * row_scales + LANE_SCALES * q * SCALE_BYTES
            + STEP_SCALE_BYTES * warp;
    const T* px[NB];
    #pragma unroll
    for (int f = 0; f < NB; f++)
        px[f] = rows.x_row(8 * f + g < m_count ? 8 * f + g : 0, K) + LANE_K * q + STEP_K * warp;
    const int full = K / STEP_K, iters = (K + STEP_K - 1) / STEP_K;

    // MXFP4: each row's largest E8M0 code, N bytes after the N x K/32 codes (rows past N: row 0, as loaded)
    [[maybe_unused]] const uint8_t* row_emax = static_cast<const uint8_t*>(scales) + static_cast<size_t>(N) * (K / 32);
    uint32_t ra = 0, rb = 0;
    if constexpr (F == Fmt::MXFP4) {
        ra = __ldg(row_emax + r0);
        rb = __ldg(row_emax + r1);
    }

    // the tail's operands, each asked for by the thread that stores its output (the first of two where 8 warps store
    // 32 rows' outputs)
    if (threadIdx.x < NB * 4 * 32) {
        const auto [f, c, l, row, m] = tc_output(threadIdx.x, n0);
        if (m < m_count && row < N) {
            if constexpr (Rows::PAIRED) prefetch_l1(static_cast<const float*>(scales) + rows.tc_row(n0, row - n0));
            else if constexpr (ROW_SCALE) prefetch_l1(static_cast<const float*>(scales) + row);
            rows.prefetch(m, row, N);
        }
    }

    float acc[NB][4];
    #pragma unroll
    for (int f = 0; f < NB; f++)
        #pragma unroll
        for (int c = 0; c < 4; c++) acc[f][c] = 0.f;

    // moves every pointer on by `steps` of this warp's steps (WARPS x STEP_K k each)
    auto advance = [&](int steps) {
        pw0 += 64 * WARPS * steps;
        pw1 += 64 * WARPS * steps;
        ps0 += STEP_SCALE_BYTES * WARPS * steps;
        ps1 += STEP_SCALE_BYTES * WARPS * steps;
        #pragma unroll
        for (int f = 0; f < NB; f++) px[f] += STEP_K * WARPS * steps;
    };
    int it = warp;
    for (; it + WARPS * (UNROLL - 1) < full; it += WARPS * UNROLL) {
        uint4 wa[UNROLL], wb[UNROLL];
        uint32_t sa[UNROLL], sb[UNROLL];
        #pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            wa[u] = load_stream<HINT>(pw0 + 64 * WARPS * u);
            wb[u] = load_stream<HINT>(pw1 + 64 * WARPS * u);
            if constexpr (FOUR) {
                sa[u] = load_step_scale<F>(ps0 + STEP_SCALE_BYTES * WARPS * u);
                sb[u] = load_step_scale<F>(ps1 + STEP_SCALE_BYTES * WARPS * u);
            }
        }
        #pragma unroll
        for (int u = 0; u < UNROLL; u++) {
            if constexpr (LAZY_X) {
                const auto xv = [&](int f, int i) {
                    return __ldg(reinterpret_cast<const uint4*>(px[f] + STEP_K * WARPS * u) + i);
                };
                if constexpr (FOUR) TcStep<F, T, MAXM>::run(wa[u], wb[u], sa[u], sb[u], xv, nf, acc, ra, rb);
                else if constexpr (ROW_SCALE) TcStep8<F, MAXM>::run(wa[u], wb[u], xv, nf, acc);
                else TcStep16<F, T, MAXM>::run(wa[u], wb[u], xv, nf, acc);
            } else {
                uint4 xv[NB][XV];
                #pragma unroll
                for (int f = 0; f < NB; f++)
                    #pragma unroll
                    for (int i = 0; i < XV; i++)
                        if (f < nf) xv[f][i] = __ldg(reinterpret_cast<const uint4*>(px[f] + STEP_K * WARPS * u) + i);
                if constexpr (FOUR) TcStep<F, T, MAXM>::run(wa[u], wb[u], sa[u], sb[u], xv, nf, acc, ra, rb);
                else if constexpr (ROW_SCALE) TcStep8<F, MAXM>::run(wa[u], wb[u], xv, nf, acc);
                else TcStep16<F, T, MAXM>::run(wa[u], wb[u], xv, nf, acc);
            }
        }
        advance(UNROLL);
    }
    for (; it < iters; it += WARPS) { // at most UNROLL - 1 (+ 1 partial) steps per warp
        // the partial last step (NVFP4, MXFP4: K % 32 == 0; FP8, INT8: K % 16 == 0; FP16, BF16: K % 8 == 0; INT4 has
        // K % 128 == 0 and never gets here): lanes past K read nothing and add zeros. For INT4 this would not hold: its FP32 factor (0 here)
        // scales D columns, not k.
        const bool in = it * STEP_K + LANE_K * q < K;
        const uint4 zero4 = make_uint4(0, 0, 0, 0);
        const uint4 wa = in ? load_stream<HINT>(pw0) : zero4, wb = in ? load_stream<HINT>(pw1) : zero4;
        uint32_t sa = 0u, sb = 0u;
        if constexpr (FOUR) {
            sa = in ? load_step_scale<F>(ps0) : 0u;
            sb = in ? load_step_scale<F>(ps1) : 0u;
        }
        if constexpr (LAZY_X) {
            const auto xv = [&](int f, int i) { return in ? __ldg(reinterpret_cast<const uint4*>(px[f]) + i) : zero4; };
            if constexpr (FOUR) TcStep<F, T, MAXM>::run(wa, wb, sa, sb, xv, nf, acc, ra, rb);
            else if constexpr (ROW_SCALE) TcStep8<F, MAXM>::run(wa, wb, xv, nf, acc);
            else TcStep16<F, T, MAXM>::run(wa, wb, xv, nf, acc);
        } else {
            uint4 xv[NB][XV];
            #pragma unroll
            for (int f = 0; f < NB; f++)
                #pragma unroll
                for (int i = 0; i < XV; i++)
                    xv[f][i] = in && f < nf ? __ldg(reinterpret_cast<const uint4*>(px[f]) + i) : zero4;
            if constexpr (FOUR) TcStep<F, T, MAXM>::run(wa, wb, sa, sb, xv, nf, acc, ra, rb);
            else if constexpr (ROW_SCALE) TcStep8<F, MAXM>::run(wa, wb, xv, nf, acc);
            else TcStep16<F, T, MAXM>::run(wa, wb, xv, nf, acc);
        }
        advance(1);
    }
    // D: c0, c1 = row g, columns 2q, 2q+1; c2, c3 = row g + 8
    #pragma unroll
    for (int f = 0; f < NB; f++)
        #pragma unroll
        for (int c = 0; c < 4; c++) red[warp][f][c][lane] = acc[f][c];
    __syncthreads();
    if constexpr (Rows::PAIRED) {
        // one row of FP8 weights: warp 0's lanes of D's column 0 hold rows g and g + 8 of the block (c0 and c2), the
        // pair RoPE turns together; each is summed and scaled as below
        static_assert(F == Fmt::FP8 && NB == 1, "paired rows: FP8 weights at one row");
        if (threadIdx.x < 32 && q == 0) {
            float v[2] = {0.f, 0.f};
            #pragma unroll
            for (int w = 0; w < WARPS; w++) {
                v[0] += red[w][0][0][lane];
                v[1] += red[w][0][2][lane];
            }
            const int rn[2] = {r0, r1};
            v[0] *= __ldg(static_cast<const float*>(scales) + rn[0]);
            v[1] *= __ldg(static_cast<const float*>(scales) + rn[1]);
            rows.store_rows(rn, v);
        }
    } else {
        constexpr bool BF_A = FOUR && std::is_same_v<T, __nv_bfloat16>; // the 4-bit formats decoded to BF16
        // NVFP4: FP16 2^-14 (e2m1) x 2^6 (scale) = 2^-8; BF16 2^-126 x 2^119 = 2^-7
        const float out_scale = F == Fmt::NVFP4 ? global * (BF_A ? 128.f : 256.f) : 1.f;
        for (int e = threadIdx.x; e < NB * 4 * 32; e += WARPS * 32) { // whole warps: NB * 4 * 32 is a multiple of 32
            const auto [f, c, l, row, m] = tc_output(e, n0);
            [[maybe_unused]] float sq = 0.f;
            if (m < m_count && row < N) {
                float v = 0.f;
                #pragma unroll
                for (int w = 0; w < WARPS; w++) v += red[w][f][c][l];
                // MXFP4: FP16 2^(Emax - 128) = 2^(Emax - 127) x 2^14 (e2m1) x 2^-15 (e8m0_rel_half2); BF16
                // 2^(Emax - 120) = 2^(Emax - 127) x 2^126 (e2m1) x 2^-119 (e8m0_rel_bf16x2), its 2^7 applied to v
                // first: 2^(Emax - 120) overflows FP32 from Emax = 248
                if constexpr (F == Fmt::MXFP4 && BF_A) v *= 128.f;
                const float s = F == Fmt::MXFP4 ? e8m0_to_float(__ldg(row_emax + row)) * (BF_A ? 1.f : 0.5f)
                                : ROW_SCALE     ? __ldg(static_cast<const float*>(scales) + row)
                                                : out_scale;
                if constexpr (Rows::SUMS) sq = rows.store(m, row, N, v * s);
                else rows.store(m, row, N, v * s);
            }
            if constexpr (Rows::SUMS) {
                // the warp's lanes with the same l & 3 hold the same activation row m: their squares summed over the 8
                // output rows (lane bits 2-4), one atomic per row and warp
                sq += __shfl_xor_sync(0xffffffffu, sq, 4);
                sq += __shfl_xor_sync(0xffffffffu, sq, 8);
                sq += __shfl_xor_sync(0xffffffffu, sq, 16);
                if (l < 4 && m < m_count) rows.flush(m, sq, 4 * blockIdx.x + c);
            }
        }
    }
}

} // namespace roofline_gemv
using namespace roofline_gemv;

// CUDA-core kernels (the 8- and 16-bit formats): 4 warps per block; at M = 1 2 rows per warp with 2 chunks per row in
// flight (8 rows per block), above one row 1 row per warp with 4 chunks in flight (GemvKernels.rowsPerBlock).
// FP16 weights x FP16 activations run the epilogue (EpilogueRows), and so do FP8's kernels named _ep below; the other
// kernels take ep and ignore it (GemvKernels refuses one).
template <Fmt F, typename T> struct RowsFor { using type = PlainRows<T>; };
template <> struct RowsFor<Fmt::F16, __half> { using type = EpilogueRows<__half>; };
template <typename T>
__device__ __forceinline__ PlainRows<T> make_rows(PlainRows<T>*, const T* x, T* y, const GemvEpilogue&) {
    return PlainRows<T>{x, y};
}
template <typename T>
__device__ __forceinline__ EpilogueRows<T> make_rows(EpilogueRows<T>*, const T* x, T* y, const GemvEpilogue& ep) {
    return EpilogueRows<T>{x, y, ep};
}

// EP: whether the kernel carries the epilogue whatever RowsFor says (FP8's _ep kernels below)
#define ROOFLINE_GEMV_KERNEL(name, FMT, T, MAXM, UNR, RPW, EP)                                                    \
    extern "C" __global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)                                           \
    name(const void* W, const void* scales, const T* x, T* y, int M, int N, int K, float global, GemvEpilogue ep) { \
        roofline_launch::wait_for_previous_kernel();                                                            \
        using Rows = std::conditional_t<EP, EpilogueRows<T>, typename RowsFor<Fmt::FMT, T>::type>;              \
        const Rows rows = make_rows(static_cast<Rows*>(nullptr), x, y, ep);                                     \
        rows.begin(M);                                                                                          \
        gemv<Fmt::FMT, T, MAXM, UNR, RPW>(W, scales, rows, M, N, K, global, blockIdx.x);                        \
    }
#define ROOFLINE_GEMV(FMT, fmt, T, act, MAXM, UNR, RPW) \
    ROOFLINE_GEMV_KERNEL(gemv_##fmt##_##act##_m##MAXM, FMT, T, MAXM, UNR, RPW, false)
// Tensor-core kernels (gemv_tc above): TC_ROWS rows per block, K split over 8 or 16 warps (suffix _w8, _w16;
// GemvKernels.rowMajorLaunch picks by N). UNR: steps of loads in flight per warp, the fastest on an H200 at M = 1:
// 6 for INT4, 4 for NVFP4 and MXFP4 (docs/design/gemv-kernels.md#unrolling-and-register-caps); 4 at M = 16.
#define ROOFLINE_GEMV_TC_KERNEL(name, FMT, T, MAXM, UNR, W, BOUNDS, EP)                                          \
    extern "C" __global__ void BOUNDS name(const void* Wt, const void* scales, const T* x, T* y, int M, int N, int K, \
                                          float global, GemvEpilogue ep) {                                          \
        roofline_launch::wait_for_previous_kernel();                                                              \
        using Rows = std::conditional_t<EP, EpilogueRows<T>, PlainRows<T>>;                                       \
        const Rows rows = make_rows(static_cast<Rows*>(nullptr), x, y, ep);                                       \
        rows.begin(M);                                                                                            \
        gemv_tc<Fmt::FMT, T, MAXM, UNR, W>(Wt, scales, rows, M, N, K, global, blockIdx.x);                        \
    }
#define ROOFLINE_GEMV_TC(FMT, fmt, T, act, MAXM, UNR, W, BOUNDS) \
    ROOFLINE_GEMV_TC_KERNEL(gemv_##fmt##_##act##_m##MAXM##_w##W, FMT, T, MAXM, UNR, W, BOUNDS, false)
// Each format ships the two K splits GemvKernels.tensorCoreWarps launches: 8 and 16 warps. BOUNDS8: the launch bounds
// of the 8-warp M = 1 kernel. __launch_bounds__(256, 5) caps NVFP4 at 48 registers (sm_90a: from 56, no spills; sm_100a
// and sm_120a spill 16-24 bytes under it), so five blocks fit per SM instead of four: the 1792 blocks of 28672 rows run
// in 2.7 waves instead of 3.4, faster there and neutral elsewhere. MXFP4 keeps plain bounds: reading its row maxima
// from memory, it takes 48 registers unbounded on sm_90a and sm_100a (54 on sm_120a), so five blocks fit anyway, and
// it spills under the cap; INT4 spills under the cap too. (An explicit minimum of 1 block is not the same as none:
// ptxas then spends up to twice the registers.) Numbers: docs/design/gemv-kernels.md#unrolling-and-register-caps
// Above one row: _m8 for 2..8 rows (one B fragment, as at one row; also FP8 x FP16 at one row on 4096-6144 rows of
// K >= 4096, GemvKernels.fp8OneRowOnTensorCores), _m16 for 9..16 (two) and _m32 for 17..32 (four),
// since each fragment's x loads and accumulators cost registers, and so warps per SM,
// at every M (GemvKernels.rowsBound). The 16-row kernels
// keep 2 steps of loads in flight per warp, not 4 (fewer registers, more warps per SM): 1.00-1.12x for the 4-bit and
// 1.02-1.31x for the 8-bit formats on an H100; the 16-bit ones (ROOFLINE_GEMV_TC_BATCHED16) take at most 80 registers,
// so 3 blocks of 8 warps fit per SM (docs/design/gemv-kernels.md#batched-decode).
#define ROOFLINE_GEMV_TC_BATCHED_B(FMT, fmt, T, act, BOUNDS8, BOUNDS16)                                          \
    ROOFLINE_GEMV_TC(FMT, fmt, T, act, 8, 4, 8, __launch_bounds__(256))                                          \
    ROOFLINE_GEMV_TC(FMT, fmt, T, act, 8, 4, 16, __launch_bounds__(512))                                         \
    ROOFLINE_GEMV_TC(FMT, fmt, T, act, 16, 2, 8, BOUNDS8)                                                        \
    ROOFLINE_GEMV_TC(FMT, fmt, T, act, 16, 2, 16, BOUNDS16)                                                      \
    ROOFLINE_GEMV_TC(FMT, fmt, T, act, 32, 2, 8, __launch_bounds__(256))                                         \
    ROOFLINE_GEMV_TC(FMT, fmt, T, act, 32, 2, 16, __launch_bounds__(512))
#define ROOFLINE_GEMV_TC_BATCHED(FMT, fmt, T, act) \
    ROOFLINE_GEMV_TC_BATCHED_B(FMT, fmt, T, act, __launch_bounds__(256), __launch_bounds__(512))
#define ROOFLINE_GEMV_TC_BATCHED16(FMT, fmt, T, act) \
    ROOFLINE_GEMV_TC_BATCHED_B(FMT, fmt, T, act, __launch_bounds__(256, 3), __launch_bounds__(512, 1))

// Above one row every format runs on the tensor cores where its activations allow it: on the CUDA cores each weight
// costs one FFMA per activation row, which bounds those kernels (FP8 at M = 8 ran at a fifth of the copy bandwidth:
// docs/measurements/2026-11-24-issue15-decoder-h200). At one row the CUDA cores keep the 8- and 16-bit formats (2 rows
// per warp, at 94-103 % of the copy bandwidth for FP16, docs/design/gemv-kernels.md), but for FP8 x FP16 at 4096-6144
// rows of K >= 4096, which runs _m8_w16 (GemvKernels.fp8OneRowOnTensorCores), and the tensor cores the 4-bit
// ones with either activations (decoded to FP16 or BF16, the mma of the activations' type). The 8-bit formats with
// BF16 activations stay on the CUDA cores: they decode to FP16 for the mma.
// 16-bit weights: FP16 x FP16 on the tensor cores above one row, except a product with an epilogue (EpilogueRows:
// the CUDA-core kernel); FP16 x BF16 on the CUDA cores; BF16 x FP16 and BF16 x BF16 on the tensor cores above one row
// (TcStep16).
ROOFLINE_GEMV(F16, fp16, __half, f16, 1, 2, 2)
ROOFLINE_GEMV(F16, fp16, __half, f16, 16, 4, 1) // a product with an epilogue above one row
ROOFLINE_GEMV_TC_BATCHED16(F16, fp16, __half, f16)
ROOFLINE_GEMV(F16, fp16, __nv_bfloat16, bf16, 1, 2, 2)
ROOFLINE_GEMV(F16, fp16, __nv_bfloat16, bf16, 16, 4, 1)
ROOFLINE_GEMV(BF16, bf16, __half, f16, 1, 2, 2)
ROOFLINE_GEMV_TC_BATCHED16(BF16, bf16, __half, f16)
ROOFLINE_GEMV(BF16, bf16, __nv_bfloat16, bf16, 1, 2, 2)
ROOFLINE_GEMV_TC_BATCHED16(BF16, bf16, __nv_bfloat16, bf16)
// The 4-bit formats with BF16 activations: the same kernels on the BF16 decodes, all with plain bounds (NVFP4 spills 4
// bytes under the (256, 5) cap on sm_90a with BF16 activations).
#define ROOFLINE_GEMV_4BIT(FMT, fmt, UNR, BOUNDS8)                                                               \
    ROOFLINE_GEMV_TC(FMT, fmt, __half, f16, 1, UNR, 8, BOUNDS8)                                                  \
    ROOFLINE_GEMV_TC(FMT, fmt, __half, f16, 1, UNR, 16, __launch_bounds__(512))                                  \
    ROOFLINE_GEMV_TC_BATCHED(FMT, fmt, __half, f16)                                                              \
    ROOFLINE_GEMV_TC(FMT, fmt, __nv_bfloat16, bf16, 1, UNR, 8, __launch_bounds__(256))                           \
    ROOFLINE_GEMV_TC(FMT, fmt, __nv_bfloat16, bf16, 1, UNR, 16, __launch_bounds__(512))                          \
    ROOFLINE_GEMV_TC_BATCHED(FMT, fmt, __nv_bfloat16, bf16)
ROOFLINE_GEMV_4BIT(INT4, int4, 6, __launch_bounds__(256))
ROOFLINE_GEMV_4BIT(NVFP4, nvfp4, 4, __launch_bounds__(256, 5))
ROOFLINE_GEMV_4BIT(MXFP4, mxfp4, 4, __launch_bounds__(256))
#define ROOFLINE_GEMV_8BIT(FMT, fmt)                          \
    ROOFLINE_GEMV(FMT, fmt, __half, f16, 1, 2, 2)             \
    ROOFLINE_GEMV_TC_BATCHED(FMT, fmt, __half, f16)               \
    ROOFLINE_GEMV(FMT, fmt, __nv_bfloat16, bf16, 1, 2, 2)     \
    ROOFLINE_GEMV(FMT, fmt, __nv_bfloat16, bf16, 16, 4, 1)
ROOFLINE_GEMV_8BIT(FP8, fp8)
ROOFLINE_GEMV_8BIT(INT8, int8)

// FP8 x FP16 with an epilogue (GemvKernels.runsEpilogue), so that a step with FP8 weights runs its norms in the
// products as FP16's does: the one-row CUDA-core kernel and the 8-row tensor-core ones (up to 8 rows, and one row at
// 4096-6144 rows, GemvKernels.oneRowOnTensorCores). Kernels of their own: the plain ones carrying EpilogueRows made a
// Llama-3-8B FP8 batch 1 step 35-115 µs slower with its norms launched. The tensor-core ones are bounded to as many
// blocks an SM as the plain ones hold (6 of 8 warps, 3 of 16), which the epilogue's registers would cut to 5 and 2;
// the epilogue's loads stay at the tail, where they spill nothing under those bounds
// (docs/measurements/2026-11-27-issue15-fp8-norm-fusion-h200).
ROOFLINE_GEMV_KERNEL(gemv_fp8_f16_m1_ep, FP8, __half, 1, 2, 2, true)
ROOFLINE_GEMV_TC_KERNEL(gemv_fp8_f16_m8_w8_ep, FP8, __half, 8, 4, 8, __launch_bounds__(256, 6), true)
ROOFLINE_GEMV_TC_KERNEL(gemv_fp8_f16_m8_w16_ep, FP8, __half, 8, 4, 16, __launch_bounds__(512, 3), true)

// the 4-bit formats on weights tiled at upload (DeviceWeights.uploadForGemv), which GemvKernels runs in place of the
// row-major 4-bit kernels above with FP16 activations
#include "gemv_tiled.cu"
// the decoder kernels (decode.cu) ship in this fatbin too: one build, one library load per context
#include "decode.cu"
// and the mixture-of-experts kernels, whose grouped GEMVs run the templates above
#include "moe.cu"
// and NVFP4 x NVFP4 on the block-scaled mma of sm_120a / sm_121a (a trap elsewhere), with its activation quantizer
#include "gemv_w4a4.cu"
// and the same product on tcgen05.mma of sm_100a (a trap elsewhere)
#include "gemv_w4a4_sm100.cu"
// and a kernel that only reads, the floor the benchmarks set the others beside
#include "stream.cu"
