package dev.roofline.core.hardware;

import dev.roofline.core.internal.Checks;

import java.util.List;
import java.util.Locale;

/**
 * The link between GPUs that collectives run over, per GPU: the bandwidth one GPU sends at (one direction; datasheets
 * quote both directions added), its kind (which sets NCCL's latencies, {@code dev.roofline.core.parallel.Collective})
 * and whether the switch can reduce.
 *
 * <pre>{@code
 * Interconnect nvlink = Interconnect.NVLINK_4;   // H100 / H200 SXM: 450 GB/s each way
 * }</pre>
 *
 * @param name              canonical name
 * @param kind              NVLink, PCIe or a network: NCCL prices each step of a collective by it
 * @param bytesPerSecond    one GPU's bandwidth in one direction
 * @param inSwitchReduction the switch reduces in the network (NVLink SHARP: NCCL's NVLS algorithm)
 * @param bandwidthSource   where the bandwidth comes from
 */
public record Interconnect(
        String name, Kind kind, double bytesPerSecond, boolean inSwitchReduction, Source bandwidthSource) {

    /** What carries the bytes. */
    public enum Kind {
        NVLINK,
        PCIE,
        NETWORK
    }

    private static final double GB = 1e9;
    private static final String PCIE_SPEC =
            "PCI Express Base Specification 4.0 / 5.0: 16 / 32 GT/s per lane, 128b/130b encoding, x16";

    /** NVLink 4 (H100 and H200 SXM): 900 GB/s per GPU, both directions; NVLink SHARP in the NVSwitch. */
    public static final Interconnect NVLINK_4 = new Interconnect(
            "nvlink4",
            Kind.NVLINK,
            450 * GB,
            true,
            Source.derived(Datasheets.H100, "NVLink 900 GB/s, both directions: 450 GB/s each way"));

    /** NVLink 5 (B200, GB200): 1.8 TB/s per GPU, both directions. */
    public static final Interconnect NVLINK_5 = new Interconnect(
            "nvlink5",
            Kind.NVLINK,
            900 * GB,
            true,
            Source.derived(Datasheets.HGX_B200, "NVLink 1.8 TB/s per GPU, both directions: 900 GB/s each way"));

    /** PCIe Gen4 x16: 16 GT/s × 16 lanes × 128/130 / 8 = 31.5 GB/s each way. */
    public static final Interconnect PCIE_4 = new Interconnect(
            "pcie4",
            Kind.PCIE,
            16e9 * 16 * 128 / 130 / 8,
            false,
            Source.derived(PCIE_SPEC, "16 GT/s x 16 lanes x 128/130 / 8 bits = 31.5 GB/s each way"));

    /** PCIe Gen5 x16: 63.0 GB/s each way. */
    public static final Interconnect PCIE_5 = new Interconnect(
            "pcie5",
            Kind.PCIE,
            32e9 * 16 * 128 / 130 / 8,
            false,
            Source.derived(PCIE_SPEC, "32 GT/s x 16 lanes x 128/130 / 8 bits = 63.0 GB/s each way"));

    /** Two DGX Sparks linked by GB10's ConnectX-7: 200 Gb/s = 25 GB/s each way. */
    public static final Interconnect CONNECTX_7_GB10 = new Interconnect(
            "cx7-200g",
            Kind.NETWORK,
            200e9 / 8,
            false,
            Source.derived(Datasheets.DGX_SPARK, "ConnectX-7 200 Gb/s: 25 GB/s each way"));

    /** InfiniBand NDR (ConnectX-7, one 400 Gb/s port per GPU): 50 GB/s each way. */
    public static final Interconnect INFINIBAND_NDR = new Interconnect(
            "ib-ndr",
            Kind.NETWORK,
            400e9 / 8,
            false,
            Source.derived(
                    "NVIDIA ConnectX-7 adapter datasheet: InfiniBand NDR 400 Gb/s per port", "50 GB/s each way"));

    private static final List<Interconnect> ALL =
            List.of(NVLINK_4, NVLINK_5, PCIE_4, PCIE_5, CONNECTX_7_GB10, INFINIBAND_NDR);

    public Interconnect {
        Checks.notBlank("name", name);
        Checks.notNull("kind", kind);
        Checks.notNull("bandwidthSource", bandwidthSource);
        if (!(bytesPerSecond >= 1e6 && Double.isFinite(bytesPerSecond))) {
            throw new IllegalArgumentException(
                    "bytesPerSecond must be at least 1 MB/s and finite, got " + bytesPerSecond);
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
