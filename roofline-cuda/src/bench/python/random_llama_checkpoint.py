"""Writes a Llama-shaped safetensors checkpoint of random BF16 weights and its config.json, with Hugging Face names,
for `roofline decode --checkpoint DIR` on a machine without a real checkpoint. Defaults are Llama-3-8B's shapes
(about 16 GB); weights are N(0, 0.02), norms 1. The values mean nothing: the decode step's time does not depend on them.

    python3 random_llama_checkpoint.py OUT_DIR [--layers 32 --hidden 4096 --heads 32 --kv-heads 8 --head-dim 128
                                                --intermediate 14336 --vocab 128256]
"""
import argparse
import json
import os

import torch
from safetensors.torch import save_file


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--layers", type=int, default=32)
    p.add_argument("--hidden", type=int, default=4096)
    p.add_argument("--heads", type=int, default=32)
    p.add_argument("--kv-heads", type=int, default=8)
    p.add_argument("--head-dim", type=int, default=128)
    p.add_argument("--intermediate", type=int, default=14336)
    p.add_argument("--vocab", type=int, default=128256)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    g = torch.Generator(device=dev).manual_seed(a.seed)

    def rnd(*shape):
        return (torch.randn(*shape, generator=g, device=dev, dtype=torch.float32) * 0.02).to(torch.bfloat16).cpu()

    h, d = a.hidden, a.head_dim
    t = {"model.embed_tokens.weight": rnd(a.vocab, h), "model.norm.weight": torch.ones(h, dtype=torch.bfloat16),
         "lm_head.weight": rnd(a.vocab, h)}
    for i in range(a.layers):
        pre = f"model.layers.{i}."
        t[pre + "input_layernorm.weight"] = torch.ones(h, dtype=torch.bfloat16)
        t[pre + "post_attention_layernorm.weight"] = torch.ones(h, dtype=torch.bfloat16)
        t[pre + "self_attn.q_proj.weight"] = rnd(a.heads * d, h)
        t[pre + "self_attn.k_proj.weight"] = rnd(a.kv_heads * d, h)
        t[pre + "self_attn.v_proj.weight"] = rnd(a.kv_heads * d, h)
        t[pre + "self_attn.o_proj.weight"] = rnd(h, a.heads * d)
        t[pre + "mlp.gate_proj.weight"] = rnd(a.intermediate, h)
        t[pre + "mlp.up_proj.weight"] = rnd(a.intermediate, h)
        t[pre + "mlp.down_proj.weight"] = rnd(h, a.intermediate)
    save_file(t, os.path.join(a.out, "model.safetensors"), metadata={"format": "pt"})
    config = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": h,
              "intermediate_size": a.intermediate, "num_hidden_layers": a.layers, "num_attention_heads": a.heads,
              "num_key_value_heads": a.kv_heads, "head_dim": d, "vocab_size": a.vocab, "rms_norm_eps": 1e-05,
              "rope_theta": 500000.0, "tie_word_embeddings": False, "torch_dtype": "bfloat16"}
    with open(os.path.join(a.out, "config.json"), "w") as f:
        json.dump(config, f, indent=1)
    print(f"wrote {a.out}: {sum(v.numel() for v in t.values()) / 1e9:.2f} B parameters, BF16")


if __name__ == "__main__":
    main()
