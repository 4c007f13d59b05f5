#!/usr/bin/env bash
# Every test: install dependencies, build, run the whole lit suite (dialect,
# transforms, numerics against PyTorch, runtime, C API, install + embedding).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${RLX_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"
exec /usr/lib/llvm-22/bin/lit -sv "$build/test"
