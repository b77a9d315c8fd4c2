package dev.roofline.cuda;

import dev.roofline.core.hardware.Ceiling;
import dev.roofline.core.hardware.ComputeCapability;
import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.hardware.Source;
import dev.roofline.core.precision.Precision;

import java.util.Objects;

/**
 * A CUDA device as the runtime reports it.
 *
 * <pre>{@code
 * Device gpu = Cuda.device(0);
 * Hardware hw = gpu.hardware();                 // Hardware.H200 for "NVIDIA H200"
 * double bw = gpu.memoryBytesPerSecond();       // 2 x memory clock x bus width / 8
 * }</pre>
 *
 * @param ordinal            CUDA device index
 * @param name               e.g. "NVIDIA H100 80GB HBM3"
 * @param computeCapability  e.g. 9.0
 * @param smCount            streaming multiprocessors
 * @param memoryBytes        global memory
 * @param l2Bytes            L2 cache
 * @param smClockKhz         peak SM clock (cudaDevAttrClockRate)
 * @param memoryClockKhz     peak memory clock (cudaDevAttrMemoryClockRate)
 * @param memoryBusWidthBits memory interface width
 * @param uuid               cudaDeviceProp.uuid as NVML writes it, "GPU-" + 8-4-4-4-12 lowercase hex digits; the
 *                           same string {@code nvidia-smi -L} shows, so NVML readings can be matched to this device
 */
public record Device(
        int ordinal,
        String name,
        ComputeCapability computeCapability,
        int smCount,
        long memoryBytes,
        long l2Bytes,
        int smClockKhz,
        int memoryClockKhz,
        int memoryBusWidthBits,
        String uuid) {

    /** The UUID of a device not read from the runtime (a hand-built spec): all zeros, which no GPU reports. */
    public static final String NIL_UUID = "GPU-00000000-0000-0000-0000-000000000000";

    private static final java.util.regex.Pattern NVML_UUID =
            java.util.regex.Pattern.compile("GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    /** FP32 lanes per SM assumed for an unknown GPU's CUDA-core estimate (Hopper, Ada, Blackwell). */
    static final int FP32_LANES_PER_SM = 128;

    public Device {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(computeCapability, "computeCapability");
        if (uuid == null || !NVML_UUID.matcher(uuid).matches()) {
            throw new IllegalArgumentException(
                    "uuid must look like GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx (lowercase hex), got " + uuid);
        }
        if (ordinal < 0
                || smCount <= 0
                || memoryBytes <= 0
                || l2Bytes < 0
                || smClockKhz <= 0
                || memoryClockKhz <= 0
                || memoryBusWidthBits <= 0) {
            throw new IllegalArgumentException("device figures must be positive, got ordinal=" + ordinal + " sms="
                    + smCount
                    + " memory=" + memoryBytes + " l2=" + l2Bytes + " smClockKhz=" + smClockKhz + " memoryClockKhz="
                    + memoryClockKhz + " busWidth=" + memoryBusWidthBits);
        }
    }

    /** A device not read from the runtime: its UUID is {@link #NIL_UUID}. */
    public Device(
            int ordinal,
            String name,
            ComputeCapability computeCapability,
            int smCount,
            long memoryBytes,
            long l2Bytes,
            int smClockKhz,
            int memoryClockKhz,
            int memoryBusWidthBits) {
        this(
                ordinal,
                name,
                computeCapability,
                smCount,
                memoryBytes,
                l2Bytes,
                smClockKhz,
                memoryClockKhz,
                memoryBusWidthBits,
                NIL_UUID);
    }

    /**
     * The 16 bytes of {@code cudaDeviceProp.uuid} in NVML's form: "GPU-", then the bytes in order as lowercase hex,
     * grouped 4-2-2-2-6 bytes (8-4-4-4-12 digits).
     */
    public static String nvmlUuid(byte[] cudaUuid) {
        if (cudaUuid == null || cudaUuid.length != 16) {
            throw new IllegalArgumentException(
                    "cudaUuid must hold 16 bytes, got " + (cudaUuid == null ? "null" : cudaUuid.length + " bytes"));
        }
        StringBuilder sb = new StringBuilder("GPU-");
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                sb.append('-');
            }
            sb.append(Character.forDigit((cudaUuid[i] >> 4) & 0xF, 16))
                    .append(Character.forDigit(cudaUuid[i] & 0xF, 16));
        }
        return sb.toString();
    }

    /** Peak DRAM bandwidth from the clocks: 2 transfers per clock (DDR) x memory clock x bus width in bytes. */
    public double memoryBytesPerSecond() {
        return 2.0 * memoryClockKhz * 1e3 * memoryBusWidthBits / 8.0;
    }

    /**
     * The registry entry for this GPU when its name is known ("NVIDIA H200" is {@link Hardware#H200}, "NVIDIA H100
     * 80GB HBM3" is {@link Hardware#H100_SXM}), else hardware built from what the runtime reports, its bandwidth
     * derived from the clocks and an FP32 CUDA-core ceiling estimated from SMs and clock.
     */
    public Hardware hardware() {
        return KnownGpus.match(name).orElseGet(this::reportedHardware);
    }

    private Hardware reportedHardware() {
        String citation = "cudaGetDeviceProperties/cudaDeviceGetAttribute on " + name;
        Source reported = Source.measured(name, java.time.LocalDate.now(), "reported by the CUDA runtime");
        double fp32 = (double) smCount * FP32_LANES_PER_SM * 2 * smClockKhz * 1e3;
        return Hardware.newBuilder(name)
                .memoryBandwidth(
                        memoryBytesPerSecond(),
                        Source.derived(
                                citation,
                                "2 x memory clock " + memoryClockKhz + " kHz x bus width " + memoryBusWidthBits
                                        + " bit / 8 (DDR)"))
                .memoryCapacity(memoryBytes, reported)
                .smCount(smCount, reported)
                .l2(Math.max(1, l2Bytes), reported)
                .computeCapability(computeCapability.toString(), reported)
                .ceiling(
                        Precision.FP32,
                        fp32,
                        Ceiling.Unit.CUDA_CORE,
                        Source.estimate(
                                citation,
                                "SMs x " + FP32_LANES_PER_SM + " FP32 lanes x 2 x SM clock; lanes per SM assumed"))
                .build();
    }

    @Override
    public String toString() {
        return String.format(
                java.util.Locale.ROOT,
                "%s (device %d, %s): CC %s, %d SMs, %.1f GiB, L2 %.1f MiB, SM %d MHz, memory %d MHz x %d bit = %.0f GB/s",
                name,
                ordinal,
                uuid,
                computeCapability,
                smCount,
                memoryBytes / (double) (1L << 30),
                l2Bytes / (double) (1L << 20),
                smClockKhz / 1000,
                memoryClockKhz / 1000,
                memoryBusWidthBits,
                memoryBytesPerSecond() / 1e9);
    }
}
