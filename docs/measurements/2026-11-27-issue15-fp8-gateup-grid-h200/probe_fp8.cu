// Issue 15 probe: the FP8 one-row CUDA-core GEMV (gemv.cu's gemv<Fmt::FP8, __half, 1, UNROLL, RPW>) at other block
// shapes than the shipped gemv_fp8_f16_m1_ep (4 warps, 2 rows a warp, 2 chunks a row in flight), beside one read of the
// same bytes (stream.cu's stream_read, StreamRead's grid). Each kernel is timed L2-cold in a chain of 20 launches over
// SETS weight sets, launched programmatically as the decoder launches them, graphed; µs per launch, the median of 9
// graph replays. Every variant's output is compared with the shipped kernel's (same per-lane order: bit-exact).
#include "gemv.cu"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>
#define CK(x)                                                                                                          \
    do {                                                                                                               \
        cudaError_t e = (x);                                                                                           \
        if (e != cudaSuccess) {                                                                                        \
            printf("ERR %s: %s at %d\n", #x, cudaGetErrorString(e), __LINE__);                                         \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

// the shipped kernel's body at WARPS warps a block, UNR chunks in flight a row, RPW rows a warp, MINB blocks an SM asked
template <int WARPS, int UNR, int RPW, int MINB>
__global__ void __launch_bounds__(WARPS * 32, MINB)
    fp8v(const void* W, const void* scales, const __half* x, __half* y, int M, int N, int K, float global,
         GemvEpilogue ep) {
    roofline_launch::wait_for_previous_kernel();
    const EpilogueRows<__half> rows{x, y, ep};
    rows.begin(M);
    gemv<Fmt::FP8, __half, 1, UNR, RPW>(W, scales, rows, M, N, K, global, blockIdx.x);
}


// Stream-K one-row GEMV: the grid is one wave (every block resident from the start) and the N x R steps of 512 bytes
// (one 16-byte chunk a lane) are dealt out in equal contiguous ranges, warp w taking [w S / Wt, (w + 1) S / Wt), so every
// warp streams the same bytes and all end together, as stream_read's threads do. A row cut by a range's ends is summed
// in parts: each part's warp writes its sum to part[row][p] (p = its index among the row's warps) and adds its steps to
// cnt[row]; the warp that completes the count adds the parts in order p = 0, 1, ... (deterministic), resets the count
// and stores. Rows wholly inside a range are stored by their warp.
__device__ __forceinline__ long sk_first(long t, long S, int Wt) { // the warp whose range holds step t
    long w = t * Wt / S;
    while (w + 1 < Wt && (w + 1) * S / Wt <= t) w++;
    while (w > 0 && w * S / Wt > t) w--;
    return w;
}
template <Fmt F, int UNR, typename Rows>
__device__ __forceinline__ void gemv_sk(const void* __restrict__ Wv, const void* __restrict__ scales, const Rows& rows,
                                        int N, int K, float* part, int* cnt, int pmax) {
    constexpr int EPC = Traits<F>::EPC;
    const int lane = threadIdx.x & 31;
    const int Wt = gridDim.x * (blockDim.x >> 5);
    const int w = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    const int chunks = K / EPC;
    const int R = (chunks + 31) / 32;
    const long S = (long)N * R;
    long s = (long)w * S / Wt;
    const long s1 = (long)(w + 1) * S / Wt;
    const __half* x = rows.x_row(0, K);
    while (s < s1) {
        const int row = (int)(s / R);
        const int j0 = (int)(s - (long)row * R);
        const long rest = s1 - (long)row * R;
        const int j1 = rest < R ? (int)rest : R;
        const uint8_t* wr = static_cast<const uint8_t*>(Wv) + (size_t)row * chunks * 16;
        float acc = 0.f;
        for (int j = j0; j < j1; j += UNR) {
            uint4 wv[UNR];
            #pragma unroll
            for (int u = 0; u < UNR; u++) {
                const int c = (j + u) * 32 + lane;
                if (j + u < j1 && c < chunks) wv[u] = load_stream<0>(wr + (size_t)c * 16);
            }
            #pragma unroll
            for (int u = 0; u < UNR; u++) {
                const int c = (j + u) * 32 + lane;
                if (j + u >= j1) break;
                if (c < chunks) {
                    float wf[EPC];
                    decode<F>(wv[u], wf);
                    float p0 = 0.f, p1 = 0.f;
                    #pragma unroll
                    for (int e = 0; e < EPC; e += 8) {
                        float xf[8];
                        load_x8<__half>(x + c * EPC + e, xf);
                        #pragma unroll
                        for (int q = 0; q < 8; q++) {
                            if (e + q < EPC / 2) p0 = fmaf(wf[e + q], xf[q], p0);
                            else p1 = fmaf(wf[e + q], xf[q], p1);
                        }
                    }
                    acc = fmaf(p0, 1.f, fmaf(p1, 1.f, acc));
                }
            }
        }
        #pragma unroll
        for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xFFFFFFFFu, acc, off);
        float v = acc;
        bool store = true;
        if (j0 > 0 || j1 < R) { // a part of the row
            const long t0 = (long)row * R;
            const int p = w - (int)sk_first(t0, S, Wt);
            int done = 0;
            if (lane == 0) {
                part[(size_t)row * pmax + p] = acc;
                __threadfence();
                done = atomicAdd(cnt + row, j1 - j0) + (j1 - j0) == R;
            }
            done = __shfl_sync(0xFFFFFFFFu, done, 0);
            store = done;
            if (done) {
                __threadfence();
                const int parts = (int)sk_first(t0 + R - 1, S, Wt) - (int)sk_first(t0, S, Wt) + 1;
                v = 0.f;
                for (int q = 0; q < parts; q++) v += __ldcg(part + (size_t)row * pmax + q);
                if (lane == 0) cnt[row] = 0;
            }
        }
        if (store && lane == 0) {
            const float sc = F == Fmt::FP8 || F == Fmt::INT8 ? __ldg(static_cast<const float*>(scales) + row) : 1.f;
            rows.store(0, row, N, v * sc);
        }
        s = (long)row * R + j1;
    }
}
template <int UNR, int MINB>
__global__ void __launch_bounds__(128, MINB)
    fp8sk(const void* W, const void* scales, const __half* x, __half* y, int M, int N, int K, float global,
          GemvEpilogue ep, float* part, int* cnt, int pmax) {
    roofline_launch::wait_for_previous_kernel();
    const EpilogueRows<__half> rows{x, y, ep};
    gemv_sk<Fmt::FP8, UNR>(W, scales, rows, N, K, part, cnt, pmax);
}

// The shipped CUDA-core loop (gemv.cu's gemv, one activation row, FP8 or 16-bit weights) with the next UNR chunks of
// each row loaded before this step's are multiplied: a warp keeps its loads in flight while it computes.
template <Fmt F, int UNR, int RPW, typename Rows>
__device__ __forceinline__ void gemv_db(const void* __restrict__ Wv, const void* __restrict__ scales, const Rows& rows,
                                        int N, int K) {
    constexpr int EPC = Traits<F>::EPC;
    const int lane = threadIdx.x & 31;
    const int warp = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
    const int n0 = warp * RPW;
    if (n0 >= N) return;
    const int chunks = K / EPC;
    const uint8_t* row[RPW];
    #pragma unroll
    for (int r = 0; r < RPW; r++)
        row[r] = static_cast<const uint8_t*>(Wv) + static_cast<size_t>(n0 + r < N ? n0 + r : n0) * chunks * 16;
    float acc[RPW];
    #pragma unroll
    for (int r = 0; r < RPW; r++) acc[r] = 0.f;
    const __half* x = rows.x_row(0, K);
    uint4 nx[UNR][RPW];
    auto load = [&](int c0) {
        #pragma unroll
        for (int u = 0; u < UNR; u++)
            #pragma unroll
            for (int r = 0; r < RPW; r++)
                if (c0 + 32 * u < chunks) nx[u][r] = load_stream<0>(row[r] + static_cast<size_t>(c0 + 32 * u) * 16);
    };
    load(lane);
    for (int c0 = lane; c0 < chunks; c0 += 32 * UNR) {
        uint4 w[UNR][RPW];
        #pragma unroll
        for (int u = 0; u < UNR; u++)
            #pragma unroll
            for (int r = 0; r < RPW; r++) w[u][r] = nx[u][r];
        load(c0 + 32 * UNR);
        #pragma unroll
        for (int u = 0; u < UNR; u++) {
            const int c = c0 + 32 * u;
            if (c >= chunks) break;
            float wf[RPW][EPC];
            #pragma unroll
            for (int r = 0; r < RPW; r++) decode<F>(w[u][r], wf[r]);
            float part0[RPW], part1[RPW];
            #pragma unroll
            for (int r = 0; r < RPW; r++) part0[r] = part1[r] = 0.f;
            #pragma unroll
            for (int e = 0; e < EPC; e += 8) {
                float xf[8];
                load_x8<__half>(x + c * EPC + e, xf);
                #pragma unroll
                for (int r = 0; r < RPW; r++)
                    #pragma unroll
                    for (int j = 0; j < 8; j++) {
                        if (e + j < EPC / 2) part0[r] = fmaf(wf[r][e + j], xf[j], part0[r]);
                        else part1[r] = fmaf(wf[r][e + j], xf[j], part1[r]);
                    }
            }
            #pragma unroll
            for (int r = 0; r < RPW; r++) acc[r] = fmaf(part0[r], 1.f, fmaf(part1[r], 1.f, acc[r]));
        }
    }
    #pragma unroll
    for (int r = 0; r < RPW; r++) {
        if (n0 + r >= N) break;
        float v = acc[r];
        #pragma unroll
        for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, off);
        if (lane == 0) rows.store(0, n0 + r, N, v * static_cast<const float*>(scales)[n0 + r]);
    }
}
template <int WARPS, int UNR, int RPW, int MINB>
__global__ void __launch_bounds__(WARPS * 32, MINB)
    fp8db(const void* W, const void* scales, const __half* x, __half* y, int M, int N, int K, float global,
          GemvEpilogue ep) {
    roofline_launch::wait_for_previous_kernel();
    const EpilogueRows<__half> rows{x, y, ep};
    gemv_db<Fmt::FP8, UNR, RPW>(W, scales, rows, N, K);
}

static int sms;
template <typename... A, typename... P>
static void launch(void (*k)(P...), int grid, int threads, cudaStream_t st, A... a) {
    cudaLaunchConfig_t c = {};
    c.gridDim = grid;
    c.blockDim = threads;
    c.stream = st;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    c.attrs = at;
    c.numAttrs = 1;
    CK(cudaLaunchKernelEx(&c, k, a...));
}

using Kern = void (*)(const void*, const void*, const __half*, __half*, int, int, int, float, GemvEpilogue);
struct Variant {
    const char* name;
    Kern k;
    int warps, rpw;
    int rows() const { return rpw > 0 ? warps * rpw : 16; } // rpw 0: a tensor-core kernel, 16 rows a block
};

int main(int argc, char** argv) {
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    Variant vs[] = {
        {"shipped", gemv_fp8_f16_m1_ep, 4, 2},
        {"w4u2r1", fp8v<4, 2, 1, 1>, 4, 1},
        {"w4u4r2", fp8v<4, 4, 2, 1>, 4, 2},
        {"w4u1r4", fp8v<4, 1, 4, 1>, 4, 4},
        {"w4u2r4", fp8v<4, 2, 4, 1>, 4, 4},
        {"w2u2r2", fp8v<2, 2, 2, 1>, 2, 2},
        {"w8u2r2", fp8v<8, 2, 2, 1>, 8, 2},
        {"w1u2r2", fp8v<1, 2, 2, 1>, 1, 2},
        {"db_w4u2r2", fp8db<4, 2, 2, 1>, 4, 2},
        {"db_w4u1r2", fp8db<4, 1, 2, 1>, 4, 2},
        {"db_w4u2r1", fp8db<4, 2, 1, 1>, 4, 1},
        {"db_w4u1r4", fp8db<4, 1, 4, 1>, 4, 4},
        {"db_w2u2r2", fp8db<2, 2, 2, 1>, 2, 2},
        {"tc_w16", gemv_fp8_f16_m8_w16, 16, 0},
        {"tc_w8ep", gemv_fp8_f16_m8_w8_ep, 8, 0},
    };
    const int NV = sizeof(vs) / sizeof(vs[0]);
    using SkKern = void (*)(const void*, const void*, const __half*, __half*, int, int, int, float, GemvEpilogue, float*,
                            int*, int);
    struct Sk {
        const char* name;
        SkKern k;
        int grid;
    } sks[] = {{"sk_u4", fp8sk<4, 1>, 0}};
    const int NS = sizeof(sks) / sizeof(sks[0]);
    for (auto& k : sks) {
        int occ = 0;
        cudaFuncAttributes fa;
        CK(cudaFuncGetAttributes(&fa, k.k));
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, k.k, 128, 0));
        k.grid = occ * sms;
        printf("%-10s regs %d local %zu blocks/SM %d grid %d\n", k.name, fa.numRegs, fa.localSizeBytes, occ, k.grid);
    }
    int rocc = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&rocc, stream_read, READ_THREADS, 0));
    for (auto& v : vs) {
        int occ = 0;
        cudaFuncAttributes fa;
        CK(cudaFuncGetAttributes(&fa, v.k));
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, v.k, v.warps * 32, 0));
        printf("%-10s warps %d rows/warp %d regs %d local %zu blocks/SM %d\n", v.name, v.warps, v.rpw, fa.numRegs,
               fa.localSizeBytes, occ);
    }
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    struct Shape {
        int N, K, sets;
    } shapes[] = {{28672, 4096, 4}, {14336, 4096, 6}, {4096, 14336, 6}, {128256, 4096, 2}};
    const int only = argc > 1 ? atoi(argv[1]) : -1; // a shape index, or all
    for (int si = 0; si < 4; si++) {
        if (only >= 0 && si != only) continue;
        const int N = shapes[si].N, K = shapes[si].K, SETS = shapes[si].sets;
        const size_t wbytes = (size_t)N * K;
        std::vector<uint8_t*> w(SETS);
        std::vector<uint8_t> hw(wbytes);
        unsigned sd = 2463534242u;
        for (size_t i = 0; i < wbytes; i++) {
            sd ^= sd << 13; sd ^= sd >> 17; sd ^= sd << 5;
            uint8_t b = sd & 0xff;
            if ((b & 0x7f) == 0x7f) b &= 0xfe; // no NaN codes
            hw[i] = b & 0xbf;                  // |w| below 2 (exponent bit 6 off)
        }
        for (int i = 0; i < SETS; i++) {
            CK(cudaMalloc(&w[i], wbytes));
            CK(cudaMemcpy(w[i], hw.data(), wbytes, cudaMemcpyHostToDevice));
        }
        std::vector<float> hs(N);
        for (int n = 0; n < N; n++) hs[n] = 0.01f + 0.001f * (n % 7);
        std::vector<__half> hx(K);
        for (int k = 0; k < K; k++) hx[k] = __float2half(((k * 37) % 101) / 101.f - 0.5f);
        float *scales, *sums;
        __half *x, *y, *y0;
        unsigned* sink;
        CK(cudaMalloc(&scales, 4 * N));
        CK(cudaMalloc(&sums, 4 * 64));
        CK(cudaMalloc(&x, 2 * K));
        CK(cudaMalloc(&y, 2 * N));
        CK(cudaMalloc(&y0, 2 * N));
        CK(cudaMalloc(&sink, 64));
        CK(cudaMemcpy(scales, hs.data(), 4 * N, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(x, hx.data(), 2 * K, cudaMemcpyHostToDevice));
        std::vector<float> hsum(64, 64.f);
        CK(cudaMemcpy(sums, hsum.data(), 4 * 64, cudaMemcpyHostToDevice));
        const int PMAX = 8;
        float* part;
        int* cnt;
        CK(cudaMalloc(&part, 4L * N * PMAX));
        CK(cudaMalloc(&cnt, 4L * N));
        CK(cudaMemset(cnt, 0, 4L * N));
        GemvEpilogue ep = {};
        ep.row_sumsq = sums; // the normed input's 1 / rms, as gate/up applies it
        ep.inv_k = 1.f / K;
        ep.eps = 1e-5f;
        auto sk_launch = [&](int i, const void* wp, __half* out) {
            launch(sks[i].k, sks[i].grid, 128, st, wp, (const void*)scales, (const __half*)x, out, 1, N, K, 1.f, ep, part,
                   cnt, PMAX);
        };
        const int words = (int)(wbytes / 16);
        const int rgrid = std::min((long)sms * std::min(rocc, 8), (long)(words + READ_THREADS - 1) / READ_THREADS);
        const int CH = 20;
        auto graph = [&](int vi) { // -1: the read
            cudaGraph_t gr;
            cudaGraphExec_t ge;
            CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
            for (int i = 0; i < CH; i++) {
                const int set = i % SETS;
                if (vi >= NV) {
                    sk_launch(vi - NV, w[set], y);
                } else if (vi < 0) {
                    launch(stream_read, rgrid, READ_THREADS, st, (const uint4*)w[set], words, 0x9e3779b9u, sink);
                } else {
                    const Variant& v = vs[vi];
                    const int rows = v.rows();
                    launch(v.k, (N + rows - 1) / rows, v.warps * 32, st, (const void*)w[set], (const void*)scales,
                           (const __half*)x, vi == 0 ? y0 : y, 1, N, K, 1.f, ep);
                }
            }
            CK(cudaStreamEndCapture(st, &gr));
            CK(cudaGraphInstantiate(&ge, gr, 0));
            for (int r = 0; r < 3; r++) CK(cudaGraphLaunch(ge, st));
            CK(cudaStreamSynchronize(st));
            cudaEvent_t a, b;
            CK(cudaEventCreate(&a));
            CK(cudaEventCreate(&b));
            std::vector<float> t;
            for (int r = 0; r < 9; r++) {
                CK(cudaEventRecord(a, st));
                CK(cudaGraphLaunch(ge, st));
                CK(cudaEventRecord(b, st));
                CK(cudaEventSynchronize(b));
                float ms;
                CK(cudaEventElapsedTime(&ms, a, b));
                t.push_back(ms * 1000 / CH);
            }
            std::sort(t.begin(), t.end());
            CK(cudaGraphExecDestroy(ge));
            CK(cudaGraphDestroy(gr));
            CK(cudaEventDestroy(a));
            CK(cudaEventDestroy(b));
            return t[t.size() / 2];
        };
        printf("\nshape %d x %d (%.1f MB), sets %d, read grid %d\n", N, K, wbytes / 1e6, SETS, rgrid);
        printf("%-10s %8s %8s %8s %8s %8s\n", "kernel", "blocks", "round1", "round2", "÷read", "maxdiff");
        std::vector<__half> o0(N), o(N);
        float rd[2];
        std::vector<float> tv[2];
        for (int round = 0; round < 2; round++) {
            rd[round] = graph(-1);
            for (int vi = 0; vi < NV + NS; vi++) tv[round].push_back(graph(vi));
        }
        printf("%-10s %8d %8.2f %8.2f %8.3f %8s\n", "read", rgrid, rd[0], rd[1], 1.0, "-");
        CK(cudaMemcpy(o0.data(), y0, 2 * N, cudaMemcpyDeviceToHost));
        for (int vi = 0; vi < NV + NS; vi++) {
            const bool sk = vi >= NV;
            const int rows = sk ? 0 : vs[vi].rows();
            double diff = 0;
            if (vi > 0) {
                // every variant wrote y last: run it once more alone so y is its output
                CK(cudaMemset(y, 0, 2 * N));
                if (sk) sk_launch(vi - NV, w[0], y);
                else launch(vs[vi].k, (N + rows - 1) / rows, vs[vi].warps * 32, st, (const void*)w[0], (const void*)scales,
                       (const __half*)x, y, 1, N, K, 1.f, ep);
                CK(cudaStreamSynchronize(st));
                CK(cudaMemcpy(o.data(), y, 2 * N, cudaMemcpyDeviceToHost));
                for (int n = 0; n < N; n++)
                    diff = std::max(diff, (double)std::fabs(__half2float(o[n]) - __half2float(o0[n])));
            }
            printf("%-10s %8d %8.2f %8.2f %8.3f %8.2g\n", sk ? sks[vi - NV].name : vs[vi].name,
                   sk ? sks[vi - NV].grid : (N + rows - 1) / rows, tv[0][vi], tv[1][vi],
                   std::min(tv[0][vi], tv[1][vi]) / std::min(rd[0], rd[1]), diff);
        }
        double nz = 0;
        for (int n = 0; n < N; n++) nz = std::max(nz, (double)std::fabs(__half2float(o0[n])));
        printf("shipped output max |y| %.3g\n", nz);
        for (auto p : w) CK(cudaFree(p));
        CK(cudaFree(scales)); CK(cudaFree(sums)); CK(cudaFree(x)); CK(cudaFree(y)); CK(cudaFree(y0)); CK(cudaFree(sink));
        CK(cudaFree(part)); CK(cudaFree(cnt));
    }
    return 0;
}
