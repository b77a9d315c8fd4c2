package dev.roofline.bindings.loader;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A native handle (stream, event, device pointer, cuBLASLt object, NVML session) whose destroy function is tied to the
 * lifetime of its own arena: {@link #close()} runs it exactly once, and {@link #get()} after that throws the owner's
 * exception naming the resource ("buffer already closed"). The owning module picks that exception type, so each
 * library's users see their own domain error.
 */
public final class OwnedHandle implements AutoCloseable {
    private final Arena arena;
    private final MemorySegment handle;
    private final String what;
    private final Function<String, ? extends RuntimeException> closedError;
    private final AtomicBoolean closed = new AtomicBoolean();

    private OwnedHandle(
            Arena arena, MemorySegment handle, String what, Function<String, ? extends RuntimeException> closedError) {
        this.arena = arena;
        this.handle = handle;
        this.what = what;
        this.closedError = closedError;
    }

    /**
     * Takes ownership of {@code raw}.
     *
     * @param size    bytes the handle spans (a device buffer's size; 0 for opaque handles)
     * @param what    the noun used in "... already closed"
     * @param destroy releases the native object; called with the handle once, on close
     * @param closedError the exception {@link #get()} throws after close, made from {@code what} (the owner's
     *                    "... already closed" type)
     */
    public static OwnedHandle own(
            MemorySegment raw,
            long size,
            String what,
            Consumer<MemorySegment> destroy,
            Function<String, ? extends RuntimeException> closedError) {
        Arena arena = Arena.ofShared();
        MemorySegment owned = MemorySegment.ofAddress(raw.address()).reinterpret(size, arena, destroy);
        return new OwnedHandle(arena, owned, what, closedError);
    }

    /** As {@link #own(MemorySegment, long, String, Consumer, Function)}, closed use being an IllegalStateException. */
    public static OwnedHandle own(MemorySegment raw, long size, String what, Consumer<MemorySegment> destroy) {
        return own(raw, size, what, destroy, w -> new IllegalStateException(w + " already closed"));
    }

    /** The handle, valid until {@link #close()}. */
    public MemorySegment get() {
        if (closed.get()) {
            throw closedError.apply(what);
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
