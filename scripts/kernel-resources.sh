#!/usr/bin/env bash
# Registers and local-memory spills of every kernel in roofline-cuda's fatbin, per target, as ptxas
# reports them (-Xptxas -v), compiled with the fatbin's own flags (scripts/build-kernels.sh) one target at a time.
#
#   scripts/kernel-resources.sh [--no-spills] [sm_90a sm_100a sm_120a sm_121a]
#
# Prints "target kernel registers spill_store_bytes spill_load_bytes" per kernel (TSV) to stdout and a per-target
# summary to stderr. --no-spills exits 1 when any kernel spills. Needs nvcc ($NVCC, PATH, $CUDA_HOME or
# /usr/local/cuda); no GPU.
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
cuda_dir=$root/roofline-cuda/src/main/cuda
nvcc=${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}
strict=false
if [[ "${1:-}" == "--no-spills" ]]; then
    strict=true
    shift
fi
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    targets=(sm_90a sm_100a sm_120a sm_121a)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
spilled=0
printf 'target\tkernel\tregisters\tspill_store_bytes\tspill_load_bytes\n'
for t in "${targets[@]}"; do
    arch=${t#sm_}
    (cd "$cuda_dir" && "$nvcc" -O3 -std=c++17 -cubin "-gencode=arch=compute_${arch},code=${t}" -Xptxas -v \
        gemv.cu -o "$tmp/$t.cubin") >"$tmp/$t.log" 2>&1 || { cat "$tmp/$t.log" >&2; exit 1; }
    # ptxas prints, per entry: "Compiling entry function 'NAME'", then a spill line, then a registers line
    awk -v t="$t" '
        # the figures of an entry follow "Compiling entry function" and "Function properties for <entry>"; the
        # properties of device functions it calls come in blocks of their own and are skipped
        /Compiling entry function/ { match($0, /\x27[^\x27]+\x27/); name = substr($0, RSTART + 1, RLENGTH - 2); s = ""; l = ""; mine = 0 }
        /Function properties for/ { mine = (index($0, "for " name) > 0) }
        mine && /bytes spill stores/ { for (i = 1; i <= NF; i++) { if ($(i+1) == "bytes" && $(i+2) == "spill" && $(i+3) == "stores,") s = $i; if ($(i+1) == "bytes" && $(i+2) == "spill" && $(i+3) == "loads") l = $i } }
        /Used [0-9]+ registers/ && name != "" { for (i = 1; i <= NF; i++) if ($i == "Used") r = $(i+1); printf "%s\t%s\t%s\t%s\t%s\n", t, name, r, (s == "" ? 0 : s), (l == "" ? 0 : l); name = "" }
    ' "$tmp/$t.log" >"$tmp/$t.tsv"
    cat "$tmp/$t.tsv"
    n=$(wc -l <"$tmp/$t.tsv")
    s=$(awk -F'\t' '$4 > 0 || $5 > 0' "$tmp/$t.tsv" | wc -l)
    echo "$t: $n kernels, $s spill" >&2
    spilled=$((spilled + s))
done
if $strict && [[ $spilled -gt 0 ]]; then
    echo "kernel-resources: $spilled kernel(s) spill to local memory" >&2
    exit 1
fi
