#!/usr/bin/env bash
# The main job, end to end: build rlx, compile a training step (forward and
# backward ops) to native code, run it on the shipped inputs, print the result.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${RLX_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"
example="$root/examples/training-step"
echo "== rlx-opt: the training step decomposed to linalg (first lines)"
"$build/bin/rlx-opt" "$example/step.mlir" --rlx-to-linalg | head -n 12
echo "== rlx-run: compiled with rlx-to-llvm and run on examples/training-step/*.npy"
args=()
for f in "$example"/input*.npy; do args+=(--input="$f"); done
"$build/bin/rlx-run" "$example/step.mlir" --entry=step "${args[@]}"
