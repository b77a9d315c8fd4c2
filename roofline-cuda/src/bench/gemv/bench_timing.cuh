// What the standalone GEMV harnesses of this folder (sweep.cu, tiled_splitk.cu) share: a CUDA call checked with its
// error printed and exit 2, the median of CUDA-event timings, and the device-to-device copy rate.
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

// read + write bytes per second of a device-to-device copy of `bytes`: the median of reps copies after 3
static double copy_rate(cudaStream_t st, size_t bytes, int reps) {
    void *a, *b;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    CK(cudaMemsetAsync(a, 1, bytes, st));
    const float ms = median_event_ms(st, 3, reps, [&] { CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, st)); });
    CK(cudaFree(a));
    CK(cudaFree(b));
    return 2.0 * bytes / (ms * 1e-3);
}
