package dev.roofline.core.recommend;

import dev.roofline.core.hardware.Hardware;
import dev.roofline.core.precision.NumberKind;
import dev.roofline.core.precision.Precision;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which precisions each role may take on a GPU under a constraint, and why an allowed format may not. FP16, the
 * baseline, is a candidate for every role. Every format of 16 bits or fewer can hold weights (a GPU without a path of
 * its own dequantizes them). Quantized activations need the GPU to multiply their format natively, and a quantized
 * format for them (not a weight-only one such as NF4 or INT4 g128). The KV cache takes only the formats serving
 * engines store it in: FP16, BF16, FP8 E4M3 or E5M2, and NVFP4 where the GPU has FP4 tensor cores.
 *
 * @param roles     one constraint per role
 * @param hardware  the GPU
 */
record Candidates(Roles roles, Hardware hardware) {

    /** The constraint of each role. */
    record Roles(AccuracyConstraint weights, AccuracyConstraint activations, AccuracyConstraint kvCache) {
        AccuracyConstraint of(TensorRole r) {
            return switch (r) {
                case WEIGHTS -> weights;
                case ACTIVATIONS -> activations;
                case KV_CACHE -> kvCache;
            };
        }
    }

    /** The formats KV caches are stored in (vLLM, TensorRT-LLM, SGLang). */
    static final Set<Precision> KV_FORMATS =
            Set.of(Precision.FP16, Precision.BF16, Precision.FP8_E4M3, Precision.FP8_E5M2, Precision.NVFP4);

    private static final int BASELINE_BITS = 16;

    /** The candidates of role {@code r}, FP16 first, then in {@link Precision} order. */
    List<Precision> of(TensorRole r) {
        List<Precision> out = new ArrayList<>();
        out.add(Precision.FP16);
        for (Precision p : Precision.values()) {
            if (p != Precision.FP16 && roles.of(r).allows(p) && whyNot(r, p) == null) {
                out.add(p);
            }
        }
        return List.copyOf(out);
    }

    /** The formats the caller named for each role that are not candidates for it, with the reason. */
    List<Exclusion> exclusions() {
        List<Exclusion> out = new ArrayList<>();
        for (TensorRole r : TensorRole.values()) {
            for (Precision p : Precision.values()) {
                if (roles.of(r).listed().contains(p) && roles.of(r).allows(p)) {
                    String why = whyNot(r, p);
                    if (why != null) {
                        out.add(new Exclusion(r, p, why));
                    }
                }
            }
        }
        return List.copyOf(out);
    }

    /** Why {@code p} cannot take role {@code r} on this GPU, or null when it can. */
    private String whyNot(TensorRole r, Precision p) {
        if (p.elementBits() > BASELINE_BITS) {
            return "wider than the 16-bit baseline, it moves more bytes and multiplies no faster";
        }
        return switch (r) {
            case WEIGHTS -> null;
            case ACTIVATIONS -> {
                if (p.elementBits() == BASELINE_BITS) {
                    yield null;
                }
                if (p.kind() == NumberKind.CODEBOOK || p == Precision.INT4_G128) {
                    yield "a weight-only format: no kernel quantizes activations to it";
                }
                if (!hardware.runsNatively(p)) {
                    yield "no " + p.displayName() + " tensor cores on " + hardware.name()
                            + ": quantized activations pay only where the GPU multiplies them natively";
                }
                yield null;
            }
            case KV_CACHE -> {
                if (!KV_FORMATS.contains(p)) {
                    yield "not a KV-cache format: caches are stored in FP16, BF16, FP8 E4M3 or E5M2, or NVFP4";
                }
                if (p == Precision.NVFP4 && !hardware.runsNatively(p)) {
                    yield "an NVFP4 KV cache needs FP4 tensor cores, which " + hardware.name() + " lacks";
                }
                yield null;
            }
        };
    }

    /**
     * Every combination of the roles' candidates, FP16 throughout first. Quantized activations are paired only with
     * weights the GPU then multiplies in the activations' format (W8A8, W4A8 with INT4 converted exactly to INT8,
     * W4A4): anything else converts them back and gains nothing.
     */
    List<Choice> choices() {
        Set<Choice> out = new LinkedHashSet<>();
        out.add(Choice.FP16);
        for (Precision w : of(TensorRole.WEIGHTS)) {
            for (Precision a : of(TensorRole.ACTIVATIONS)) {
                if (a.elementBits() < BASELINE_BITS
                        && hardware.computePath(w, a).executedAs() != a) {
                    continue;
                }
                for (Precision kv : of(TensorRole.KV_CACHE)) {
                    out.add(new Choice(w, a, kv));
                }
            }
        }
        return List.copyOf(out);
    }
}
