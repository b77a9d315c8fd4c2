package dev.roofline.cuda.bench;

import dev.roofline.cuda.kernels.WeightFormat;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What {@link GemvBenchmark#run} measures and how. {@link #defaults()} is the headline run: 8192x8192, 28672x8192 and
 * 8192x28672 in every {@link WeightFormat} at M = 1, beside cuBLASLt FP16, then one Llama-3-8B decoder layer; CUDA
 * events around graph replays of 20 launches, 10 warm-ups, median of 50 samples, L2-cold (weights rotated over at least
 * 4x the L2). {@link #withRows} adds batched decode's M = 2…32.
 *
 * <pre>{@code
 * GemvBenchmarkOptions o = GemvBenchmarkOptions.defaults()
 *         .withFormats(List.of(WeightFormat.NVFP4)).withShapes(List.of(Shape.parse("8192x8192")))
 *         .withCublasBaseline(false).withDecodeLayer(false);
 * }</pre>
 *
 * @param shapes         the N x K matrices each format is timed at
 * @param formats        the weight formats timed at each shape
 * @param rows           the M (activation rows) each shape and format is timed at, 1…32
 * @param timing         how each kernel, copy and cuBLASLt product is timed
 * @param cublasBaseline time cuBLASLt's FP16 GEMV at each shape, for the speedup columns
 * @param decodeLayer    also time the linear layers of one Llama-3-8B decoder layer in FP16, FP8 and NVFP4
 */
public record GemvBenchmarkOptions(
        List<Shape> shapes,
        List<WeightFormat> formats,
        List<Integer> rows,
        BenchmarkOptions timing,
        boolean cublasBaseline,
        boolean decodeLayer) {

    /** The most activation rows the GEMV kernels take. */
    public static final int MAX_ROWS = dev.roofline.cuda.kernels.GemvKernels.MAX_ROWS;

    /** The headline shapes: a square layer, and an MLP's up and down projection of Llama-3-70B's width. */
    public static final List<Shape> DEFAULT_SHAPES =
            List.of(new Shape(8192, 8192), new Shape(28672, 8192), new Shape(8192, 28672));

    /**
     * A weight matrix of {@code n} outputs and {@code k} inputs (the GEMV's N and K; M is 1).
     *
     * @param n output channels, rows of W
     * @param k inputs, columns of W
     */
    public record Shape(int n, int k) {
        public Shape {
            if (n < 1 || k < 1) {
                throw new IllegalArgumentException("a GEMV shape needs N >= 1 and K >= 1, got " + n + "x" + k);
            }
        }

        /**
         * "NxK", e.g. "8192x28672".
         *
         * @throws IllegalArgumentException naming the text when it is not two positive integers joined by 'x'
         */
        public static Shape parse(String text) {
            String[] p = text.strip().toLowerCase(Locale.ROOT).split("x", -1);
            try {
                if (p.length == 2) {
                    return new Shape(Integer.parseInt(p[0]), Integer.parseInt(p[1]));
                }
            } catch (NumberFormatException e) {
                // reported below with the text
            }
            throw new IllegalArgumentException(
                    "shape '" + text + "' is not NxK with positive integers N and K, e.g. 8192x28672");
        }

        @Override
        public String toString() {
            return n + "x" + k;
        }
    }

    public GemvBenchmarkOptions {
        shapes = List.copyOf(shapes);
        formats = List.copyOf(formats);
        rows = List.copyOf(rows);
        Objects.requireNonNull(timing, "timing");
        if (shapes.isEmpty() || formats.isEmpty() || rows.isEmpty()) {
            throw new IllegalArgumentException(
                    "need at least one shape, one format and one M, got " + shapes + ", " + formats + " and " + rows);
        }
        rows.forEach(GemvBenchmarkOptions::checkRows);
        for (Shape s : shapes) {
            for (WeightFormat f : formats) {
                if (s.k() % f.kMultiple() != 0) {
                    throw new IllegalArgumentException(
                            f + " needs K a multiple of " + f.kMultiple() + ", got shape " + s);
                }
            }
        }
    }

    /**
     * The weight format named {@code name}, in any case: FP16, BF16, FP8_E4M3, INT8, INT4, NVFP4 or MXFP4.
     *
     * @throws IllegalArgumentException naming the value and the formats there are
     */
    public static WeightFormat parseFormat(String name) {
        String n = name.strip().toUpperCase(Locale.ROOT);
        for (WeightFormat f : WeightFormat.values()) {
            if (f.name().equals(n)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown weight format '" + name + "': use one of "
                + Arrays.stream(WeightFormat.values()).map(Enum::name).collect(Collectors.joining(", ")));
    }

    /** Comma-separated formats, e.g. "NVFP4,mxfp4" (see {@link #parseFormat}). */
    public static List<WeightFormat> parseFormats(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(",", -1))
                .map(GemvBenchmarkOptions::parseFormat)
                .toList();
    }

    /**
     * Comma-separated M values, e.g. "1,2,4,8,16".
     *
     * @throws IllegalArgumentException naming the value that is not a whole number in 1..{@link #MAX_ROWS}
     */
    public static List<Integer> parseRows(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(",", -1))
                .map(v -> {
                    int m;
                    try {
                        m = Integer.parseInt(v.strip());
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("M '" + v + "' is not a whole number of activation rows");
                    }
                    checkRows(m);
                    return m;
                })
                .toList();
    }

    private static void checkRows(int m) {
        if (m < 1 || m > MAX_ROWS) {
            throw new IllegalArgumentException("M (activation rows) must be 1.." + MAX_ROWS + ", got " + m);
        }
    }

    /** The headline run (see the class comment). */
    public static GemvBenchmarkOptions defaults() {
        return new GemvBenchmarkOptions(
                DEFAULT_SHAPES,
                Arrays.asList(WeightFormat.values()),
                List.of(1),
                BenchmarkOptions.defaults().withGraph(20),
                true,
                true);
    }

    public GemvBenchmarkOptions withShapes(List<Shape> s) {
        return new GemvBenchmarkOptions(s, formats, rows, timing, cublasBaseline, decodeLayer);
    }

    public GemvBenchmarkOptions withFormats(List<WeightFormat> f) {
        return new GemvBenchmarkOptions(shapes, f, rows, timing, cublasBaseline, decodeLayer);
    }

    /** The M values (activation rows, 1…32) each shape and format is timed at (default 1). */
    public GemvBenchmarkOptions withRows(List<Integer> m) {
        return new GemvBenchmarkOptions(shapes, formats, m, timing, cublasBaseline, decodeLayer);
    }

    public GemvBenchmarkOptions withTiming(BenchmarkOptions t) {
        return new GemvBenchmarkOptions(shapes, formats, rows, t, cublasBaseline, decodeLayer);
    }

    /** Timed samples per kernel (default 50). */
    public GemvBenchmarkOptions withRepetitions(int n) {
        return withTiming(timing.withRepetitions(n));
    }

    /** Untimed launches before the samples (default 10). */
    public GemvBenchmarkOptions withWarmup(int n) {
        return withTiming(timing.withWarmup(n));
    }

    /** Rotate over weight copies totalling at least 4x the L2 (default on). */
    public GemvBenchmarkOptions withL2Cold(boolean on) {
        return withTiming(timing.withL2Cold(on));
    }

    public GemvBenchmarkOptions withCublasBaseline(boolean on) {
        return new GemvBenchmarkOptions(shapes, formats, rows, timing, on, decodeLayer);
    }

    public GemvBenchmarkOptions withDecodeLayer(boolean on) {
        return new GemvBenchmarkOptions(shapes, formats, rows, timing, cublasBaseline, on);
    }
}
