// Tuning sweep for the M = 1 GEMV kernels of gemv.cu: the same kernel templates built with other compile-time
// choices (loads in flight, rows per warp, K split, register cap), timed L2-cold on one GPU and checked against the
// shipped kernel. A development tool: the numbers that count are GemvBenchmark's (Java, through the jar's fatbin).
//
//   nvcc -std=c++17 -O3 -arch=sm_90a -o gemv-sweep roofline-cuda/src/bench/gemv/sweep.cu   (sm_90a: H100 / H200)
//   ./gemv-sweep [format-filter] [NxK-filter]
//
// Per (format, shape): enough weight copies to cover >= 4x the L2, a CUDA graph of one launch per copy, CUDA events
// around 30 replays after 3 warm-up replays, median per launch. Output: one line per variant with microseconds,
// stored bytes per second (weights + scales), % of the measured device-to-device copy rate (read + write bytes) and
// the largest difference from the shipped kernel's output relative to that output's largest magnitude.
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

using Kernel = void (*)(const void*, const void*, const __half*, __half*, int, int, int, float, GemvEpilogue);

#define SWEEP_ARGS const void* W_, const void* s, const __half* x, __half* y, int M, int N, int K, float g, GemvEpilogue
// CUDA-core variants: 128 threads, UNR chunks in flight per row, RPW rows per warp
#define CC(FMT, UNR, RPW)                                                                                        \
    extern "C" __global__ void __launch_bounds__(128) sw_cc_##FMT##_u##UNR##_r##RPW(SWEEP_ARGS) {               \
        gemv<Fmt::FMT, __half, 1, UNR, RPW>(W_, s, PlainRows<__half>{x, y}, M, N, K, g, blockIdx.x);                                             \
    }
#define CC_ALL(FMT) CC(FMT, 4, 1) CC(FMT, 1, 2) CC(FMT, 2, 2) CC(FMT, 1, 4) CC(FMT, 2, 3) CC(FMT, 4, 2) CC(FMT, 8, 1) \
    CC(FMT, 3, 2) CC(FMT, 2, 4)
// 8-warp blocks of the CUDA-core kernel
#define CC8(FMT, UNR, RPW)                                                                                       \
    extern "C" __global__ void __launch_bounds__(256) sw_cc8_##FMT##_u##UNR##_r##RPW(SWEEP_ARGS) {              \
        gemv<Fmt::FMT, __half, 1, UNR, RPW>(W_, s, PlainRows<__half>{x, y}, M, N, K, g, blockIdx.x);           \
    }
CC8(FP8, 2, 2) CC8(FP8, 4, 2) CC8(INT8, 2, 2) CC8(INT8, 4, 2)
CC_ALL(F16)
CC_ALL(FP8)
CC_ALL(INT8)
// tensor-core variants: W warps splitting K, UNR steps in flight
#define TC(FMT, UNR, W)                                                                                          \
    extern "C" __global__ void __launch_bounds__(W * 32) sw_tc_##FMT##_u##UNR##_w##W(SWEEP_ARGS) {               \
        gemv_tc<Fmt::FMT, __half, 1, UNR, W>(W_, s, PlainRows<__half>{x, y}, M, N, K, g, blockIdx.x);                                          \
    }
#define TC_W(FMT, UNR) TC(FMT, UNR, 4) TC(FMT, UNR, 8) TC(FMT, UNR, 16)
#define TC_ALL(FMT) TC_W(FMT, 2) TC_W(FMT, 4) TC_W(FMT, 6)
TC_ALL(NVFP4)
TC_ALL(INT4)
TC_ALL(MXFP4)
// load hints (gemv.cu's load_stream<HINT>): the shipped CUDA-core configuration with hints 1-4 (results:
// docs/design/gemv-kernels.md; the bulk-L2-prefetch variants are a patch named in the issue-7 run-15 record)
#define CCH(FMT, HINT)                                                                                           \
    extern "C" __global__ void __launch_bounds__(128) sw_cch_##FMT##_h##HINT(SWEEP_ARGS) {                       \
        gemv<Fmt::FMT, __half, 1, 2, 2, HINT>(W_, s, PlainRows<__half>{x, y}, M, N, K, g, blockIdx.x);                                           \
    }
#define CCH_ALL(FMT) CCH(FMT, 1) CCH(FMT, 2) CCH(FMT, 3) CCH(FMT, 4)
CCH_ALL(F16)
CCH_ALL(FP8)
CCH_ALL(INT8)
// tensor-core variants of the shipped w8 kernel: UNR steps in flight, load hint HINT, bounds b5 = (256, 5), b4 = (256)
#define TCV(FMT, UNR, HINT, B, BOUNDS)                                                                           \
    extern "C" __global__ void BOUNDS sw_tcv_##FMT##_u##UNR##_h##HINT##_##B(SWEEP_ARGS) {                         \
        gemv_tc<Fmt::FMT, __half, 1, UNR, 8, HINT>(W_, s, PlainRows<__half>{x, y}, M, N, K, g, blockIdx.x);                                     \
    }
#define TCV_FP4(FMT) TCV(FMT, 4, 0, b5, __launch_bounds__(256, 5)) TCV(FMT, 4, 2, b5, __launch_bounds__(256, 5))      \
    TCV(FMT, 6, 1, b4, __launch_bounds__(256)) TCV(FMT, 4, 1, b4, __launch_bounds__(256))                             \
    TCV(FMT, 2, 1, b5, __launch_bounds__(256, 5)) TCV(FMT, 6, 1, b5, __launch_bounds__(256, 5))
TCV_FP4(NVFP4)
TCV_FP4(MXFP4)
TCV(INT4, 6, 0, b4, __launch_bounds__(256)) TCV(INT4, 6, 2, b4, __launch_bounds__(256))
TCV(INT4, 4, 1, b4, __launch_bounds__(256)) TCV(INT4, 8, 1, b4, __launch_bounds__(256))
// MXFP4 weights for the tensor-core kernels: each row's largest scale code after the N x K/32 codes (gemv.cu)
__global__ void row_max_codes(uint8_t* s, int N, int nb) { // appends each row's largest code after the N x nb codes
    for (int n = blockIdx.x * blockDim.x + threadIdx.x; n < N; n += gridDim.x * blockDim.x) {
        uint8_t m = 0;
        for (int i = 0; i < nb; i++) m = max(m, s[static_cast<size_t>(n) * nb + i]);
        s[static_cast<size_t>(N) * nb + n] = m;
    }
}
// references for the differences, 128 threads: the 8- and 16-bit formats on the CUDA-core kernel with its own decode
// (one row per warp, 4 chunks in flight, 4 rows a block); the 4-bit formats, which gemv.cu runs on the tensor cores
// only, on the tensor-core kernel with 4 warps splitting K (16 rows a block)
#define REF(FMT) extern "C" __global__ void __launch_bounds__(128) sw_ref_##FMT(SWEEP_ARGS) { gemv<Fmt::FMT, __half, 1, 4, 1>(W_, s, PlainRows<__half>{x, y}, M, N, K, g, blockIdx.x); }
#define REF_TC(FMT) extern "C" __global__ void __launch_bounds__(128) sw_ref_##FMT(SWEEP_ARGS) { gemv_tc<Fmt::FMT, __half, 1, 2, 4>(W_, s, PlainRows<__half>{x, y}, M, N, K, g, blockIdx.x); }
REF(F16)
REF(FP8)
REF(INT8)
REF_TC(NVFP4)
REF_TC(INT4)
REF_TC(MXFP4)

struct Variant {
    const char* name;
    Kernel kernel;
    int threads;
    int rows_per_block;
};

#define V_CC(FMT, UNR, RPW) {"cc u" #UNR " r" #RPW, sw_cc_##FMT##_u##UNR##_r##RPW, 128, 4 * RPW}
#define V_CC8(FMT, UNR, RPW) {"cc8 u" #UNR " r" #RPW, sw_cc8_##FMT##_u##UNR##_r##RPW, 256, 8 * RPW}
// the 8-bit formats' shipped 8-row tensor-core kernels, run at one row
#define V_8BIT(FMT, fmt) V_CC(FMT, 4, 1), V_CC(FMT, 4, 2), V_CC(FMT, 8, 1), V_CC(FMT, 3, 2), V_CC(FMT, 2, 4),          \
    V_CC(FMT, 1, 4), V_CC(FMT, 2, 3), V_CC8(FMT, 2, 2), V_CC8(FMT, 4, 2),                                          \
    {"tc m8 w8", gemv_##fmt##_f16_m8_w8, 256, 16}, {"tc m8 w16", gemv_##fmt##_f16_m8_w16, 512, 16}
#define V_TC(FMT, UNR, W) {"tc u" #UNR " w" #W, sw_tc_##FMT##_u##UNR##_w##W, W * 32, 16}
#define V_TC_W(FMT, UNR) V_TC(FMT, UNR, 4), V_TC(FMT, UNR, 8), V_TC(FMT, UNR, 16)

#define V_CCH(FMT, HINT) {"cc u2 r2 h" #HINT, sw_cch_##FMT##_h##HINT, 128, 8}
#define V_CCH_ALL(FMT) V_CCH(FMT, 1), V_CCH(FMT, 2), V_CCH(FMT, 3), V_CCH(FMT, 4)
#define V_TCV(FMT, UNR, HINT, B) {"tc w8 u" #UNR " h" #HINT " " #B, sw_tcv_##FMT##_u##UNR##_h##HINT##_##B, 256, 16}
#define V_TCV_FP4(FMT) V_TCV(FMT, 4, 0, b5), V_TCV(FMT, 4, 2, b5), V_TCV(FMT, 6, 1, b4), V_TCV(FMT, 4, 1, b4), \
    V_TCV(FMT, 2, 1, b5), V_TCV(FMT, 6, 1, b5)

struct Format {
    const char* name;
    Kernel shipped;       // one of the fatbin's m1 kernels for FP16 activations (tensor cores: the large-N K split)
    int shipped_threads;  // its block: 128 for the CUDA-core kernels, 32 x its K split
    Kernel reference;     // sw_ref_*: 128 threads, 4 rows per block (16 with tensor_cores)
    bool tensor_cores;    // shipped kernel: 16 rows per block, K split chosen by N (GemvKernels.threadsPerBlock)
    double bits;          // per weight
    int scale_k;          // weights per scale entry (0: per row)
    int scale_bytes;      // bytes per scale entry
    std::vector<Variant> variants;
};

static std::vector<Format> formats() {
    return {
        {"FP16", gemv_fp16_f16_m1, 128, sw_ref_F16, false, 16, 0, 0, {V_CCH_ALL(F16)}},
        {"FP8", gemv_fp8_f16_m1, 128, sw_ref_FP8, false, 8, 0, 4, {V_8BIT(FP8, fp8), V_CCH_ALL(FP8)}},
        {"INT8", gemv_int8_f16_m1, 128, sw_ref_INT8, false, 8, 0, 4, {V_8BIT(INT8, int8), V_CCH_ALL(INT8)}},
        {"NVFP4", gemv_nvfp4_f16_m1_w8, 256, sw_ref_NVFP4, true, 4, 16, 1, {V_TCV_FP4(NVFP4)}},
        {"INT4", gemv_int4_f16_m1_w8, 256, sw_ref_INT4, true, 4, 128, 4, {V_TCV(INT4, 6, 0, b4), V_TCV(INT4, 6, 2, b4), V_TCV(INT4, 4, 1, b4), V_TCV(INT4, 8, 1, b4)}},
        {"MXFP4", gemv_mxfp4_f16_m1_w8, 256, sw_ref_MXFP4, true, 4, 32, 1, {V_TCV_FP4(MXFP4)}},
    };
}

// random bytes as the Java benchmark makes them: every element code (no FP16 Inf/NaN, no E4M3 NaN), plausible scales
__global__ void fill_bytes(uint8_t* p, size_t n, uint32_t seed, uint32_t and_mask_even, uint32_t and_mask_odd) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        uint32_t h = static_cast<uint32_t>(i) * 2654435761u ^ seed ^ static_cast<uint32_t>(i >> 32) * 0x9E3779B9u;
        h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12; h *= 0x297A2D39u; h ^= h >> 15;
        p[i] = static_cast<uint8_t>(h & ((i & 1) ? and_mask_odd : and_mask_even));
    }
}
__global__ void fill_range(uint8_t* p, size_t n, uint32_t seed, int lo, int hi) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        uint32_t h = static_cast<uint32_t>(i) * 2246822519u ^ seed;
        h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
        p[i] = static_cast<uint8_t>(lo + h % (hi - lo));
    }
}
__global__ void fill_float(float* p, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        uint32_t h = static_cast<uint32_t>(i) * 3266489917u ^ seed;
        h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15;
        p[i] = 0.005f + 0.01f * (h >> 8) / 16777216.f;
    }
}
__global__ void fill_half(__half* p, size_t n, uint32_t seed) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        uint32_t h = static_cast<uint32_t>(i) * 668265263u ^ seed;
        h ^= h >> 15; h *= 0x2C1B3C6Du; h ^= h >> 12;
        p[i] = __float2half(((h >> 8) / 16777216.f) * 2.f - 1.f);
    }
}

struct Weights {
    void* w = nullptr;
    void* s = nullptr;
};


static float time_graph(cudaStream_t st, const std::vector<std::pair<Weights, __half*>>& sets, Kernel k, int threads,
                        int rows_per_block, int N, int K, const __half* x, float global) {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
    for (auto& set : sets) {
        k<<<(N + rows_per_block - 1) / rows_per_block, threads, 0, st>>>(set.first.w, set.first.s, x, set.second, 1, N, K, global, GemvEpilogue{});
    }
    CK(cudaStreamEndCapture(st, &graph));
    CK(cudaGraphInstantiate(&exec, graph, 0));
    const float ms = median_event_ms(st, 3, 30, [&] { CK(cudaGraphLaunch(exec, st)); });
    CK(cudaGraphExecDestroy(exec));
    CK(cudaGraphDestroy(graph));
    return ms * 1000.f / sets.size(); // per launch
}

int main(int argc, char** argv) {
    const std::string only_format = argc > 1 ? argv[1] : "";
    const std::string only_shape = argc > 2 ? argv[2] : "";
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    const double copy = copy_rate(st, size_t(1) << 30, 10);
    std::printf("device %s, %d SMs, L2 %d MiB; copy (read + write) %.0f GB/s\n", prop.name, prop.multiProcessorCount,
                prop.l2CacheSize >> 20, copy / 1e9);
    std::printf("format shape        variant             threads      us     GB/s  %%copy  vs shipped  max diff / max |ref| (ref: sw_ref_*)\n");
    const int shapes[][2] = {{8192, 8192}, {28672, 8192}, {8192, 28672}, {6144, 4096}, {4096, 4096}, {28672, 4096}, {4096, 14336}};
    for (const Format& f : formats()) {
        if (!only_format.empty() && only_format.find(f.name) == std::string::npos) continue;
        for (auto& sh : shapes) {
            const int N = sh[0], K = sh[1];
            char shape[32];
            std::snprintf(shape, sizeof shape, "%dx%d", N, K);
            if (!only_shape.empty() && only_shape != shape) continue;
            const size_t wbytes = static_cast<size_t>(N) * K * static_cast<size_t>(f.bits) / 8;
            const size_t sentries = f.scale_bytes == 0 ? 0 : f.scale_k == 0 ? N : static_cast<size_t>(N) * (K / f.scale_k);
            const size_t sbytes = sentries * f.scale_bytes;
            const size_t total = wbytes + sbytes;
            const int nsets = static_cast<int>(std::max<size_t>(2, (4 * static_cast<size_t>(prop.l2CacheSize) + total - 1) / total));
            std::vector<std::pair<Weights, __half*>> sets(nsets);
            for (int i = 0; i < nsets; i++) {
                Weights w;
                CK(cudaMalloc(&w.w, wbytes));
                const bool f16 = f.bits == 16, fp8 = std::strcmp(f.name, "FP8") == 0;
                fill_bytes<<<1024, 256, 0, st>>>(static_cast<uint8_t*>(w.w), wbytes, 7u + i,
                                                 f16 ? 0xFFu : fp8 ? 0xF7u : 0xFFu, f16 ? 0xBBu : fp8 ? 0xF7u : 0xFFu);
                if (sbytes) {
                    const bool mx = std::strcmp(f.name, "MXFP4") == 0; // + N bytes: each row's largest code
                    CK(cudaMalloc(&w.s, sbytes + (mx ? N : 0)));
                    if (std::strcmp(f.name, "NVFP4") == 0) fill_range<<<1024, 256, 0, st>>>(static_cast<uint8_t*>(w.s), sbytes, 3u + i, 0x18, 0x50);
                    else if (mx) {
                        fill_range<<<1024, 256, 0, st>>>(static_cast<uint8_t*>(w.s), sbytes, 3u + i, 119, 129);
                        row_max_codes<<<(N + 255) / 256, 256, 0, st>>>(static_cast<uint8_t*>(w.s), N, K / 32);
                    }
                    else fill_float<<<1024, 256, 0, st>>>(static_cast<float*>(w.s), sentries, 3u + i);
                }
                __half* y;
                CK(cudaMalloc(&y, 2 * static_cast<size_t>(N)));
                sets[i] = {w, y};
            }
            __half* x;
            CK(cudaMalloc(&x, 2 * static_cast<size_t>(K)));
            fill_half<<<256, 256, 0, st>>>(x, K, 11u);
            const float global = 1.f / 2688;
            CK(cudaStreamSynchronize(st));
            CK(cudaGetLastError());
            // the reference kernel's output on set 0
            const int sthreads = f.shipped_threads; // GemvKernels.tensorCoreWarps picks the other split at small N
            const int srows = f.tensor_cores ? 16 : 8; // GemvKernels.rowsPerBlock at M = 1
            const int ref_rows = f.tensor_cores ? 16 : 4;
            f.reference<<<(N + ref_rows - 1) / ref_rows, 128, 0, st>>>(sets[0].first.w, sets[0].first.s, x, sets[0].second, 1, N, K, global, GemvEpilogue{});
            CK(cudaStreamSynchronize(st));
            CK(cudaGetLastError());
            std::vector<__half> ref(N), got(N);
            CK(cudaMemcpy(ref.data(), sets[0].second, 2 * static_cast<size_t>(N), cudaMemcpyDeviceToHost));
            double refmax = 0;
            for (int i = 0; i < N; i++) refmax = std::max(refmax, std::fabs(static_cast<double>(__half2float(ref[i]))));
            const float shipped_us = time_graph(st, sets, f.shipped, sthreads, srows, N, K, x, global);
            auto line = [&](const char* name, int threads, float us, double diff) {
                const double gbs = total / (us * 1e-6) / 1e9;
                std::printf("%-6s %-12s %-20s %7d %8.2f %8.0f %5.1f%% %9.3fx  %.2e\n", f.name, shape, name, threads, us, gbs,
                            100 * gbs * 1e9 / copy, shipped_us / us, diff);
                std::fflush(stdout);
            };
            std::vector<Variant> all{{"shipped", f.shipped, sthreads, srows}};
            all.insert(all.end(), f.variants.begin(), f.variants.end());
            for (const Variant& v : all) {
                CK(cudaMemsetAsync(sets[0].second, 0xFF, 2 * static_cast<size_t>(N), st)); // NaN: an unwritten row shows
                v.kernel<<<(N + v.rows_per_block - 1) / v.rows_per_block, v.threads, 0, st>>>(sets[0].first.w, sets[0].first.s, x,
                                                                                            sets[0].second, 1, N, K, global, GemvEpilogue{});
                CK(cudaStreamSynchronize(st));
                CK(cudaGetLastError());
                CK(cudaMemcpy(got.data(), sets[0].second, 2 * static_cast<size_t>(N), cudaMemcpyDeviceToHost));
                double diff = 0;
                for (int i = 0; i < N; i++) {
                    const double d = std::fabs(static_cast<double>(__half2float(got[i])) - __half2float(ref[i]));
                    diff = std::isnan(d) ? INFINITY : std::max(diff, d);
                }
                line(v.name, v.threads, v.kernel == f.shipped ? shipped_us
                        : time_graph(st, sets, v.kernel, v.threads, v.rows_per_block, N, K, x, global), diff / refmax);
            }
            for (auto& set : sets) {
                CK(cudaFree(set.first.w));
                if (set.first.s) CK(cudaFree(set.first.s));
                CK(cudaFree(set.second));
            }
            CK(cudaFree(x));
        }
    }
    return 0;
}
