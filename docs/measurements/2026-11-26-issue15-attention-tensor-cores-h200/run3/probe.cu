// Standalone probe: split+reduce (the kernels of gemv.cu as built here) timed with events, L2-cold over 4 KV sets,
// and the output compared with a CPU double reference at one context.
#include "gemv.cu"
#include <cstdio>
#include <vector>
#include <cmath>
#include <algorithm>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("ERR %s: %s at %d\n", #x, cudaGetErrorString(e), __LINE__); return 1; } } while (0)
int main() {
  const int H = 32, G = 8, D = 128, CAP = 32768, SETS = 4;
  size_t elems = (size_t)G * CAP * D, cache = elems * 2;
  std::vector<half*> kc(SETS), vc(SETS);
  std::vector<half> hk(elems), hv(elems), hq(H * D);
  unsigned s = 12345;
  auto rnd = [&]() { s = s * 1664525u + 1013904223u; return ((s >> 8) & 0xffff) / 65536.f * 2.f - 1.f; };
  for (size_t i = 0; i < elems; i++) { hk[i] = __float2half(rnd() * 2.f); hv[i] = __float2half(rnd()); }
  for (int i = 0; i < H * D; i++) hq[i] = __float2half(rnd() * 2.f);
  for (int i = 0; i < SETS; i++) { CK(cudaMalloc(&kc[i], cache)); CK(cudaMalloc(&vc[i], cache));
    CK(cudaMemcpy(kc[i], hk.data(), cache, cudaMemcpyHostToDevice)); CK(cudaMemcpy(vc[i], hv.data(), cache, cudaMemcpyHostToDevice)); }
  half *q, *out; int* len; float *ml, *acc;
  CK(cudaMalloc(&q, H * D * 2)); CK(cudaMalloc(&out, H * D * 2)); CK(cudaMalloc(&len, 4));
  CK(cudaMalloc(&ml, 1 << 22)); CK(cudaMalloc(&acc, 1 << 26));
  CK(cudaMemcpy(q, hq.data(), H * D * 2, cudaMemcpyHostToDevice));
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  int ctxs[] = {17, 1000, 1024, 4096, 8192, 16384, 32768};
  for (int L : ctxs) {
    CK(cudaMemcpy(len, &L, 4, cudaMemcpyHostToDevice));
    long slots = 132 * 5, fewest = (L + 511) / 512, waves = (8 * fewest + slots - 1) / slots;
    long splits = std::max(fewest, waves * slots / 8);
    long chunk = ((L + splits - 1) / splits + 15) / 16 * 16; chunk = std::min(512L, std::max(32L, chunk));
    int sp = (L + chunk - 1) / chunk;
    auto run = [&](int set) {
      decode_attention_split_d128_q4_f16<<<G * sp, 128>>>(q, kc[set], vc[set], len, ml, acc, H * D, H, G, CAP, sp, (int)chunk, 1.f, 1.f);
      decode_attention_reduce_d128<<<H * 4, 128>>>(ml, acc, out, sp);
    };
    const int N = 40;
    for (int i = 0; i < 8; i++) run(i % SETS);
    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
    cudaEventRecord(a); for (int i = 0; i < N; i++) run(i % SETS); cudaEventRecord(b); CK(cudaEventSynchronize(b));
    float ms; cudaEventElapsedTime(&ms, a, b);
    std::vector<half> o(H * D);
    run(0); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(o.data(), out, H * D * 2, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int h = 0; h < H; h++) {
      int g = h / 4; std::vector<double> lg(L); double mx = -1e300;
      for (int t = 0; t < L; t++) { double d = 0; for (int e = 0; e < D; e++) d += (double)__half2float(hq[h * D + e]) * __half2float(hk[((size_t)g * CAP + t) * D + e]); lg[t] = d / sqrt((double)D); mx = std::max(mx, lg[t]); }
      double sum = 0; for (int t = 0; t < L; t++) { lg[t] = exp(lg[t] - mx); sum += lg[t]; }
      for (int e = 0; e < D; e++) { double y = 0; for (int t = 0; t < L; t++) y += lg[t] * __half2float(hv[((size_t)g * CAP + t) * D + e]); y /= sum;
        worst = std::max(worst, fabs(y - __half2float(o[h * D + e]))); }
    }
    printf("L=%6d split+reduce %7.2f us (splits %d chunk %ld) max|err| vs double %.2e\n", L, ms * 1000 / N, sp, chunk, worst);
  }
  return 0;
}
