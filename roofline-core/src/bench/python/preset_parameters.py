#!/usr/bin/env python3
"""Parameter totals of roofline's presets as Hugging Face transformers counts them: each published config.json's
shaping fields (as the presets in dev.roofline.core.model.Models take them) built with AutoConfig.for_model and
instantiated on the meta device, so no weight is allocated or downloaded; the total is the sum of numel over
model.parameters(), which counts a tied embedding once.

    python3 preset_parameters.py > preset-parameters.csv
    python3 preset_parameters.py --layer-flops 512 > preset-layer-flops.csv

Prints "preset,transformers_parameters" per preset. With --layer-flops S, the dense presets' matrix FLOPs of one
decoder layer in a prefill of S tokens (batch 1) as torch.utils.flop_counter.FlopCounterMode counts them (linear
layers and scaled_dot_product_attention, full S x S scores as roofline counts them): the forward of a 2-layer model
less that of a 1-layer one, on the GPU with random weights (transformers' attention masks cannot be built on the meta
device). Gemma 3's 4B/12B/27B are built as gemma3_text, their language
model alone, as the presets count them. gpt-oss is built without its MXFP4 quantization_config, so its experts are
ordinary parameters of the same element count. A preset transformers cannot build is reported on stderr and left
out of the CSV.
"""
import torch
from transformers import AutoConfig, AutoModelForCausalLM


def llama(h, layers, heads, kv, ff, vocab, head_dim=None, tied=False):
    c = dict(model_type="llama", hidden_size=h, num_hidden_layers=layers, num_attention_heads=heads,
             num_key_value_heads=kv, intermediate_size=ff, vocab_size=vocab, tie_word_embeddings=tied)
    if head_dim:
        c["head_dim"] = head_dim
    return c


def qwen3(h, layers, heads, kv, ff, tied):
    return dict(model_type="qwen3", hidden_size=h, num_hidden_layers=layers, num_attention_heads=heads,
                num_key_value_heads=kv, head_dim=128, intermediate_size=ff, vocab_size=151936, tie_word_embeddings=tied)


def qwen3_moe(h, layers, heads, kv, experts, moe_ff):
    return dict(model_type="qwen3_moe", hidden_size=h, num_hidden_layers=layers, num_attention_heads=heads,
                num_key_value_heads=kv, head_dim=128, num_experts=experts, num_experts_per_tok=8,
                moe_intermediate_size=moe_ff, decoder_sparse_step=1, mlp_only_layers=[], vocab_size=151936,
                tie_word_embeddings=False)


def qwen2(h, layers, heads, kv, ff, vocab):
    return dict(model_type="qwen2", hidden_size=h, num_hidden_layers=layers, num_attention_heads=heads,
                num_key_value_heads=kv, intermediate_size=ff, vocab_size=vocab, tie_word_embeddings=False)


def gemma3(h, layers, heads, kv, head_dim, ff, vocab, window):
    return dict(model_type="gemma3_text", hidden_size=h, num_hidden_layers=layers, num_attention_heads=heads,
                num_key_value_heads=kv, head_dim=head_dim, intermediate_size=ff, vocab_size=vocab,
                sliding_window=window, tie_word_embeddings=True)


def gpt_oss(layers, experts):
    return dict(model_type="gpt_oss", hidden_size=2880, num_hidden_layers=layers, num_attention_heads=64,
                num_key_value_heads=8, head_dim=64, intermediate_size=2880, num_local_experts=experts,
                num_experts_per_tok=4, vocab_size=201088, sliding_window=128, tie_word_embeddings=False)


PRESETS = {
    "Llama-3.1-405B": llama(16384, 126, 128, 8, 53248, 128256),
    "Llama-3.2-1B": llama(2048, 16, 32, 8, 8192, 128256, head_dim=64, tied=True),
    "Llama-3.2-3B": llama(3072, 28, 24, 8, 8192, 128256, head_dim=128, tied=True),
    "Mistral-Small-24B": dict(model_type="mistral", hidden_size=5120, num_hidden_layers=40, num_attention_heads=32,
                              num_key_value_heads=8, head_dim=128, intermediate_size=32768, vocab_size=131072,
                              tie_word_embeddings=False),
    "Phi-4": dict(model_type="phi3", hidden_size=5120, num_hidden_layers=40, num_attention_heads=40,
                  num_key_value_heads=10, intermediate_size=17920, vocab_size=100352, tie_word_embeddings=False,
                  pad_token_id=100349),
    "Gemma-3-1B": gemma3(1152, 26, 4, 1, 256, 6912, 262144, 512),
    "Gemma-3-4B": gemma3(2560, 34, 8, 4, 256, 10240, 262208, 1024),
    "Gemma-3-12B": gemma3(3840, 48, 16, 8, 256, 15360, 262208, 1024),
    "Gemma-3-27B": gemma3(5376, 62, 32, 16, 128, 21504, 262208, 1024),
    "Qwen3-0.6B": qwen3(1024, 28, 16, 8, 3072, True),
    "Qwen3-1.7B": qwen3(2048, 28, 16, 8, 6144, True),
    "Qwen3-4B": qwen3(2560, 36, 32, 8, 9728, True),
    "Qwen3-8B": qwen3(4096, 36, 32, 8, 12288, False),
    "Qwen3-14B": qwen3(5120, 40, 40, 8, 17408, False),
    "Qwen3-32B": qwen3(5120, 64, 64, 8, 25600, False),
    "Qwen3-30B-A3B": qwen3_moe(2048, 48, 32, 4, 128, 768),
    "Qwen3-235B-A22B": qwen3_moe(4096, 94, 64, 4, 128, 1536),
    "gpt-oss-20b": gpt_oss(24, 32),
    "gpt-oss-120b": gpt_oss(36, 128),
    "DeepSeek-R1-Distill-Qwen-14B": qwen2(5120, 48, 40, 8, 13824, 152064),
    "DeepSeek-R1-Distill-Qwen-32B": qwen2(5120, 64, 40, 8, 27648, 152064),
}


def build(fields, layers=None, device="meta"):
    fields = dict(fields)
    if layers is not None:
        fields["num_hidden_layers"] = layers
        fields.pop("layer_types", None)
    model_type = fields.pop("model_type")
    config = AutoConfig.for_model(model_type, **fields)
    # gpt-oss has no SDPA path in transformers; its parameters do not depend on the attention implementation
    config._attn_implementation = "eager" if model_type == "gpt_oss" else "sdpa"
    with torch.device(device):
        return AutoModelForCausalLM.from_config(config)


def flops_device():
    # transformers' masks call .item(), which the meta device cannot answer: count on a real device (2 layers of the
    # largest preset, 405B, take about 43 GB in FP32)
    return "cuda" if torch.cuda.is_available() else "cpu"


def forward_flops(model, tokens):
    from torch.utils.flop_counter import FlopCounterMode
    ids = torch.zeros(1, tokens, dtype=torch.long, device=next(model.parameters()).device)
    counter = FlopCounterMode(display=False)
    with counter, torch.no_grad():
        model(input_ids=ids, use_cache=False)
    return counter.get_total_flops()


def main():
    import sys
    if len(sys.argv) == 3 and sys.argv[1] == "--layer-flops":
        tokens = int(sys.argv[2])
        print("preset,layer_matmul_flops")
        for name, fields in PRESETS.items():
            if fields["model_type"] in ("qwen3_moe", "gpt_oss"):
                continue  # routing is data-dependent: not on the meta device
            try:
                device = flops_device()
                flops = (forward_flops(build(fields, 2, device), tokens)
                         - forward_flops(build(fields, 1, device), tokens))
            except Exception as e:  # one preset transformers cannot build must not hide the others
                print(f"{name}: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
                continue
            print(f"{name},{flops}", flush=True)
        return
    print("preset,transformers_parameters")
    for name, fields in PRESETS.items():
        try:
            model = build(fields)
        except Exception as e:
            print(f"{name}: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
            continue
        print(f"{name},{sum(p.numel() for p in model.parameters())}", flush=True)


if __name__ == "__main__":
    main()
