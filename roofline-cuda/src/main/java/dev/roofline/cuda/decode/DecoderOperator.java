package dev.roofline.cuda.decode;

import java.util.List;

/**
 * The operators of one {@link DenseDecoder} step, each a kind of kernel launch, with the operators of the roofline
 * model's forward pass ({@link dev.roofline.core.transformer.Operators}) whose work it does. The engine fuses: the
 * residual add with the next RMSNorm, q/k/v into one product, gate and up into one, RoPE with the KV append.
 */
public enum DecoderOperator {
    /** {@code residual += delta; normed = rmsNorm(residual)}: twice per layer and once before {@code lm_head}. */
    ADD_RMSNORM("add + rmsnorm", List.of("rmsnorm", "residual add", "final norm")),
    QKV_PROJ("qkv_proj", List.of("q_proj", "k_proj", "v_proj")),
    ROPE_APPEND("rope + kv append", List.of("rope")),
    /** Two launches per layer: the split pass and the merge. */
    ATTENTION("attention", List.of("attention")),
    O_PROJ("o_proj", List.of("o_proj")),
    GATE_UP_PROJ("gate_up_proj", List.of("gate_proj", "up_proj")),
    SILU_MUL("silu*up", List.of("silu*up")),
    DOWN_PROJ("down_proj", List.of("down_proj")),
    LM_HEAD("lm_head", List.of("lm_head"));

    private final String label;
    private final List<String> modelOperators;

    DecoderOperator(String label, List<String> modelOperators) {
        this.label = label;
        this.modelOperators = modelOperators;
    }

    /** The name reports print. */
    public String label() {
        return label;
    }

    /** Names of the roofline model's operators this one covers (the model's embedding lookup is not in the step). */
    public List<String> modelOperators() {
        return modelOperators;
    }

    /** Kernel launches of this operator in one step of {@code layers} layers. */
    public int launches(int layers) {
        return switch (this) {
            case ADD_RMSNORM -> 2 * layers + 1;
            case ATTENTION -> 2 * layers;
            case LM_HEAD -> 1;
            default -> layers;
        };
    }

    /** Kernel launches of a whole step: the calibration's kernels per layer times layers, plus those outside. */
    public static int stepLaunches(int layers) {
        int n = 0;
        for (DecoderOperator o : values()) {
            n += o.launches(layers);
        }
        return n;
    }
}
