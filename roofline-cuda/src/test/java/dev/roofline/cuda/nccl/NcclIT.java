package dev.roofline.cuda.nccl;

import dev.roofline.bindings.nccl.nccl_h;
import dev.roofline.cuda.ClosedResourceException;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.RequiresGpu;
import dev.roofline.cuda.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * NCCL through roofline on this host's GPUs: one rank always, every collective across all GPUs where there are
 * several. Values are whole numbers below 2^11 held as float32, so every sum is exact in any order and each result is
 * compared bit for bit with the host's.
 */
@RequiresGpu
class NcclIT {
    private static final int N = 1000; // not a multiple of anything NCCL would like

    @BeforeAll
    static void ncclIsThere() {
        assumeTrue(Nccl.isAvailable(), () -> Nccl.unavailableReason().orElse(""));
    }

    private static float[] values(long seed, int n) {
        SplittableRandom rnd = new SplittableRandom(seed);
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = rnd.nextInt(-1000, 1001);
        }
        return v;
    }

    private static DeviceBuffer upload(float[] v) {
        DeviceBuffer b = DeviceBuffer.allocate(4L * v.length);
        b.copyFrom(v);
        return b;
    }

    @Test
    void theLoadedNcclIsTheVersionTheBindingsWereMadeFrom() {
        String v = Nccl.version();
        assertThat(v).startsWith(nccl_h.NCCL_MAJOR() + ".");
        assertThat(Integer.parseInt(v.split("\\.")[1])).isGreaterThanOrEqualTo(nccl_h.NCCL_MINOR());
    }

    @Test
    void oneRankMakesEveryCollectiveACopy() {
        try (Communicators one = Communicators.ofDevices(0)) {
            assertThat(one.size()).isEqualTo(1);
            List<float[]> got = one.onEachRank(c -> {
                float[] x = values(1, N);
                try (DeviceBuffer send = upload(x);
                        DeviceBuffer a = DeviceBuffer.allocate(4L * N);
                        DeviceBuffer b = DeviceBuffer.allocate(4L * N);
                        DeviceBuffer d = DeviceBuffer.allocate(4L * N);
                        DeviceBuffer e = DeviceBuffer.allocate(4L * N);
                        Stream s = Stream.create()) {
                    c.allReduce(send, a, N, DataType.FLOAT32, ReduceOp.SUM, s);
                    c.allGather(send, b, N, DataType.FLOAT32, s);
                    c.broadcast(send, d, N, DataType.FLOAT32, 0, s);
                    Communicators.group(() -> {
                        c.send(send, N, DataType.FLOAT32, 0, s);
                        c.recv(e, N, DataType.FLOAT32, 0, s);
                    });
                    s.synchronize();
                    assertThat(c.asyncError()).isEmpty();
                    assertThat(a.toFloatArray()).containsExactly(x);
                    assertThat(b.toFloatArray()).containsExactly(x);
                    assertThat(d.toFloatArray()).containsExactly(x);
                    assertThat(e.toFloatArray()).containsExactly(x);
                    return x;
                }
            });
            assertThat(got).hasSize(1);
        }
    }

    @Test
    void aBufferTooSmallIsRefusedBeforeNcclSeesIt() {
        try (Communicators one = Communicators.ofDevices(0)) {
            Communicator c = one.rank(0);
            try (DeviceBuffer small = DeviceBuffer.allocate(400);
                    DeviceBuffer big = DeviceBuffer.allocate(4000);
                    Stream s = Stream.create()) {
                assertThatThrownBy(() -> c.allReduce(big, small, N, DataType.FLOAT32, ReduceOp.SUM, s))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("all-reduce: recv holds 400 bytes, not the 1000 FLOAT32 elements (4 bytes each)"
                                + " the call takes");
                assertThatThrownBy(() -> c.send(big, 10, DataType.FLOAT32, 1, s))
                        .hasMessage("peer must be a rank in [0, 1), got 1");
                assertThatThrownBy(() -> c.broadcast(big, big, -1, DataType.FLOAT32, 0, s))
                        .hasMessage("broadcast: count must be >= 0, got -1");
            }
        }
    }

    @Test
    void ncclsOwnErrorsCarryItsNameAndMessage() {
        try (Communicators one = Communicators.ofDevices(0);
                Stream s = Stream.create()) {
            MemorySegment comm = one.rank(0).handle();
            // a data type nccl.h does not define (ncclNumTypes is 12): NCCL's argument check refuses it with
            // ncclInvalidArgument
            try (DeviceBuffer b = DeviceBuffer.allocate(64)) {
                assertThatThrownBy(() -> NcclCalls.allReduce(
                                b.pointer(), b.pointer(), 16, 99, ReduceOp.SUM.code, comm, s.handle()))
                        .isInstanceOfSatisfying(NcclException.class, e -> {
                            assertThat(e.function()).isEqualTo("ncclAllReduce");
                            assertThat(e.symbolicName()).isEqualTo("ncclInvalidArgument");
                            assertThat(e.code()).isEqualTo(4);
                            assertThat(e.libraryMessage()).isNotBlank();
                        });
            }
        }
    }

    @Test
    void devicesAreCheckedAndAClosedCommunicatorSaysSo() {
        int n = Cuda.deviceCount();
        assertThatThrownBy(() -> Communicators.ofDevices(n))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("devices: " + n + " is not a CUDA device of this host (it has " + n);
        assertThatThrownBy(() -> Communicators.ofDevices(0, 0)).hasMessage("devices: 0 is given twice");
        assertThatThrownBy(Communicators::ofDevices).hasMessage("devices: give at least one CUDA device");
        Communicators one = Communicators.ofDevices(0);
        one.close();
        one.close(); // idempotent
        assertThat(one.rank(0).isClosed()).isTrue();
        assertThatThrownBy(() -> one.onEachRank(c -> 1))
                .isInstanceOf(ClosedResourceException.class)
                .hasMessage("NCCL communicator already closed");
    }

    @Test
    void aRankThatThrowsFailsTheCallWithItsException() {
        try (Communicators one = Communicators.ofDevices(0)) {
            assertThatThrownBy(() -> one.onEachRank(c -> {
                        throw new IllegalStateException("rank " + c.rank() + " gave up");
                    }))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("rank 0 gave up");
        }
    }

    @Test
    void aRankThatFailsAbortsThePeersWaitingInACollective() {
        int n = Cuda.deviceCount();
        assumeTrue(n >= 2, "one GPU: no peer waits on another rank");
        try (Communicators all = Communicators.ofAllDevices()) {
            // rank 0 never joins the all-reduce the others enqueue and wait on: without the abort they would wait
            // forever; with it, the call ends with rank 0's own exception and every communicator closed
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertThatThrownBy(() -> all.onEachRank(c -> {
                        if (c.rank() == 0) {
                            throw new IllegalStateException("rank 0 gave up");
                        }
                        try (DeviceBuffer b = DeviceBuffer.allocate(4L << 20);
                                Stream s = Stream.create()) {
                            c.allReduce(b, b, 1L << 20, DataType.FLOAT32, ReduceOp.SUM, s);
                            s.synchronize();
                        }
                        return c.rank();
                    }))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("rank 0 gave up"));
            for (int r = 0; r < n; r++) {
                assertThat(all.rank(r).isClosed()).as("rank %d closed", r).isTrue();
            }
        }
    }

    @Test
    void everyCollectiveAcrossAllGpusMatchesTheHost() {
        int n = Cuda.deviceCount();
        assumeTrue(n >= 2, "one GPU: the collectives move nothing between GPUs");
        float[][] x = new float[n][];
        for (int r = 0; r < n; r++) {
            x[r] = values(100 + r, N * n);
        }
        float[] sum = new float[N * n];
        for (float[] xr : x) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += xr[i];
            }
        }
        try (Communicators all = Communicators.ofAllDevices()) {
            all.onEachRank(c -> {
                int r = c.rank();
                try (DeviceBuffer send = upload(x[r]);
                        DeviceBuffer reduced = DeviceBuffer.allocate(4L * N * n);
                        DeviceBuffer gathered = DeviceBuffer.allocate(4L * N * n);
                        DeviceBuffer scattered = DeviceBuffer.allocate(4L * N);
                        DeviceBuffer root = DeviceBuffer.allocate(4L * N * n);
                        DeviceBuffer fromLeft = DeviceBuffer.allocate(4L * N);
                        Stream s = Stream.create()) {
                    c.allReduce(send, reduced, (long) N * n, DataType.FLOAT32, ReduceOp.SUM, s);
                    c.allGather(send, gathered, N, DataType.FLOAT32, s); // each rank's first N values
                    c.reduceScatter(send, scattered, N, DataType.FLOAT32, ReduceOp.SUM, s);
                    c.broadcast(send, root, (long) N * n, DataType.FLOAT32, n - 1, s);
                    Communicators.group(
                            () -> { // a ring: send right, receive from the left
                                c.send(send, N, DataType.FLOAT32, (r + 1) % n, s);
                                c.recv(fromLeft, N, DataType.FLOAT32, (r + n - 1) % n, s);
                            });
                    s.synchronize();
                    assertThat(reduced.toFloatArray()).containsExactly(sum);
                    float[] g = gathered.toFloatArray();
                    for (int q = 0; q < n; q++) {
                        for (int i = 0; i < N; i++) {
                            assertThat(g[q * N + i]).isEqualTo(x[q][i]);
                        }
                    }
                    float[] sc = scattered.toFloatArray();
                    for (int i = 0; i < N; i++) {
                        assertThat(sc[i]).isEqualTo(sum[r * N + i]);
                    }
                    assertThat(root.toFloatArray()).containsExactly(x[n - 1]);
                    float[] left = x[(r + n - 1) % n];
                    float[] got = fromLeft.toFloatArray();
                    for (int i = 0; i < N; i++) {
                        assertThat(got[i]).isEqualTo(left[i]);
                    }
                    return r;
                }
            });
        }
    }
}
