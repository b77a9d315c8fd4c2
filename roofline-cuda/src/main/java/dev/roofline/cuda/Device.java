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
 */
public record Device(int ordinal, String name, ComputeCapability computeCapability, int smCount, long memoryBytes,
                     long l2Bytes, int smClockKhz, int memoryClockKhz, int memoryBusWidthBits) {

    /** FP32 lanes per SM assumed for an unknown GPU's CUDA-core estimate (Hopper, Ada, Blackwell). */
    static final int FP32_LANES_PER_SM = 128;

    public Device {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(computeCapability, "computeCapability");
        if (ordinal < 0 || smCount <= 0 || memoryBytes <= 0 || l2Bytes < 0 || smClockKhz <= 0 || memoryClockKhz <= 0
                || memoryBusWidthBits <= 0) {
            throw new IllegalArgumentException("device figures must be positive, got ordinal=" + ordinal + " sms=" + smCount
                    + " memory=" + memoryBytes + " l2=" + l2Bytes + " smClockKhz=" + smClockKhz + " memoryClockKhz="
                    + memoryClockKhz + " busWidth=" + memoryBusWidthBits);
        }
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
                .memoryBandwidth(memoryBytesPerSecond(), Source.derived(citation,
                        "2 x memory clock " + memoryClockKhz + " kHz x bus width " + memoryBusWidthBits + " bit / 8 (DDR)"))
                .memoryCapacity(memoryBytes, reported)
                .smCount(smCount, reported)
                .l2(Math.max(1, l2Bytes), reported)
                .computeCapability(computeCapability.toString(), reported)
                .ceiling(Precision.FP32, fp32, Ceiling.Unit.CUDA_CORE, Source.estimate(citation,
                        "SMs x " + FP32_LANES_PER_SM + " FP32 lanes x 2 x SM clock; lanes per SM assumed"))
                .build();
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT,
                "%s (device %d): CC %s, %d SMs, %.1f GiB, L2 %.1f MiB, SM %d MHz, memory %d MHz x %d bit = %.0f GB/s",
                name, ordinal, computeCapability, smCount, memoryBytes / (double) (1L << 30), l2Bytes / (double) (1L << 20),
                smClockKhz / 1000, memoryClockKhz / 1000, memoryBusWidthBits, memoryBytesPerSecond() / 1e9);
    }
}
