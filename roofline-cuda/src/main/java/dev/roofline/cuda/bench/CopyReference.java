package dev.roofline.cuda.bench;

import java.util.Objects;

/**
 * What a memory-bound kernel is set beside: the bytes it must stream (for a GEMV, its weights and scales), the
 * device's copy bandwidth ({@link DeviceCeilings#copyBytesPerSecond()}) and a device-to-device copy that moves those
 * bytes (reads half, writes half), timed like the kernel.
 *
 * @param streamedBytes      bytes the kernel must read besides its small inputs and outputs
 * @param copyBytesPerSecond the device's copy bandwidth, bytes read + written per second
 * @param sameBytesCopy      the timing of a copy moving {@code streamedBytes}
 */
public record CopyReference(long streamedBytes, double copyBytesPerSecond, TimingStats sameBytesCopy) {

    public CopyReference {
        Objects.requireNonNull(sameBytesCopy, "sameBytesCopy");
        if (streamedBytes < 1 || !(copyBytesPerSecond > 0) || Double.isInfinite(copyBytesPerSecond)) {
            throw new IllegalArgumentException("need streamedBytes >= 1 and a finite copyBytesPerSecond > 0, got "
                    + streamedBytes + " and " + copyBytesPerSecond);
        }
    }

    /** {@link #streamedBytes} streamed in {@code seconds} as a share of the copy bandwidth, in per cent. */
    public double percentOfCopy(double seconds) {
        return 100 * streamedBytes / seconds / copyBytesPerSecond;
    }
}
