package dev.roofline.core.calibration;

import dev.roofline.core.internal.Json;
import dev.roofline.core.parallel.Collective;
import dev.roofline.core.parallel.CollectiveFit;
import dev.roofline.core.precision.Precision;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A {@link Calibration} as a JSON object whose fields are named as its accessors, provenance flattened:
 * <pre>{@code
 * {
 *   "device": "NVIDIA H200",
 *   "date": "2026-11-24",
 *   "source": "roofline decode llama-3-8b --weights FP16 --context 1024",
 *   "copyBytesPerSecond": 4.3E12,
 *   "launchSeconds": 4.0E-6,
 *   "kernelsPerLayer": 10,
 *   "kernelsPerModel": 2,
 *   "efficiencies": {"attention": 0.7, "elementwise": 0.2, "gemv FP16": 0.97},
 *   "fixedSeconds": {"attention": 6.1E-6},
 *   "collectives": [{"op": "ALL_REDUCE", "ranks": 2, "latencySeconds": 2.1E-5, "busBytesPerSecond": 3.3E11,
 *                    "launch": "GRAPH"}],
 *   "plans": [{"weights": "FP16", "maxBatch": 1, "experts": false, "kernelsPerLayer": 7, "kernelsPerModel": 2},
 *             {"weights": "any", "maxBatch": 2147483647, "experts": false, "kernelsPerLayer": 10, "kernelsPerModel": 2}]
 * }
 * }</pre>
 * Every field is required but {@code fixedSeconds}, {@code collectives} and {@code plans}, which a file may leave out
 * (none); no other is accepted, so a misspelt name is refused rather than silently ignored.
 */
final class CalibrationJson {
    /** Every field of a calibration file, in the order {@link #write} writes them. */
    static final List<String> FIELDS = List.of(
            "device",
            "date",
            "source",
            "copyBytesPerSecond",
            "launchSeconds",
            "kernelsPerLayer",
            "kernelsPerModel",
            "efficiencies",
            "fixedSeconds",
            "collectives",
            "plans");

    /** Every field of one launch plan; "weights" is a precision's name or "any". */
    static final List<String> PLAN_FIELDS =
            List.of("weights", "maxBatch", "experts", "kernelsPerLayer", "kernelsPerModel");

    /** Every field of one collective's fit. */
    static final List<String> COLLECTIVE_FIELDS =
            List.of("op", "ranks", "latencySeconds", "busBytesPerSecond", "launch");

    private CalibrationJson() {}

    static String write(Calibration c) {
        StringBuilder sb = new StringBuilder("{\n");
        Calibration.Provenance p = c.provenance();
        field(sb, "device", Json.quote(p.device()));
        field(sb, "date", Json.quote(p.date().toString()));
        field(sb, "source", Json.quote(p.source()));
        field(sb, "copyBytesPerSecond", Double.toString(c.copyBytesPerSecond()));
        field(sb, "launchSeconds", Double.toString(c.launchSeconds()));
        field(sb, "kernelsPerLayer", Integer.toString(c.kernelsPerLayer()));
        field(sb, "kernelsPerModel", Integer.toString(c.kernelsPerModel()));
        byClass(sb, "efficiencies", c.efficiencies());
        sb.append(",\n");
        byClass(sb, "fixedSeconds", c.fixedSeconds());
        if (!c.collectives().isEmpty()) {
            sb.append(",\n  \"collectives\": [");
            String separator = "\n";
            for (CollectiveFit f : c.collectives()) {
                sb.append(separator)
                        .append("    {\"op\": ")
                        .append(Json.quote(f.op().name()))
                        .append(", \"ranks\": ")
                        .append(f.ranks())
                        .append(", \"latencySeconds\": ")
                        .append(f.latencySeconds())
                        .append(", \"busBytesPerSecond\": ")
                        .append(f.busBytesPerSecond());
                if (f.launch() != CollectiveFit.Launch.UNRECORDED) {
                    sb.append(", \"launch\": ").append(Json.quote(f.launch().name()));
                }
                sb.append('}');
                separator = ",\n";
            }
            sb.append("\n  ]");
        }
        if (!c.plans().isEmpty()) {
            sb.append(",\n  \"plans\": [");
            String separator = "\n";
            for (LaunchPlan plan : c.plans()) {
                sb.append(separator)
                        .append("    {\"weights\": ")
                        .append(Json.quote(
                                plan.weights() == null ? "any" : plan.weights().name()))
                        .append(", \"maxBatch\": ")
                        .append(plan.maxBatch())
                        .append(", \"experts\": ")
                        .append(plan.experts())
                        .append(", \"kernelsPerLayer\": ")
                        .append(plan.kernelsPerLayer())
                        .append(", \"kernelsPerModel\": ")
                        .append(plan.kernelsPerModel())
                        .append('}');
                separator = ",\n";
            }
            sb.append("\n  ]");
        }
        return sb.append("\n}\n").toString();
    }

    /** A per-class field, one class a line in the map's (key) order. */
    private static void byClass(StringBuilder sb, String name, Map<OperatorClass, Double> values) {
        sb.append("  ").append(Json.quote(name)).append(": {");
        String separator = "\n";
        for (Map.Entry<OperatorClass, Double> e : values.entrySet()) {
            sb.append(separator)
                    .append("    ")
                    .append(Json.quote(e.getKey().key()))
                    .append(": ")
                    .append(e.getValue());
            separator = ",\n";
        }
        sb.append(values.isEmpty() ? "}" : "\n  }");
    }

    private static void field(StringBuilder sb, String name, String json) {
        sb.append("  ").append(Json.quote(name)).append(": ").append(json).append(",\n");
    }

    /**
     * The calibration in {@code text}. Every error starts with {@code where} (the file) and names the field: types
     * are checked here, ranges by the record, whose messages name its components as the file names its fields.
     */
    static Calibration read(String where, String text) {
        try {
            return read(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static Calibration read(String text) {
        Object root;
        try {
            root = Json.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not valid JSON: " + e.getMessage(), e);
        }
        if (!(root instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("a calibration must be a JSON object, got " + describe(root));
        }
        for (Object key : m.keySet()) {
            if (!FIELDS.contains(key)) {
                throw new IllegalArgumentException("unknown field \"" + key + "\"; a calibration has " + FIELDS);
            }
        }
        return new Calibration(
                new Calibration.Provenance(text(m, "device"), date(m), text(m, "source")),
                number(m, "copyBytesPerSecond"),
                number(m, "launchSeconds"),
                count(m, "kernelsPerLayer", "kernels"),
                count(m, "kernelsPerModel", "kernels"),
                byClass(m, "efficiencies", "fraction"),
                m.containsKey("fixedSeconds") ? byClass(m, "fixedSeconds", "seconds") : Map.of(),
                m.containsKey("collectives") ? collectives(m) : List.of(),
                m.containsKey("plans") ? plans(m) : List.of());
    }

    /** The launch plans: an array of objects with every one of {@link #PLAN_FIELDS}. */
    private static List<LaunchPlan> plans(Map<?, ?> m) {
        return objects(m, "plans", "launch plans", "a launch plan", PLAN_FIELDS, p -> {
            String weights = text(p, "weights");
            Precision precision = null;
            if (!weights.equals("any")) {
                try {
                    precision = Precision.parse(weights);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("field \"weights\" must be \"any\" or a precision's name, got \""
                            + weights + "\" (" + e.getMessage() + ")");
                }
            }
            if (!(required(p, "experts") instanceof Boolean experts)) {
                throw new IllegalArgumentException(
                        "field \"experts\" must be true or false, got " + describe(p.get("experts")));
            }
            return new LaunchPlan(
                    precision,
                    count(p, "maxBatch", "sequences"),
                    experts,
                    count(p, "kernelsPerLayer", "kernels"),
                    count(p, "kernelsPerModel", "kernels"));
        });
    }

    /** The collectives' fits: an array of objects with {@link #COLLECTIVE_FIELDS}, all but "launch" required. */
    private static List<CollectiveFit> collectives(Map<?, ?> m) {
        return objects(m, "collectives", "fits", "a fit", COLLECTIVE_FIELDS, f -> {
            String op = text(f, "op");
            Collective.Op parsed;
            try {
                parsed = Collective.Op.valueOf(op);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "field \"op\" must be one of " + List.of(Collective.Op.values()) + ", got \"" + op + "\"");
            }
            CollectiveFit.Launch launch = CollectiveFit.Launch.UNRECORDED;
            if (f.containsKey("launch")) {
                String how = text(f, "launch");
                if (!how.equals("GRAPH") && !how.equals("EAGER")) {
                    throw new IllegalArgumentException(
                            "field \"launch\" must be \"GRAPH\" or \"EAGER\", got \"" + how + "\"");
                }
                launch = CollectiveFit.Launch.valueOf(how);
            }
            return new CollectiveFit(
                    parsed,
                    count(f, "ranks", "GPUs"),
                    number(f, "latencySeconds"),
                    number(f, "busBytesPerSecond"),
                    launch);
        });
    }

    /**
     * Field {@code field}: an array of objects ({@code plural}), each with no field but {@code fields} and read by
     * {@code read}; every error names the field and the object's index.
     */
    private static <T> List<T> objects(
            Map<?, ?> m, String field, String plural, String one, List<String> fields, Function<Map<?, ?>, T> read) {
        if (!(required(m, field) instanceof List<?> given)) {
            throw new IllegalArgumentException(
                    "field \"" + field + "\" must be an array of " + plural + ", got " + describe(m.get(field)));
        }
        List<T> out = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            String where = "field \"" + field + "\" [" + i + "]: ";
            if (!(given.get(i) instanceof Map<?, ?> o)) {
                throw new IllegalArgumentException(where + "must be an object, got " + describe(given.get(i)));
            }
            try {
                for (Object key : o.keySet()) {
                    if (!fields.contains(key)) {
                        throw new IllegalArgumentException("unknown field \"" + key + "\"; " + one + " has " + fields);
                    }
                }
                out.add(read.apply(o));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + e.getMessage(), e);
            }
        }
        return out;
    }

    private static Object required(Map<?, ?> m, String field) {
        Object v = m.get(field);
        if (v == null) {
            throw new IllegalArgumentException(
                    "field \"" + field + "\" is missing" + (m.containsKey(field) ? " (null)" : ""));
        }
        return v;
    }

    private static String text(Map<?, ?> m, String field) {
        if (!(required(m, field) instanceof String s) || s.isBlank()) {
            throw new IllegalArgumentException(
                    "field \"" + field + "\" must be a non-blank string, got " + describe(m.get(field)));
        }
        return s;
    }

    private static LocalDate date(Map<?, ?> m) {
        String s = text(m, "date");
        try {
            return LocalDate.parse(s);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("field \"date\" must be an ISO date yyyy-mm-dd, got \"" + s + "\"", e);
        }
    }

    private static double number(Map<?, ?> m, String field) {
        if (!(required(m, field) instanceof Number n)) {
            throw new IllegalArgumentException(
                    "field \"" + field + "\" must be a number, got " + describe(m.get(field)));
        }
        return n.doubleValue();
    }

    /** A whole number; its sign is the record's to check. */
    private static int count(Map<?, ?> m, String field, String what) {
        Object v = required(m, field);
        if (!(v instanceof Long n) || n < Integer.MIN_VALUE || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "field \"" + field + "\" must be a whole number of " + what + ", got " + describe(v));
        }
        return n.intValue();
    }

    /** A per-class field: an object of operator class keys to numbers ({@code what}); ranges are the record's. */
    private static Map<OperatorClass, Double> byClass(Map<?, ?> m, String field, String what) {
        if (!(required(m, field) instanceof Map<?, ?> given)) {
            throw new IllegalArgumentException("field \"" + field + "\" must be an object of operator class to " + what
                    + ", got " + describe(m.get(field)));
        }
        Map<OperatorClass, Double> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : given.entrySet()) {
            String key = (String) e.getKey();
            String where = "field \"" + field + "\": ";
            OperatorClass c;
            try {
                c = OperatorClass.parse(key);
            } catch (IllegalArgumentException x) {
                throw new IllegalArgumentException(where + x.getMessage(), x);
            }
            if (!(e.getValue() instanceof Number n)) {
                throw new IllegalArgumentException(
                        where + "\"" + key + "\" must be a number, got " + describe(e.getValue()));
            }
            out.put(c, n.doubleValue());
        }
        return out;
    }

    private static String describe(Object v) {
        return switch (v) {
            case null -> "null";
            case String s -> "\"" + s + "\"";
            case Map<?, ?> m -> "an object";
            case List<?> l -> "an array";
            default -> v.toString();
        };
    }
}
