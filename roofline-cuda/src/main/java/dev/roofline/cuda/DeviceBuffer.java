package dev.roofline.cuda;

import dev.roofline.bindings.loader.OwnedHandle;
import dev.roofline.cuda.internal.Cudart;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Device memory from {@code cudaMalloc}, freed by {@link #close()} (idempotent). Copies are size-checked; any use after
 * close is a {@link ClosedResourceException} ("buffer already closed"). {@link #slice} gives a view of a byte range that
 * frees nothing: it lives as long as the buffer it was cut from.
 *
 * <pre>{@code
 * try (DeviceBuffer x = DeviceBuffer.allocate(4L * n)) {
 *     x.copyFrom(values);              // float[] -> device
 *     float[] back = x.toFloatArray();
 * }
 * }</pre>
 */
public final class DeviceBuffer implements AutoCloseable {
    private final OwnedHandle memory;
    private final long offset;
    private final long byteSize;
    private final boolean owner;

    /** The owner of {@code memory}, {@code byteSize} bytes, which it frees on close. */
    DeviceBuffer(OwnedHandle memory, long byteSize) {
        this(memory, 0, byteSize, true);
    }

    /**
     * {@code byteSize} bytes from {@code offset} of {@code memory}; the owner frees it on close, a view never does.
     */
    private DeviceBuffer(OwnedHandle memory, long offset, long byteSize, boolean owner) {
        this.memory = memory;
        this.offset = offset;
        this.byteSize = byteSize;
        this.owner = owner;
    }

    /** {@code bytes} of uninitialised device memory on the current device. */
    public static DeviceBuffer allocate(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("bytes must be > 0, got " + bytes);
        }
        Cuda.requireAvailable();
        return new DeviceBuffer(Cudart.malloc(bytes), bytes);
    }

    /**
     * A view of {@code bytes} bytes of this buffer from {@code offsetBytes}: copies, fills and kernels that take it
     * touch only that range. The view frees nothing ({@link #close()} on it does nothing) and is closed when the
     * buffer it was cut from is; a view of a view is a view of the same memory.
     *
     * @throws IllegalArgumentException if the range is empty or not within this buffer
     * @throws ClosedResourceException  if this buffer is closed
     */
    public DeviceBuffer slice(long offsetBytes, long bytes) {
        if (memory.isClosed()) {
            throw new ClosedResourceException("buffer");
        }
        if (offsetBytes < 0 || bytes <= 0 || bytes > byteSize - offsetBytes) {
            throw new IllegalArgumentException("a slice of " + bytes + " bytes at offset " + offsetBytes
                    + " is not within a device buffer of " + byteSize + " bytes");
        }
        return new DeviceBuffer(memory, offset + offsetBytes, bytes, false);
    }

    public long byteSize() {
        return byteSize;
    }

    /** The device pointer, for calls into CUDA libraries; its size is {@link #byteSize()}; never dereference it. */
    public MemorySegment pointer() {
        MemorySegment whole = memory.get();
        return owner ? whole : whole.asSlice(offset, byteSize);
    }

    /** Copies all of {@code host} to the start of this buffer. */
    public void copyFrom(MemorySegment host) {
        Objects.requireNonNull(host, "host must not be null");
        checkFits("host data", host.byteSize());
        withNative(host, h -> Cudart.copyHostToDevice(pointer(), h, h.byteSize()));
    }

    /** Copies the first {@code host.byteSize()} bytes of this buffer into {@code host}. */
    public void copyTo(MemorySegment host) {
        Objects.requireNonNull(host, "host must not be null");
        checkFits("host destination", host.byteSize());
        if (host.isNative()) {
            Cudart.copyDeviceToHost(host, pointer(), host.byteSize());
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tmp = arena.allocate(host.byteSize(), 16);
            Cudart.copyDeviceToHost(tmp, pointer(), host.byteSize());
            host.copyFrom(tmp);
        }
    }

    public void copyFrom(byte[] host) {
        copyFrom(MemorySegment.ofArray(Objects.requireNonNull(host, "host must not be null")));
    }

    public void copyFrom(short[] host) {
        copyFrom(MemorySegment.ofArray(Objects.requireNonNull(host, "host must not be null")));
    }

    public void copyFrom(int[] host) {
        copyFrom(MemorySegment.ofArray(Objects.requireNonNull(host, "host must not be null")));
    }

    public void copyFrom(float[] host) {
        copyFrom(MemorySegment.ofArray(Objects.requireNonNull(host, "host must not be null")));
    }

    public void copyFrom(double[] host) {
        copyFrom(MemorySegment.ofArray(Objects.requireNonNull(host, "host must not be null")));
    }

    /** The whole buffer as bytes; the buffer must be at most 2 GiB. */
    public byte[] toByteArray() {
        byte[] out = new byte[Math.toIntExact(byteSize)];
        copyTo(MemorySegment.ofArray(out));
        return out;
    }

    public short[] toShortArray() {
        short[] out = new short[Math.toIntExact(byteSize / Short.BYTES)];
        copyTo(MemorySegment.ofArray(out));
        return out;
    }

    public int[] toIntArray() {
        int[] out = new int[Math.toIntExact(byteSize / Integer.BYTES)];
        copyTo(MemorySegment.ofArray(out));
        return out;
    }

    public float[] toFloatArray() {
        float[] out = new float[Math.toIntExact(byteSize / Float.BYTES)];
        copyTo(MemorySegment.ofArray(out));
        return out;
    }

    /** Device-to-device copy of all of {@code source} into the start of this buffer (synchronous). */
    public void copyFrom(DeviceBuffer source) {
        Objects.requireNonNull(source, "source must not be null");
        checkFits("source buffer", source.byteSize);
        Cudart.copyDeviceToDevice(pointer(), source.pointer(), source.byteSize);
    }

    /** Enqueues a device-to-device copy of {@code bytes} from {@code source} on {@code stream}. */
    public void copyFromAsync(DeviceBuffer source, long bytes, Stream stream) {
        Objects.requireNonNull(source, "source must not be null");
        Objects.requireNonNull(stream, "stream must not be null");
        checkFits("copy", bytes);
        source.checkFits("copy", bytes);
        Cudart.copyDeviceToDeviceAsync(pointer(), source.pointer(), bytes, stream.handle());
    }

    /** Sets every byte to {@code value} (low 8 bits). */
    public void fill(int value) {
        Cudart.memset(pointer(), value, byteSize);
    }

    /** Whether the memory is freed: this buffer was closed or, for a view, the buffer it was cut from. */
    public boolean isClosed() {
        return memory.isClosed();
    }

    /** Whether this is a {@link #slice} of another buffer, which it never frees. */
    public boolean isView() {
        return !owner;
    }

    /** Frees the memory of a buffer from {@link #allocate}; does nothing for a view. */
    @Override
    public void close() {
        if (owner) {
            memory.close();
        }
    }

    @Override
    public String toString() {
        return owner
                ? "DeviceBuffer[" + byteSize + " B, " + memory + "]"
                : "DeviceBuffer[view of " + byteSize + " B at +" + offset + ", " + memory + "]";
    }

    private void checkFits(String what, long bytes) {
        if (memory.isClosed()) {
            throw new ClosedResourceException("buffer");
        }
        if (bytes <= 0 || bytes > byteSize) {
            throw new IllegalArgumentException(
                    what + " of " + bytes + " bytes does not fit a device buffer of " + byteSize + " bytes");
        }
    }

    /** Downcalls take native segments only: stage a heap segment through a confined arena. */
    private static void withNative(MemorySegment host, java.util.function.Consumer<MemorySegment> use) {
        if (host.isNative()) {
            use.accept(host);
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment tmp = arena.allocate(host.byteSize(), 16);
            tmp.copyFrom(host);
            use.accept(tmp);
        }
    }
}
