// Issue 15 probe: what the attention's merge (decode_attention_reduce) costs after the split pass, and a merge with
// one warp per slice of a head's columns, its splits' maxes and sums reduced by shuffles alone (no shared memory, no
// barrier). Timed graphed as the decoder launches them (programmatic launches, the split pass letting the merge launch
// as its blocks end), L2-cold over 4 KV sets, 20 pairs a graph, median of 9 replays, two rounds: one read of the KV
// bytes (stream_read), the shipped split + merge, the split pass alone, the split pass + the warp merge with 16, 8 or
// 4 columns a warp (run 1: 16 and 8), and (run 2) the shipped merge with in-warp shuffles and one barrier (blk1). The
// other merges' outputs are compared with the shipped merge's (same partials).
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
            printf("ERR %s: %s at %d\n", #x, cudaGetErrorString(e), __LINE__);                                        \
            exit(1);                                                                                                   \
        }                                                                                                              \
    } while (0)

// WCOLS columns of head bh a warp: CT = WCOLS / 4 threads across them (4 columns, one 16-byte load a split each), SL =
// 32 / CT split lanes; each lane holds its first HELD splits in registers, loads issued together.
template <int D, int WCOLS>
__global__ void __launch_bounds__(128)
    merge_warp(const float* partial_ml, const float* partial_acc, half* out, int splits, int warps) {
    roofline_launch::wait_for_previous_kernel();
    constexpr int CT = WCOLS / 4;
    constexpr int SL = 32 / CT;
    constexpr int HELD = 128 / SL;
    constexpr int WPH = D / WCOLS;
    const int w = blockIdx.x * 4 + (threadIdx.x >> 5);
    if (w >= warps) return;
    const int lane = threadIdx.x & 31;
    const int bh = w / WPH, slice = w - bh * WPH;
    const int col = lane % CT, sl = lane / CT;
    const float* ml = partial_ml + (size_t)bh * splits * 2;
    const float4* acc4 = reinterpret_cast<const float4*>(partial_acc + (size_t)bh * splits * D) + slice * CT + col;
    float hm[HELD], hl[HELD];
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
    for (int i = 0; i < HELD; i++) mm = fmaxf(mm, hm[i]);
    for (int sp = sl + HELD * SL; sp < splits; sp += SL) mm = fmaxf(mm, ml[2 * sp]);
#pragma unroll
    for (int o = CT; o < 32; o <<= 1) mm = fmaxf(mm, __shfl_xor_sync(0xffffffffu, mm, o));
    float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
    float l = 0.f;
    auto add = [&](float m, float ls, float4 v) {
        float wt = m == -CUDART_INF_F ? 0.f : __expf(m - mm);
        l += wt * ls;
        a.x += wt * v.x;
        a.y += wt * v.y;
        a.z += wt * v.z;
        a.w += wt * v.w;
    };
#pragma unroll
    for (int i = 0; i < HELD; i++) add(hm[i], hl[i], ha[i]);
    for (int sp = sl + HELD * SL; sp < splits; sp += SL) add(ml[2 * sp], ml[2 * sp + 1], acc4[(size_t)sp * (D / 4)]);
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
        __half2 lo = __floats2half2_rn(a.x * r, a.y * r), hi = __floats2half2_rn(a.z * r, a.w * r);
        uint2 v;
        memcpy(&v.x, &lo, 4);
        memcpy(&v.y, &hi, 4);
        *reinterpret_cast<uint2*>(out + (size_t)bh * D + slice * WCOLS + 4 * col) = v;
    }
}

// The shipped merge's blocks and loads (REDUCE_THREADS threads on REDUCE_COLS columns, S = 16 split lanes, each
// thread's first REDUCE_HELD splits held), but each warp takes the max and the sums of its 4 split lanes by shuffles
// with its own max, and the 4 warps' results are rescaled to the block's max and added by 8 threads after one barrier.
template <int D>
__global__ void __launch_bounds__(REDUCE_THREADS)
    merge_blk1(const float* partial_ml, const float* partial_acc, half* out, int splits) {
    roofline_launch::wait_for_previous_kernel();
    constexpr int SLICES = D / REDUCE_COLS;
    constexpr int COLS = REDUCE_COLS / 4;
    constexpr int S = REDUCE_THREADS / COLS;
    constexpr int WARPS = REDUCE_THREADS / 32;
    __shared__ float s_m[WARPS], s_l[WARPS];
    __shared__ float4 s_a[WARPS][COLS];
    int bh = blockIdx.x / SLICES;
    int slice = blockIdx.x - bh * SLICES;
    const float* ml = partial_ml + (size_t)bh * splits * 2;
    int col = threadIdx.x % COLS;
    int lane = threadIdx.x / COLS;
    const float4* acc4 = reinterpret_cast<const float4*>(partial_acc + (size_t)bh * splits * D) + slice * COLS + col;
    float hm[REDUCE_HELD], hl[REDUCE_HELD];
    float4 ha[REDUCE_HELD];
#pragma unroll
    for (int i = 0; i < REDUCE_HELD; i++) {
        int sp = lane + i * S;
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
    for (int i = 0; i < REDUCE_HELD; i++) mm = fmaxf(mm, hm[i]);
    for (int sp = lane + REDUCE_HELD * S; sp < splits; sp += S) mm = fmaxf(mm, ml[2 * sp]);
#pragma unroll
    for (int o = COLS; o < 32; o <<= 1) mm = fmaxf(mm, __shfl_xor_sync(0xffffffffu, mm, o));
    float4 a = make_float4(0.f, 0.f, 0.f, 0.f);
    float l = 0.f;
    auto add = [&](float m, float ls, float4 v) {
        float wt = m == -CUDART_INF_F ? 0.f : __expf(m - mm);
        l += wt * ls;
        a.x += wt * v.x;
        a.y += wt * v.y;
        a.z += wt * v.z;
        a.w += wt * v.w;
    };
#pragma unroll
    for (int i = 0; i < REDUCE_HELD; i++) add(hm[i], hl[i], ha[i]);
    for (int sp = lane + REDUCE_HELD * S; sp < splits; sp += S) add(ml[2 * sp], ml[2 * sp + 1], acc4[(size_t)sp * (D / 4)]);
#pragma unroll
    for (int o = COLS; o < 32; o <<= 1) {
        l += __shfl_xor_sync(0xffffffffu, l, o);
        a.x += __shfl_xor_sync(0xffffffffu, a.x, o);
        a.y += __shfl_xor_sync(0xffffffffu, a.y, o);
        a.z += __shfl_xor_sync(0xffffffffu, a.z, o);
        a.w += __shfl_xor_sync(0xffffffffu, a.w, o);
    }
    const int w = threadIdx.x >> 5;
    if ((threadIdx.x & 31) < COLS) {
        s_a[w][col] = a;
        if (col == 0) {
            s_m[w] = mm;
            s_l[w] = l;
        }
    }
    __syncthreads();
    if (threadIdx.x < COLS) {
        float M = s_m[0];
#pragma unroll
        for (int v = 1; v < WARPS; v++) M = fmaxf(M, s_m[v]);
        float4 t = make_float4(0.f, 0.f, 0.f, 0.f);
        float lt = 0.f;
#pragma unroll
        for (int v = 0; v < WARPS; v++) {
            const float wt = s_m[v] == -CUDART_INF_F ? 0.f : __expf(s_m[v] - M);
            const float4 x = s_a[v][col];
            lt += wt * s_l[v];
            t.x += wt * x.x;
            t.y += wt * x.y;
            t.z += wt * x.z;
            t.w += wt * x.w;
        }
        const float r = 1.f / lt;
        __half2 lo = __floats2half2_rn(t.x * r, t.y * r), hi = __floats2half2_rn(t.z * r, t.w * r);
        uint2 v;
        memcpy(&v.x, &lo, 4);
        memcpy(&v.y, &hi, 4);
        *reinterpret_cast<uint2*>(out + (size_t)bh * D + slice * REDUCE_COLS + 4 * col) = v;
    }
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

template <typename C>
static void run(const char* name, void (*split)(const half*, const C*, const C*, const int*, float*, float*, int, int,
                                                int, int, int, int, float, float)) {
    const int H = 32, G = 8, D = 128, SETS = 4;
    int occ = 0, rocc = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, split, 128, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&rocc, stream_read, 256, 0));
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, merge_warp<128, 16>));
    printf("== %s: sms %d split blocks/SM %d; merge_warp<128,16> regs %d local %zu\n", name, sms, occ, fa.numRegs,
           fa.localSizeBytes);
    CK(cudaFuncGetAttributes(&fa, merge_warp<128, 8>));
    printf("   merge_warp<128,8> regs %d local %zu\n", fa.numRegs, fa.localSizeBytes);
    CK(cudaFuncGetAttributes(&fa, merge_warp<128, 4>));
    printf("   merge_warp<128,4> regs %d local %zu\n", fa.numRegs, fa.localSizeBytes);
    CK(cudaFuncGetAttributes(&fa, merge_blk1<128>));
    printf("   merge_blk1<128> regs %d local %zu\n", fa.numRegs, fa.localSizeBytes);
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    struct Cfg {
        int B, L;
    } cfgs[] = {{1, 1024}, {1, 4096}, {1, 8192}, {1, 16384}, {1, 32768}, {8, 1024}, {8, 8192}, {8, 32768}, {32, 8192}, {3, 1000}};
    for (auto cf : cfgs) {
        const int B = cf.B, L = cf.L;
        size_t elems = (size_t)B * G * L * D, cache = elems * sizeof(C);
        std::vector<C*> kc(SETS), vc(SETS);
        std::vector<C> hk(elems), hv(elems);
        std::vector<half> hq((size_t)B * H * D);
        unsigned sd = 12345;
        auto rnd = [&]() {
            sd = sd * 1664525u + 1013904223u;
            return ((sd >> 8) & 0xffff) / 65536.f * 2.f - 1.f;
        };
        for (size_t i = 0; i < elems; i++) {
            hk[i] = C(rnd() * 2.f);
            hv[i] = C(rnd());
        }
        for (auto& x : hq) x = __float2half(rnd() * 2.f);
        for (int i = 0; i < SETS; i++) {
            CK(cudaMalloc(&kc[i], 2 * cache));
            vc[i] = kc[i] + elems;
            CK(cudaMemcpy(kc[i], hk.data(), cache, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(vc[i], hv.data(), cache, cudaMemcpyHostToDevice));
        }
        half *q, *out[5];
        int* len;
        float *ml, *acc;
        unsigned* sink;
        CK(cudaMalloc(&q, B * H * D * 2));
        for (auto& o : out) CK(cudaMalloc(&o, B * H * D * 2));
        CK(cudaMalloc(&len, 4 * B));
        CK(cudaMalloc(&sink, 64));
        CK(cudaMalloc(&ml, 1 << 22));
        CK(cudaMalloc(&acc, 1 << 26));
        CK(cudaMemcpy(q, hq.data(), hq.size() * 2, cudaMemcpyHostToDevice));
        std::vector<int> lens(B, L); // ragged at B = 3: row r has L - 137 r tokens
        if (B == 3)
            for (int r = 0; r < B; r++) lens[r] = L - 137 * r;
        CK(cudaMemcpy(len, lens.data(), 4 * B, cudaMemcpyHostToDevice));
        // DecodeKernels.attentionChunk
        long slots = (long)sms * std::min(5, occ), fewest = (L + 511) / 512, waves = (B * G * fewest + slots - 1) / slots;
        long splits = std::max(fewest, waves * slots / (B * G));
        long chunk = ((L + splits - 1) / splits + 15) / 16 * 16;
        chunk = std::min(512L, std::max(32L, chunk));
        int sp = (L + chunk - 1) / chunk;
        int words = (int)(2 * cache / 16);
        int rgrid = std::min((long)sms * std::min(rocc, 8), (long)(words + 255) / 256);
        const int N = 20;
        auto graph = [&](int mode) { // 0 read, 1 shipped pair, 2 split alone, 3 split + warp merge 16, 4 ... 8
            cudaGraph_t gr;
            cudaGraphExec_t ge;
            CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
            for (int i = 0; i < N; i++) {
                int set = i % SETS;
                if (mode == 0) {
                    launch(stream_read, rgrid, 256, st, (const uint4*)kc[set], words, 0x9e3779b9u, sink);
                    continue;
                }
                launch(split, B * G * sp, 128, st, (const half*)q, (const C*)kc[set], (const C*)vc[set],
                       (const int*)len, ml, acc, H * D, H, G, L, sp, (int)chunk, 0.75f, 1.25f);
                if (mode == 1) {
                    launch(decode_attention_reduce_d128, B * H * 4, 128, st, (const float*)ml, (const float*)acc,
                           out[0], sp);
                } else if (mode == 3) {
                    int warps = B * H * (D / 16);
                    launch(merge_warp<128, 16>, (warps + 3) / 4, 128, st, (const float*)ml, (const float*)acc, out[1],
                           sp, warps);
                } else if (mode == 4) {
                    int warps = B * H * (D / 8);
                    launch(merge_warp<128, 8>, (warps + 3) / 4, 128, st, (const float*)ml, (const float*)acc, out[2],
                           sp, warps);
                } else if (mode == 5) {
                    int warps = B * H * (D / 4);
                    launch(merge_warp<128, 4>, (warps + 3) / 4, 128, st, (const float*)ml, (const float*)acc, out[3],
                           sp, warps);
                } else if (mode == 6) {
                    launch(merge_blk1<128>, B * H * 4, 128, st, (const float*)ml, (const float*)acc, out[4], sp);
                }
            }
            CK(cudaStreamEndCapture(st, &gr));
            CK(cudaGraphInstantiate(&ge, gr, 0));
            for (int w = 0; w < 3; w++) CK(cudaGraphLaunch(ge, st));
            CK(cudaStreamSynchronize(st));
            cudaEvent_t a, ev;
            cudaEventCreate(&a);
            cudaEventCreate(&ev);
            std::vector<float> t;
            for (int r = 0; r < 9; r++) {
                cudaEventRecord(a, st);
                CK(cudaGraphLaunch(ge, st));
                cudaEventRecord(ev, st);
                CK(cudaEventSynchronize(ev));
                float ms;
                cudaEventElapsedTime(&ms, a, ev);
                t.push_back(ms * 1000 / N);
            }
            std::sort(t.begin(), t.end());
            cudaGraphExecDestroy(ge);
            cudaGraphDestroy(gr);
            return t[t.size() / 2];
        };
        float tm[2][7];
        const int order[7] = {0, 1, 3, 2, 4, 5, 6};
        for (int round = 0; round < 2; round++)
            for (int m : order) tm[round][m] = graph(m);
        double kvb = 0;
        for (int r = 0; r < B; r++) kvb += 2.0 * G * lens[r] * D * sizeof(C);
        std::vector<half> o[5];
        for (int i = 0; i < 5; i++) {
            o[i].resize(B * H * D);
            CK(cudaMemcpy(o[i].data(), out[i], B * H * D * 2, cudaMemcpyDeviceToHost));
        }
        double diff[4] = {0, 0, 0, 0}, mag = 0;
        for (size_t i = 0; i < o[0].size(); i++) {
            mag = std::max(mag, (double)fabsf(__half2float(o[0][i])));
            for (int v = 0; v < 4; v++)
                diff[v] = std::max(diff[v], (double)fabsf(__half2float(o[0][i]) - __half2float(o[v + 1][i])));
        }
        printf("B=%2d L=%6d kvMB %7.2f splits %3d | read %7.2f %7.2f | pair %7.2f %7.2f | split %7.2f %7.2f | "
               "warp16 %7.2f %7.2f | warp8 %7.2f %7.2f | warp4 %7.2f %7.2f | blk1 %7.2f %7.2f | merge cost %5.2f | "
               "w16/pair %.3f %.3f w8/pair %.3f %.3f w4/pair %.3f %.3f blk1/pair %.3f %.3f | max|out| %.3f diff "
               "%.2e %.2e %.2e %.2e\n",
               B, L, kvb / 1e6, sp, tm[0][0], tm[1][0], tm[0][1], tm[1][1], tm[0][2], tm[1][2], tm[0][3], tm[1][3],
               tm[0][4], tm[1][4], tm[0][5], tm[1][5], tm[0][6], tm[1][6],
               (tm[0][1] + tm[1][1] - tm[0][2] - tm[1][2]) / 2, tm[0][3] / tm[0][1], tm[1][3] / tm[1][1],
               tm[0][4] / tm[0][1], tm[1][4] / tm[1][1], tm[0][5] / tm[0][1], tm[1][5] / tm[1][1], tm[0][6] / tm[0][1],
               tm[1][6] / tm[1][1], mag, diff[0], diff[1], diff[2], diff[3]);
        fflush(stdout);
        for (int i = 0; i < SETS; i++) cudaFree(kc[i]);
        cudaFree(q);
        for (auto p : out) cudaFree(p);
        cudaFree(len);
        cudaFree(ml);
        cudaFree(acc);
        cudaFree(sink);
    }
}

int main(int argc, char** argv) {
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    bool f16 = argc < 2 || strstr(argv[1], "f16"), e4m3 = argc < 2 || strstr(argv[1], "e4m3");
    if (e4m3) run<__nv_fp8_e4m3>("e4m3", decode_attention_split_d128_q4_e4m3);
    if (f16) run<half>("f16", decode_attention_split_d128_q4_f16);
    return 0;
}
