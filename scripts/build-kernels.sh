#!/usr/bin/env bash
# Compiles roofline-cuda's GEMV kernels (roofline-cuda/src/main/cuda/gemv.cu) into a fatbin: SASS for sm_90a,
# sm_100a, sm_120a and sm_121a plus compute_90 PTX for newer GPUs. roofline-cuda's build runs it.
#
#   scripts/build-kernels.sh [--required] OUTPUT.fatbin
#
# nvcc: $NVCC if set, else nvcc on PATH, else $CUDA_HOME/bin/nvcc, else /usr/local/cuda/bin/nvcc.
# Without an nvcc that can target all four GPUs, it says so and exits 0: the build then packages the committed
# fatbin. With --required (the -Pkernels refresh), it fails instead. A compile error always fails.
set -euo pipefail

required=0
if [[ "${1:-}" == "--required" ]]; then
    required=1
    shift
fi
if [[ $# -ne 1 ]]; then
    echo "usage: $0 [--required] OUTPUT.fatbin" >&2
    exit 2
fi
out=$1
src="$(cd "$(dirname "$0")/.." && pwd)/roofline-cuda/src/main/cuda/gemv.cu"

skip() {
    if [[ $required -eq 1 ]]; then
        echo "roofline-cuda kernels: $1" >&2
        exit 1
    fi
    echo "roofline-cuda kernels: $1; packaging the committed fatbin (src/main/resources/dev/roofline/cuda/kernels/gemv.fatbin)"
    exit 0
}

nvcc=${NVCC:-}
if [[ -z "$nvcc" ]]; then
    for c in "$(command -v nvcc || true)" "${CUDA_HOME:+$CUDA_HOME/bin/nvcc}" /usr/local/cuda/bin/nvcc; do
        if [[ -n "$c" && -x "$c" ]]; then
            nvcc=$c
            break
        fi
    done
fi
[[ -n "$nvcc" ]] || skip "no nvcc (set NVCC, put nvcc on PATH or set CUDA_HOME)"
[[ -x "$nvcc" ]] || skip "NVCC=$nvcc is not an executable"

codes=" $("$nvcc" --list-gpu-code 2>/dev/null | tr '\n' ' ') "
missing=""
for sm in sm_90 sm_100 sm_120 sm_121; do
    [[ "$codes" == *" $sm "* ]] || missing="$missing $sm"
done
[[ -z "$missing" ]] || skip "$nvcc ($("$nvcc" --version | tail -1)) cannot target$missing"

mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
# from the source's folder, by its bare name: the fatbin's entries then name "gemv.cu", not where the checkout lies,
# and every checkout builds the same bytes
cd "$(dirname "$src")"
"$nvcc" -O3 -std=c++17 -fatbin \
    -gencode=arch=compute_90a,code=sm_90a \
    -gencode=arch=compute_100a,code=sm_100a \
    -gencode=arch=compute_120a,code=sm_120a \
    -gencode=arch=compute_121a,code=sm_121a \
    -gencode=arch=compute_90,code=compute_90 \
    -o "$tmp" gemv.cu
mv "$tmp" "$out"
echo "roofline-cuda kernels: compiled $src with $nvcc into $out"
