#!/usr/bin/env bash
# Checks the native FP4 GEMV of roofline-cuda's kernels where the fatbin carries it: on sm_120a and sm_121a the
# gemv_nvfp4_w4a4_m* kernels (gemv_w4a4.cu), whose PTX must hold the block-scaled mma.sync (mma.sync ...
# kind::mxf4nvf4.block_scale.scale_vec::4X); on sm_100a the gemv_nvfp4_w4a4_sm100_s* kernels (gemv_w4a4_sm100.cu),
# whose PTX must hold the block-scaled tcgen05.mma (tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale); ptxas must
# then put the instruction in the machine code, and must assemble each kernel without local-memory spills. Given the
# fatbin and a cuobjdump that knows these targets (CUDA 12.9 or later: $CUOBJDUMP, else beside nvcc), it also reads
# each kernel's machine code: the block-scaled mma there (OMMA.SF ... E2M1.E2M1.UE4M3.4X on sm_120a / sm_121a; on
# sm_100a UTCOMMA.4X, as CUDA 13.0's cuobjdump disassembles these kernels: docs/measurements/2026-11-26-issue19-sm100a-
# h200; where it is missing the check names the UTC*MMA it found) and no local-memory loads or stores (LDL, STL). Without such a cuobjdump the machine code is not
# read, and it says so. The build (scripts/build-kernels.sh) runs it after every compile.
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
archs=(120a 121a 100a)
# per target: the kernels, the instruction their PTX must hold, the machine-code instruction (an awk pattern) and its name
kernels() {
    case $1 in
        100a) echo gemv_nvfp4_w4a4_sm100_s1 gemv_nvfp4_w4a4_sm100_s4 ;;
        *) echo gemv_nvfp4_w4a4_m1_w8 gemv_nvfp4_w4a4_m1_w16 gemv_nvfp4_w4a4_m8_w8 gemv_nvfp4_w4a4_m8_w16 ;;
    esac
}
ptx_mma() {
    case $1 in
        100a) echo 'tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale' ;;
        *) echo 'mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X' ;;
    esac
}
sass_mma() {
    case $1 in
        100a) echo 'UTCOMMA' ;;
        *) echo 'OMMA\.SF\.16864\.F32\.E2M1\.E2M1\.UE4M3\.4X' ;;
    esac
}
sass_name() {
    case $1 in
        100a) echo UTCOMMA ;;
        *) echo OMMA.SF ;;
    esac
}
failed=0
for arch in "${archs[@]}"; do
    bad=0
    read -ra ks <<<"$(kernels "$arch")"
    mma=$(ptx_mma "$arch")
    (cd "$cuda_dir" && "$nvcc" "${common[@]}" -ptx "-arch=compute_$arch" -o "$tmp/$arch.ptx" gemv.cu)
    for k in "${ks[@]}"; do
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
    for k in "${ks[@]}"; do
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
        echo "check-native-fp4: sm_$arch: ${#ks[@]} kernels with the block-scaled ${mma%%.*}, no spills"
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
for arch in "${archs[@]}"; do
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
    read -ra ks <<<"$(kernels "$arch")"
    name=$(sass_name "$arch")
    for k in "${ks[@]}"; do
        counts=$(awk -v k="$k" -v mma="$(sass_mma "$arch")" '/Function : / { on = ($3 == k) } on && $0 ~ mma { m++ }
            on && /[^A-Z](LDL|STL)[. ]/ { l++ } END { print m + 0, l + 0 }' "$tmp/$arch.sass")
        read -r mmas locals <<<"$counts"
        if [[ $mmas -eq 0 || $locals -ne 0 ]]; then
            found=$(awk -v k="$k" '/Function : / { on = ($3 == k) } on' "$tmp/$arch.sass" \
                | grep -oE '\b[A-Z]*MMA[A-Z0-9_.]*' | sort -u | paste -sd ' ' - || true)
            echo "check-native-fp4: $k in sm_$arch machine code: $mmas $name, $locals local loads/stores" \
                "(MMA instructions there: ${found:-none})" >&2
            bad=1
        fi
    done
    if [[ $bad -eq 0 ]]; then
        echo "check-native-fp4: sm_$arch machine code: ${#ks[@]} kernels with $name, no LDL/STL"
    fi
    failed=$((failed | bad))
done
exit $failed
