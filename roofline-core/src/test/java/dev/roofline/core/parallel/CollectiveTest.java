package dev.roofline.core.parallel;

import dev.roofline.core.hardware.Interconnect;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Collective times by hand: NCCL's 8.4 µs base, its per-step latencies, bus bytes over one-way bandwidth. */
class CollectiveTest {

    static final double BASE = 8.4e-6;

    @Test
    void ringAllReduceOnEightH100s() {
        long n = 64L << 20;
        Collective c = Collective.allReduce(8, n);
        assertThat(c.steps()).isEqualTo(14);
        assertThat(c.busBytes()).isEqualTo(2 * 7.0 / 8 * n);
        // 8.4 + 14 x 3.4 = 56 us, then 117,440,512 bytes at 450 GB/s = 260.98 us
        assertThat(c.seconds(Interconnect.NVLINK_4)).isCloseTo(56e-6 + 2 * 7.0 / 8 * n / 450e9, within(1e-12));
    }

    @Test
    void smallMessagesFavourTheTreeAndLargeOnesTheSwitch() {
        // one decode token of a 8192-wide FP16 hidden state: latency dominates
        Collective ring = Collective.allReduce(8, 16384);
        Collective tree = ring.with(Collective.Algorithm.TREE);
        assertThat(tree.steps()).isEqualTo(6); // up and down a tree of depth log2 8 = 3
        assertThat(tree.seconds(Interconnect.NVLINK_4)).isCloseTo(BASE + 6 * 3.4e-6 + 28672 / 450e9, within(1e-12));
        assertThat(tree.seconds(Interconnect.NVLINK_4)).isLessThan(ring.seconds(Interconnect.NVLINK_4));
        // in the switch each GPU sends its buffer once: 64 MiB in 149.13 us + 33.4 us of latency, against 317 us
        Collective big = Collective.allReduce(8, 64L << 20).with(Collective.Algorithm.IN_SWITCH);
        assertThat(big.busBytes()).isEqualTo(64L << 20);
        assertThat(big.seconds(Interconnect.NVLINK_4)).isCloseTo(BASE + 25e-6 + (64L << 20) / 450e9, within(1e-12));
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
                .isCloseTo(BASE + 3 * 5.7e-6 + 0.75 * n / pcie5, within(1e-12));
        Collective rs = new Collective(Collective.Op.REDUCE_SCATTER, Collective.Algorithm.RING, 4, n);
        assertThat(rs.seconds(Interconnect.PCIE_5))
                .isEqualTo(Collective.allGather(4, n).seconds(Interconnect.PCIE_5));
        Collective a2a = new Collective(Collective.Op.ALL_TO_ALL, Collective.Algorithm.RING, 8, n);
        assertThat(a2a.busBytes()).isEqualTo(7.0 / 8 * n);
        // two DGX Sparks: 25 GB/s each way over ConnectX-7
        Collective p2p = new Collective(Collective.Op.SEND_RECV, Collective.Algorithm.RING, 2, n);
        assertThat(p2p.seconds(Interconnect.CONNECTX_7_GB10)).isCloseTo(BASE + 14e-6 + n / 25e9, within(1e-12));
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
        assertThat(Interconnect.all()).allSatisfy(i -> {
            assertThat(i.bandwidthSource().citation()).isNotBlank();
            assertThat(i.latencySource().citation()).contains("NCCL");
        });
        assertThatThrownBy(() -> Interconnect.byName("ethernet"))
                .hasMessageStartingWith("unknown interconnect 'ethernet'; known: nvlink4, nvlink5, pcie4");
    }
}
