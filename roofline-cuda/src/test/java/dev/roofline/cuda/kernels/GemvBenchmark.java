package dev.roofline.cuda.kernels;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Model;
import dev.roofline.core.model.Models;
import dev.roofline.core.model.WeightMatrix;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Prediction;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.cuda.Cuda;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.bench.Benchmark;
import dev.roofline.cuda.bench.BenchmarkOptions;
import dev.roofline.cuda.bench.DeviceCeilings;
import dev.roofline.cuda.bench.GemmBenchmark;
import dev.roofline.cuda.bench.TimingStats;
import dev.roofline.cuda.blas.CublasLt;
import dev.roofline.cuda.blas.ElementCodec;
import dev.roofline.cuda.blas.MatmulOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Times the GEMV kernels at M=1, L2-cold (weights rotated over >= 4x the L2), CUDA events around graph replays of 20
 * launches, median of 50, beside cuBLASLt FP16 in the same run and the roofline with the measured copy bandwidth and
 * kernel latency ({@link DeviceCeilings}, its copies timed the same way; "err % w/o latency" drops the latency term, and
 * "speedup at roofline" and "% of copy at roofline" are the speedup over cuBLAS and the share of the copy bandwidth
 * that a kernel running exactly at the roofline (reading at the measured copy rate after the measured latency) would
 * reach).
 * Beside each, a device-to-device copy moving the same number of bytes (half read, half written), timed the same way:
 * the fastest a stream of that size ran on this device, launch ramp and tail included. Then all linear layers of one
 * Llama-3-8B decoder layer in FP16, FP8 and NVFP4. Run by {@code roofline-cuda/src/bench/gemv/run-gemv-bench.sh}.
 */
public final class GemvBenchmark {
    private static final long[][] SHAPES = {{8192, 8192}, {28672, 8192}, {8192, 28672}};
    private static final BenchmarkOptions TIMING = BenchmarkOptions.defaults().withGraph(20);

    public static void main(String[] args) {
        // Optional filter (for profilers): args[0] = comma-separated formats, args[1] = "NxK"; skips cuBLAS and the layer.
        List<String> only = args.length > 0 ? List.of(args[0].split(",")) : List.of();
        String onlyShape = args.length > 1 ? args[1] : null;
        Device device = Cuda.device(0);
        System.out.println("device: " + device);
        try (Stream stream = Stream.create(); CublasLt lt = CublasLt.create(); GemvKernels gemv = GemvKernels.load()) {
            // timed like the kernels (graph replays), so the latency is the fixed cost of a launch in this harness; the
            // larger copy is 256 MiB because on an H200 a 1 GiB copy captured in a graph runs at 2.7 TB/s, not 4.3
            DeviceCeilings ceilings = DeviceCeilings.measure(lt, device, stream, 256L << 20, 1024, List.of(), TIMING);
            double copy = ceilings.copyBytesPerSecond();
            Hardware measured = ceilings.applyTo(device.hardware());
            Roofline roofline = Roofline.on(measured);
            System.out.printf(Locale.ROOT, "copy bandwidth (read + write): %.0f GB/s, kernel latency %.2f us (%s)%n%n", copy / 1e9,
                    ceilings.kernelLatencySeconds() * 1e6, ceilings.copyHow());
            System.out.println("shape NxK      format    median us  cuBLAS FP16 us  speedup  weight GB/s  % of copy  roofline us  err %"
                    + "  same-bytes copy us  vs copy  err % w/o latency  speedup at roofline  % of copy at roofline");
            for (long[] s : SHAPES) {
                int n = (int) s[0], k = (int) s[1];
                if (onlyShape != null && !onlyShape.equals(n + "x" + k)) {
                    continue;
                }
                double cublas = !only.isEmpty() ? Double.NaN : GemmBenchmark.measure(lt, device, stream, Gemm.gemv(n, k), roofline, TIMING,
                        MatmulOptions.defaults().withAlgorithms(4)).time().medianMicros();
                for (WeightFormat f : WeightFormat.values()) {
                    if (!only.isEmpty() && !only.contains(f.name())) {
                        continue;
                    }
                    double us = time(gemv, device, stream, f, n, k);
                    Prediction prediction = roofline.predict(gemm(f, n, k));
                    double predicted = prediction.timeMicros();
                    long bytes = f.storedBytes(n, k);
                    double sameBytes = sameBytesCopyMicros(device, stream, bytes);
                    System.out.printf(Locale.ROOT, "%-14s %-9s %9.2f %15.2f %8.2fx %12.0f %9.1f%% %12.2f %+6.1f %19.2f %7.2fx %+18.1f %19.2fx %21.1f%%%n",
                            n + "x" + k, f, us, cublas, cublas / us, bytes / us / 1e3, percentOfCopy(bytes, us, copy), predicted,
                            (us / predicted - 1) * 100, sameBytes, us / sameBytes, (us / prediction.withoutLatency().timeMicros() - 1) * 100,
                            cublas / predicted, percentOfCopy(bytes, predicted, copy));
                }
            }
            if (only.isEmpty()) {
                decodeLayer(gemv, device, stream, measured);
            }
        }
    }

    /** {@code bytes} streamed in {@code micros} as a share of the copy bandwidth, in per cent. */
    private static double percentOfCopy(long bytes, double micros, double copyBytesPerSecond) {
        return 100 * bytes / (micros * 1e-6) / copyBytesPerSecond;
    }

    /** Q/K/V fused and gate/up fused, as serving engines run them, from roofline-core's Llama-3-8B matrices. */
    private static void decodeLayer(GemvKernels gemv, Device device, Stream stream, Hardware measured) {
        Model model = Models.LLAMA_3_8B;
        Map<String, Long> out = new java.util.HashMap<>();
        Map<String, Long> in = new java.util.HashMap<>();
        for (WeightMatrix w : model.matrices()) {
            out.put(w.name(), w.outFeatures());
            in.put(w.name(), w.inFeatures());
        }
        List<Object[]> layers = List.of(
                new Object[] {"qkv_proj", out.get("q_proj") + out.get("k_proj") + out.get("v_proj"), in.get("q_proj")},
                new Object[] {"o_proj", out.get("o_proj"), in.get("o_proj")},
                new Object[] {"gate_up_proj", out.get("gate_proj") + out.get("up_proj"), in.get("gate_proj")},
                new Object[] {"down_proj", out.get("down_proj"), in.get("down_proj")});
        Roofline sheet = Roofline.on(device.hardware());
        Roofline meas = Roofline.on(measured);
        System.out.println();
        System.out.println("Llama-3-8B decoder layer, M=1: linear   format   shape NxK       measured us  roofline us (measured BW + latency)"
                + "  roofline us (datasheet)");
        for (WeightFormat f : List.of(WeightFormat.FP16, WeightFormat.FP8_E4M3, WeightFormat.NVFP4)) {
            double total = 0, predMeas = 0, predSheet = 0;
            for (Object[] l : layers) {
                int n = Math.toIntExact((Long) l[1]), k = Math.toIntExact((Long) l[2]);
                double us = time(gemv, device, stream, f, n, k);
                double pm = meas.predict(gemm(f, n, k)).timeMicros();
                double ps = sheet.predict(gemm(f, n, k)).timeMicros();
                total += us;
                predMeas += pm;
                predSheet += ps;
                System.out.printf(Locale.ROOT, "  %-14s %-9s %-14s %10.2f %12.2f %12.2f%n", l[0], f, n + "x" + k, us, pm, ps);
            }
            System.out.printf(Locale.ROOT, "  %-14s %-9s %-14s %10.2f %12.2f %12.2f  err %+.1f%%%n", "layer", f, "", total,
                    predMeas, predSheet, (total / predMeas - 1) * 100);
        }
    }

    static Gemm gemm(WeightFormat f, long n, long k) {
        return Gemm.gemv(n, k).withWeights(f.precision()).withActivations(activation(f).precision())
                .withOutput(activation(f).precision()).named(f + " gemv " + n + "x" + k);
    }

    static Activation activation(WeightFormat f) {
        return f == WeightFormat.BF16 ? Activation.BF16 : Activation.F16;
    }

    /**
     * Median microseconds of a device-to-device copy that moves {@code bytes} (reads half, writes half), over enough
     * buffer pairs to defeat the L2, timed like the kernels.
     */
    static double sameBytesCopyMicros(Device device, Stream stream, long bytes) {
        long half = Math.max(16, (bytes / 2) / 16 * 16);
        return Benchmark.copy(stream, half, TIMING.inputSets(device.l2Bytes(), 2 * half), TIMING).medianMicros();
    }

    /** Median microseconds of one M=1 GEMV on random weights, rotated over enough copies to defeat the L2. */
    static double time(GemvKernels gemv, Device device, Stream stream, WeightFormat f, int n, int k) {
        Activation a = activation(f);
        List<AutoCloseable> owned = new ArrayList<>();
        try {
            DeviceWeights w0 = randomWeights(f, n, k, 7);
            owned.add(w0);
            int sets = TIMING.inputSets(device.l2Bytes(), f.storedBytes(n, k));
            DeviceWeights[] ws = new DeviceWeights[sets];
            DeviceBuffer[] ys = new DeviceBuffer[sets];
            ws[0] = w0;
            for (int i = 1; i < sets; i++) {
                ws[i] = copyOf(w0);
                owned.add(ws[i]);
            }
            for (int i = 0; i < sets; i++) {
                ys[i] = DeviceBuffer.allocate(2L * n);
                owned.add(ys[i]);
            }
            DeviceBuffer x = DeviceBuffer.allocate(2L * k);
            owned.add(x);
            x.copyFrom(ElementCodec.encode(a.precision(), ElementCodec.random(a.precision(), k, 11, 1f)));
            TimingStats t = Benchmark.time(stream, TIMING, sets, i -> gemv.gemv(ws[i], x, ys[i], 1, a, stream));
            return t.medianMicros();
        } finally {
            for (AutoCloseable c : owned) {
                try {
                    c.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /**
     * Random bytes for the elements (every code, outliers included, at the speed real data runs) and plausible
     * scales: FP32 around 0.01, E4M3 codes for 2^-4..2^3, E8M0 codes for 2^-8..2^2.
     */
    static DeviceWeights randomWeights(WeightFormat f, int n, int k, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        byte[] w = new byte[Math.toIntExact(f.weightBytes(n, k))];
        rnd.nextBytes(w);
        if (f == WeightFormat.FP16 || f == WeightFormat.BF16) {
            for (int i = 1; i < w.length; i += 2) {
                w[i] &= (byte) (f == WeightFormat.FP16 ? 0xBB : 0xBF); // keep FP16 exponents < 31 (no Inf/NaN) and BF16 < 128
            }
        }
        byte[] s = null;
        int sb = Math.toIntExact(f.scaleBytes(n, k));
        if (sb > 0) {
            s = new byte[sb];
            switch (f) {
                case NVFP4 -> fill(s, rnd, 0x18, 0x50);
                case MXFP4 -> fill(s, rnd, 119, 129);
                default -> {
                    java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(s).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                    for (int i = 0; i < sb / 4; i++) {
                        b.putFloat(4 * i, (float) (0.005 + 0.01 * rnd.nextDouble()));
                    }
                }
            }
        }
        return DeviceWeights.upload(f, n, k, w, s, 1f / 2688);
    }

    private static void fill(byte[] s, SplittableRandom rnd, int from, int to) {
        for (int i = 0; i < s.length; i++) {
            s[i] = (byte) rnd.nextInt(from, to);
        }
    }

    private static DeviceWeights copyOf(DeviceWeights w) {
        DeviceBuffer ww = DeviceBuffer.allocate(w.weights().byteSize());
        DeviceBuffer ss = null;
        try {
            ww.copyFrom(w.weights());
            if (w.scales() != null) {
                ss = DeviceBuffer.allocate(w.scales().byteSize());
                ss.copyFrom(w.scales());
            }
            return new DeviceWeights(w.format(), w.rows(), w.cols(), ww, ss, w.globalScale());
        } catch (RuntimeException e) {
            ww.close();
            if (ss != null) {
                ss.close();
            }
            throw e;
        }
    }

    private GemvBenchmark() {}
}
