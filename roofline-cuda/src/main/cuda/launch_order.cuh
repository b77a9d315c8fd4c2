// Programmatic dependent launch (PDL, sm_90+): a kernel launched with cudaLaunchAttributeProgrammaticStreamSerialization
// may start while the kernel before it in the stream is still running. Every kernel of the decode step therefore
// waits (griddepcontrol.wait: until the previous grid has completed and its memory is visible) before it reads what
// earlier kernels wrote or writes what they read, and only then lets the next kernel launch
// (griddepcontrol.launch_dependents), so at most one kernel ahead is resident and waiting. A kernel launched without
// the attribute finds both instructions to be no-ops. Nothing an earlier kernel of the step may write is read before
// the wait (decode_qkv_rope_append takes its angle from positions and inv_freq before it: no kernel writes those).
// Nor are a kernel's first loads issued before it: asking L2 for a GEMV's first
// weight rows, or an attention block's KV chunk, while the previous kernel drains made the step slower on an H200
// (docs/measurements/2026-11-24-issue15-decoder-h200), and so did loading a GEMV's first weight chunks into registers
// (docs/measurements/2026-11-25-issue15-moe-h200).
#pragma once

namespace roofline_launch {

// The two halves of wait_for_previous_kernel, used apart by a kernel whose next kernel should launch only as its
// blocks finish (the attention's split pass before its merge): the wait first, the launch at each block's end. The
// next kernel then becomes resident only once every block has got there, and still skips the stream's wait for the
// grid's completion.
__device__ __forceinline__ void wait_for_previous_kernel_only() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void let_next_kernel_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

__device__ __forceinline__ void wait_for_previous_kernel() {
    wait_for_previous_kernel_only();
    let_next_kernel_launch();
}

} // namespace roofline_launch
