package dev.roofline.core.hardware;

import dev.roofline.core.internal.Checks;

import java.util.List;
import java.util.Locale;

/**
 * The link between GPUs that collectives run over, per GPU: the bandwidth one GPU sends at (one direction; datasheets
 * quote both directions added), the latency each step of a collective adds, and whether the switch can reduce.
 *
 * <pre>{@code
 * Interconnect nvlink = Interconnect.NVLINK_4;   // H100 / H200 SXM: 450 GB/s each way
 * }</pre>
 *
 * @param name              canonical name
 * @param kind              NVLink, PCIe or a network, which sets NCCL's latency per step
 * @param bytesPerSecond    one GPU's bandwidth in one direction
 * @param stepLatencySeconds what one step of a ring or tree adds (NCCL's tuning model, see {@link #NCCL_TUNING})
 * @param inSwitchReduction the switch reduces in the network (NVLink SHARP: NCCL's NVLS algorithm)
 * @param bandwidthSource   where the bandwidth comes from
 * @param latencySource     where the step latency comes from
 */
public record Interconnect(
        String name,
        Kind kind,
        double bytesPerSecond,
        double stepLatencySeconds,
        boolean inSwitchReduction,
        Source bandwidthSource,
        Source latencySource) {

    /** What carries the bytes. */
    public enum Kind {
        NVLINK,
        PCIE,
        NETWORK
    }

    /**
     * NCCL's cost model, src/graph/tuning.cc (github.com/NVIDIA/nccl, 2.2x releases): a base latency per collective
     * and a hardware latency per step, both in µs, ring algorithm with the Simple protocol (the one for large
     * messages): base 8.4; per step NVLink 3.4, PCI 5.7, network 14.0; NVLS (in-switch reduction) 25.
     */
    public static final String NCCL_TUNING =
            "NCCL cost model, src/graph/tuning.cc (github.com/NVIDIA/nccl): ring/Simple latencies";

    /** NCCL's base latency of one collective (ring, Simple protocol), seconds. */
    public static final double NCCL_BASE_LATENCY_SECONDS = 8.4e-6;

    /** NCCL's latency of an in-switch (NVLS) all-reduce beyond the base, seconds. */
    public static final double NCCL_NVLS_LATENCY_SECONDS = 25e-6;

    private static final double GB = 1e9;
    private static final String PCIE_SPEC =
            "PCI Express Base Specification 4.0 / 5.0: 16 / 32 GT/s per lane, 128b/130b encoding, x16";

    /** NVLink 4 (H100 and H200 SXM): 900 GB/s per GPU, both directions; NVLink SHARP in the NVSwitch. */
    public static final Interconnect NVLINK_4 = new Interconnect(
            "nvlink4",
            Kind.NVLINK,
            450 * GB,
            3.4e-6,
            true,
            Source.derived(Datasheets.H100, "NVLink 900 GB/s, both directions: 450 GB/s each way"),
            Source.datasheet(NCCL_TUNING + ", NVLink 3.4 us per step"));

    /** NVLink 5 (B200, GB200): 1.8 TB/s per GPU, both directions. */
    public static final Interconnect NVLINK_5 = new Interconnect(
            "nvlink5",
            Kind.NVLINK,
            900 * GB,
            3.4e-6,
            true,
            Source.derived(Datasheets.HGX_B200, "NVLink 1.8 TB/s per GPU, both directions: 900 GB/s each way"),
            Source.datasheet(NCCL_TUNING + ", NVLink 3.4 us per step"));

    /** PCIe Gen4 x16: 16 GT/s × 16 lanes × 128/130 / 8 = 31.5 GB/s each way. */
    public static final Interconnect PCIE_4 = new Interconnect(
            "pcie4",
            Kind.PCIE,
            16e9 * 16 * 128 / 130 / 8,
            5.7e-6,
            false,
            Source.derived(PCIE_SPEC, "16 GT/s x 16 lanes x 128/130 / 8 bits = 31.5 GB/s each way"),
            Source.datasheet(NCCL_TUNING + ", PCI 5.7 us per step"));

    /** PCIe Gen5 x16: 63.0 GB/s each way. */
    public static final Interconnect PCIE_5 = new Interconnect(
            "pcie5",
            Kind.PCIE,
            32e9 * 16 * 128 / 130 / 8,
            5.7e-6,
            false,
            Source.derived(PCIE_SPEC, "32 GT/s x 16 lanes x 128/130 / 8 bits = 63.0 GB/s each way"),
            Source.datasheet(NCCL_TUNING + ", PCI 5.7 us per step"));

    /** Two DGX Sparks linked by GB10's ConnectX-7: 200 Gb/s = 25 GB/s each way. */
    public static final Interconnect CONNECTX_7_GB10 = new Interconnect(
            "cx7-200g",
            Kind.NETWORK,
            200e9 / 8,
            14.0e-6,
            false,
            Source.derived(Datasheets.DGX_SPARK, "ConnectX-7 200 Gb/s: 25 GB/s each way"),
            Source.datasheet(NCCL_TUNING + ", network 14.0 us per step"));

    /** InfiniBand NDR (ConnectX-7, one 400 Gb/s port per GPU): 50 GB/s each way. */
    public static final Interconnect INFINIBAND_NDR = new Interconnect(
            "ib-ndr",
            Kind.NETWORK,
            400e9 / 8,
            14.0e-6,
            false,
            Source.derived("NVIDIA ConnectX-7 adapter datasheet: InfiniBand NDR 400 Gb/s per port", "50 GB/s each way"),
            Source.datasheet(NCCL_TUNING + ", network 14.0 us per step"));

    private static final List<Interconnect> ALL =
            List.of(NVLINK_4, NVLINK_5, PCIE_4, PCIE_5, CONNECTX_7_GB10, INFINIBAND_NDR);

    public Interconnect {
        Checks.notBlank("name", name);
        Checks.notNull("kind", kind);
        Checks.notNull("bandwidthSource", bandwidthSource);
        Checks.notNull("latencySource", latencySource);
        if (!(bytesPerSecond >= 1e6 && Double.isFinite(bytesPerSecond))) {
            throw new IllegalArgumentException(
                    "bytesPerSecond must be at least 1 MB/s and finite, got " + bytesPerSecond);
        }
        if (!(stepLatencySeconds >= 0 && stepLatencySeconds < 1)) {
            throw new IllegalArgumentException("stepLatencySeconds must be in [0, 1), got " + stepLatencySeconds);
        }
    }

    /** Every link in the registry. */
    public static List<Interconnect> all() {
        return ALL;
    }

    /** A link by name, ignoring case ("nvlink4", "pcie5", "cx7-200g", ...). */
    public static Interconnect byName(String name) {
        Checks.notBlank("name", name);
        String key = name.strip().toLowerCase(Locale.ROOT);
        return ALL.stream()
                .filter(i -> i.name().equals(key))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown interconnect '" + name + "'; known: "
                        + String.join(", ", ALL.stream().map(Interconnect::name).toList())));
    }
}
