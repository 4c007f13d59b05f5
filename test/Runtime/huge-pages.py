# RUN: %python %s | FileCheck %s
# Buffers of 4 MiB or more are 2 MiB-aligned and advised MADV_HUGEPAGE
# (RLX_HUGE_PAGES=0: plain malloc); either way the results are the same.
# A 40 MB embedding gradient, in a child process per setting.
import os
import subprocess
import sys

import numpy as np

if len(sys.argv) > 1:
    import rlx
    m = rlx.compile("""
func.func @f(%dy: tensor<512x512xf32>, %i: tensor<512xi64>) -> tensor<20000x512xf32> {
  %r = rlx.gather_backward %dy, %i {axis = 0 : i64} : tensor<512x512xf32>, tensor<512xi64> -> tensor<20000x512xf32>
  return %r : tensor<20000x512xf32>
}""")
    g = np.random.default_rng(3)
    idx = g.integers(-10, 20000, 512).astype(np.int64)
    dy = g.standard_normal((512, 512)).astype(np.float32)
    want = np.zeros((20000, 512), np.float32)
    for n, v in enumerate(idx):
        if v >= 0:
            want[v] += dy[n]
    for _ in range(3):
        got = m.f(dy, idx)
        assert np.array_equal(got, want)
    print("ok", got.ctypes.data % 64 == 0)
    sys.exit(0)

for setting in ("1", "0"):
    env = dict(os.environ, RLX_HUGE_PAGES=setting)
    out = subprocess.run([sys.executable, __file__, "child"], env=env,
                         capture_output=True, text=True)
    print("RLX_HUGE_PAGES=%s:" % setting, out.stdout.strip(),
          out.stderr.strip()[-300:])
# CHECK: RLX_HUGE_PAGES=1: ok True
# CHECK-NEXT: RLX_HUGE_PAGES=0: ok True
