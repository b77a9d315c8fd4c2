package dev.roofline.cuda;

import dev.roofline.core.hardware.Hardware;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@RequiresGpu
class CudaIT {

    private static float[] randomFloats(int n) {
        SplittableRandom r = new SplittableRandom(System.nanoTime());
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) r.nextGaussian();
        }
        return v;
    }

    @Test
    void deviceReportsItsFiguresAndARegistryEntryForHopper() {
        Device d = Cuda.device(0);
        System.out.println(d);
        assertThat(d.smCount()).isPositive();
        assertThat(d.l2Bytes()).isGreaterThan(1L << 20);
        assertThat(d.memoryBytesPerSecond()).isGreaterThan(1e11);
        if (d.name().contains("H200") || d.name().contains("H100")) {
            assertThat(d.hardware()).isIn(Hardware.H200, Hardware.H100_SXM, Hardware.H100_PCIE);
            assertThat(d.computeCapability()).hasToString("9.0");
        }
        assertThat(Cuda.currentDevice()).isEqualTo(d);
        assertThat(Cuda.runtimeVersion()).isGreaterThanOrEqualTo(13000);
    }

    @Test
    void uuidIsTheOneNvidiaSmiShows() throws Exception {
        Device d = Cuda.device(0);
        assertThat(d.uuid())
                .matches("GPU-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
                .isNotEqualTo(Device.NIL_UUID);
        Process p;
        try {
            p = new ProcessBuilder("nvidia-smi", "--query-gpu=uuid", "--format=csv,noheader")
                    .redirectErrorStream(true)
                    .start();
        } catch (java.io.IOException e) {
            org.junit.jupiter.api.Assumptions.abort("nvidia-smi not runnable here: " + e.getMessage());
            return;
        }
        String smi = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
        assertThat(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        System.out.println("CudaIT uuid: ours " + d.uuid() + " | nvidia-smi " + smi.replace('\n', ' '));
        assertThat(smi.lines().map(String::strip)).contains(d.uuid());
    }

    @Test
    void bufferRoundTripsRandomData() {
        float[] v = randomFloats(1 << 20);
        try (DeviceBuffer b = DeviceBuffer.allocate(4L << 20)) {
            b.copyFrom(v);
            assertThat(b.toFloatArray()).isEqualTo(v); // linear; containsExactly diffs in O(n^2)
        }
    }

    @Test
    void deviceToDeviceCopyAndFill() {
        float[] v = randomFloats(4096);
        try (DeviceBuffer a = DeviceBuffer.allocate(4 * 4096);
                DeviceBuffer b = DeviceBuffer.allocate(4 * 4096)) {
            a.copyFrom(v);
            b.fill(0xFF);
            b.copyFrom(a);
            assertThat(b.toFloatArray()).isEqualTo(v); // linear; containsExactly diffs in O(n^2)
        }
    }

    @Test
    void closeIsIdempotentAndUseAfterCloseSaysSo() {
        DeviceBuffer b = DeviceBuffer.allocate(64);
        b.close();
        b.close();
        assertThatThrownBy(() -> b.copyFrom(new byte[8]))
                .isInstanceOf(ClosedResourceException.class)
                .hasMessage("buffer already closed");
        assertThatThrownBy(b::pointer).isInstanceOf(ClosedResourceException.class);
    }

    @Test
    void oversizedCopiesAreRefused() {
        try (DeviceBuffer b = DeviceBuffer.allocate(16)) {
            assertThatThrownBy(() -> b.copyFrom(new byte[17]))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("17 bytes")
                    .hasMessageContaining("16 bytes");
        }
    }

    @Test
    void invalidDeviceIsATypedCudaError() {
        // driver_types.h: cudaErrorInvalidDevice = 101
        assertThatThrownBy(() -> Cuda.setDevice(Cuda.deviceCount())).isInstanceOfSatisfying(CudaException.class, e -> {
            assertThat(e.function()).isEqualTo("cudaSetDevice");
            assertThat(e.code()).isEqualTo(101);
            assertThat(e.errorName()).isEqualTo("cudaErrorInvalidDevice");
            assertThat(e.libraryMessage()).isEqualTo("invalid device ordinal");
        });
    }

    @Test
    void eventsTimeWorkOnAStream() {
        try (Stream s = Stream.create();
                Event start = Event.create();
                Event end = Event.create();
                DeviceBuffer a = DeviceBuffer.allocate(256L << 20);
                DeviceBuffer b = DeviceBuffer.allocate(256L << 20)) {
            a.fill(1);
            start.record(s);
            b.copyFromAsync(a, a.byteSize(), s);
            end.record(s);
            float ms = end.elapsedMillisSince(start);
            // 512 MiB of traffic: more than 0.05 ms even at 10 TB/s, less than 1 s at 0.5 GB/s
            assertThat(ms).isBetween(0.05f, 1000f);
        }
    }

    @Test
    void graphReplayRunsTheCapturedWork() {
        float[] v = randomFloats(1024);
        try (Stream s = Stream.create();
                DeviceBuffer a = DeviceBuffer.allocate(4096);
                DeviceBuffer b = DeviceBuffer.allocate(4096)) {
            a.copyFrom(v);
            b.fill(0);
            try (CudaGraph g = s.capture(() -> b.copyFromAsync(a, 4096, s))) {
                assertThat(b.toFloatArray()).containsOnly(0f); // captured, not run
                g.launch(s);
                s.synchronize();
            }
            assertThat(b.toFloatArray()).isEqualTo(v); // linear; containsExactly diffs in O(n^2)
        }
    }

    @Test
    void closedStreamSaysSo() {
        Stream s = Stream.create();
        s.close();
        s.close();
        assertThatThrownBy(s::synchronize)
                .isInstanceOf(ClosedResourceException.class)
                .hasMessage("stream already closed");
    }
}
