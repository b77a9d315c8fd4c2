/* cudaGetDevice in a C loop: the baseline for CallOverheadBenchmark (Java FFM raw binding vs C).
 * Build on the GPU machine: nvcc -O2 -o get_device_loop get_device_loop.c   (or gcc ... -lcudart)
 * Prints the median ns/call over 11 rounds of 5,000,000 calls, after 3 warm-up rounds. */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define CALLS 5000000
#define ROUNDS 11

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double round_ns(volatile int *sink) {
    int dev = 0, s = 0;
    double t0 = now_ns();
    for (int i = 0; i < CALLS; i++) {
        s += (int) cudaGetDevice(&dev);
    }
    double t1 = now_ns();
    *sink += s + dev;
    return (t1 - t0) / CALLS;
}

int main(void) {
    volatile int sink = 0;
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        fprintf(stderr, "no CUDA device: %s\n", cudaGetErrorString(e));
        return 1;
    }
    for (int w = 0; w < 3; w++) {
        round_ns(&sink);
    }
    double r[ROUNDS];
    for (int i = 0; i < ROUNDS; i++) {
        r[i] = round_ns(&sink);
    }
    qsort(r, ROUNDS, sizeof r[0], cmp);
    printf("cudaGetDevice C loop:           %.2f ns/call (median of %d x %d)\n", r[ROUNDS / 2], ROUNDS, CALLS);
    return sink == 42 ? 2 : 0;
}
