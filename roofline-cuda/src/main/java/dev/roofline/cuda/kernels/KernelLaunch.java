package dev.roofline.cuda.kernels;

/**
 * How roofline's kernels are launched after the kernel before them in a stream (launch_order.cuh in the kernel
 * sources).
 */
public enum KernelLaunch {
    /** Each kernel starts once the one before has finished: plain stream order. */
    ORDERED,
    /**
     * Programmatic dependent launch (compute capability 9.0 and up): each kernel may become resident while the one
     * before drains its last wave, and waits for that kernel to complete before it touches anything the earlier
     * kernels read or write. On a GPU below 9.0 the launch attribute
     * is ignored and the order is plain.
     */
    PROGRAMMATIC
}
