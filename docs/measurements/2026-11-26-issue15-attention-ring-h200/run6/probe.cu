// Attention decomposition probe: one read of the KV bytes, the split pass alone, split + merge (ordered and early),
// L2-cold over 4 KV sets, graphed with the decoder's launch attributes; variants built from patched copies of decode.cu.
#include "gemv.cu"
#ifndef PROBE_MAXCHUNK
#define PROBE_MAXCHUNK 512
#endif
#include <cstdio>
#include <vector>
#include <cmath>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("ERR %s: %s at %d\n", #x, cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
#ifndef VARIANT
#define VARIANT "base"
#endif
static int sms;
template <typename... A, typename... P>
static void launch(void (*k)(P...), int grid, int threads, bool pdl, cudaStream_t st, A... a) {
  cudaLaunchConfig_t c = {}; c.gridDim = grid; c.blockDim = threads; c.stream = st;
  cudaLaunchAttribute at[1]; at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization; at[0].val.programmaticStreamSerializationAllowed = 1;
  c.attrs = at; c.numAttrs = pdl ? 1 : 0;
  CK(cudaLaunchKernelEx(&c, k, a...));
}
template <typename C>
using SplitK = void (*)(const half*, const C*, const C*, const int*, float*, float*, int, int, int, int, int, int, float, float);
template <typename C>
static void runType(const char* tname, SplitK<C> split, C (*conv)(float)) {
  const int H = 32, G = 8, D = 128, SETS = 4;
  int occ = 0, rocc = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, split, 128, 0));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&rocc, stream_read, 256, 0));
  printf("variant %s cache %s sms %d split blocks/SM %d read blocks/SM %d\n", VARIANT, tname, sms, occ, rocc);
  static cudaStream_t st = nullptr; if (!st) CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  struct Cfg { int B, L; } cfgs[] = {{1, 8192}, {1, 16384}, {1, 32768}, {8, 8192}, {1, 1024}};
  for (auto cf : cfgs) {
    const int B = cf.B, L = cf.L;
    size_t elems = (size_t)B * G * L * D, cache = elems * sizeof(C);
    std::vector<C*> kc(SETS), vc(SETS);
    std::vector<half> hk(elems), hv(elems), hq((size_t)B * H * D);
    std::vector<C> ck(elems), cv(elems);
    unsigned s = 12345;
    auto rnd = [&]() { s = s * 1664525u + 1013904223u; return ((s >> 8) & 0xffff) / 65536.f * 2.f - 1.f; };
    for (size_t i = 0; i < elems; i++) { hk[i] = __float2half(rnd() * 2.f); hv[i] = __float2half(rnd()); }
    for (auto& x : hq) x = __float2half(rnd() * 2.f);
    for (size_t i = 0; i < elems; i++) { ck[i] = conv(__half2float(hk[i])); cv[i] = conv(__half2float(hv[i])); }
    for (int i = 0; i < SETS; i++) { CK(cudaMalloc(&kc[i], 2 * cache)); vc[i] = kc[i] + elems;
      CK(cudaMemcpy(kc[i], ck.data(), cache, cudaMemcpyHostToDevice)); CK(cudaMemcpy(vc[i], cv.data(), cache, cudaMemcpyHostToDevice)); }
    half *q, *out; int* len; float *ml, *acc; unsigned* sink;
    CK(cudaMalloc(&q, B * H * D * 2)); CK(cudaMalloc(&out, B * H * D * 2)); CK(cudaMalloc(&len, 4 * B)); CK(cudaMalloc(&sink, 64));
    CK(cudaMalloc(&ml, 1 << 22)); CK(cudaMalloc(&acc, 1 << 26));
    CK(cudaMemcpy(q, hq.data(), hq.size() * 2, cudaMemcpyHostToDevice));
    std::vector<int> lens(B, L); CK(cudaMemcpy(len, lens.data(), 4 * B, cudaMemcpyHostToDevice));
    long slots = (long)sms * occ, fewest = (L + PROBE_MAXCHUNK - 1) / PROBE_MAXCHUNK, waves = (B * G * fewest + slots - 1) / slots;
    long splits = std::max(fewest, waves * slots / (B * G));
    long chunk = ((L + splits - 1) / splits + 15) / 16 * 16; chunk = std::min((long)PROBE_MAXCHUNK, std::max(32L, chunk));
    int sp = (L + chunk - 1) / chunk;
#ifdef PROBE_STRIDED
    { int T = (L + 31) / 32; int per = (T + sp - 1) / sp; sp = (T + per - 1) / per; }
#endif
    int words = (int)(2 * cache / 16);
    int rgrid = std::min((long)sms * std::min(rocc, 8), (long)(words + 255) / 256);
    const int N = 20;
    auto graph = [&](int mode) {  // 0 read, 1 split, 2 split+merge ordered, 3 split+merge early
      cudaGraph_t g; cudaGraphExec_t ge;
      CK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
      for (int i = 0; i < N; i++) {
        int set = i % SETS;
        if (mode == 0) { launch(stream_read, rgrid, 256, true, st, (const uint4*)kc[set], words, 0x9e3779b9u, sink); continue; }
        launch(split, B * G * sp, 128, true, st, (const half*)q, (const C*)kc[set], (const C*)vc[set], (const int*)len, ml, acc, H * D, H, G, L, sp, (int)chunk, 1.f, 1.f);
        if (mode >= 2) launch(decode_attention_reduce_d128, B * H * (128 / PROBE_RCOLS), 128, mode == 3, st, (const float*)ml, (const float*)acc, out, sp);
      }
      CK(cudaStreamEndCapture(st, &g)); CK(cudaGraphInstantiate(&ge, g, 0));
      for (int w = 0; w < 3; w++) CK(cudaGraphLaunch(ge, st));
      CK(cudaStreamSynchronize(st));
      cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
      std::vector<float> t;
      for (int r = 0; r < 9; r++) { cudaEventRecord(a, st); CK(cudaGraphLaunch(ge, st)); cudaEventRecord(b, st); CK(cudaEventSynchronize(b));
        float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms * 1000 / N); }
      std::sort(t.begin(), t.end());
      cudaGraphExecDestroy(ge); cudaGraphDestroy(g);
      return t[t.size() / 2];
    };
    float rd = graph(0), sp1 = graph(1), ord = graph(2), early = graph(3);
    double kvb = 2.0 * cache;
    printf("%s %s B=%d L=%6d splits %3d chunk %3ld blocks %4d | read %7.2f | split %7.2f | split+merge %7.2f (%.1f%% of 4.29TB/s) | early merge %7.2f\n",
           VARIANT, tname, B, L, sp, chunk, B * G * sp, rd, sp1, ord, kvb / (ord * 1e-6) / 4.29e12 * 100, early);
#ifdef PROBE_TIMES
    if (B == 1 && (L == 16384 || L == 8192)) {
      for (int rep = 0; rep < 3; rep++) {
        // L2 holds other sets: set (rep + 1) % SETS was read SETS - 1 launches ago at most... flush by reading the other sets
        for (int f = 1; f < SETS; f++) launch(stream_read, rgrid, 256, false, st, (const uint4*)kc[(rep + f) % SETS], words, 0x9e3779b9u, sink);
        launch(split, B * G * sp, 128, false, st, (const half*)q, (const C*)kc[rep % SETS], (const C*)vc[rep % SETS], (const int*)len, ml, acc, H * D, H, G, L, sp, (int)chunk, 1.f, 1.f);
        CK(cudaStreamSynchronize(st));
        static unsigned long long ht[4][4096]; CK(cudaMemcpyFromSymbol(ht, probe_t, sizeof(ht)));
        int nb = B * G * sp; unsigned long long t0 = ~0ull;
        for (int i = 0; i < nb; i++) t0 = std::min(t0, ht[0][i]);
        const char* names[4] = {"start", "tile0", "k-done", "end"};
        printf("%s L=%d rep %d block times us (min p10 p50 p90 max):", VARIANT, L, rep);
        for (int k = 0; k < 4; k++) { std::vector<double> v; for (int i = 0; i < nb; i++) v.push_back((ht[k][i] - t0) / 1000.0);
          std::sort(v.begin(), v.end()); printf(" | %s %.2f %.2f %.2f %.2f %.2f", names[k], v[0], v[nb / 10], v[nb / 2], v[nb * 9 / 10], v[nb - 1]); }
        printf("\n");
      }
    }
#endif
#if !defined(PROBE_NOCOMPUTE) && !defined(PROBE_NOK) && !defined(PROBE_NOV)
    if (std::is_same<C, half>::value && B == 1 && (L == 16384 || L == 1024)) {  // correctness of the ordered chain against a CPU double reference
      launch(split, B * G * sp, 128, false, st, (const half*)q, (const C*)kc[0], (const C*)vc[0], (const int*)len, ml, acc, H * D, H, G, L, sp, (int)chunk, 1.f, 1.f);
      launch(decode_attention_reduce_d128, B * H * (128 / PROBE_RCOLS), 128, false, st, (const float*)ml, (const float*)acc, out, sp);
      CK(cudaStreamSynchronize(st));
      std::vector<half> o(H * D); CK(cudaMemcpy(o.data(), out, H * D * 2, cudaMemcpyDeviceToHost));
      double worst = 0;
      for (int h = 0; h < H; h++) {
        int g = h / 4; std::vector<double> lg(L); double mx = -1e300;
        for (int t = 0; t < L; t++) { double d = 0; for (int e = 0; e < D; e++) d += (double)__half2float(hq[h * D + e]) * __half2float(hk[((size_t)g * L + t) * D + e]); lg[t] = d / sqrt((double)D); mx = std::max(mx, lg[t]); }
        double sum = 0; for (int t = 0; t < L; t++) { lg[t] = exp(lg[t] - mx); sum += lg[t]; }
        for (int e = 0; e < D; e++) { double y = 0; for (int t = 0; t < L; t++) y += lg[t] * __half2float(hv[((size_t)g * L + t) * D + e]); y /= sum;
          worst = std::max(worst, fabs(y - __half2float(o[h * D + e]))); }
      }
      printf("%s L=%d max|err| vs double %.2e\n", VARIANT, L, worst);
    }
#endif
    for (int i = 0; i < SETS; i++) cudaFree(kc[i]);
    cudaFree(q); cudaFree(out); cudaFree(len); cudaFree(ml); cudaFree(acc); cudaFree(sink);
  }
}
static half toHalf(float x) { return __float2half(x); }
static __nv_bfloat16 toBf16(float x) { return __float2bfloat16(x); }
static __nv_fp8_e4m3 toE4m3(float x) { return __nv_fp8_e4m3(x); }
int main(int argc, char** argv) {
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  runType<half>("f16", decode_attention_split_d128_q4_f16, toHalf);
  if (argc < 2) {
    runType<__nv_bfloat16>("bf16", decode_attention_split_d128_q4_bf16, toBf16);
    runType<__nv_fp8_e4m3>("e4m3", decode_attention_split_d128_q4_e4m3, toE4m3);
  }
  return 0;
}
