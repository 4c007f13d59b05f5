#!/usr/bin/env bash
# The main job, end to end: build rlx, compile a CNN written forward-only in
# MLIR (rlx-grad makes its gradient, the SGD step is in MLIR) to native code
# and train it on the 8x8 digits; print the held-out accuracy.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${RLX_BUILD_DIR:-$root/build}"
"$root/scripts/build.sh"
example="$root/examples/digits-cnn"
echo "== rlx-opt --rlx-grad: the gradient rlx-grad builds from @loss (first lines)"
"$build/bin/rlx-opt" "$example/model.mlir" --rlx-grad | grep -A12 "func.func @loss_grad" | head -n 13
echo "== training the digits CNN (examples/digits-cnn/train.py)"
PYTHONPATH="$root/python" RLX_BUILD_DIR="$build" /usr/bin/python3 "$example/train.py"
