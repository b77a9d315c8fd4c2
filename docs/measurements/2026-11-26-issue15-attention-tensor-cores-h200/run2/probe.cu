// Standalone probe (not part of the repo): cluster attention variants vs split+reduce, timed with events.
#include "gemv.cu"
#include <cstdio>
#include <vector>
#include <cmath>
using namespace roofline_decode;

#define VARIANT(NAME, CL, TH, TB, ST, MINB)                                                                      \
  extern "C" __global__ void __cluster_dims__(CL, 1, 1) __launch_bounds__(TH, MINB)                             \
  NAME(const half* q, const half* k, const half* v, const int* len, half* out, int qs, int heads, int kvh,      \
       int cap, int chunk, float ks, float vs) {                                                                 \
    attention_cluster<half, 128, 4, AttentionShape<TH, TB, ST>, CL>(q, k, v, len, out, qs, heads, kvh, cap, chunk, ks, vs); \
  }
VARIANT(v16_512_6x32, 16, 512, 32768, 6, 1)
VARIANT(v8_512_6x32, 8, 512, 32768, 6, 1)
VARIANT(v16_256_5x16, 16, 256, 16384, 5, 2)
VARIANT(v8_256_5x16, 8, 256, 16384, 5, 2)
VARIANT(v4_512_6x32, 4, 512, 32768, 6, 1)
VARIANT(v16_128_4x8, 16, 128, 8192, 4, 4)

typedef void (*Kern)(const half*, const half*, const half*, const int*, half*, int, int, int, int, int, float, float);
struct V { const char* name; Kern k; int cl, th, ring; };

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("ERR %s: %s at %d\n", #x, cudaGetErrorString(e), __LINE__); } } while (0)

int main() {
  const int H = 32, G = 8, D = 128, CAP = 32768, SETS = 4;
  size_t cache = (size_t)G * CAP * D * 2;
  std::vector<half*> kc(SETS), vc(SETS);
  for (int i = 0; i < SETS; i++) { CK(cudaMalloc(&kc[i], cache)); CK(cudaMalloc(&vc[i], cache)); }
  // fill with small random halves
  {
    std::vector<half> h(cache / 2);
    unsigned s = 12345;
    for (size_t i = 0; i < h.size(); i++) { s = s * 1664525u + 1013904223u; h[i] = __float2half(((s >> 8) & 0xffff) / 65536.f - 0.5f); }
    for (int i = 0; i < SETS; i++) { CK(cudaMemcpy(kc[i], h.data(), cache, cudaMemcpyHostToDevice)); CK(cudaMemcpy(vc[i], h.data(), cache, cudaMemcpyHostToDevice)); }
  }
  half *q, *out, *ref; int* len; float *ml, *acc;
  CK(cudaMalloc(&q, H * D * 2)); CK(cudaMalloc(&out, H * D * 2)); CK(cudaMalloc(&ref, H * D * 2)); CK(cudaMalloc(&len, 4));
  CK(cudaMalloc(&ml, 1 << 22)); CK(cudaMalloc(&acc, 1 << 26));
  { std::vector<half> h(H * D); for (int i = 0; i < H * D; i++) h[i] = __float2half(sinf(i * 0.37f)); CK(cudaMemcpy(q, h.data(), H * D * 2, cudaMemcpyHostToDevice)); }
  V vs[] = {{"v16_512_6x32", v16_512_6x32, 16, 512, 6 * 32768}, {"v8_512_6x32", v8_512_6x32, 8, 512, 6 * 32768},
            {"v16_256_5x16", v16_256_5x16, 16, 256, 5 * 16384}, {"v8_256_5x16", v8_256_5x16, 8, 256, 5 * 16384},
            {"v4_512_6x32", v4_512_6x32, 4, 512, 6 * 32768}, {"v16_128_4x8", v16_128_4x8, 16, 128, 4 * 8192}};
  for (auto& v : vs) {
    CK(cudaFuncSetAttribute((const void*)v.k, cudaFuncAttributeMaxDynamicSharedMemorySize, v.ring));
    CK(cudaFuncSetAttribute((const void*)v.k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    cudaLaunchConfig_t cfg = {}; cfg.gridDim = dim3(G * v.cl); cfg.blockDim = dim3(v.th); cfg.dynamicSmemBytes = v.ring;
    cudaLaunchAttribute at; at.id = cudaLaunchAttributeClusterDimension; at.val.clusterDim.x = v.cl; at.val.clusterDim.y = 1; at.val.clusterDim.z = 1;
    cfg.attrs = &at; cfg.numAttrs = 1;
    int clusters = -1; CK(cudaOccupancyMaxActiveClusters(&clusters, (const void*)v.k, &cfg));
    printf("%s: max active clusters %d (needs %d)\n", v.name, clusters, G);
  }
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  int ctxs[] = {1024, 4096, 8192, 16384, 32768};
  for (int L : ctxs) {
    CK(cudaMemcpy(len, &L, 4, cudaMemcpyHostToDevice));
    // base: split + reduce with DecodeKernels.attentionChunk's rule for 132 SMs x 5 blocks
    long slots = 132 * 5, fewest = (L + 511) / 512, waves = (8 * fewest + slots - 1) / slots;
    long splits = std::max(fewest, waves * slots / 8);
    long chunk = ((L + splits - 1) / splits + 15) / 16 * 16; chunk = std::min(512L, std::max(32L, chunk));
    int sp = (L + chunk - 1) / chunk;
    auto base = [&](int set) {
      decode_attention_split_d128_q4_f16<<<G * sp, 128>>>(q, kc[set], vc[set], len, ml, acc, H * D, H, G, CAP, sp, (int)chunk, 1.f, 1.f);
      decode_attention_reduce_d128<<<H * 4, 128>>>(ml, acc, ref, sp);
    };
    const int N = 40;
    for (int i = 0; i < 8; i++) base(i % SETS);
    CK(cudaDeviceSynchronize());
    cudaEventRecord(a); for (int i = 0; i < N; i++) base(i % SETS); cudaEventRecord(b); CK(cudaEventSynchronize(b));
    float ms; cudaEventElapsedTime(&ms, a, b);
    printf("L=%6d base split+reduce %7.2f us (splits %d chunk %ld)\n", L, ms * 1000 / N, sp, chunk);
    std::vector<half> r(H * D), o(H * D);
    base(0); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(r.data(), ref, H * D * 2, cudaMemcpyDeviceToHost));
    for (auto& v : vs) {
      int ch = ((L + v.cl - 1) / v.cl + 15) / 16 * 16;
      auto run = [&](int set) { v.k<<<G * v.cl, v.th, v.ring>>>(q, kc[set], vc[set], len, out, H * D, H, G, CAP, ch, 1.f, 1.f); };
      for (int i = 0; i < 8; i++) run(i % SETS);
      CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      cudaEventRecord(a); for (int i = 0; i < N; i++) run(i % SETS); cudaEventRecord(b); CK(cudaEventSynchronize(b));
      cudaEventElapsedTime(&ms, a, b);
      run(0); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(o.data(), out, H * D * 2, cudaMemcpyDeviceToHost));
      float md = 0; for (int i = 0; i < H * D; i++) md = fmaxf(md, fabsf(__half2float(o[i]) - __half2float(r[i])));
      printf("L=%6d %-14s %7.2f us  max|diff| %.2e\n", L, v.name, ms * 1000 / N, md);
    }
  }
  return 0;
}
