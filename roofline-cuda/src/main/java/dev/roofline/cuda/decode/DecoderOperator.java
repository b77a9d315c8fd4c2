package dev.roofline.cuda.decode;

import java.util.List;

/**
 * The operators of one {@link DenseDecoder} step, each a kind of kernel launch, with the operators of the roofline
 * model's forward pass ({@link dev.roofline.core.transformer.Operators}) whose work it does. The engine fuses: the
 * residual add with the next RMSNorm, q/k/v into one product, gate and up into one, RoPE with the KV append. A step
 * runs the operators {@link #of} its shape: the dense MLP's or a mixture of experts'.
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
    LM_HEAD("lm_head", List.of("lm_head")),
    /** A mixture of experts' router: the logits of every expert for each token. */
    ROUTER("router", List.of("router")),
    /** Softmax, top-k and renormalisation of the router's logits into each token's experts and weights. */
    TOP_K("top-k", List.of("top-k")),
    /** The chosen experts' merged gate/up projections, a grouped GEMV reading each chosen expert once. */
    EXPERTS_GATE_UP("experts gate_up", List.of("experts gate_proj", "experts up_proj")),
    EXPERTS_SILU_MUL("experts silu*up", List.of("experts silu*up")),
    /** The chosen experts' down projections, each output times its routing weight. */
    EXPERTS_DOWN("experts down", List.of("experts down_proj")),
    /** Each token's weighted expert outputs summed into the residual's delta. */
    EXPERTS_COMBINE("expert combine", List.of("expert combine"));

    /** A dense step's operators, each layer's in the order it runs them, then {@code lm_head}. */
    private static final List<DecoderOperator> DENSE =
            List.of(ADD_RMSNORM, QKV_PROJ, ROPE_APPEND, ATTENTION, O_PROJ, GATE_UP_PROJ, SILU_MUL, DOWN_PROJ, LM_HEAD);
    /** A mixture of experts' step: the dense MLP's three operators replaced by the experts' six. */
    private static final List<DecoderOperator> EXPERTS = List.of(
            ADD_RMSNORM,
            QKV_PROJ,
            ROPE_APPEND,
            ATTENTION,
            O_PROJ,
            ROUTER,
            TOP_K,
            EXPERTS_GATE_UP,
            EXPERTS_SILU_MUL,
            EXPERTS_DOWN,
            EXPERTS_COMBINE,
            LM_HEAD);

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

    /**
     * Kernel launches of this operator in one step of {@code layers} layers of an engine that runs the residual adds
     * and norms in the products' epilogues ({@code fusedNorms}: one norm launch, layer 0's input) and RoPE with the KV
     * append in the q/k/v product ({@code fusedRope}: none of its own), as {@link DenseDecoder#launches} counts them.
     */
    public int launches(int layers, boolean fusedNorms, boolean fusedRope) {
        if (fusedNorms && this == ADD_RMSNORM) {
            return 1;
        }
        if (fusedRope && this == ROPE_APPEND) {
            return 0;
        }
        return launches(layers);
    }

    /** The operators a step of {@code shape} runs: the dense MLP's or the experts'. */
    public static List<DecoderOperator> of(DecoderShape shape) {
        return of(shape.hasExperts());
    }

    /** The operators a step runs: the experts' for a mixture of experts, else the dense MLP's. */
    public static List<DecoderOperator> of(boolean experts) {
        return experts ? EXPERTS : DENSE;
    }

    /** Kernel launches of a whole step of {@code shape}: its operators' launches. */
    public static int stepLaunches(DecoderShape shape) {
        int n = 0;
        for (DecoderOperator o : of(shape)) {
            n += o.launches(shape.layers());
        }
        return n;
    }
}
