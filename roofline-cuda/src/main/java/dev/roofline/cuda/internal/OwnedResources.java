package dev.roofline.cuda.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * The device buffers and weights one measurement allocates, closed together: every one is closed, last allocated first,
 * even when some fail to close; the first failure is thrown with the others suppressed, and a failure while measuring
 * stays the one thrown (try-with-resources adds the close failures to it).
 */
public final class OwnedResources implements AutoCloseable {
    private final List<AutoCloseable> owned = new ArrayList<>();

    /** Takes {@code resource} to close with the others; returns it. */
    public <T extends AutoCloseable> T add(T resource) {
        owned.add(resource);
        return resource;
    }

    /** Lets go of everything taken so far without closing it: the resources were handed on to an owner. */
    public void release() {
        owned.clear();
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (int i = owned.size() - 1; i >= 0; i--) {
            try {
                owned.get(i).close();
            } catch (Exception e) {
                if (first == null) {
                    first = e instanceof RuntimeException r ? r : new IllegalStateException("close failed: " + e, e);
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        owned.clear();
        if (first != null) {
            throw first;
        }
    }
}
