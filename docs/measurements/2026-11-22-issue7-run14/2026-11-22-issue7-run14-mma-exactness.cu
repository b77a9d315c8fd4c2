// issue 7 run 14: does mma.sync m16n8k16 (FP16 in, FP32 accumulate) multiply A values near 2^-14, FP16 subnormals
// included, exactly? One warp, one mma, random E2M1 codes placed as (value x 2^-14) halves, random x in [-1, 1];
// reference in double on the host. Seen on an H200 (driver 580.159.04, 2026-11-22):
//   mode 0 (e2m1 x 2^-14): max |ref| 1.009e-03, max err 0.000e+00
//   mode 1 (e2m1 x 2^-8): max |ref| 9.627e-02, max err 0.000e+00
//   mode 2 (only subnormal 2^-15 codes): max |ref| 7.507e-05, max err 0.000e+00
//   mode 3 (all 2^-24): max |ref| 3.575e-07, max err 4.547e-13, rel 1.272e-06
// nvcc -O2 -arch=sm_90a -o mmatest 2026-11-22-issue7-run14-mma-exactness.cu
// does HMMA f16 -> f32 handle A values around 2^-14 (incl. subnormals) exactly?
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdint>
#include <cmath>
__device__ __forceinline__ void mma_16816(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}
// A[16][16], B[16][8] as half bits; D[16][8]
__global__ void k(const uint16_t* A, const uint16_t* B, float* D) {
    int t = threadIdx.x, g = t >> 2, q = t & 3;
    auto pa = [&](int r, int c) { return (uint32_t)A[r * 16 + c] | ((uint32_t)A[r * 16 + c + 1] << 16); };
    auto pb = [&](int r, int c) { return (uint32_t)B[r * 8 + c] | ((uint32_t)B[(r + 1) * 8 + c] << 16); };
    float d[4] = {0, 0, 0, 0};
    mma_16816(d, pa(g, 2 * q), pa(g + 8, 2 * q), pa(g, 2 * q + 8), pa(g + 8, 2 * q + 8), pb(2 * q, g), pb(2 * q + 8, g));
    D[g * 8 + 2 * q] = d[0]; D[g * 8 + 2 * q + 1] = d[1]; D[(g + 8) * 8 + 2 * q] = d[2]; D[(g + 8) * 8 + 2 * q + 1] = d[3];
}
static float h2f(uint16_t h) { return __half2float(*reinterpret_cast<__half*>(&h)); }
int main() {
    uint16_t A[256], B[128]; float D[128];
    uint32_t s = 12345;
    auto rnd = [&]() { s = s * 1664525u + 1013904223u; return s >> 8; };
    for (int mode = 0; mode < 4; mode++) {
        for (int i = 0; i < 256; i++) {
            uint32_t n = rnd() & 15;
            uint16_t e2m1 = (uint16_t)(((n & 8) << 12) | ((n & 7) << 9)); // value x 2^-14
            A[i] = mode == 0 ? e2m1 : mode == 1 ? __half_as_ushort(__float2half(h2f(e2m1) * 64.f)) : mode == 2 ? (uint16_t)(e2m1 & 0x8000 | ((n & 7) == 1 ? 0x0200 : 0)) : (uint16_t)0x0001;
        }
        for (int i = 0; i < 128; i++) B[i] = __half_as_ushort(__float2half(((int)(rnd() % 2001) - 1000) / 1000.f));
        uint16_t *dA, *dB; float* dD;
        cudaMalloc(&dA, 512); cudaMalloc(&dB, 256); cudaMalloc(&dD, 512);
        cudaMemcpy(dA, A, 512, cudaMemcpyHostToDevice); cudaMemcpy(dB, B, 256, cudaMemcpyHostToDevice);
        k<<<1, 32>>>(dA, dB, dD);
        cudaMemcpy(D, dD, 512, cudaMemcpyDeviceToHost);
        double maxerr = 0, maxref = 0;
        for (int r = 0; r < 16; r++) for (int c = 0; c < 8; c++) {
            double ref = 0; for (int kk = 0; kk < 16; kk++) ref += (double)h2f(A[r * 16 + kk]) * h2f(B[kk * 8 + c]);
            maxerr = fmax(maxerr, fabs(ref - D[r * 8 + c])); maxref = fmax(maxref, fabs(ref));
        }
        printf("mode %d (%s): max |ref| %.3e, max err %.3e, rel %.3e, sample A %.4e\n", mode,
               mode == 0 ? "e2m1 x 2^-14" : mode == 1 ? "e2m1 x 2^-8" : mode == 2 ? "only subnormal 2^-15 codes" : "all 2^-24",
               maxref, maxerr, maxerr / maxref, h2f(A[0]));
    }
    return 0;
}
