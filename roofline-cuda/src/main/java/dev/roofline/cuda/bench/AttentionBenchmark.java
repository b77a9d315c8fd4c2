package dev.roofline.cuda.bench;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Attention;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.blas.CublasLt;
import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.AttentionGeometry;
import dev.roofline.cuda.kernels.DecodeKernels;
import dev.roofline.cuda.kernels.KernelLaunch;
import dev.roofline.cuda.kernels.KvCacheFormat;
import dev.roofline.cuda.kernels.StreamRead;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Roofline's decode attention ({@link DecodeKernels#attention}) over a KV cache of each {@link KvCacheFormat} at each
 * batch and context,
 * timed like the GEMV kernels (graph replays, medians, caches rotated over at least 4× the L2) beside a device-to-device
 * copy of the same KV bytes, one kernel that only reads them ({@link StreamRead}, launched as the split pass is: a
 * measured floor for an attention that streams them) and the roofline on the measured copy bandwidth and kernel
 * latency. Every row attends to the whole context; constant data (attention's time does not depend on the values; FP8 with scales of 1).
 *
 * <pre>{@code
 * AttentionBenchmark.Results r = AttentionBenchmark.run(Cuda.device(0), List.of(1, 8, 32), List.of(8192, 32768), 32, 8,
 *         128, m -> {});
 * System.out.print(r.render(ReportFormat.TEXT));
 * }</pre>
 */
public final class AttentionBenchmark {
    private AttentionBenchmark() {}

    /** The table: per batch and context, the time, the KV bytes per second and the share of the copy bandwidth. */
    static final Table<Measurement> TABLE = Table.of(List.of(
            Column.text("attention", "label", Measurement::label),
            Column.number(
                    "median us", "median_us", "%.2f", "%.3f", m -> m.time().medianMicros()),
            Column.number("KV GB/s", "kv_gbps", "%.0f", "%.1f", Measurement::streamedGigabytesPerSecond),
            Column.number("% of copy", "pct_of_copy", "%.1f%%", "%.2f", Measurement::percentOfCopy),
            Column.number("roofline us", "roofline_us", "%.2f", "%.3f", m -> m.prediction()
                    .timeMicros()),
            Column.number("err %", "error_pct", "%+.1f", "%.2f", Measurement::errorPercent),
            CopyColumns.COPY,
            CopyColumns.VS_COPY,
            CopyColumns.READ,
            Column.number("read % of copy", "read_pct_of_copy", "%.1f%%", "%.2f", Measurement::readPercentOfCopy),
            CopyColumns.VS_READ));

    /**
     * What {@link #run} measured.
     *
     * @param device       the device, as {@code Device.toString()} describes it
     * @param ceilings     the copy bandwidth and kernel latency the predictions and the shares of copy use
     * @param measurements each batch at each context, in the order run
     */
    public record Results(String device, DeviceCeilings ceilings, List<Measurement> measurements) {
        public Results {
            measurements = List.copyOf(measurements);
        }

        /** The table in {@code format}; text and Markdown add the device and its measured copy bandwidth. */
        public String render(ReportFormat format) {
            if (format == ReportFormat.CSV) {
                return Report.render(TABLE, measurements, format);
            }
            return Report.deviceNotes(device, ceilings, format) + "\n" + Report.render(TABLE, measurements, format);
        }
    }

    /**
     * Each batch at each context over an FP16 cache, {@code heads} query heads on {@code kvHeads} KV heads of
     * {@code headDim}.
     */
    public static Results run(
            Device device,
            List<Integer> batches,
            List<Integer> contexts,
            int heads,
            int kvHeads,
            int headDim,
            Consumer<? super Measurement> progress) {
        return run(
                device,
                KernelLaunch.ORDERED,
                List.of(KvCacheFormat.FP16),
                batches,
                contexts,
                heads,
                kvHeads,
                headDim,
                progress);
    }

    /**
     * {@link #run(Device, List, List, int, int, int, Consumer)} over caches of each of {@code kvFormats}, the split
     * pass launched as {@code launch} says and the merge as the split pass's blocks end (the decoder's step launches the
     * split pass programmatically, except after its fused FP16 q/k/v product where the pass is at most half a wave).
     */
    public static Results run(
            Device device,
            KernelLaunch launch,
            List<KvCacheFormat> kvFormats,
            List<Integer> batches,
            List<Integer> contexts,
            int heads,
            int kvHeads,
            int headDim,
            Consumer<? super Measurement> progress) {
        BenchmarkOptions timing = BenchmarkOptions.defaults().withGraph(20);
        try (Stream stream = Stream.create();
                CublasLt lt = CublasLt.create();
                DecodeKernels kernels = DecodeKernels.load(launch);
                StreamRead reads = StreamRead.load(launch)) {
            DeviceCeilings ceilings = DeviceCeilings.measure(
                    lt, device, stream, GemvBenchmark.CEILING_COPY_BYTES, 1024, List.of(), timing);
            Hardware measured = ceilings.applyTo(device.hardware());
            Roofline roofline = Roofline.on(measured);
            List<Measurement> out = new ArrayList<>();
            for (KvCacheFormat kv : kvFormats) {
                for (int context : contexts) {
                    for (int batch : batches) {
                        Attention op = operator(kv, batch, context, heads, kvHeads, headDim);
                        long kvBytes = 2L * kv.elementBytes() * batch * kvHeads * context * headDim;
                        TimingStats t =
                                time(kernels, device, stream, timing, kv, batch, context, heads, kvHeads, headDim);
                        CopyReference copy = new CopyReference(
                                        kvBytes,
                                        ceilings.copyBytesPerSecond(),
                                        GemvBenchmark.sameBytesCopy(device, stream, timing, kvBytes))
                                .withRead(GemvBenchmark.sameBytesRead(reads, device, stream, timing, kvBytes));
                        Measurement m = new Measurement(
                                        String.format(
                                                Locale.ROOT,
                                                "%sB=%d context=%d",
                                                kv.equals(KvCacheFormat.FP16) ? "" : kv + " ",
                                                batch,
                                                context),
                                        op,
                                        t,
                                        roofline.predict(op))
                                .withDatasheet(Roofline.on(device.hardware()).predict(op))
                                .withCopy(copy);
                        progress.accept(m);
                        out.add(m);
                    }
                }
            }
            return new Results(device.toString(), ceilings, out);
        }
    }

    /**
     * The decode attention priced by the roofline: one query token per sequence, its {@code heads / kvHeads} query
     * heads a KV head's rows, FP16 queries and outputs over keys and values stored in {@code kv}'s precision.
     */
    static Attention operator(KvCacheFormat kv, int batch, int context, long heads, long kvHeads, long headDim) {
        return Attention.of(
                "attention",
                (long) batch * kvHeads,
                heads / kvHeads,
                context,
                headDim,
                headDim,
                Precision.FP16,
                kv.precision());
    }

    private static TimingStats time(
            DecodeKernels kernels,
            Device device,
            Stream stream,
            BenchmarkOptions timing,
            KvCacheFormat kv,
            int batch,
            int context,
            int heads,
            int kvHeads,
            int headDim) {
        long cacheBytes = (long) kv.elementBytes() * batch * kvHeads * context * headDim;
        int sets = timing.inputSets(device.l2Bytes(), 2 * cacheBytes);
        int[] lengths = new int[batch];
        java.util.Arrays.fill(lengths, context);
        try (OwnedResources owned = new OwnedResources()) {
            DeviceBuffer q = owned.add(DeviceBuffer.allocate(2L * batch * heads * headDim));
            DeviceBuffer out = owned.add(DeviceBuffer.allocate(2L * batch * heads * headDim));
            DeviceBuffer len = owned.add(DeviceBuffer.allocate(4L * batch));
            DeviceBuffer ws = owned.add(
                    DeviceBuffer.allocate(kernels.attentionWorkspaceBytes(batch, heads, kvHeads, headDim, context)));
            q.fill(0x3C); // FP16 0x3C3C = 1.06: any finite value does
            len.copyFrom(lengths);
            DeviceBuffer[] k = new DeviceBuffer[sets];
            DeviceBuffer[] v = new DeviceBuffer[sets];
            for (int i = 0; i < sets; i++) {
                k[i] = owned.add(DeviceBuffer.allocate(cacheBytes));
                v[i] = owned.add(DeviceBuffer.allocate(cacheBytes));
                k[i].fill(0x2E); // FP16 0x2E2E = 0.097, BF16 3.9e-11, E4M3 0x2E = 0.44
                v[i].fill(0x3A); // FP16 0x3A3A = 0.78, BF16 7.1e-4, E4M3 0x3A = 1.25
            }
            return Benchmark.time(
                    stream,
                    timing,
                    sets,
                    i -> kernels.attention(
                            q,
                            k[i],
                            v[i],
                            kv,
                            len,
                            ws,
                            out,
                            AttentionGeometry.packed(batch, heads, kvHeads, headDim, context),
                            context,
                            stream));
        }
    }
}
