package dev.roofline.cuda.resource;

import dev.roofline.cuda.ClosedResourceException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * A native handle (stream, event, device pointer, cuBLASLt object) whose destroy function is tied to the lifetime of
 * its own arena: {@link #close()} runs it exactly once, and {@link #get()} after that is a
 * {@link ClosedResourceException} naming the resource ("buffer already closed").
 */
public final class OwnedHandle implements AutoCloseable {
    private final Arena arena;
    private final MemorySegment handle;
    private final String what;
    private final AtomicBoolean closed = new AtomicBoolean();

    private OwnedHandle(Arena arena, MemorySegment handle, String what) {
        this.arena = arena;
        this.handle = handle;
        this.what = what;
    }

    /**
     * Takes ownership of {@code raw}.
     *
     * @param size    bytes the handle spans (a device buffer's size; 0 for opaque handles)
     * @param what    the noun used in "... already closed"
     * @param destroy releases the native object; called with the handle once, on close
     */
    public static OwnedHandle own(MemorySegment raw, long size, String what, Consumer<MemorySegment> destroy) {
        Arena arena = Arena.ofShared();
        MemorySegment owned = MemorySegment.ofAddress(raw.address()).reinterpret(size, arena, destroy);
        return new OwnedHandle(arena, owned, what);
    }

    /** The handle, valid until {@link #close()}. */
    public MemorySegment get() {
        if (closed.get()) {
            throw new ClosedResourceException(what);
        }
        return handle;
    }

    public boolean isClosed() {
        return closed.get();
    }

    /** Destroys the native object the first time; later calls do nothing. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            arena.close();
        }
    }

    @Override
    public String toString() {
        return what + (closed.get() ? " (closed)" : " @0x" + Long.toHexString(handle.address()));
    }
}
