package dev.roofline.quant.checkpoint;

import dev.roofline.quant.safetensors.Dtype;
import dev.roofline.quant.safetensors.TensorInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which tensors are linear-layer weights to quantize: 2-D {@code *.weight} in F32/F16/BF16 whose name contains none
 * of the exclusions. By default norms, embeddings, the lm_head and MoE routers are kept as they are.
 */
public record LinearSelector(List<String> exclusions) {

    /** Substrings of names kept unquantized by default. {@code .gate.weight} is a MoE router, not {@code gate_proj}. */
    public static final List<String> DEFAULT_EXCLUSIONS =
            List.of("embed_tokens", "lm_head", "norm", ".gate.weight", "router");

    public LinearSelector {
        exclusions = List.copyOf(exclusions);
    }

    public static LinearSelector defaults() {
        return new LinearSelector(DEFAULT_EXCLUSIONS);
    }

    public LinearSelector excluding(String... more) {
        List<String> all = new ArrayList<>(exclusions);
        for (String s : more) {
            if (s == null || s.isBlank()) {
                throw new IllegalArgumentException("an exclusion must not be blank");
            }
            all.add(s);
        }
        return new LinearSelector(all);
    }

    public boolean quantizes(TensorInfo t) {
        if (!t.name().endsWith(".weight") || t.shape().size() != 2) {
            return false;
        }
        if (t.dtype() != Dtype.F32 && t.dtype() != Dtype.F16 && t.dtype() != Dtype.BF16) {
            return false;
        }
        String lower = t.name().toLowerCase(Locale.ROOT);
        return exclusions.stream().noneMatch(e -> lower.contains(e.toLowerCase(Locale.ROOT)));
    }

    /** The module name of a weight, e.g. "model.layers.0.mlp.down_proj" for "model.layers.0.mlp.down_proj.weight". */
    static String module(String weightName) {
        return weightName.substring(0, weightName.length() - ".weight".length());
    }
}
