#!/usr/bin/env bash
# Builds roofline-cuda's GEMV kernels (roofline-cuda/src/main/cuda/gemv.cu) into a fatbin: SASS for sm_90a, sm_100a,
# sm_120a and sm_121a plus compute_90 PTX for newer GPUs. roofline-cuda's build runs it.
#
#   scripts/build-kernels.sh OUTPUT.fatbin          the build (process-resources): the committed fatbin when it was
#                                                   built from these inputs, else a compile
#   scripts/build-kernels.sh --force OUTPUT.fatbin  a compile in any case (-Dkernels.force=true, or KERNELS_FORCE=true)
#   scripts/build-kernels.sh --refresh              a compile into the committed fatbin, and its record (-Pkernels)
#
# The inputs are every file under roofline-cuda/src/main/cuda (gemv.cu and whatever it includes from there) and the
# nvcc flags below. gemv.fatbin.sha256 beside gemv.cu records the SHA-256 of the inputs the committed fatbin
# (src/main/resources/dev/roofline/cuda/kernels/gemv.fatbin) was built from, and of that fatbin: while both match,
# nvcc does not run, since the same nvcc builds the same bytes from the same inputs (the compile runs in the source's
# folder, so no checkout path enters the fatbin).
#
# nvcc: $NVCC if set, else nvcc on PATH, else $CUDA_HOME/bin/nvcc, else /usr/local/cuda/bin/nvcc. When a compile is
# due and no nvcc that can target all four GPUs is present, the build says so and packages the committed fatbin;
# --force and --refresh fail instead. A compile error always fails.
set -euo pipefail
export LC_ALL=C

root=$(cd "$(dirname "$0")/.." && pwd)
cuda_dir=$root/roofline-cuda/src/main/cuda
stamp=$cuda_dir/gemv.fatbin.sha256
committed=$root/roofline-cuda/src/main/resources/dev/roofline/cuda/kernels/gemv.fatbin
# --compress-mode=size: the fatbin's entries compressed with zstd (3.8 MB of sm_90a SASS to 0.35 MB, where the jar's
# deflate gets 0.77 MB); the driver decompresses them at load (CUDA 12.8 and later drivers)
common_flags=(-O3 -std=c++17) # also the native FP4 check's (scripts/check-native-fp4.sh)
flags=("${common_flags[@]}" -fatbin --compress-mode=size
    -gencode=arch=compute_90a,code=sm_90a
    -gencode=arch=compute_100a,code=sm_100a
    -gencode=arch=compute_120a,code=sm_120a
    -gencode=arch=compute_121a,code=sm_121a
    -gencode=arch=compute_90,code=compute_90)

usage() {
    echo "usage: $0 [--force] OUTPUT.fatbin | --refresh" >&2
    exit 2
}
mode=build
case "${1:-}" in
    --force) mode=force; shift ;;
    --refresh) mode=refresh; shift ;;
esac
if [[ $mode == refresh ]]; then
    [[ $# -eq 0 ]] || usage
    out=$committed
else
    [[ $# -eq 1 ]] || usage
    out=$1
    [[ ${KERNELS_FORCE:-false} == true ]] && mode=force
fi

sha() { sha256sum "$1" | cut -d' ' -f1; }

# one line per input (the flags, then each file by its path under src/main/cuda), hashed together
inputs_sha() {
    {
        echo "nvcc ${flags[*]}"
        (cd "$cuda_dir" && find . -type f ! -name '*.sha256' | sort | while read -r f; do echo "$f $(sha "$f")"; done)
    } | sha256sum | cut -d' ' -f1
}

recorded() { # the value recorded for $1 in the stamp, or nothing
    [[ -f "$stamp" ]] && sed -n "s/^$1 //p" "$stamp" || true
}

inputs=$(inputs_sha)
if [[ $mode == build ]]; then
    if [[ "$(recorded inputs)" != "$inputs" ]]; then
        why="src/main/cuda or the nvcc flags changed since the committed fatbin was built"
    elif [[ "$(recorded gemv.fatbin)" != "$(sha "$committed")" ]]; then
        why="the committed fatbin is not the one recorded in ${stamp#"$root"/}"
    else
        mkdir -p "$(dirname "$out")"
        cmp -s "$committed" "$out" || cp "$committed" "$out"
        echo "roofline-cuda kernels: the committed fatbin was built from these sources and flags (inputs sha256" \
            "${inputs:0:12}); packaging it without nvcc (-Dkernels.force=true compiles anyway)"
        exit 0
    fi
fi

cannot_compile() {
    if [[ $mode != build ]]; then
        echo "roofline-cuda kernels: $1" >&2
        exit 1
    fi
    mkdir -p "$(dirname "$out")"
    cmp -s "$committed" "$out" || cp "$committed" "$out"
    echo "roofline-cuda kernels: WARNING: $why, but $1; packaging the committed fatbin, which is out of date:" \
        "refresh it with ./mvnw -pl roofline-cuda -Pkernels generate-resources where such an nvcc is installed" >&2
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
[[ -n "$nvcc" ]] || cannot_compile "no nvcc (set NVCC, put nvcc on PATH or set CUDA_HOME)"
[[ -x "$nvcc" ]] || cannot_compile "NVCC=$nvcc is not an executable"

codes=" $("$nvcc" --list-gpu-code 2>/dev/null | tr '\n' ' ') "
missing=""
for sm in sm_90 sm_100 sm_120 sm_121; do
    [[ "$codes" == *" $sm "* ]] || missing="$missing $sm"
done
[[ -z "$missing" ]] || cannot_compile "$nvcc ($("$nvcc" --version | tail -1)) cannot target$missing"

mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
# from the source's folder, by its bare name: the fatbin's entries then name "gemv.cu", not where the checkout lies,
# and every checkout builds the same bytes
(cd "$cuda_dir" && "$nvcc" "${flags[@]}" -o "$tmp" gemv.cu)
# the native FP4 GEMV's block-scaled mma is in its sm_120a / sm_121a code, unspilled: checked before the fatbin is
# put anywhere
KERNEL_FLAGS="${common_flags[*]}" "$root/scripts/check-native-fp4.sh" "$nvcc" "$tmp"
mv "$tmp" "$out"
echo "roofline-cuda kernels: compiled $cuda_dir/gemv.cu with $nvcc into $out"

case $mode in
    refresh)
        {
            echo "# scripts/build-kernels.sh --refresh wrote this: the SHA-256 of the inputs (the nvcc flags and every file"
            echo "# under src/main/cuda) that the committed gemv.fatbin was built from, and of that fatbin"
            echo "inputs $inputs"
            echo "gemv.fatbin $(sha "$out")"
            echo "# built with: $("$nvcc" --version | grep release)"
        } > "$stamp"
        echo "roofline-cuda kernels: recorded its inputs in $stamp; commit both with the sources"
        ;;
    force)
        if [[ "$(recorded inputs)" == "$inputs" ]]; then
            if cmp -s "$out" "$committed"; then
                echo "roofline-cuda kernels: identical to the committed fatbin"
            else
                echo "roofline-cuda kernels: differs from the committed fatbin, which the same inputs built (another nvcc?)"
            fi
        fi
        ;;
    build)
        echo "roofline-cuda kernels: $why; refresh the committed fatbin with" \
            "./mvnw -pl roofline-cuda -Pkernels generate-resources and commit it with its sources"
        ;;
esac
