// A kernel that reads bytes and does nothing else: the floor under any kernel that must stream the same bytes, launched
// the way the decoder's kernels are (it waits for the previous kernel, then lets the next one launch). StreamRead
// (Java) launches it; the benchmarks time one for a kernel's bytes, or a chain of them, one per launch of a decode
// step, as that step's read floor: what the step would take if every kernel only streamed what it must read.
//
// Each thread of a grid-stride loop keeps READ_UNROLL 16-byte loads in flight a round. The grid is at most as many
// blocks an SM as its threads allow, 8 at most (StreamRead.grid): 2048 threads an SM on compute capability 9.0 and
// 10.0, which hold that many at the 32 registers ptxas gives the kernel there, up to 128 KiB of loads in flight an SM.
// A thread folds what it read into one word by XOR and stores it to sink only when it equals key: the store keeps the
// loads in the kernel, and data folds to key (StreamRead.KEY) only by design, as in StreamReadIT.
#include <stdint.h>

#include "launch_order.cuh"

constexpr int READ_THREADS = 256;   // StreamRead.THREADS
constexpr int READ_UNROLL = 4;      // StreamRead.UNROLL

__device__ __forceinline__ uint4 read_once(const uint4* p) {
    uint4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "l"(p));
    return v;
}

// words: 16-byte words to read from src (16-byte aligned)
extern "C" __global__ void __launch_bounds__(READ_THREADS) stream_read(const uint4* src, int words, unsigned key, unsigned* sink) {
    roofline_launch::wait_for_previous_kernel();
    const int64_t stride = static_cast<int64_t>(gridDim.x) * READ_THREADS;
    int64_t i = static_cast<int64_t>(blockIdx.x) * READ_THREADS + threadIdx.x;
    unsigned acc = 0;
    for (; i + (READ_UNROLL - 1) * stride < words; i += READ_UNROLL * stride) {
        uint4 v[READ_UNROLL];
#pragma unroll
        for (int u = 0; u < READ_UNROLL; u++) v[u] = read_once(src + i + u * stride);
#pragma unroll
        for (int u = 0; u < READ_UNROLL; u++) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
    for (; i < words; i += stride) {
        const uint4 v = read_once(src + i);
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == key) sink[0] = acc;
}
