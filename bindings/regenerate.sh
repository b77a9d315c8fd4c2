#!/usr/bin/env bash
# Regenerates the jextract FFM bindings in bindings/src/main/java/dev/roofline/bindings/{cudart,cublaslt,nvml}.
# It replaces those three generated packages only: dev/roofline/bindings/{loader,error} are hand-written and left as
# they are.
#
# Requirements: an installed jextract (JDK 22+ compatible, e.g. a jextract build for JDK 25),
# found via $JEXTRACT or `jextract` on PATH, plus the CUDA 13.0 headers.
#
# Environment overrides:
#   JEXTRACT            path to the jextract launcher (default: `jextract` on PATH)
#   CUDA_HOME           CUDA toolkit root; headers are read from $CUDA_HOME/include (default /usr/local/cuda)
#   CUDA_EXTRA_HEADERS  directory holding cublasLt.h, cublas_api.h, nvml.h when the toolkit lacks them
#                       (default: <repo root>/../shared/cuda-headers)
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

OUT="$SCRIPT_DIR/src/main/java"
PKG_DIR="$OUT/dev/roofline/bindings"
mkdir -p "$PKG_DIR"

for lib in cudart cublaslt nvml; do
    echo "== jextract $lib"
    # Remove the previous output so that symbols dropped from the include list disappear (never loader/ or error/).
    rm -rf "${PKG_DIR:?}/$lib"
    "$JEXTRACT" \
        -I "$CUDA_INCLUDE" \
        "${EXTRA_INCLUDE[@]}" \
        --output "$OUT" \
        @"$SCRIPT_DIR/jextract/$lib.args" \
        "$SCRIPT_DIR/headers/$lib.h"
    if [[ ! -d "$PKG_DIR/$lib" ]]; then
        echo "error: jextract produced no output for $lib" >&2
        exit 1
    fi
done

echo "Generated sources under $PKG_DIR/{cudart,cublaslt,nvml}"
