package dev.roofline.core.recommend;

import dev.roofline.core.internal.Checks;
import dev.roofline.core.precision.Precision;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * What the caller accepts for accuracy in one role (weights, activations or KV cache). The recommender proposes for
 * each role only formats its constraint allows, plus FP16, the baseline; a format the caller names explicitly
 * ({@link #listed()}) is either a candidate or reported with the reason it is not ({@link Exclusion}).
 *
 * <pre>{@code
 * AccuracyConstraint.allowing(Precision.FP16, Precision.FP8_E4M3);                  // a fixed list
 * AccuracyConstraint.minimumSqnr(25.0, Map.of(Precision.NVFP4, 20.3, Precision.FP8_E4M3, 31.1));
 * }</pre>
 */
public sealed interface AccuracyConstraint
        permits AccuracyConstraint.Any, AccuracyConstraint.AllowedFormats, AccuracyConstraint.MinimumSqnr {

    boolean allows(Precision p);

    /** The formats the caller named, which a recommendation must consider or explain; empty for {@link #any()}. */
    Set<Precision> listed();

    /** No constraint: every format the hardware can run is a candidate. */
    static AccuracyConstraint any() {
        return new Any();
    }

    static AccuracyConstraint allowing(Precision... formats) {
        Checks.notNull("formats", formats);
        return new AllowedFormats(Set.of(formats));
    }

    static AccuracyConstraint minimumSqnr(double minimumDb, Map<Precision, Double> sqnrDb) {
        return new MinimumSqnr(minimumDb, sqnrDb);
    }

    /** Every format. */
    record Any() implements AccuracyConstraint {
        @Override
        public boolean allows(Precision p) {
            return true;
        }

        @Override
        public Set<Precision> listed() {
            return Set.of();
        }
    }

    /** Only these formats. */
    record AllowedFormats(Set<Precision> formats) implements AccuracyConstraint {
        public AllowedFormats {
            Checks.notNull("formats", formats);
            if (formats.isEmpty()) {
                throw new IllegalArgumentException("formats must name at least one precision, got none");
            }
            formats = Set.copyOf(EnumSet.copyOf(formats));
        }

        @Override
        public boolean allows(Precision p) {
            return formats.contains(p);
        }

        @Override
        public Set<Precision> listed() {
            return formats;
        }
    }

    /**
     * Formats whose measured signal-to-quantization-noise ratio (dB, e.g. from roofline-quant) reaches
     * {@code minimumDb}. 16- and 32-bit floats are the reference and always allowed; a narrower format without a
     * measurement is refused.
     */
    record MinimumSqnr(double minimumDb, Map<Precision, Double> sqnrDb) implements AccuracyConstraint {
        public MinimumSqnr {
            if (!Double.isFinite(minimumDb)) {
                throw new IllegalArgumentException("minimumDb must be finite, got " + minimumDb);
            }
            Checks.notNull("sqnrDb", sqnrDb);
            sqnrDb.forEach((p, db) -> {
                if (p == null || db == null || Double.isNaN(db)) {
                    throw new IllegalArgumentException("sqnrDb must map precisions to numbers, got " + p + " -> " + db);
                }
            });
            sqnrDb = sqnrDb.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(sqnrDb));
        }

        @Override
        public boolean allows(Precision p) {
            if (p.elementBits() >= 16 && p.kind() == dev.roofline.core.precision.NumberKind.FLOAT) {
                return true;
            }
            Double db = sqnrDb.get(p);
            return db != null && db >= minimumDb;
        }

        /** The measured formats. */
        @Override
        public Set<Precision> listed() {
            return sqnrDb.keySet();
        }
    }
}
