package dev.roofline.cuda.bench;

import java.util.Objects;
import java.util.Optional;

/**
 * What a memory-bound kernel is set beside: the bytes it must stream (for a GEMV, its weights and scales), the
 * device's copy bandwidth ({@link DeviceCeilings#copyBytesPerSecond()}) and a device-to-device copy that moves those
 * bytes (reads half, writes half), timed like the kernel; and where measured, a kernel that only reads those bytes
 * ({@link dev.roofline.cuda.kernels.StreamRead}), the floor under a kernel that must stream them.
 *
 * @param streamedBytes      bytes the kernel must read besides its small inputs and outputs
 * @param copyBytesPerSecond the device's copy bandwidth, bytes read + written per second
 * @param sameBytesCopy      the timing of a copy moving {@code streamedBytes}
 * @param sameBytesRead      the timing of one kernel reading {@code streamedBytes}, when measured
 */
public record CopyReference(
        long streamedBytes, double copyBytesPerSecond, TimingStats sameBytesCopy, Optional<TimingStats> sameBytesRead) {

    public CopyReference {
        Objects.requireNonNull(sameBytesCopy, "sameBytesCopy");
        Objects.requireNonNull(sameBytesRead, "sameBytesRead");
        if (streamedBytes < 1 || !(copyBytesPerSecond > 0) || Double.isInfinite(copyBytesPerSecond)) {
            throw new IllegalArgumentException("need streamedBytes >= 1 and a finite copyBytesPerSecond > 0, got "
                    + streamedBytes + " and " + copyBytesPerSecond);
        }
    }

    /** A reference without a same-bytes read. */
    public CopyReference(long streamedBytes, double copyBytesPerSecond, TimingStats sameBytesCopy) {
        this(streamedBytes, copyBytesPerSecond, sameBytesCopy, Optional.empty());
    }

    /** The same, with the timing of one kernel reading {@link #streamedBytes}. */
    public CopyReference withRead(TimingStats read) {
        return new CopyReference(streamedBytes, copyBytesPerSecond, sameBytesCopy, Optional.of(read));
    }

    /** {@link #streamedBytes} streamed in {@code seconds} as a share of the copy bandwidth, in per cent. */
    public double percentOfCopy(double seconds) {
        return 100 * streamedBytes / seconds / copyBytesPerSecond;
    }
}
