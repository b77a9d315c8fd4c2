// What the standalone GEMV harnesses of this folder (sweep.cu, tiled_splitk.cu) share: a CUDA call checked with its
// error printed and exit 2, and the median of CUDA-event timings.
#pragma once

#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(call)                                                                                       \
    do {                                                                                               \
        cudaError_t e_ = (call);                                                                       \
        if (e_ != cudaSuccess) {                                                                       \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            std::exit(2);                                                                              \
        }                                                                                              \
    } while (0)

// median milliseconds of `work` between two CUDA events on st, over reps runs after `warmup` more
template <typename Work>
static float median_event_ms(cudaStream_t st, int warmup, int reps, Work&& work) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int r = 0; r < warmup + reps; r++) {
        CK(cudaEventRecord(a, st));
        work();
        CK(cudaEventRecord(b, st));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (r >= warmup) t.push_back(ms);
    }
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}
