package dev.roofline.cuda.bench;

import dev.roofline.core.calibration.Calibration;
import dev.roofline.core.calibration.OperatorClass;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Gemm;
import dev.roofline.core.roofline.Roofline;
import dev.roofline.cuda.Device;
import dev.roofline.cuda.DeviceBuffer;
import dev.roofline.cuda.Stream;
import dev.roofline.cuda.blas.CublasLt;
import dev.roofline.cuda.blas.MatmulOptions;
import dev.roofline.cuda.decode.DecoderShape;
import dev.roofline.cuda.decode.DenseDecoder;
import dev.roofline.cuda.internal.OwnedResources;
import dev.roofline.cuda.kernels.Activation;
import dev.roofline.cuda.kernels.DeviceWeights;
import dev.roofline.cuda.kernels.GemvKernels;
import dev.roofline.cuda.kernels.WeightFormat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How much longer a dense decoder's products take at M activation rows than at one: per weight format, the time of
 * the step's four products (q/k/v, o, gate/up, down of the {@link DecoderShape}), each on the kernel the decoder runs
 * there ({@link DenseDecoder#runsOnGemv}: roofline's GEMV, or cuBLASLt), L2-cold, at M rows over the same at one row.
 * The weights stream once whatever M, so the roofline prices M rows as one; the kernels do not
 * (docs/design/gemv-kernels.md, batched decode), and a calibration fitted at one row
 * ({@link DecodeCalibration#fit}) learns that only from this ratio:
 * {@link #apply} adds, per format, its efficiency at M rows as {@code gemv <PRECISION> m<M>} = the one-row
 * efficiency ÷ the ratio, and the one-row efficiency itself as {@code gemv <PRECISION> m1}.
 */
public final class GemvRowScaling {
    /** The row counts measured: where the GEMV kernels change (8, 16 and 32 rows a kernel). */
    public static final List<Integer> ROWS = List.of(8, 16, 32);

    private GemvRowScaling() {}

    /**
     * Per format, per row count of {@link #ROWS}: the four products' total time at that many rows over their total at
     * one row, divided by the same ratio of their roofline times (the activations and outputs they read and write
     * grow with the rows): what the kernels lose beyond the bytes the roofline already prices. Each total is taken
     * less its four launches at {@code launchSeconds} (the calibration's launch cost): the calibration charges launches
     * apart and divides only the rest by the efficiency, so the ratio must be of the rest too, or it understates how
     * much longer the streaming takes where the launches are a visible part of a one-row product. Each product counts
     * as one launch: roofline's GEMV kernels split K inside a block, and cuBLASLt's FP16 products above one row are
     * taken to run as one kernel too (a split-K algorithm with a reduction kernel would be charged one launch short).
     */
    public static Map<WeightFormat, Map<Integer, Double>> measure(
            Device device,
            DecoderShape shape,
            List<WeightFormat> formats,
            BenchmarkOptions timing,
            double launchSeconds) {
        Map<WeightFormat, Map<Integer, Double>> out = new LinkedHashMap<>();
        timeOverRoofline(device, shape, formats, timing, launchSeconds).forEach((f, r) -> {
            Map<Integer, Double> ratios = new LinkedHashMap<>();
            for (int i = 0; i < ROWS.size(); i++) {
                ratios.put(ROWS.get(i), r[i + 1] / r[0]);
            }
            out.put(f, ratios);
        });
        return out;
    }

    /**
     * Per format: the four products' total time less their four launches at {@code launchSeconds}, over their total
     * roofline time, at one row, then each of ROWS.
     */
    private static Map<WeightFormat, double[]> timeOverRoofline(
            Device device,
            DecoderShape shape,
            List<WeightFormat> formats,
            BenchmarkOptions timing,
            double launchSeconds) {
        Objects.requireNonNull(shape, "shape");
        if (shape.hasExperts()) {
            throw new IllegalArgumentException("row scaling is measured on a dense decoder's products");
        }
        int[][] products = {
            {shape.qkvWidth(), shape.hidden()},
            {shape.hidden(), shape.attentionWidth()},
            {2 * shape.intermediate(), shape.hidden()},
            {shape.hidden(), shape.intermediate()}
        };
        Map<WeightFormat, double[]> out = new LinkedHashMap<>();
        try (Stream stream = Stream.create();
                CublasLt lt = CublasLt.create();
                GemvKernels gemv = GemvKernels.load()) {
            Roofline roofline = Roofline.on(device.hardware());
            for (WeightFormat f : formats) {
                double[] total = new double[ROWS.size() + 1]; // one row, then each of ROWS
                double[] priced = new double[ROWS.size() + 1];
                for (int[] p : products) {
                    double[] t = seconds(lt, gemv, device, stream, timing, roofline, f, p[0], p[1]);
                    for (int i = 0; i < t.length; i++) {
                        total[i] += t[i];
                        priced[i] += roofline.predict(GemvBenchmark.gemm(f, rows(i), p[0], p[1]))
                                .timeSeconds();
                    }
                }
                out.put(f, overRoofline(f, total, priced, products.length, launchSeconds));
            }
        }
        return out;
    }

    /**
     * Entry by entry, ({@code total} less {@code launches} launches at {@code launchSeconds}) over {@code priced}: the
     * time {@code f}'s products spend beyond their launches, per second of their roofline time.
     *
     * @throws IllegalStateException when a total is no more than its launches (a launch cost not of this GPU)
     */
    static double[] overRoofline(WeightFormat f, double[] total, double[] priced, int launches, double launchSeconds) {
        double[] r = new double[total.length];
        for (int i = 0; i < r.length; i++) {
            double work = total[i] - launches * launchSeconds;
            if (!(work > 0)) {
                throw new IllegalStateException(String.format(
                        Locale.ROOT,
                        "%s products at %d rows took %.2f us, no more than their %d launches at %.2f us: they are"
                                + " launch-bound, or the launch cost is another GPU's",
                        f,
                        rows(i),
                        total[i] * 1e6,
                        launches,
                        launchSeconds * 1e6));
            }
            r[i] = work / priced[i];
        }
        return r;
    }

    /**
     * One product of {@code f} weights {@code n × k} at one row, then at each of {@link #ROWS}: roofline's GEMV over
     * one upload of the weights rotated past the L2, or cuBLASLt (with inputs of its own) where the decoder runs it.
     */
    private static double[] seconds(
            CublasLt lt,
            GemvKernels gemv,
            Device device,
            Stream stream,
            BenchmarkOptions timing,
            Roofline roofline,
            WeightFormat f,
            int n,
            int k) {
        double[] out = new double[ROWS.size() + 1];
        int maxRows = ROWS.getLast();
        try (OwnedResources owned = new OwnedResources()) {
            GemvBenchmark.Rotated r = GemvBenchmark.rotated(owned, device, timing, f, maxRows, n, k, true);
            DeviceWeights[] ws = r.weights();
            DeviceBuffer[] ys = r.outputs();
            int sets = ws.length;
            Activation a = GemvBenchmark.activation(f);
            DeviceBuffer x = r.x();
            for (int i = 0; i <= ROWS.size(); i++) {
                int m = rows(i);
                if (DenseDecoder.runsOnGemv(f, m)) {
                    out[i] = Benchmark.time(stream, timing, sets, s -> gemv.gemv(ws[s], x, ys[s], m, a, stream))
                            .medianSeconds();
                } else {
                    Gemm g = Gemm.of(m, n, k).in(f.precision()).withOutput(Precision.FP16);
                    out[i] = GemmBenchmark.measure(lt, device, stream, g, roofline, timing, MatmulOptions.defaults())
                            .time()
                            .medianSeconds();
                }
            }
        }
        return out;
    }

    /** Rows of entry {@code i} of a measurement: 1, then {@link #ROWS}. */
    private static int rows(int i) {
        return i == 0 ? 1 : ROWS.get(i - 1);
    }

    /**
     * {@code c} with, for each format of {@code ratios} whose one-row GEMV class {@code c} calibrates, that efficiency
     * e as {@code gemv <PRECISION> m1} and at each row count M of the ratios as {@code gemv <PRECISION> m<M>} = e ÷ the
     * ratio at M (M = 1 included, when the ratios have it).
     *
     * @throws IllegalArgumentException when a ratio puts an efficiency outside (0, {@link Calibration#MAX_EFFICIENCY}]
     */
    public static Calibration apply(Calibration c, Map<WeightFormat, Map<Integer, Double>> ratios) {
        Map<OperatorClass, Double> efficiencies = new LinkedHashMap<>(c.efficiencies());
        ratios.forEach((f, byRows) -> {
            OperatorClass.Gemv plain = new OperatorClass.Gemv(f.precision());
            if (!c.calibrates(plain)) {
                return;
            }
            double e = c.efficiency(plain);
            efficiencies.put(new OperatorClass.Gemv(f.precision(), 1), e); // unless byRows has a ratio at one row
            byRows.forEach((m, ratio) -> {
                double atRows = e / ratio;
                if (!(atRows > 0 && atRows <= Calibration.MAX_EFFICIENCY)) {
                    throw new IllegalArgumentException(f + " at " + m + " rows: a time ratio of " + ratio
                            + " puts the efficiency at " + atRows + ", outside (0, " + Calibration.MAX_EFFICIENCY
                            + "]");
                }
                efficiencies.put(new OperatorClass.Gemv(f.precision(), m), atRows);
            });
        });
        return c.withEfficiencies(efficiencies);
    }
}
