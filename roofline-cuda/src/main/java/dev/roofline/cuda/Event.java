package dev.roofline.cuda;

import dev.roofline.bindings.loader.OwnedHandle;
import dev.roofline.cuda.internal.Cudart;

import java.util.Objects;

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
        return new Event(Cudart.createEvent());
    }

    public void record(Stream stream) {
        Objects.requireNonNull(stream, "stream must not be null");
        Cudart.recordEvent(handle.get(), stream.handle());
    }

    public void synchronize() {
        Cudart.eventSynchronize(handle.get());
    }

    /** Milliseconds between {@code start} and this event; waits for this event to complete. */
    public float elapsedMillisSince(Event start) {
        Objects.requireNonNull(start, "start must not be null");
        synchronize();
        return Cudart.elapsedMillis(start.handle.get(), handle.get());
    }

    @Override
    public void close() {
        handle.close();
    }
}
