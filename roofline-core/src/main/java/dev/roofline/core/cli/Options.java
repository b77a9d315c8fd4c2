package dev.roofline.core.cli;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.Precision;

import java.util.ArrayList;
import java.util.List;

/** Parsed command line; every bad value is an IllegalArgumentException naming the option and the value. */
record Options(Action action, Hardware hardware, long m, long n, long k, List<Precision> precisions,
               Precision activations, Precision output, Precision baseline,
               double bandwidthEfficiency, double computeEfficiency) {

    enum Action { PREDICT, HELP, LIST_HARDWARE, LIST_PRECISIONS }

    static final List<Precision> DEFAULT_PRECISIONS = List.of(Precision.FP16, Precision.FP8_E4M3, Precision.INT8,
            Precision.INT4, Precision.NVFP4, Precision.MXFP4);

    static Options parse(String[] args) {
        Action action = Action.PREDICT;
        Hardware hw = Hardware.GB10;
        long[] shape = {1, 4096, 4096};
        List<Precision> precisions = DEFAULT_PRECISIONS;
        Precision activations = null;
        Precision output = Precision.FP16;
        Precision baseline = Precision.FP16;
        double bwEff = 1;
        double computeEff = 1;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--help", "-h" -> action = Action.HELP;
                case "--list-hardware" -> action = Action.LIST_HARDWARE;
                case "--list-precisions" -> action = Action.LIST_PRECISIONS;
                case "--hw", "--hardware" -> hw = Hardware.byName(value(args, ++i, a));
                case "--shape" -> shape = shape(value(args, ++i, a));
                case "--precisions" -> precisions = precisions(value(args, ++i, a));
                case "--activations" -> {
                    String v = value(args, ++i, a);
                    activations = v.equalsIgnoreCase("same") ? null : Precision.parse(v);
                }
                case "--output" -> output = Precision.parse(value(args, ++i, a));
                case "--baseline" -> baseline = Precision.parse(value(args, ++i, a));
                case "--efficiency" -> {
                    String v = value(args, ++i, a);
                    String[] parts = v.split(",");
                    if (parts.length != 2) {
                        throw new IllegalArgumentException("--efficiency expects BW,COMPUTE (two fractions), got '" + v + "'");
                    }
                    bwEff = fraction("--efficiency bandwidth", parts[0]);
                    computeEff = fraction("--efficiency compute", parts[1]);
                }
                default -> throw new IllegalArgumentException("unknown option '" + a + "'");
            }
        }
        return new Options(action, hw, shape[0], shape[1], shape[2], precisions, activations, output, baseline, bwEff, computeEff);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    static long[] shape(String v) {
        String[] parts = v.toLowerCase().split("x");
        if (parts.length != 3) {
            throw new IllegalArgumentException("--shape expects MxNxK, e.g. 1x4096x4096, got '" + v + "'");
        }
        long[] dims = new long[3];
        String[] names = {"M", "N", "K"};
        for (int d = 0; d < 3; d++) {
            try {
                dims[d] = Long.parseLong(parts[d].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--shape " + names[d] + " must be a positive integer, got '" + parts[d] + "'");
            }
            if (dims[d] <= 0) {
                throw new IllegalArgumentException("--shape " + names[d] + " must be > 0, got " + dims[d]);
            }
        }
        return dims;
    }

    private static List<Precision> precisions(String v) {
        List<Precision> ps = new ArrayList<>();
        for (String s : v.split(",")) {
            ps.add(Precision.parse(s));
        }
        return List.copyOf(ps);
    }

    private static double fraction(String what, String v) {
        double d;
        try {
            d = Double.parseDouble(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " must be a number in (0, 1], got '" + v + "'");
        }
        if (!(d > 0 && d <= 1)) {
            throw new IllegalArgumentException(what + " must be in (0, 1], got " + v);
        }
        return d;
    }
}
