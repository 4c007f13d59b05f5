#!/usr/bin/env bash
# Installs dependencies, configures (once) and builds rlx into ${RLX_BUILD_DIR:-build}.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${RLX_BUILD_DIR:-$root/build}"
"$root/scripts/deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
ninja -C "$build" -j"${RLX_JOBS:-2}"
