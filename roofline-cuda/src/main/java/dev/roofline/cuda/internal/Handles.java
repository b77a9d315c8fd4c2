package dev.roofline.cuda.internal;

import dev.roofline.bindings.loader.OwnedHandle;
import dev.roofline.cuda.ClosedResourceException;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/** roofline-cuda's owned handles: use after close is a {@link ClosedResourceException} ("stream already closed"). */
public final class Handles {
    private Handles() {}

    /**
     * Takes ownership of {@code raw} (see {@link OwnedHandle#own(MemorySegment, long, String, Consumer,
     * java.util.function.Function)}).
     *
     * @param size    bytes the handle spans (a device buffer's size; 0 for opaque handles)
     * @param what    the noun used in "... already closed"
     * @param destroy releases the native object; called with the handle once, on close
     */
    public static OwnedHandle own(MemorySegment raw, long size, String what, Consumer<MemorySegment> destroy) {
        return OwnedHandle.own(raw, size, what, destroy, ClosedResourceException::new);
    }
}
