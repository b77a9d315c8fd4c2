// Issue 15 probe: where the attention's time goes at one row. The shipped split pass and merge (decode.cu built with
// ROOFLINE_STAMPS by stamps.diff: each block's thread 0 writes %globaltimer at its start, once its first key tile has
// landed, at the keys' end, at the values' start (after the softmax), at the values' end and at its exit, and its SM;
// each merge block at its start, after its wait and at its end). Timed graphed as the decoder launches them
// (programmatic launches), L2-cold over 4 KV sets, 20 pairs a graph, median of 9 replays, beside one read of the same
// bytes (stream_read) and the split pass alone; the stamps are the graph's last pair's.
#include "gemv.cu"
#include <algorithm>
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

static double pct(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, (size_t)(p * (v.size() - 1) + 0.5))];
}

template <typename C>
static void run(const char* name, void (*split)(const half*, const C*, const C*, const int*, float*, float*, int, int,
                                                int, int, int, int, float, float), int B, int L, long force_chunk = 0) {
    const int H = 32, G = 8, D = 128, SETS = 4;
    int occ = 0, rocc = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, split, 128, 0));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&rocc, stream_read, 256, 0));
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
    half *q, *out;
    int* len;
    float *ml, *acc;
    unsigned* sink;
    CK(cudaMalloc(&q, B * H * D * 2));
    CK(cudaMalloc(&out, B * H * D * 2));
    CK(cudaMalloc(&len, 4 * B));
    CK(cudaMalloc(&sink, 64));
    CK(cudaMalloc(&ml, 1 << 22));
    CK(cudaMalloc(&acc, 1 << 26));
    CK(cudaMemcpy(q, hq.data(), hq.size() * 2, cudaMemcpyHostToDevice));
    std::vector<int> lens(B, L);
    CK(cudaMemcpy(len, lens.data(), 4 * B, cudaMemcpyHostToDevice));
    // DecodeKernels.attentionChunk, attentionMergeColumns, attentionMergeBlocks
    long slots = (long)sms * std::min(5, occ), fewest = (L + 511) / 512, waves = (B * G * fewest + slots - 1) / slots;
    long splits = std::max(fewest, waves * slots / (B * G));
    long chunk = ((L + splits - 1) / splits + 15) / 16 * 16;
    chunk = std::min(512L, std::max(32L, chunk));
    if (force_chunk > 0) chunk = force_chunk;
    const int sp = (L + chunk - 1) / chunk;
    const int wcols = sp <= 32 ? 16 : 8;
    const int mwarps = B * H * (D / wcols);
    auto merge = wcols == 16 ? decode_attention_merge_d128_c16 : decode_attention_merge_d128_c8;
    const int words = (int)(2 * cache / 16);
    const int rgrid = std::min((long)sms * std::min(rocc, 8), (long)(words + 255) / 256);
    const int N = 20;
    auto graph = [&](int mode) { // 0 read, 1 split + merge, 2 split alone
        cudaGraph_t gr;
        cudaGraphExec_t ge;
        CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
        for (int i = 0; i < N; i++) {
            int set = i % SETS;
            if (mode == 0) {
                launch(stream_read, rgrid, 256, st, (const uint4*)kc[set], words, 0x9e3779b9u, sink);
                continue;
            }
            launch(split, B * G * sp, 128, st, (const half*)q, (const C*)kc[set], (const C*)vc[set], (const int*)len,
                   ml, acc, H * D, H, G, L, sp, (int)chunk, 0.75f, 1.25f);
            if (mode == 1) {
                launch(merge, (mwarps + 3) / 4, 128, st, (const float*)ml, (const float*)acc, out, sp);
            }
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
        cudaGraphExecDestroy(ge);
        cudaGraphDestroy(gr);
        return pct(t, 0.5);
    };
    const double tr = graph(0), ts = graph(2), tp = graph(1);
    const int nb = B * G * sp, nm = (mwarps + 3) / 4;
    std::vector<unsigned long long> s((size_t)nb * 8), m((size_t)nm * 4);
    CK(cudaMemcpyFromSymbol(s.data(), g_stamps, s.size() * 8));
    CK(cudaMemcpyFromSymbol(m.data(), g_mstamps, m.size() * 8));
    unsigned long long t0 = ~0ull;
    for (int i = 0; i < nb; i++) t0 = std::min(t0, s[i * 8]);
    auto us = [&](unsigned long long x) { return (double)(x - t0) / 1000.0; };
    double kvb = 2.0 * B * G * L * D * sizeof(C);
    printf("== %s B=%d L=%d kvMB %.2f splits %d chunk %ld blocks %d (%d/SM) merge blocks %d (c%d) | read %.2f us "
           "split %.2f pair %.2f | read %.1f%% pair %.1f%% of 4277 GB/s\n",
           name, B, L, kvb / 1e6, sp, chunk, nb, occ, nm, wcols, tr, ts, tp, kvb / tr / 4277e3 * 100,
           kvb / tp / 4277e3 * 100);
    const char* names[6] = {"start", "first tile", "keys end", "values start", "values end", "exit"};
    if (force_chunk > 0) {
        std::vector<double> v;
        for (int i = 0; i < nb; i++) v.push_back(us(s[i * 8 + 5]));
        printf("   (forced chunk: exit p50 %.2f p100 %.2f)\n", pct(v, .5), pct(v, 1));
        return;
    }
    printf("   stamp (us from the first block's start)   p0     p10    p50    p90    p100\n");
    for (int k = 0; k < 6; k++) {
        std::vector<double> v;
        for (int i = 0; i < nb; i++) v.push_back(us(s[i * 8 + k]));
        printf("   %-14s %26s %6.2f %6.2f %6.2f %6.2f %6.2f\n", names[k], "", pct(v, 0), pct(v, .1), pct(v, .5),
               pct(v, .9), pct(v, 1));
    }
    const char* spans[5] = {"to first tile", "keys", "softmax", "values", "epilogue"};
    printf("   span per block (us)                        p0     p10    p50    p90    p100\n");
    for (int k = 0; k < 5; k++) {
        std::vector<double> v;
        for (int i = 0; i < nb; i++) v.push_back((double)(s[i * 8 + k + 1] - s[i * 8 + k]) / 1000.0);
        printf("   %-14s %26s %6.2f %6.2f %6.2f %6.2f %6.2f\n", spans[k], "", pct(v, 0), pct(v, .1), pct(v, .5),
               pct(v, .9), pct(v, 1));
    }
    {
        std::vector<double> v;
        for (int i = 0; i < nb; i++) v.push_back((double)(s[i * 8 + 5] - s[i * 8]) / 1000.0);
        printf("   %-14s %26s %6.2f %6.2f %6.2f %6.2f %6.2f\n", "whole block", "", pct(v, 0), pct(v, .1), pct(v, .5),
               pct(v, .9), pct(v, 1));
    }
    const char* mn[3] = {"merge start", "merge waited", "merge end"};
    for (int k = 0; k < 3; k++) {
        std::vector<double> v;
        for (int i = 0; i < nm; i++) v.push_back(us(m[i * 4 + k]));
        printf("   %-14s %26s %6.2f %6.2f %6.2f %6.2f %6.2f\n", mn[k], "", pct(v, 0), pct(v, .1), pct(v, .5),
               pct(v, .9), pct(v, 1));
    }
    // per SM: its blocks' first start and last exit, the bytes it read and the rate over its span
    std::vector<double> first(sms, 1e30), last(sms, 0), bytes(sms, 0);
    for (int i = 0; i < nb; i++) {
        int sm = (int)s[i * 8 + 7];
        first[sm] = std::min(first[sm], us(s[i * 8]));
        last[sm] = std::max(last[sm], us(s[i * 8 + 5]));
        int bb = i / sp, ss = i - bb * sp;
        int n = std::min((long)L, (ss + 1) * chunk) - ss * chunk;
        bytes[sm] += 2.0 * n * D * sizeof(C);
    }
    std::vector<double> lastv, gbs, kb;
    for (int i = 0; i < sms; i++)
        if (last[i] > 0) {
            lastv.push_back(last[i]);
            gbs.push_back(bytes[i] / (last[i] - first[i]) / 1e3);
            kb.push_back(bytes[i] / 1024);
        }
    printf("   per SM: last exit us p0 %.2f p50 %.2f p100 %.2f; KiB read p0 %.0f p50 %.0f p100 %.0f; GB/s over its span "
           "p0 %.1f p50 %.1f p100 %.1f (x %d SMs = %.0f at p50)\n",
           pct(lastv, 0), pct(lastv, .5), pct(lastv, 1), pct(kb, 0), pct(kb, .5), pct(kb, 1), pct(gbs, 0),
           pct(gbs, .5), pct(gbs, 1), sms, pct(gbs, .5) * sms);
    fflush(stdout);
    for (int i = 0; i < SETS; i++) cudaFree(kc[i]);
    cudaFree(q);
    cudaFree(out);
    cudaFree(len);
    cudaFree(ml);
    cudaFree(acc);
    cudaFree(sink);
    cudaStreamDestroy(st);
}

int main(int argc, char** argv) {
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    if (argc > 1 && !strcmp(argv[1], "chunks")) { // one row of FP8 at other chunks than the rule's
        for (int r = 0; r < 2; r++) {
            for (long c : {0L, 512L, 336L, 272L, 208L, 160L}) run<__nv_fp8_e4m3>("e4m3", decode_attention_split_d128_q4_e4m3, 1, 32768, c);
            for (long c : {0L, 256L, 160L, 144L, 112L, 96L}) run<__nv_fp8_e4m3>("e4m3", decode_attention_split_d128_q4_e4m3, 1, 16384, c);
        }
        return 0;
    }
    for (int L : {8192, 16384, 32768}) run<__nv_fp8_e4m3>("e4m3", decode_attention_split_d128_q4_e4m3, 1, L);
    for (int L : {8192, 32768}) run<half>("f16", decode_attention_split_d128_q4_f16, 1, L);
    run<__nv_fp8_e4m3>("e4m3", decode_attention_split_d128_q4_e4m3, 8, 8192);
    return 0;
}
