#!/usr/bin/env bash
# Checks the native FP4 GEMV of roofline-cuda's kernels (gemv_w4a4.cu) where the fatbin carries it, sm_120a and
# sm_121a: the PTX of each gemv_nvfp4_w4a4_m* kernel holds the block-scaled mma (mma.sync ... kind::mxf4nvf4
# .block_scale.scale_vec::4X), which ptxas must then put in the machine code, and ptxas assembles each of them without
# local-memory spills; and, given the fatbin and a cuobjdump that knows these targets (CUDA 12.9 or later: $CUOBJDUMP,
# else beside nvcc), that each kernel's machine code holds the block-scaled mma (OMMA.SF ... E2M1.E2M1.UE4M3.4X) and
# no local-memory loads or stores (LDL, STL). Without such a cuobjdump the machine code is not read, and it says so.
# The build (scripts/build-kernels.sh) runs it after every compile.
#
#   scripts/check-native-fp4.sh [NVCC [FATBIN]]      KERNEL_FLAGS: nvcc's flags other than the targets (build-kernels.sh's)
set -euo pipefail
export LC_ALL=C
root=$(cd "$(dirname "$0")/.." && pwd)
cuda_dir=$root/roofline-cuda/src/main/cuda
nvcc=${1:-${NVCC:-$(command -v nvcc || echo "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc")}}
fatbin=${2:-}
read -ra common <<<"${KERNEL_FLAGS:--O3 -std=c++17}"
cuobjdump=${CUOBJDUMP:-$(dirname "$nvcc")/cuobjdump}
ptxas=$(dirname "$nvcc")/ptxas
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kernels=(gemv_nvfp4_w4a4_m1_w8 gemv_nvfp4_w4a4_m1_w16 gemv_nvfp4_w4a4_m8_w8 gemv_nvfp4_w4a4_m8_w16)
mma='mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X'
failed=0
for arch in 120a 121a; do
    bad=0
    (cd "$cuda_dir" && "$nvcc" "${common[@]}" -ptx "-arch=compute_$arch" -o "$tmp/$arch.ptx" gemv.cu)
    for k in "${kernels[@]}"; do
        # the entry's body: from its .entry line to the next .entry
        n=$(awk -v k="$k" '/^\.(visible )?\.entry / { in_k = ($0 ~ ("\\.entry " k "\\(")) } in_k' "$tmp/$arch.ptx" \
            | grep -cF "$mma" || true)
        if [[ $n -eq 0 ]]; then
            echo "check-native-fp4: $k for sm_$arch has no $mma in its PTX" >&2
            bad=1
        fi
    done
    "$ptxas" -O3 "-arch=sm_$arch" -v -o "$tmp/$arch.cubin" "$tmp/$arch.ptx" >"$tmp/$arch.log" 2>&1 \
        || { cat "$tmp/$arch.log" >&2; exit 1; }
    for k in "${kernels[@]}"; do
        line=$(awk -v k="$k" '/Compiling entry function/ { on = index($0, "\x27" k "\x27") > 0 } on && /spill stores/ { print; exit }' \
            "$tmp/$arch.log")
        if [[ -z "$line" ]]; then
            echo "check-native-fp4: ptxas did not report $k for sm_$arch" >&2
            bad=1
        elif ! grep -q ' 0 bytes spill stores, 0 bytes spill loads' <<<"$line"; then
            echo "check-native-fp4: $k spills on sm_$arch:$line" >&2
            bad=1
        fi
    done
    if [[ $bad -eq 0 ]]; then
        echo "check-native-fp4: sm_$arch: ${#kernels[@]} kernels with the block-scaled mma, no spills"
    fi
    failed=$((failed | bad))
done
if [[ -z "$fatbin" ]]; then
    exit $failed
fi
if [[ ! -x "$cuobjdump" ]]; then
    echo "check-native-fp4: no cuobjdump at $cuobjdump (set CUOBJDUMP): the machine code of $fatbin is not read"
    exit $failed
fi
elves=$("$cuobjdump" -lelf "$fatbin")
for arch in 120a 121a; do
    if ! "$cuobjdump" -sass -arch "sm_$arch" "$fatbin" >"$tmp/$arch.sass" 2>"$tmp/$arch.err"; then
        if grep -q "is not defined" "$tmp/$arch.err"; then # a cuobjdump older than the target
            echo "check-native-fp4: $cuobjdump does not know sm_$arch: its machine code is not read"
            continue
        fi
        echo "check-native-fp4: $cuobjdump cannot read sm_$arch of $fatbin: $(head -1 "$tmp/$arch.err")" >&2
        failed=1
        continue
    fi
    if ! grep -q "sm_$arch" <<<"$elves"; then
        echo "check-native-fp4: $fatbin has no sm_$arch machine code" >&2
        failed=1
        continue
    fi
    bad=0
    for k in "${kernels[@]}"; do
        counts=$(awk -v k="$k" '/Function : / { on = ($3 == k) } on && /OMMA\.SF\.16864\.F32\.E2M1\.E2M1\.UE4M3\.4X/ { m++ }
            on && /[^A-Z](LDL|STL)[. ]/ { l++ } END { print m + 0, l + 0 }' "$tmp/$arch.sass")
        read -r mmas locals <<<"$counts"
        if [[ $mmas -eq 0 || $locals -ne 0 ]]; then
            echo "check-native-fp4: $k in sm_$arch machine code: $mmas block-scaled mma, $locals local loads/stores" >&2
            bad=1
        fi
    done
    if [[ $bad -eq 0 ]]; then
        echo "check-native-fp4: sm_$arch machine code: ${#kernels[@]} kernels with OMMA.SF, no LDL/STL"
    fi
    failed=$((failed | bad))
done
exit $failed
