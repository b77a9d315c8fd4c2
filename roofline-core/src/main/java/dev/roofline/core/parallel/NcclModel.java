package dev.roofline.core.parallel;

import dev.roofline.core.hardware.Interconnect;

/**
 * NCCL's own cost model of a collective, as its tuner prices the algorithm and protocol it picks (src/graph/tuning.cc
 * in github.com/NVIDIA/nccl, 2.2x releases): a base latency per algorithm and protocol, a hardware latency per step
 * by link kind, and the share of the link's bandwidth each protocol carries data in (LL sends 8 data bytes in every 16
 * with its flags, LL128 120 in 128, Simple all of them). Latencies in seconds.
 */
final class NcclModel {
    private NcclModel() {}

    /** How NCCL moves the bytes: its three protocols, latency-lean to bandwidth-lean. */
    enum Protocol {
        LL(0.5),
        LL128(120.0 / 128),
        SIMPLE(1.0);

        final double bandwidthShare;

        Protocol(double bandwidthShare) {
            this.bandwidthShare = bandwidthShare;
        }
    }

    /** baseLat, µs: tree {LL, LL128, Simple}, ring {LL, LL128, Simple}. */
    private static final double[][] BASE = {{6.8, 14.0, 8.4}, {6.6, 14.0, 8.4}};

    /** hwLat per step, µs, [NVLink, PCI, network][tree, ring][LL, LL128, Simple]. */
    private static final double[][][] STEP = {
        {{0.6, 1.25, 4.0}, {0.6, 1.9, 3.4}},
        {{1.0, 1.9, 4.0}, {1.0, 2.5, 5.7}},
        {{5.0, 8.5, 14.0}, {2.7, 4.0, 14.0}}
    };

    /** NVLS (the NVSwitch reducing, NVLink SHARP): 25 µs, Simple protocol, no base latency. */
    static final double NVLS_SECONDS = 25e-6;

    /** Base latency of a tree ({@code tree}) or ring collective in {@code p}. */
    static double base(boolean tree, Protocol p) {
        return BASE[tree ? 0 : 1][p.ordinal()] * 1e-6;
    }

    /** Latency of one step of a tree or ring over {@code link}. */
    static double step(Interconnect link, boolean tree, Protocol p) {
        return STEP[link.kind().ordinal()][tree ? 0 : 1][p.ordinal()] * 1e-6;
    }
}
