package dev.roofline.cuda;

import dev.roofline.bindings.cudart.cudart_h;
import dev.roofline.cuda.resource.OwnedHandle;

import java.lang.foreign.MemorySegment;

/**
 * A CUDA event for timing work on a stream.
 *
 * <pre>{@code
 * try (Event start = Event.create(); Event end = Event.create()) {
 *     start.record(stream); work(); end.record(stream);
 *     float ms = end.elapsedMillisSince(start);
 * }
 * }</pre>
 */
public final class Event implements AutoCloseable {
    private final OwnedHandle handle;

    private Event(OwnedHandle handle) {
        this.handle = handle;
    }

    public static Event create() {
        Cuda.requireAvailable();
        MemorySegment e = Cudart.create("cudaEventCreateWithFlags",
                p -> cudart_h.cudaEventCreateWithFlags(p, cudart_h.cudaEventDefault()));
        return new Event(OwnedHandle.own(e, 0, "event",
                h -> Cudart.check("cudaEventDestroy", cudart_h.cudaEventDestroy(h))));
    }

    public void record(Stream stream) {
        Cudart.check("cudaEventRecord", cudart_h.cudaEventRecord(handle.get(), stream.handle()));
    }

    public void synchronize() {
        Cudart.check("cudaEventSynchronize", cudart_h.cudaEventSynchronize(handle.get()));
    }

    /** Milliseconds between {@code start} and this event; waits for this event to complete. */
    public float elapsedMillisSince(Event start) {
        synchronize();
        return Cudart.elapsedMillis(start.handle.get(), handle.get());
    }

    @Override
    public void close() {
        handle.close();
    }
}
