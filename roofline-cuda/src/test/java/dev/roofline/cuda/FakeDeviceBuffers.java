package dev.roofline.cuda;

import dev.roofline.cuda.internal.Handles;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Device buffers over made-up addresses, for tests of what holds buffers without touching them (shape checks, views,
 * ownership): nothing is allocated, and copies into them fail in the CUDA runtime. Each gets its own address range.
 */
public final class FakeDeviceBuffers {
    private static final AtomicLong NEXT = new AtomicLong(0x1000_0000L);

    private FakeDeviceBuffers() {}

    /** A buffer of {@code bytes} that runs {@code onFree} when it is closed (once). */
    public static DeviceBuffer buffer(long bytes, Runnable onFree) {
        long address = NEXT.getAndAdd((bytes + 0xFFF) & ~0xFFFL);
        return new DeviceBuffer(
                Handles.own(MemorySegment.ofAddress(address), bytes, "buffer", p -> onFree.run()), bytes);
    }

    public static DeviceBuffer buffer(long bytes) {
        return buffer(bytes, () -> {});
    }
}
