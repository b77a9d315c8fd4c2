#!/usr/bin/env bash
# Regenerates the jextract FFM bindings in bindings/src/main/java/dev/roofline/bindings/{cudart,cublaslt,nvml,nccl}.
#   bindings/regenerate.sh [LIBRARY...]     (default: all four; e.g. `bindings/regenerate.sh nccl`)
# It replaces the generated packages of the libraries named only: dev/roofline/bindings/{loader,error} are
# hand-written and left as they are.
#
# Requirements: an installed jextract (JDK 22+ compatible, e.g. a jextract build for JDK 25),
# found via $JEXTRACT or `jextract` on PATH, plus the CUDA 13.0 headers.
#
# Environment overrides:
#   JEXTRACT            path to the jextract launcher (default: `jextract` on PATH)
#   CUDA_HOME           CUDA toolkit root; headers are read from $CUDA_HOME/include (default /usr/local/cuda)
#   CUDA_EXTRA_HEADERS  directory holding cublasLt.h, cublas_api.h, nvml.h when the toolkit lacks them
#                       (default: <repo root>/../shared/cuda-headers)
#   NCCL_INCLUDE        directory holding nccl.h (NCCL 2.28): an NCCL build's include/ or the nvidia-nccl-cu13 wheel's
#                       nvidia/nccl/include (default: the first of $CUDA_EXTRA_HEADERS, $CUDA_HOME/include and python3's
#                       nvidia.nccl package that has one)
#
# No --library/-l option is passed on purpose: the generated code resolves symbols through
# SymbolLookup.loaderLookup(), so the native libraries must be loaded (System.load) by the caller first.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/.." && pwd)

JEXTRACT=${JEXTRACT:-$(command -v jextract || true)}
if [[ -z "$JEXTRACT" || ! -x "$JEXTRACT" ]]; then
    echo "error: jextract not found. Install jextract (https://github.com/openjdk/jextract) and put it on PATH," >&2
    echo "       or set JEXTRACT=/path/to/bin/jextract." >&2
    exit 1
fi

CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
CUDA_INCLUDE="$CUDA_HOME/include"
CUDA_EXTRA_HEADERS=${CUDA_EXTRA_HEADERS:-$REPO_ROOT/../shared/cuda-headers}

if [[ ! -f "$CUDA_INCLUDE/cuda_runtime_api.h" ]]; then
    echo "error: $CUDA_INCLUDE/cuda_runtime_api.h not found (set CUDA_HOME)" >&2
    exit 1
fi
if [[ -d "$CUDA_EXTRA_HEADERS" ]]; then
    CUDA_EXTRA_HEADERS=$(cd "$CUDA_EXTRA_HEADERS" && pwd)
    EXTRA_INCLUDE=(-I "$CUDA_EXTRA_HEADERS")
else
    echo "warning: extra header dir $CUDA_EXTRA_HEADERS not found; relying on $CUDA_INCLUDE only" >&2
    EXTRA_INCLUDE=()
fi

if [[ -z "${NCCL_INCLUDE:-}" ]]; then
    WHEEL_INCLUDE=$(python3 -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "include"))' \
        2>/dev/null || true)
    for dir in "$CUDA_EXTRA_HEADERS" "$CUDA_INCLUDE" "$WHEEL_INCLUDE"; do
        if [[ -n "$dir" && -f "$dir/nccl.h" ]]; then NCCL_INCLUDE=$dir; break; fi
    done
fi
if [[ -z "${NCCL_INCLUDE:-}" || ! -f "$NCCL_INCLUDE/nccl.h" ]]; then
    echo "error: nccl.h not found (set NCCL_INCLUDE to a directory holding NCCL 2.28's nccl.h)" >&2
    exit 1
fi

OUT="$SCRIPT_DIR/src/main/java"
PKG_DIR="$OUT/dev/roofline/bindings"
mkdir -p "$PKG_DIR"

LIBS=("$@")
if [[ ${#LIBS[@]} -eq 0 ]]; then LIBS=(cudart cublaslt nvml nccl); fi
for lib in "${LIBS[@]}"; do
    if [[ ! -f "$SCRIPT_DIR/jextract/$lib.args" ]]; then
        echo "error: no include list bindings/jextract/$lib.args (libraries: cudart cublaslt nvml nccl)" >&2
        exit 2
    fi
    echo "== jextract $lib"
    # Remove the previous output so that symbols dropped from the include list disappear (never loader/ or error/).
    rm -rf "${PKG_DIR:?}/$lib"
    "$JEXTRACT" \
        -I "$CUDA_INCLUDE" \
        "${EXTRA_INCLUDE[@]}" \
        -I "$NCCL_INCLUDE" \
        --output "$OUT" \
        @"$SCRIPT_DIR/jextract/$lib.args" \
        "$SCRIPT_DIR/headers/$lib.h"
    if [[ ! -d "$PKG_DIR/$lib" ]]; then
        echo "error: jextract produced no output for $lib" >&2
        exit 1
    fi
done

echo "Generated sources under $PKG_DIR/: ${LIBS[*]}"
