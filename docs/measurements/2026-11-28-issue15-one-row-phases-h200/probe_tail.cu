// Issue 15 probe: the attention's merge done by the split pass's last blocks instead of a second launch. Each split
// block, once its partials are written, takes a ticket (a fence, then an atomic add on a counter); the blocks holding
// the last M tickets wait (thread 0 spinning on an acquire load) until every block has its ticket, then merge the
// heads' columns between them, one warp per WCOLS columns of a head as the shipped merge (decode_attention_merge), and
// the last of them to finish resets the counters for the next launch. M blocks hold a slot each while they wait; at
// most M - 1 blocks lack a ticket then, so the rest of the grid has the slots the finished blocks left. EARLY: the
// next launch may start as each block ends its split (as the shipped pass lets its merge), else once its merge is
// done. Against the shipped pair (split pass + merge launch), graphed as the decoder launches them (programmatic
// launches), L2-cold over 4 KV sets, 20 launches a graph, median of 9 replays, two rounds; outputs compared with the
// shipped pair's. Built on decode.cu with stamps.diff (attention_split's TRIGGER), ROOFLINE_STAMPS undefined.
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

__device__ __forceinline__ unsigned ld_acquire(const unsigned* p) {
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

// decode.cu's attention_merge with its warp index given (w) instead of taken from the block
template <int D, int WCOLS>
__device__ void merge_task(int w, const float* partial_ml, const float* partial_acc, half* out, int splits) {
    constexpr int CT = WCOLS / 4;
    constexpr int SL = 32 / CT;
    constexpr int HELD = WCOLS == 16 ? MERGE_FEW_SPLITS / SL : 8;
    constexpr int WPH = D / WCOLS;
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
            float2 p = __ldcg(reinterpret_cast<const float2*>(ml) + sp);
            hm[i] = p.x;
            hl[i] = p.y;
            ha[i] = __ldcg(acc4 + (size_t)sp * (D / 4));
        }
    }
    float mm = -CUDART_INF_F;
#pragma unroll
    for (int i = 0; i < HELD; i++) mm = fmaxf(mm, hm[i]);
    for (int sp = sl + HELD * SL; sp < splits; sp += SL) mm = fmaxf(mm, __ldcg(ml + 2 * sp));
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
    for (int sp = sl + HELD * SL; sp < splits; sp += SL)
        add(__ldcg(ml + 2 * sp), __ldcg(ml + 2 * sp + 1), __ldcg(acc4 + (size_t)sp * (D / 4)));
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

template <typename C, int WCOLS, bool EARLY>
__global__ void __launch_bounds__(ATTENTION_THREADS, 5)
    split_tail(const half* q, const C* k_cache, const C* v_cache, const int* lengths, float* partial_ml,
               float* partial_acc, int q_row_stride, int heads, int kv_heads, int capacity, int splits, int chunk,
               float k_scale, float v_scale, half* out, unsigned* counters, int mergers, int tasks) {
    attention_split<C, 128, 4, EARLY>(q, k_cache, v_cache, lengths, partial_ml, partial_acc, q_row_stride, heads,
                                      kv_heads, capacity, splits, chunk, k_scale, v_scale);
    __shared__ unsigned s_ticket;
    __syncthreads(); // every thread's partials stored
    if (threadIdx.x == 0) {
        __threadfence();
        s_ticket = atomicAdd(&counters[0], 1u);
    }
    __syncthreads();
    const unsigned total = gridDim.x;
    const unsigned first = total - mergers;
    if (s_ticket < first) {
        if (!EARLY) roofline_launch::let_next_kernel_launch();
        return;
    }
    const int rank = (int)(s_ticket - first);
    if (threadIdx.x == 0) {
        while (ld_acquire(&counters[0]) < total) __nanosleep(32);
        __threadfence();
    }
    __syncthreads();
    const int wpb = ATTENTION_THREADS / 32;
    for (int w = rank * wpb + (threadIdx.x >> 5); w < tasks; w += mergers * wpb)
        merge_task<128, WCOLS>(w, partial_ml, partial_acc, out, splits);
    __syncthreads();
    if (threadIdx.x == 0 && atomicAdd(&counters[1], 1u) == (unsigned)mergers - 1) {
        counters[0] = 0;
        counters[1] = 0;
        __threadfence();
    }
    if (!EARLY) roofline_launch::let_next_kernel_launch();
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

static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <typename C>
static void run(const char* name, int B, int L) {
    auto split = std::is_same<C, half>::value ? (void*)decode_attention_split_d128_q4_f16
                                              : (void*)decode_attention_split_d128_q4_e4m3;
    using SplitFn = void (*)(const half*, const C*, const C*, const int*, float*, float*, int, int, int, int, int, int,
                             float, float);
    const int H = 32, G = 8, D = 128, SETS = 4;
    int occ = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, (SplitFn)split, 128, 0));
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
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
    half *q, *out[8];
    int* len;
    float *ml, *acc;
    unsigned* counters;
    CK(cudaMalloc(&q, B * H * D * 2));
    for (auto& o : out) CK(cudaMalloc(&o, B * H * D * 2));
    CK(cudaMalloc(&len, 4 * B));
    CK(cudaMalloc(&counters, 64));
    CK(cudaMemset(counters, 0, 64));
    CK(cudaMalloc(&ml, 1 << 22));
    CK(cudaMalloc(&acc, 1 << 26));
    CK(cudaMemcpy(q, hq.data(), hq.size() * 2, cudaMemcpyHostToDevice));
    std::vector<int> lens(B, L);
    CK(cudaMemcpy(len, lens.data(), 4 * B, cudaMemcpyHostToDevice));
    long slots = (long)sms * std::min(5, occ), fewest = (L + 511) / 512, waves = (B * G * fewest + slots - 1) / slots;
    long splits = std::max(fewest, waves * slots / (B * G));
    long chunk = ((L + splits - 1) / splits + 15) / 16 * 16;
    chunk = std::min(512L, std::max(32L, chunk));
    const int sp = (L + chunk - 1) / chunk, nb = B * G * sp;
    const int wcols = sp <= 32 ? 16 : 8;
    const int tasks = B * H * (D / wcols);
    auto merge = wcols == 16 ? decode_attention_merge_d128_c16 : decode_attention_merge_d128_c8;
    // variants: mergers and EARLY
    struct V {
        int mergers;
        bool early;
    };
    std::vector<V> vs = {{tasks / 4, true}, {tasks / 8, true}, {tasks / 16, true}, {tasks / 4, false}};
    for (auto& v : vs) v.mergers = std::max(1, std::min(v.mergers, nb / 2));
    const int N = 20;
    auto graph = [&](int mode) { // 0 shipped pair, 1.. tail variant mode - 1
        cudaGraph_t gr;
        cudaGraphExec_t ge;
        CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
        for (int i = 0; i < N; i++) {
            int set = i % SETS;
            const C* k = kc[set];
            const C* vv = vc[set];
            if (mode == 0) {
                launch((SplitFn)split, nb, 128, st, (const half*)q, k, vv, (const int*)len, ml, acc, H * D, H, G, L, sp,
                       (int)chunk, 0.75f, 1.25f);
                launch(merge, (tasks + 3) / 4, 128, st, (const float*)ml, (const float*)acc, out[0], sp);
                continue;
            }
            const V v = vs[mode - 1];
            auto kern = wcols == 16 ? (v.early ? split_tail<C, 16, true> : split_tail<C, 16, false>)
                                    : (v.early ? split_tail<C, 8, true> : split_tail<C, 8, false>);
            launch(kern, nb, 128, st, (const half*)q, k, vv, (const int*)len, ml, acc, H * D, H, G, L, sp, (int)chunk,
                   0.75f, 1.25f, out[mode], counters, v.mergers, tasks);
        }
        CK(cudaStreamEndCapture(st, &gr));
        CK(cudaGraphInstantiate(&ge, gr, 0));
        for (int w = 0; w < 3; w++) CK(cudaGraphLaunch(ge, st));
        CK(cudaStreamSynchronize(st));
        cudaEvent_t a, ev;
        cudaEventCreate(&a);
        cudaEventCreate(&ev);
        std::vector<double> t;
        for (int r = 0; r < 9; r++) {
            cudaEventRecord(a, st);
            CK(cudaGraphLaunch(ge, st));
            cudaEventRecord(ev, st);
            CK(cudaEventSynchronize(ev));
            float ms;
            cudaEventElapsedTime(&ms, a, ev);
            t.push_back(ms * 1000 / N);
        }
        CK(cudaGetLastError());
        cudaGraphExecDestroy(ge);
        cudaGraphDestroy(gr);
        return median(t);
    };
    const int modes = 1 + (int)vs.size();
    std::vector<double> tm[2];
    for (int r = 0; r < 2; r++)
        for (int m = 0; m < modes; m++) tm[r].push_back(graph(m));
    unsigned hc[2];
    CK(cudaMemcpy(hc, counters, 8, cudaMemcpyDeviceToHost));
    std::vector<half> ref(B * H * D), o(B * H * D);
    CK(cudaMemcpy(ref.data(), out[0], ref.size() * 2, cudaMemcpyDeviceToHost));
    double kvb = 2.0 * B * G * L * D * sizeof(C);
    printf("%-5s B=%2d L=%6d splits %3d blocks %4d tasks %4d | pair %6.2f %6.2f (%.1f%%)", name, B, L, sp, nb, tasks,
           tm[0][0], tm[1][0], kvb / std::min(tm[0][0], tm[1][0]) / 4277e3 * 100);
    for (int m = 1; m < modes; m++) {
        CK(cudaMemcpy(o.data(), out[m], o.size() * 2, cudaMemcpyDeviceToHost));
        double diff = 0;
        for (size_t i = 0; i < o.size(); i++)
            diff = std::max(diff, (double)fabsf(__half2float(o[i]) - __half2float(ref[i])));
        printf(" | M%d%s %6.2f %6.2f (%.3f %.3f) diff %.1e", vs[m - 1].mergers, vs[m - 1].early ? "e" : "l", tm[0][m],
               tm[1][m], tm[0][m] / tm[0][0], tm[1][m] / tm[1][0], diff);
    }
    printf(" | counters %u %u\n", hc[0], hc[1]);
    fflush(stdout);
    for (int i = 0; i < SETS; i++) cudaFree(kc[i]);
    cudaFree(q);
    for (auto p : out) cudaFree(p);
    cudaFree(len);
    cudaFree(ml);
    cudaFree(acc);
    cudaFree(counters);
    cudaStreamDestroy(st);
}

int main() {
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    for (int L : {1024, 4096, 8192, 16384, 32768}) run<__nv_fp8_e4m3>("e4m3", 1, L);
    for (int L : {1024, 8192, 16384, 32768}) run<half>("f16", 1, L);
    for (int L : {1024, 8192}) run<__nv_fp8_e4m3>("e4m3", 8, L);
    run<half>("f16", 8, 8192);
    return 0;
}
