#!/usr/bin/env python3
"""Measures the memory that failing calls leave behind.

Makes N failing calls (default 10,000) of each kind and reports the growth of
the process's resident set size (RSS) over them, after a warm-up. A failed
call must free everything it had allocated, so the growth stays at the noise
of the allocator. Kinds:
  check   - a run-time shape check fails after an earlier op has allocated
            its result (the buffers live at the time of the failure);
  limit   - an allocation over the memory limit fails, after another.
Exit status 1 if any kind grows by more than --max-growth-kb.

  PYTHONPATH=python RLX_BUILD_DIR=build /usr/bin/python3 scripts/leak-check.py
"""
import argparse
import os

import numpy as np

import rlx

MODULE = """
func.func @f(%x: tensor<?x64xf32>, %dy: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %a = rlx.activation %x {kind = #rlx.activation<tanh>} : tensor<?x64xf32> -> tensor<?x64xf32>
  %b = rlx.cumsum %a {axis = 1 : i64} : tensor<?x64xf32> -> tensor<?x64xf32>
  %dx = rlx.relu_backward %b, %dy : tensor<?x64xf32>, tensor<?x64xf32> -> tensor<?x64xf32>
  return %dx : tensor<?x64xf32>
}
"""


def rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def run(call, n):
    for _ in range(n):
        try:
            call()
        except rlx.RlxError:
            pass
        else:
            raise SystemExit("a call that should fail succeeded")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=10000)
    parser.add_argument("--max-growth-kb", type=int, default=1024)
    args = parser.parse_args()

    x = np.ones((256, 64), np.float32)  # 64 KiB per buffer
    short = np.ones((255, 64), np.float32)
    m = rlx.compile(MODULE)
    limited = rlx.compile(MODULE, memory_limit=100 * 1024)
    kinds = {
        # x and dy disagree: the check before relu_backward fails after
        # activation and cumsum allocated their results.
        "check": lambda: m.f(x, short),
        # tanh's result fits in the limit, cumsum's does not.
        "limit": lambda: limited.f(x, x),
    }
    ok = True
    for name, call in kinds.items():
        run(call, 1000)  # warm-up: allocator pools, Python caches
        before = rss_kb()
        run(call, args.calls)
        growth = rss_kb() - before
        ok &= growth <= args.max_growth_kb
        print("%s: %d failing calls, RSS %d KiB -> %d KiB (growth %d KiB)"
              % (name, args.calls, before, before + growth, growth))
    print("leak check:", "ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
