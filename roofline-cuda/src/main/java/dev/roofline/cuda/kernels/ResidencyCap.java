package dev.roofline.cuda.kernels;

import dev.roofline.cuda.Device;
import dev.roofline.cuda.internal.Cudart;

/**
 * At most as many blocks of a kernel an SM as its grid needs when spread evenly, {@code ceil(blocks / SMs)}, by
 * dynamic shared memory the kernel does not use: launched while the kernel before drains, a grid of less than a
 * wave otherwise lands unevenly (its first blocks fill the SMs' free slots, the rest the SMs that free first), and
 * the SMs holding most of its blocks bound its time. Only grids of at most {@link #MAX_PER_SM} blocks an SM.
 */
record ResidencyCap(int smCount, int sharedPerSm, int reservedPerBlock) {
    static final ResidencyCap NONE = new ResidencyCap(0, 0, 0);
    static final int MAX_PER_SM = 8;

    /** The cap for a library launched as {@code launch}: only programmatic launches land while a kernel drains. */
    static ResidencyCap of(KernelLaunch launch, Device device) {
        return launch == KernelLaunch.PROGRAMMATIC
                        && !System.getProperty("roofline.gemv.cap", "off").equals("off")
                ? of(device)
                : NONE;
    }

    static ResidencyCap of(Device device) {
        return new ResidencyCap(
                device.smCount(),
                Cudart.sharedMemoryPerSm(device.ordinal()),
                Cudart.reservedSharedMemoryPerBlock(device.ordinal()));
    }

    /** Dynamic shared memory a block of a grid of {@code blocks} takes, 0 where none is needed. */
    int sharedBytes(int blocks, int staticSharedBytes) {
        if (smCount == 0
                || (staticSharedBytes > 0
                        && System.getProperty("roofline.gemv.cap").equals("cc"))) {
            return 0;
        }
        int perSm = Math.ceilDiv(blocks, smCount);
        if (perSm > MAX_PER_SM) {
            return 0;
        }
        return sharedPerSm / perSm - reservedPerBlock - staticSharedBytes;
    }
}
