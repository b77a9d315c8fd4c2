package dev.roofline.core.calibration;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;
import dev.roofline.core.roofline.Operator;
import dev.roofline.core.transformer.Step;

import java.util.Arrays;

/**
 * The operators one measured efficiency stands for: kernels of one kind that stream the same kind of bytes, so they
 * reach the same fraction of the copy bandwidth. Each class has a stable {@link #key()}, the name calibration files
 * use:
 * <ul>
 *   <li>{@code gemv <PRECISION>}: a {@link dev.roofline.core.roofline.Gemm} of at most {@link #GEMV_MAX_ROWS}
 *   activation rows (decode projections), by its weights' {@link Precision} name, e.g. {@code gemv NVFP4};</li>
 *   <li>{@code gemv <PRECISION> m<ROWS>}: the same products measured at {@code ROWS} activation rows, e.g.
 *   {@code gemv NVFP4 m16}; a calibration that has such classes prices a product of m rows at the one of the fewest
 *   rows ≥ m ({@link Calibration#predict}), since GEMV kernels do not stream their weights equally fast at every
 *   row count;</li>
 *   <li>{@code gemm <PRECISION>}: a Gemm of more rows (prefill, large batches);</li>
 *   <li>{@code grouped gemm <PRECISION>}: the routed experts of a mixture of experts;</li>
 *   <li>{@code attention}: fused attention over the KV cache;</li>
 *   <li>{@code attention h<HEADS>}: the same measured at {@code HEADS} KV heads a step, summed over the sequences
 *   (sequences × KV heads, the {@link dev.roofline.core.roofline.Attention#batch()} of the operator), e.g.
 *   {@code attention h64} for 8 sequences of a model with 8 KV heads; a calibration that has such classes prices an
 *   attention over H KV heads at the one of the most heads ≤ H ({@link Calibration#classOf}): more heads give the
 *   kernel more blocks over the cache, so it streams the cache faster. Heads, not sequences, so that one GPU's share of
 *   a tensor-parallel model (fewer KV heads a sequence) is priced by what its kernel runs;</li>
 *   <li>{@code elementwise}: everything on the CUDA cores (norms, residual adds, RoPE, SiLU × up, embedding, top-k).</li>
 * </ul>
 * Unfused attention's Q·Kᵀ and score·V are Gemms whose "weights" are the KV cache, and are classed as such.
 *
 * <pre>{@code
 * OperatorClass c = OperatorClass.of(Gemm.gemv(4096, 4096).withWeights(Precision.NVFP4));
 * c.key();                                      // "gemv NVFP4"
 * OperatorClass.parse("gemv NVFP4").equals(c);  // true
 * }</pre>
 */
public sealed interface OperatorClass
        permits OperatorClass.Gemv,
                OperatorClass.Gemm,
                OperatorClass.GroupedGemm,
                OperatorClass.Attention,
                OperatorClass.Elementwise {

    /**
     * The most activation rows of a plain {@code gemv} class: up to one tensor-core tile of M rows the weights are
     * streamed once by a matrix-vector kernel, so such products reach the bandwidth decode GEMVs reach; beyond it a
     * product is a {@code gemm} unless a calibration has GEMV classes measured at its rows
     * ({@link #GEMV_MEASURED_MAX_ROWS}).
     */
    int GEMV_MAX_ROWS = 16;

    /** The most activation rows a {@link Gemv} class may be measured at: GEMV kernels run up to 32 (decode batches). */
    int GEMV_MEASURED_MAX_ROWS = 32;

    /**
     * The most KV heads (sequences × KV heads) an {@link Attention} class may be measured at: 1024 sequences of a model
     * with 64 KV heads.
     */
    int ATTENTION_MEASURED_MAX_HEADS = 65536;

    OperatorClass ATTENTION = new Attention();
    OperatorClass ELEMENTWISE = new Elementwise();

    /** The name of this class in calibration files, e.g. {@code "gemv FP16"}; also what {@code toString} gives. */
    String key();

    /**
     * The class this one is a measurement of at given rows or heads ({@code gemv NVFP4 m16} → {@code gemv NVFP4},
     * {@code attention h64} → {@code attention}); itself for a class measured at none.
     */
    default OperatorClass plain() {
        return this;
    }

    /**
     * A matrix-vector product, weights stored in {@code weights}: of at most {@link #GEMV_MAX_ROWS} activation rows
     * ({@code rows} 0), or as measured at {@code rows} rows (1 to {@link #GEMV_MEASURED_MAX_ROWS}).
     */
    record Gemv(Precision weights, int rows) implements OperatorClass {
        public Gemv {
            Checks.notNull("weights", weights);
            if (rows < 0 || rows > GEMV_MEASURED_MAX_ROWS) {
                throw new IllegalArgumentException(
                        "gemv rows must be 0 (any) or 1.." + GEMV_MEASURED_MAX_ROWS + ", got " + rows);
            }
        }

        /** Any row count up to {@link #GEMV_MAX_ROWS}. */
        public Gemv(Precision weights) {
            this(weights, 0);
        }

        @Override
        public OperatorClass plain() {
            return rows == 0 ? this : new Gemv(weights);
        }

        @Override
        public String key() {
            return "gemv " + weights.name() + (rows == 0 ? "" : " m" + rows);
        }

        @Override
        public String toString() {
            return key();
        }
    }

    /** A matrix product of more than {@link #GEMV_MAX_ROWS} activation rows, weights stored in {@code weights}. */
    record Gemm(Precision weights) implements OperatorClass {
        public Gemm {
            Checks.notNull("weights", weights);
        }

        @Override
        public String key() {
            return "gemm " + weights.name();
        }

        @Override
        public String toString() {
            return key();
        }
    }

    /** The routed experts of a mixture-of-experts layer, weights stored in {@code weights}. */
    record GroupedGemm(Precision weights) implements OperatorClass {
        public GroupedGemm {
            Checks.notNull("weights", weights);
        }

        @Override
        public String key() {
            return "grouped gemm " + weights.name();
        }

        @Override
        public String toString() {
            return key();
        }
    }

    /**
     * Fused attention reading the KV cache: at any number of KV heads ({@code heads} 0), or as measured at {@code heads}
     * KV heads a step, summed over its sequences (1 to {@link #ATTENTION_MEASURED_MAX_HEADS}).
     */
    record Attention(int heads) implements OperatorClass {
        public Attention {
            if (heads < 0 || heads > ATTENTION_MEASURED_MAX_HEADS) {
                throw new IllegalArgumentException(
                        "attention heads must be 0 (any) or 1.." + ATTENTION_MEASURED_MAX_HEADS + ", got " + heads);
            }
        }

        /** Any number of KV heads. */
        public Attention() {
            this(0);
        }

        @Override
        public OperatorClass plain() {
            return heads == 0 ? this : ATTENTION;
        }

        @Override
        public String key() {
            return "attention" + (heads == 0 ? "" : " h" + heads);
        }

        @Override
        public String toString() {
            return key();
        }
    }

    /** Vector work on the CUDA cores. */
    record Elementwise() implements OperatorClass {
        @Override
        public String key() {
            return "elementwise";
        }

        @Override
        public String toString() {
            return key();
        }
    }

    /** The class of a step of a forward pass. */
    static OperatorClass of(Step step) {
        return of(Checks.notNull("step", step).operator());
    }

    /** The class of an operator. */
    static OperatorClass of(Operator op) {
        return switch (Checks.notNull("operator", op)) {
            case dev.roofline.core.roofline.Gemm g ->
                g.m() <= GEMV_MAX_ROWS ? new Gemv(g.weights()) : new Gemm(g.weights());
            case dev.roofline.core.roofline.GroupedGemm g -> new GroupedGemm(g.weights());
            case dev.roofline.core.roofline.Attention a -> ATTENTION;
            case dev.roofline.core.roofline.Elementwise e -> ELEMENTWISE;
        };
    }

    /**
     * The class named {@code key}, as {@link #key()} writes it: the kind in lower case, then for matrix kinds one space
     * and a {@link Precision} constant's name exactly ({@code FP8_E4M3}, not an alias).
     *
     * @throws IllegalArgumentException naming the key and what is known
     */
    static OperatorClass parse(String key) {
        Checks.notNull("key", key);
        switch (key) {
            case "attention" -> {
                return ATTENTION;
            }
            case "elementwise" -> {
                return ELEMENTWISE;
            }
            default -> {
                if (key.startsWith("attention h")) {
                    String n = key.substring("attention h".length());
                    if (!n.matches("[1-9][0-9]{0,4}") || Integer.parseInt(n) > ATTENTION_MEASURED_MAX_HEADS) {
                        throw new IllegalArgumentException("operator class \"" + key + "\": heads must be 1.."
                                + ATTENTION_MEASURED_MAX_HEADS + " without leading zeros, got " + n);
                    }
                    return new Attention(Integer.parseInt(n));
                }
                // "grouped gemm" first: it contains a space of its own
                for (String kind : new String[] {"grouped gemm ", "gemv ", "gemm "}) {
                    if (key.startsWith(kind)) {
                        String rest = key.substring(kind.length());
                        if (kind.equals("gemv ") && rest.matches("\\S+ m[0-9]+")) {
                            int space = rest.indexOf(' ');
                            String rows = rest.substring(space + 2);
                            if (!rows.matches("[1-9][0-9]?") || Integer.parseInt(rows) > GEMV_MEASURED_MAX_ROWS) {
                                throw new IllegalArgumentException("operator class \"" + key + "\": rows must be 1.."
                                        + GEMV_MEASURED_MAX_ROWS + " without leading zeros, got " + rows);
                            }
                            return new Gemv(precision(key, rest.substring(0, space)), Integer.parseInt(rows));
                        }
                        Precision p = precision(key, rest);
                        return switch (kind) {
                            case "gemv " -> new Gemv(p);
                            case "gemm " -> new Gemm(p);
                            default -> new GroupedGemm(p);
                        };
                    }
                }
                throw new IllegalArgumentException("unknown operator class \"" + key
                        + "\"; known: \"gemv <PRECISION>\", \"gemv <PRECISION> m<ROWS>\", \"gemm <PRECISION>\","
                        + " \"grouped gemm <PRECISION>\","
                        + " \"attention\", \"attention h<HEADS>\", \"elementwise\"");
            }
        }
    }

    private static Precision precision(String key, String name) {
        for (Precision p : Precision.values()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("operator class \"" + key + "\" names no precision: \"" + name
                + "\" is not one of " + Arrays.toString(Precision.values()));
    }
}
