package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.model.Models;
import dev.roofline.core.model.WeightMatrix;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.blas.CublasLt;
import dev.roofline.cuda.blas.ElementCodec;
import dev.roofline.cuda.blas.MatmulOptions;
import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.Activation;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.GemvKernels;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.NativeFp4Gemv;
import dev.roofline.cuda.kernels.StreamRead;
import dev.roofline.cuda.kernels.WeightFormat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Times the GEMV kernels ({@link GemvKernels}) at each M asked (1 by default) beside cuBLASLt FP16 in the same run and the roofline with the
 * bandwidth and kernel latency measured on the device ({@link DeviceCeilings}). Each kernel runs on random weights in
 * its format's layout, L2-cold (rotated over copies totalling at least 4x the L2), timed as {@link
 * GemvBenchmarkOptions#timing()} says (by default CUDA events around graph replays of 20 launches, median of 50). Beside
 * each, a device-to-device copy moving the same bytes (half read, half written), timed the same way: the fastest a
 * stream of that size ran on this device, launch ramp and tail included. Then, when asked, all linear layers of one
 * Llama-3-8B decoder layer in FP16, FP8 and NVFP4.
 *
 * <pre>{@code
 * GemvBenchmarkResults r = GemvBenchmark.run(Cuda.device(0), GemvBenchmarkOptions.defaults());
 * System.out.print(r.render(ReportFormat.TEXT));
 * }</pre>
 */
public final class GemvBenchmark {
    /**
     * The larger copy of the ceilings' copy fit. Timed like the kernels (graph replays), so the latency is the fixed
     * cost of a launch in this harness; 256 MiB because a 1 GiB copy captured in a graph runs slower than streaming
     * (see {@link DeviceCeilings}).
     */
    static final long CEILING_COPY_BYTES = 256L << 20;
    /** Formats of the decoder-layer section: the 16-bit baseline, the 8-bit and the 4-bit formats serving engines use. */
    static final List<WeightFormat> DECODE_LAYER_FORMATS =
            List.of(WeightFormat.FP16, WeightFormat.FP8_E4M3, WeightFormat.NVFP4);

    /** A linear layer of the decoder: Q/K/V fused and gate/up fused, as serving engines run them. */
    private record Linear(String name, int n, int k) {}

    private GemvBenchmark() {}

    /** {@link #run(Device, GemvBenchmarkOptions, Consumer)} without progress. */
    public static GemvBenchmarkResults run(Device device, GemvBenchmarkOptions options) {
        return run(device, options, m -> {});
    }

    /**
     * Measures the ceilings, then every shape at every M in every format (after cuBLASLt FP16 at that shape and M, when
     * asked), then the decoder layer (when asked). {@code progress} sees each measurement as it is finished, the cuBLASLt baselines
     * included.
     */
    public static GemvBenchmarkResults run(
            Device device, GemvBenchmarkOptions options, Consumer<? super Measurement> progress) {
        BenchmarkOptions timing = options.timing();
        try (Stream stream = Stream.create();
                CublasLt lt = CublasLt.create();
                GemvKernels gemv = GemvKernels.load();
                StreamRead reads = StreamRead.load(KernelLaunch.ORDERED)) {
            DeviceCeilings ceilings =
                    DeviceCeilings.measure(lt, device, stream, CEILING_COPY_BYTES, 1024, List.of(), timing);
            // each byte count read once, whatever the rows
            Map<Long, TimingStats> readOf = new HashMap<>();
            Hardware measured = ceilings.applyTo(device.hardware());
            Roofline roofline = Roofline.on(measured);
            Roofline datasheet = Roofline.on(device.hardware());
            List<Measurement> kernels = new ArrayList<>();
            for (GemvBenchmarkOptions.Shape s : options.shapes()) {
                for (int rows : options.rows()) {
                    Optional<Measurement> cublas = Optional.empty();
                    if (options.cublasBaseline()) {
                        cublas = Optional.of(GemmBenchmark.measure(
                                lt,
                                device,
                                stream,
                                Gemm.of(rows, s.n(), s.k()),
                                roofline,
                                timing,
                                MatmulOptions.defaults().withAlgorithms(4)));
                        progress.accept(cublas.get());
                    }
                    for (WeightFormat f : options.formats()) {
                        Gemm g = gemm(f, rows, s.n(), s.k());
                        TimingStats t = time(gemv, device, stream, timing, f, rows, s.n(), s.k());
                        long bytes = f.storedBytes(s.n(), s.k());
                        CopyReference copy = new CopyReference(
                                        bytes,
                                        ceilings.copyBytesPerSecond(),
                                        sameBytesCopy(device, stream, timing, bytes))
                                .withRead(readOf.computeIfAbsent(
                                        bytes, b -> sameBytesRead(reads, device, stream, timing, b)));
                        Measurement m = new Measurement(f.name(), g, t, roofline.predict(g))
                                .withDatasheet(datasheet.predict(g))
                                .withCopy(copy);
                        m = cublas.map(m::withBaseline).orElse(m);
                        kernels.add(m);
                        progress.accept(m);
                    }
                }
            }
            List<Measurement> layer = new ArrayList<>();
            if (options.decodeLayer()) {
                for (WeightFormat f : DECODE_LAYER_FORMATS) {
                    for (Linear l : decodeLayer()) {
                        Gemm g = gemm(f, l.n(), l.k()).named(l.name());
                        TimingStats t = time(gemv, device, stream, timing, f, 1, l.n(), l.k());
                        Measurement m = new Measurement(f.name(), g, t, roofline.predict(g))
                                .withDatasheet(datasheet.predict(g));
                        layer.add(m);
                        progress.accept(m);
                    }
                }
            }
            return new GemvBenchmarkResults(device.toString(), ceilings, kernels, layer);
        }
    }

    /**
     * The native FP4 GEMV at one row ({@link NativeFp4Gemv}, the block-scaled mma) and how far its output lies from
     * the same kernel with the mma emulated, on the same inputs.
     *
     * @param agreement max |native − emulated| / max |emulated|
     */
    public record NativeFp4Result(Measurement measurement, double agreement) {}

    /**
     * Times the native FP4 GEMV at {@code n × k}, one row: the FP16 activations quantized to NVFP4 and the product on
     * the block-scaled mma, together (what a decode step runs), over enough weight copies to defeat the L2; priced as
     * the NVFP4 × FP16 GEMV, whose bytes it reads. Needs {@link NativeFp4Gemv#hasInstruction}.
     */
    public static NativeFp4Result nativeFp4(
            Device device, DeviceCeilings ceilings, BenchmarkOptions timing, int n, int k) {
        Gemm g = gemm(WeightFormat.NVFP4, 1, n, k).named("NVFP4 W4A4 gemv " + n + "x" + k);
        float[] xv = activations(WeightFormat.NVFP4, k); // the values of the rotation's x
        float amax = 0;
        for (float v : xv) {
            amax = Math.max(amax, Math.abs(v));
        }
        float xGlobal = amax > 0 ? amax / (6f * 448f) : 1f; // ModelOpt's per-tensor scale
        try (OwnedResources owned = new OwnedResources();
                Stream stream = Stream.create();
                NativeFp4Gemv fp4 = NativeFp4Gemv.load(KernelLaunch.ORDERED)) {
            Rotated r = rotated(owned, device, timing, WeightFormat.NVFP4, 1, n, k, false);
            DeviceWeights[] ws = r.weights();
            DeviceBuffer[] ys = r.outputs();
            int sets = ws.length;
            DeviceBuffer x = r.x();
            DeviceBuffer xq = owned.add(DeviceBuffer.allocate(k / 2));
            DeviceBuffer xs = owned.add(DeviceBuffer.allocate(k / 16));
            DeviceBuffer emulated = owned.add(DeviceBuffer.allocate(2L * n));
            var cc = device.computeCapability();
            fp4.quantizeActivations(x, xq, xs, 1, k, xGlobal, stream);
            fp4.gemv(ws[0], xq, xs, xGlobal, ys[0], 1, NativeFp4Gemv.Mma.HARDWARE, cc, stream);
            fp4.gemv(ws[0], xq, xs, xGlobal, emulated, 1, NativeFp4Gemv.Mma.EMULATED, cc, stream);
            stream.synchronize();
            double[] a = ElementCodec.decode(Activation.F16.precision(), ys[0].toByteArray());
            double[] b = ElementCodec.decode(Activation.F16.precision(), emulated.toByteArray());
            double diff = 0;
            double max = 0;
            for (int i = 0; i < n; i++) {
                double d = Math.abs(a[i] - b[i]);
                diff = Double.isNaN(d) ? Double.POSITIVE_INFINITY : Math.max(diff, d);
                max = Math.max(max, Math.abs(b[i]));
            }
            TimingStats t = Benchmark.time(stream, timing, sets, i -> {
                fp4.quantizeActivations(x, xq, xs, 1, k, xGlobal, stream);
                fp4.gemv(ws[i], xq, xs, xGlobal, ys[i], 1, NativeFp4Gemv.Mma.HARDWARE, cc, stream);
            });
            Measurement m = new Measurement(
                            "NVFP4_W4A4",
                            g,
                            t,
                            Roofline.on(ceilings.applyTo(device.hardware())).predict(g))
                    .withDatasheet(Roofline.on(device.hardware()).predict(g));
            return new NativeFp4Result(m, max > 0 ? diff / max : diff);
        }
    }

    /** The M=1 GEMV the roofline prices for {@code f}: {@link #gemm(WeightFormat, long, long, long)} at one row. */
    static Gemm gemm(WeightFormat f, long n, long k) {
        return gemm(f, 1, n, k);
    }

    /**
     * The product the roofline prices for {@code f} at {@code m} activation rows: its weights, FP16 (BF16 for BF16
     * weights) activations and output.
     */
    static Gemm gemm(WeightFormat f, long m, long n, long k) {
        return Gemm.of(m, n, k)
                .withWeights(f.precision())
                .withActivations(activation(f).precision())
                .withOutput(activation(f).precision())
                .named(f + " gemv " + (m == 1 ? "" : "M=" + m + " ") + n + "x" + k);
    }

    static Activation activation(WeightFormat f) {
        return f == WeightFormat.BF16 ? Activation.BF16 : Activation.F16;
    }

    /** Q/K/V fused and gate/up fused, from roofline-core's Llama-3-8B matrices. */
    private static List<Linear> decodeLayer() {
        Map<String, WeightMatrix> w = Models.LLAMA_3_8B.matrices().stream()
                .collect(Collectors.toMap(WeightMatrix::name, m -> m, (a, b) -> a));
        return List.of(
                new Linear("qkv_proj", out(w, "q_proj") + out(w, "k_proj") + out(w, "v_proj"), in(w, "q_proj")),
                new Linear("o_proj", out(w, "o_proj"), in(w, "o_proj")),
                new Linear("gate_up_proj", out(w, "gate_proj") + out(w, "up_proj"), in(w, "gate_proj")),
                new Linear("down_proj", out(w, "down_proj"), in(w, "down_proj")));
    }

    private static int out(Map<String, WeightMatrix> w, String name) {
        return Math.toIntExact(w.get(name).outFeatures());
    }

    private static int in(Map<String, WeightMatrix> w, String name) {
        return Math.toIntExact(w.get(name).inFeatures());
    }

    /**
     * A device-to-device copy that moves {@code bytes} (reads half, writes half), over enough buffer pairs to defeat
     * the L2, timed like the kernels.
     */
    static TimingStats sameBytesCopy(Device device, Stream stream, BenchmarkOptions timing, long bytes) {
        long half = Math.max(16, (bytes / 2) / 16 * 16);
        return Benchmark.copy(stream, half, timing.inputSets(device.l2Bytes(), 2 * half), timing);
    }

    /**
     * One kernel reading {@code bytes} ({@link StreamRead}), rotated over enough buffers to defeat the L2: the floor
     * under a kernel that streams them.
     */
    static TimingStats sameBytesRead(
            StreamRead reads, Device device, Stream stream, BenchmarkOptions timing, long bytes) {
        long rounded = Math.ceilDiv(bytes, 16) * 16;
        int sets = timing.inputSets(device.l2Bytes(), rounded);
        try (OwnedResources owned = new OwnedResources()) {
            DeviceBuffer[] b = new DeviceBuffer[sets];
            for (int i = 0; i < sets; i++) {
                b[i] = owned.add(DeviceBuffer.allocate(rounded));
            }
            return Benchmark.time(stream, timing, sets, i -> reads.read(b[i], 0, bytes, stream));
        }
    }

    /** One GEMV of {@code m} activation rows on random weights, rotated over enough copies to defeat the L2. */
    static TimingStats time(
            GemvKernels gemv,
            Device device,
            Stream stream,
            BenchmarkOptions timing,
            WeightFormat f,
            int m,
            int n,
            int k) {
        Activation a = activation(f);
        try (OwnedResources owned = new OwnedResources()) {
            Rotated r = rotated(owned, device, timing, f, m, n, k, true);
            return Benchmark.time(
                    stream,
                    timing,
                    r.weights().length,
                    i -> gemv.gemv(r.weights()[i], r.x(), r.outputs()[i], m, a, stream));
        }
    }

    /**
     * Random weights and their copies, enough to rotate past the L2, one output buffer of {@code rows} rows each, and
     * {@code rows} rows of activations ({@link #activations}).
     */
    record Rotated(DeviceWeights[] weights, DeviceBuffer[] outputs, DeviceBuffer x) {}

    /** The benchmarks' random activations for {@code f}'s products, {@code count} values of {@link #activation}. */
    static float[] activations(WeightFormat f, int count) {
        return ElementCodec.random(activation(f).precision(), count, 11, 1f);
    }

    /**
     * {@link Rotated} weights of {@code f}, {@code n × k}, owned by {@code owned}: the first random, the rest copies;
     * {@code forGemv}: in the layout {@code GemvKernels.gemv} runs fastest ({@link DeviceWeights#uploadForGemv}), else
     * row-major.
     */
    static Rotated rotated(
            OwnedResources owned,
            Device device,
            BenchmarkOptions timing,
            WeightFormat f,
            int rows,
            int n,
            int k,
            boolean forGemv) {
        int sets = timing.inputSets(device.l2Bytes(), f.storedBytes(n, k));
        DeviceWeights[] ws = new DeviceWeights[sets];
        DeviceBuffer[] ys = new DeviceBuffer[sets];
        ws[0] = owned.add(forGemv ? RandomGemvWeights.uploadForGemv(f, n, k, 7) : RandomGemvWeights.upload(f, n, k, 7));
        for (int i = 1; i < sets; i++) {
            ws[i] = owned.add(RandomGemvWeights.copyOf(ws[0]));
        }
        for (int i = 0; i < sets; i++) {
            ys[i] = owned.add(DeviceBuffer.allocate(2L * rows * n));
        }
        DeviceBuffer x = owned.add(DeviceBuffer.allocate(2L * rows * k));
        x.copyFrom(ElementCodec.encode(activation(f).precision(), activations(f, rows * k)));
        return new Rotated(ws, ys, x);
    }
}
