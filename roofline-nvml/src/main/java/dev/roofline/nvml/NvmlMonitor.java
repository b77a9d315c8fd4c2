package dev.roofline.nvml;

import dev.roofline.bindings.loader.OwnedHandle;
import dev.roofline.nvml.internal.Nvml;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * The GPU telemetry session: an open NVML library, its devices and driver version. Reference-counted: the first
 * {@code open()} in the JVM calls {@code nvmlInit},
 * the last {@code close()} calls {@code nvmlShutdown}, so several users can share NVML.
 *
 * <pre>{@code
 * try (NvmlMonitor nvml = NvmlMonitor.open()) {
 *     NvmlDevice gpu = nvml.device(0);
 *     double watts = gpu.powerWatts().orElseThrow();
 * }
 * }</pre>
 */
public final class NvmlMonitor implements AutoCloseable {
    private static final Object LOCK = new Object();
    private static int openSessions;

    /** This session's share of NVML: closing it releases the share once; use after that is "already closed". */
    private final OwnedHandle session = OwnedHandle.own(MemorySegment.NULL, 0, "NVML session", s -> release());

    private NvmlMonitor() {}

    /**
     * Loads libnvidia-ml if needed and initializes NVML.
     *
     * @throws NvmlUnavailableException when the library is missing, the driver is not loaded, NVML refuses
     *                                  permission or native access is denied
     */
    public static NvmlMonitor open() {
        synchronized (LOCK) {
            if (openSessions == 0) {
                Nvml.init();
            }
            openSessions++;
            return new NvmlMonitor();
        }
    }

    /** Why NVML cannot be used here, or empty when a session opens. */
    public static Optional<String> unavailableReason() {
        try (NvmlMonitor ignored = open()) {
            return Optional.empty();
        } catch (NvmlUnavailableException e) {
            return Optional.of(e.getMessage());
        }
    }

    public int deviceCount() {
        ensureOpen();
        return Nvml.deviceCount();
    }

    /** The device NVML numbers {@code index} (NVML order can differ from CUDA's; match by UUID when it matters). */
    public NvmlDevice device(int index) {
        ensureOpen();
        int n = deviceCount();
        if (index < 0 || index >= n) {
            throw new IllegalArgumentException("device index must be in [0, " + n + "), got " + index);
        }
        return new NvmlDevice(this, index, Nvml.deviceHandle(index));
    }

    /**
     * The device with this UUID ({@code "GPU-…"}, as CUDA's {@code Device.uuid()} and nvidia-smi print it), to match
     * a CUDA device whose NVML index may differ.
     *
     * @throws IllegalArgumentException naming the UUIDs NVML sees when none matches
     */
    public NvmlDevice deviceByUuid(String uuid) {
        if (uuid == null || uuid.isBlank()) {
            throw new IllegalArgumentException("gpuUuid must not be blank");
        }
        int n = deviceCount();
        StringBuilder seen = new StringBuilder();
        for (int i = 0; i < n; i++) {
            NvmlDevice d = device(i);
            String u = d.uuid();
            if (u.equalsIgnoreCase(uuid)) {
                return d;
            }
            seen.append(i == 0 ? "" : ", ").append(u);
        }
        throw new IllegalArgumentException("no NVML device has UUID " + uuid + "; NVML sees " + seen);
    }

    public String driverVersion() {
        ensureOpen();
        return Nvml.driverVersion();
    }

    public boolean isOpen() {
        return !session.isClosed();
    }

    /** @throws IllegalStateException "NVML session already closed" after {@link #close()} */
    void ensureOpen() {
        session.get();
    }

    /** Releases this session; the last one open shuts NVML down. Calling it again does nothing. */
    @Override
    public void close() {
        session.close();
    }

    private static void release() {
        synchronized (LOCK) {
            openSessions--;
            if (openSessions == 0) {
                Nvml.shutdown();
            }
        }
    }
}
