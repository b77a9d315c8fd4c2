package dev.roofline.cuda.kernels;

import dev.roofline.bindings.loader.OwnedHandle;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.internal.Cudart;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * roofline's embedded fatbin loaded into the current context with the kernels one user looks up in it: the image's
 * memory and the loaded library are released together, once, by {@link #close}. {@link GemvKernels} and
 * {@link DecodeKernels} each hold one.
 */
final class KernelLibrary implements AutoCloseable {
    private final Arena image;
    private final OwnedHandle library;
    private final Map<String, MemorySegment> kernels = new HashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final KernelLaunch launch;

    private KernelLibrary(Arena image, OwnedHandle library, KernelLaunch launch) {
        this.image = image;
        this.library = library;
        this.launch = launch;
    }

    /**
     * Loads the embedded fatbin and looks up {@code names}; {@code what} names the library in "... already closed".
     * Nothing stays loaded when a lookup fails. Every {@link #launch} is made as {@code launch} says.
     */
    static KernelLibrary load(String what, List<String> names, KernelLaunch launch) {
        java.util.Objects.requireNonNull(launch, "launch");
        Cuda.requireAvailable();
        byte[] fatbin = GemvKernels.embeddedFatbin();
        Arena image = Arena.ofShared();
        OwnedHandle library;
        try {
            MemorySegment code = image.allocate(fatbin.length, 16).copyFrom(MemorySegment.ofArray(fatbin));
            library = Cudart.loadLibrary(code, what);
        } catch (RuntimeException e) {
            image.close();
            throw e;
        }
        // from here the library owns the image: close() releases both, once
        KernelLibrary k = new KernelLibrary(image, library, launch);
        try {
            for (String name : names) {
                k.kernels.put(name, Cudart.kernel(library.get(), name));
            }
            return k;
        } catch (RuntimeException e) {
            k.close();
            throw e;
        }
    }

    /** The kernel {@code name}, one of those looked up at load. */
    MemorySegment kernel(String name) {
        library.get(); // throws "<what> already closed"
        MemorySegment k = kernels.get(name);
        if (k == null) {
            throw new IllegalArgumentException("no kernel " + name + " was looked up in this library");
        }
        return k;
    }

    /**
     * Enqueues kernel {@code name} on a one-dimensional grid, in this library's {@link KernelLaunch} order.
     *
     * @param args the kernel's argument array, in {@code arena}: one pointer per parameter, to its value
     */
    void launch(Arena arena, String name, int grid, int block, MemorySegment args, MemorySegment stream) {
        launch(arena, name, grid, block, args, stream, launch);
    }

    private void launch(
            Arena arena,
            String name,
            int grid,
            int block,
            MemorySegment args,
            MemorySegment stream,
            KernelLaunch order) {
        MemorySegment k = kernel(name);
        if (order == KernelLaunch.PROGRAMMATIC) {
            Cudart.launchKernelEx(arena, k, grid, block, args, stream, true);
        } else {
            Cudart.launchKernel(arena, k, grid, block, args, stream);
        }
    }

    /**
     * Enqueues kernel {@code name} with {@code args} in the kernel's parameter order: each a {@link DeviceBuffer}
     * (its pointer; null passes a null pointer), a device pointer ({@link MemorySegment}, e.g. an offset into a
     * buffer), an {@link Integer}, a {@link Float} or a {@link GemvKernels.Epilogue} (the struct, by value).
     */
    void launch(String name, int grid, int block, Stream stream, Object... args) {
        launch(launch, name, grid, block, stream, args);
    }

    /**
     * {@link #launch(String, int, int, Stream, Object...)} in plain stream order whatever this library's
     * {@link KernelLaunch}: the kernel starts once the one before has finished (a kernel that slows the step when it is
     * made resident early; the kernels after it may still be).
     */
    void launchOrdered(String name, int grid, int block, Stream stream, Object... args) {
        launch(KernelLaunch.ORDERED, name, grid, block, stream, args);
    }

    private void launch(KernelLaunch order, String name, int grid, int block, Stream stream, Object... args) {
        kernel(name); // a closed library fails before any argument is allocated
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment array = arena.allocate(ValueLayout.ADDRESS, args.length);
            for (int i = 0; i < args.length; i++) {
                MemorySegment value =
                        switch (args[i]) {
                            case null -> arena.allocateFrom(ValueLayout.ADDRESS, MemorySegment.NULL);
                            case DeviceBuffer b -> arena.allocateFrom(ValueLayout.ADDRESS, b.pointer());
                            case MemorySegment p -> arena.allocateFrom(ValueLayout.ADDRESS, p);
                            case Integer n -> arena.allocateFrom(ValueLayout.JAVA_INT, n);
                            case Float f -> arena.allocateFrom(ValueLayout.JAVA_FLOAT, f);
                            case GemvKernels.Epilogue e -> e.write(arena);
                            default ->
                                throw new IllegalArgumentException(
                                        "kernel argument " + i + " of " + name + ": " + args[i]);
                        };
                array.setAtIndex(ValueLayout.ADDRESS, i, value);
            }
            launch(arena, name, grid, block, array, stream.handle(), order);
        }
    }

    /** Unloads the library and frees its image, the first time only; launches already enqueued still run. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            try {
                library.close();
            } finally {
                image.close();
            }
        }
    }
}
