// Programmatic dependent launch (PDL, sm_90+): a kernel launched with cudaLaunchAttributeProgrammaticStreamSerialization
// may start while the kernel before it in the stream is still running. Every kernel of the decode step therefore
// waits (griddepcontrol.wait: until the previous grid has completed and its memory is visible) before it reads what
// earlier kernels wrote or writes what they read, and only then lets the next kernel launch
// (griddepcontrol.launch_dependents), so at most one kernel ahead is resident and waiting. A kernel launched without
// the attribute finds both instructions to be no-ops. Before waiting, a GEMV block asks L2 for the weight rows it will
// stream (constant during the step, so prefetching them early is always safe): the fetch then overlaps the previous
// kernel's last wave instead of following it.
#pragma once
#include <stddef.h>

namespace roofline_launch {

__device__ __forceinline__ void wait_for_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Bytes [begin, end) of p into L2, one 128-byte line per thread and step: a hint, no register is loaded.
__device__ __forceinline__ void prefetch_l2(const void* p, size_t begin, size_t end) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const char* base = static_cast<const char*>(p);
    for (size_t o = begin + (size_t)threadIdx.x * 128; o < end; o += (size_t)blockDim.x * 128) {
        asm volatile("prefetch.global.L2 [%0];" ::"l"(base + o));
    }
#endif
}

// prefetch_l2, then wait_for_previous_kernel.
__device__ __forceinline__ void prefetch_then_wait(const void* p, size_t begin, size_t end) {
    prefetch_l2(p, begin, end);
    wait_for_previous_kernel();
}

} // namespace roofline_launch
