#!/usr/bin/env bash
# support/llama-server/run.sh DIR ARGS… — runs the llama-server that setup.sh unpacked into DIR, through sid's own
# loader and libraries (the host's C library is older). ggml finds its CPU backends through GGML_BACKEND_DIR and in
# the working directory, so both point at them.
set -euo pipefail
D=${1:?usage: run.sh DIR ARGS…}
shift
L=$D/usr/lib/x86_64-linux-gnu
export GGML_BACKEND_DIR=$L/ggml/backends0
cd "$GGML_BACKEND_DIR"
exec "$L/ld-linux-x86-64.so.2" --library-path "$L:$L/ggml:$L/llama:$L/ggml/backends0" "$D/usr/bin/llama-server" "$@"
