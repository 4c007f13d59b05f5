#!/usr/bin/env bash
# The sanitizer job of CI (.ci/run runs it after scripts/test.sh): an
# ASan+UBSan build in build-asan (RLX_SANITIZE: rlx's code, and the code it
# JITs under ASan; RLX_ENABLE_FUZZERS: the libFuzzer targets), then
#  - the dialect, transforms, runtime and C API tests and a reduced numerics
#    subset under the sanitizers (Python runs with the ASan runtime preloaded);
#  - each fuzzer for RLX_FUZZ_SECONDS (default 120) seconds: rlx-fuzz-compile
#    from the lit tests' seed corpus, rlx-fuzz-run from scratch.
# Any sanitizer report, crash or test failure fails the job. (leak-check.test
# is left out: ASan's quarantine holds freed memory, so RSS is no measure.)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${RLX_SANITIZE_BUILD_DIR:-$root/build-asan}"
seconds="${RLX_FUZZ_SECONDS:-120}"
"$root/scripts/deps.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DRLX_SANITIZE=ON -DRLX_ENABLE_FUZZERS=ON
fi
ninja -C "$build" -j"${RLX_JOBS:-2}"

echo "sanitize: build done after ${SECONDS}s"

# LLVM and MLIR keep global state alive to exit on purpose: no leak reports.
# A failed malloc must return NULL (the runtime reports it), not abort.
# No user poisoning: LLVM's BumpPtrAllocator poisons the unused part of its
# slabs in instrumented code only. rlx's libraries instantiate it
# instrumented, libMLIR does not, and both allocate from the same
# StorageUniquer slabs, so memory that libMLIR handed out stays poisoned: a
# false use-after-poison (the compile fuzzer hit it on the first seed with a
# new rlx attribute). Heap, stack and JIT-code checks are unaffected.
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allocator_may_return_null=1:allow_user_poisoning=0"
# The ASan runtime must come first in the fuzzers' library list.
asan_runtime="$(clang++-22 -print-file-name=libclang_rt.asan-x86_64.so)"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
/usr/lib/llvm-22/bin/lit -sv "$build/test/Dialect" "$build/test/Transforms" \
  "$build/test/Runtime/rlx-run.test" "$build/test/Runtime/python-api.py" \
  "$build/test/Runtime/allocation.py" "$build/test/Runtime/shape-contracts.py" \
  "$build/test/Runtime/threads.py" "$build/test/Runtime/threads-memory-limit.py" \
  "$build/test/CAPI" \
  "$build/test/Numerics/test_activation.py" \
  "$build/test/Numerics/test_norm.py" \
  "$build/test/Numerics/test_gather.py" \
  "$build/test/Numerics/test_softmax.py" \
  "$build/test/Numerics/test_attention.py"

echo "sanitize: tests done after ${SECONDS}s"

# -timeout (per input) is generous: a valid module takes seconds under ASan
# on a loaded machine; a hang still fails the job. libFuzzer's timeout
# handler can deadlock while it symbolizes, so `timeout` bounds each run.
fuzz() {
  timeout -k 10 $((seconds + 900)) env LD_PRELOAD="$asan_runtime" "$@" \
    -max_total_time="$seconds" -timeout=300 -rss_limit_mb=4096 \
    -print_final_stats=1 -artifact_prefix="$build/fuzz/"
}
corpus="$build/fuzz/compile-corpus"
mkdir -p "$corpus" "$build/fuzz/run-corpus"
/usr/bin/python3 "$root/scripts/fuzz-corpus.py" "$corpus"
fuzz "$build/bin/rlx-fuzz-compile" -max_len=8192 "$corpus"
fuzz "$build/bin/rlx-fuzz-run" -max_len=512 "$build/fuzz/run-corpus"
echo "sanitize: fuzzing done after ${SECONDS}s"
