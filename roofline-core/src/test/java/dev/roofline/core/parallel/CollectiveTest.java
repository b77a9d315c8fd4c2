package dev.roofline.core.parallel;

import dev.roofline.core.hardware.Interconnect;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * Collective times by hand from NCCL's tuning table (µs): base tree {6.8, 14.0, 8.4}, ring {6.6, 14.0, 8.4} for
 * {LL, LL128, Simple}; per step on NVLink tree {0.6, 1.25, 4.0}, ring {0.6, 1.9, 3.4}; PCI ring {1.0, 2.5, 5.7};
 * network tree {5.0, 8.5, 14.0}, ring {2.7, 4.0, 14.0}; LL carries data at half the link, LL128 at 120/128.
 */
class CollectiveTest {

    /** The cheapest of LL, LL128 and Simple: base + steps × step latency + bytes over the protocol's bandwidth. */
    static double nccl(double[] base, double[] step, int steps, double bytes, double bandwidth) {
        double[] share = {0.5, 120.0 / 128, 1.0};
        double best = Double.MAX_VALUE;
        for (int p = 0; p < 3; p++) {
            best = Math.min(best, (base[p] + steps * step[p]) * 1e-6 + bytes / (bandwidth * share[p]));
        }
        return best;
    }

    static final double[] RING_BASE = {6.6, 14.0, 8.4};
    static final double[] TREE_BASE = {6.8, 14.0, 8.4};
    static final double[] NVLINK_RING = {0.6, 1.9, 3.4};
    static final double[] NVLINK_TREE = {0.6, 1.25, 4.0};

    @Test
    void largeRingAllReduceOnEightH100sRunsSimple() {
        long n = 64L << 20;
        Collective c = Collective.allReduce(8, n);
        assertThat(c.steps(Interconnect.NVLINK_4)).isEqualTo(14);
        assertThat(c.busBytes()).isEqualTo(2 * 7.0 / 8 * n);
        // Simple: 8.4 + 14 x 3.4 = 56 us + 117,440,512 bytes at 450 GB/s (260.98 us) = 316.98 us; LL128 318.98, LL 537
        double simple = 56e-6 + 2 * 7.0 / 8 * n / 450e9;
        assertThat(c.seconds(Interconnect.NVLINK_4)).isCloseTo(simple, within(1e-12));
        assertThat(c.seconds(Interconnect.NVLINK_4, NcclModel.Protocol.LL128)).isGreaterThan(simple);
    }

    @Test
    void aDecodeTokensAllReduceRunsLowLatency() {
        // 8192 FP16 values: 28,672 bytes sent; LL: 6.6 + 14 x 0.6 = 15.0 us + 28,672 / 225 GB/s = 15.13 us
        Collective ring = Collective.allReduce(8, 16384);
        assertThat(ring.seconds(Interconnect.NVLINK_4)).isCloseTo(15.0e-6 + 28672 / 225e9, within(1e-12));
        assertThat(ring.seconds(Interconnect.NVLINK_4))
                .isCloseTo(nccl(RING_BASE, NVLINK_RING, 14, 28672, 450e9), within(1e-15));
        // NCCL's tree is a chain inside a node: as many steps as the ring, dearer ones
        Collective tree = ring.with(Collective.Algorithm.TREE);
        assertThat(tree.steps(Interconnect.NVLINK_4)).isEqualTo(14);
        assertThat(tree.seconds(Interconnect.NVLINK_4))
                .isCloseTo(nccl(TREE_BASE, NVLINK_TREE, 14, 28672, 450e9), within(1e-15))
                .isGreaterThan(ring.seconds(Interconnect.NVLINK_4));
        // across a network, one GPU a node: 2 log2 8 = 6 steps
        assertThat(tree.steps(Interconnect.INFINIBAND_NDR)).isEqualTo(6);
        assertThat(tree.seconds(Interconnect.INFINIBAND_NDR))
                .isCloseTo(nccl(TREE_BASE, new double[] {5.0, 8.5, 14.0}, 6, 28672, 50e9), within(1e-15));
    }

    @Test
    void theSwitchReducesLargeBuffersOnce() {
        // NVLS: 25 us, then each GPU's 64 MiB once at 450 GB/s (149.13 us), against the ring's 316.98 us
        Collective big = Collective.allReduce(8, 64L << 20).with(Collective.Algorithm.IN_SWITCH);
        assertThat(big.busBytes()).isEqualTo(64L << 20);
        assertThat(big.seconds(Interconnect.NVLINK_4)).isCloseTo(25e-6 + (64L << 20) / 450e9, within(1e-12));
        assertThat(big.seconds(Interconnect.NVLINK_4))
                .isLessThan(Collective.allReduce(8, 64L << 20).seconds(Interconnect.NVLINK_4));
        assertThatThrownBy(() -> big.seconds(Interconnect.PCIE_5)).hasMessage("pcie5 has no in-switch reduction");
    }

    @Test
    void gatherScatterAllToAllAndSendReceive() {
        long n = 1_000_000;
        double pcie5 = 32e9 * 16 * 128 / 130 / 8; // 63.0 GB/s
        assertThat(Interconnect.PCIE_5.bytesPerSecond()).isCloseTo(63.015e9, within(1e6));
        assertThat(Collective.allGather(4, n).seconds(Interconnect.PCIE_5))
                .isCloseTo(nccl(RING_BASE, new double[] {1.0, 2.5, 5.7}, 3, 0.75 * n, pcie5), within(1e-15));
        Collective rs = new Collective(Collective.Op.REDUCE_SCATTER, Collective.Algorithm.RING, 4, n);
        assertThat(rs.seconds(Interconnect.PCIE_5))
                .isEqualTo(Collective.allGather(4, n).seconds(Interconnect.PCIE_5));
        Collective a2a = new Collective(Collective.Op.ALL_TO_ALL, Collective.Algorithm.RING, 8, n);
        assertThat(a2a.busBytes()).isEqualTo(7.0 / 8 * n);
        // two DGX Sparks: 25 GB/s each way over ConnectX-7; for 1 MB LL128 (14.0 + 4.0 us + 42.67 us at 120/128 of
        // the link) edges out Simple (8.4 + 14.0 + 40 us)
        Collective p2p = new Collective(Collective.Op.SEND_RECV, Collective.Algorithm.RING, 2, n);
        assertThat(p2p.seconds(Interconnect.CONNECTX_7_GB10))
                .isCloseTo(18.0e-6 + n / (25e9 * 120 / 128), within(1e-12))
                .isLessThan((8.4 + 14.0) * 1e-6 + n / 25e9);
        assertThat(Collective.allReduce(1, n).seconds(Interconnect.NVLINK_4)).isZero();
    }

    @Test
    void collectivesThatCannotBeAreRefusedByName() {
        assertThatThrownBy(() -> new Collective(Collective.Op.ALL_GATHER, Collective.Algorithm.TREE, 4, 10))
                .hasMessage("TREE runs all-reduce only, not ALL_GATHER");
        assertThatThrownBy(() -> new Collective(Collective.Op.SEND_RECV, Collective.Algorithm.RING, 3, 10))
                .hasMessage("send/receive is between 2 ranks, got 3");
        assertThatThrownBy(() -> Collective.allReduce(0, 10)).hasMessageContaining("ranks");
        assertThatThrownBy(() -> Collective.allReduce(2, -1)).hasMessage("bytes must be >= 0, got -1");
    }

    @Test
    void linksAreFoundByNameWithTheirSources() {
        assertThat(Interconnect.byName("NVLink4")).isSameAs(Interconnect.NVLINK_4);
        assertThat(Interconnect.NVLINK_5.bytesPerSecond()).isEqualTo(900e9);
        assertThat(Interconnect.PCIE_4.bytesPerSecond()).isCloseTo(31.5e9, within(0.01e9));
        assertThat(Interconnect.all())
                .allSatisfy(i -> assertThat(i.bandwidthSource().citation()).isNotBlank());
        assertThatThrownBy(() -> Interconnect.byName("ethernet"))
                .hasMessageStartingWith("unknown interconnect 'ethernet'; known: nvlink4, nvlink5, pcie4");
    }
}
