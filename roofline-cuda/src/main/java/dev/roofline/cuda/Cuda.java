package dev.roofline.cuda;

import dev.roofline.cuda.internal.Cudart;
import dev.roofline.cuda.internal.DeviceQuery;

import java.util.Optional;

/**
 * Entry point: is CUDA usable here, and which devices are there.
 *
 * <pre>{@code
 * if (!Cuda.isAvailable()) {
 *     System.out.println(Cuda.unavailableReason().orElseThrow());   // "no CUDA device: cudaGetDeviceCount failed: ..."
 *     return;
 * }
 * Device gpu = Cuda.device(0);
 * }</pre>
 */
public final class Cuda {
    private Cuda() {}

    private static final class Probe {
        static final Availability RESULT = Availability.probe(Cudart::load, Cudart::deviceCount);
    }

    /** True when the CUDA runtime loaded and reports at least one device. */
    public static boolean isAvailable() {
        return Probe.RESULT.available();
    }

    /** Why CUDA is not usable (library, device or native access), empty when it is. */
    public static Optional<String> unavailableReason() {
        return Probe.RESULT.available() ? Optional.empty() : Optional.of(Probe.RESULT.reason());
    }

    /** @throws CudaUnavailableException with the reason when CUDA is not usable */
    public static void requireAvailable() {
        if (!Probe.RESULT.available()) {
            throw new CudaUnavailableException(Probe.RESULT.reason(), null);
        }
    }

    public static int deviceCount() {
        requireAvailable();
        return Probe.RESULT.deviceCount();
    }

    /** Properties of device {@code ordinal}. */
    public static Device device(int ordinal) {
        requireAvailable();
        if (ordinal < 0 || ordinal >= Probe.RESULT.deviceCount()) {
            throw new IllegalArgumentException(
                    "device ordinal must be in [0, " + Probe.RESULT.deviceCount() + "), got " + ordinal);
        }
        return DeviceQuery.query(ordinal);
    }

    /** The calling thread's current device. */
    public static Device currentDevice() {
        requireAvailable();
        return DeviceQuery.query(Cudart.getDevice());
    }

    /** Makes {@code ordinal} the calling thread's current device. */
    public static void setDevice(int ordinal) {
        requireAvailable();
        Cudart.setDevice(ordinal);
    }

    /** e.g. 13000 for CUDA 13.0. */
    public static int runtimeVersion() {
        requireAvailable();
        return Cudart.runtimeVersion();
    }

    /** The newest CUDA version the installed driver supports, e.g. 13000. */
    public static int driverVersion() {
        requireAvailable();
        return Cudart.driverVersion();
    }

    /** Waits for all work on the current device. */
    public static void synchronize() {
        requireAvailable();
        Cudart.deviceSynchronize();
    }

    /** How device {@code ordinal} holds memory: integrated or not, pageable access, free and total as CUDA sees them. */
    public static MemoryFacts memoryFacts(int ordinal) {
        requireAvailable();
        int current = Cudart.getDevice();
        Cudart.setDevice(ordinal);
        try {
            long[] info = Cudart.memoryInfo();
            return new MemoryFacts(Cudart.integrated(ordinal), Cudart.pageableMemoryAccess(ordinal), info[0], info[1]);
        } finally {
            Cudart.setDevice(current);
        }
    }

    /** Free device memory in bytes on the current device. */
    public static long freeMemoryBytes() {
        requireAvailable();
        return Cudart.freeMemoryBytes();
    }
}
