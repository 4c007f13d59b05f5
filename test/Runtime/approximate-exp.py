# RUN: %python %s | FileCheck %s
# rlx-approximate-math's f32 exp (ApproximateMath.cpp) compiled and run,
# against numpy's exp in float64: at most 1 ulp wherever the result is a
# normal float, the top binade included (x up to ln FLT_MAX), and the
# special values exact. An odd length runs the vector loop and its scalar
# remainder. (Upstream's approximation, which this replaces, is off by up
# to 5 ulp near the top.)
import numpy as np

import rlx

n = (1 << 20) + 13
text = f"""
func.func @exp(%x: tensor<{n}xf32>) -> tensor<{n}xf32> {{
  %e = tensor.empty() : tensor<{n}xf32>
  %r = linalg.map {{ math.exp }} ins(%x : tensor<{n}xf32>) outs(%e : tensor<{n}xf32>)
  return %r : tensor<{n}xf32>
}}"""
module = rlx.compile(text)

special = {
    np.inf: np.inf, -np.inf: 0.0, 88.7229: np.inf, 89.0: np.inf, 1e30: np.inf,
    -1e30: 0.0, -88.0: 0.0, 0.0: 1.0, -0.0: 1.0,
}
g = np.random.default_rng(7)
x = np.concatenate([
    g.uniform(-87.33, 88.7228, n - 8192 - 16),
    np.linspace(88.0, 88.72283, 4096),  # 2^127 and up: n capped at 127
    np.linspace(-87.336, -86.0, 4096),  # the smallest normal results
    np.zeros(16),
]).astype(np.float32)
x[-len(special) - 1:-1] = list(special)
x[-1] = np.nan

y = np.asarray(module.exp(x))
with np.errstate(over="ignore"):
    ref = np.exp(x.astype(np.float64))
normal = np.isfinite(ref) & (ref >= 2.0**-126) & (ref <= np.finfo(np.float32).max)
ulp = np.abs(y[normal] - ref[normal]) / np.spacing(
    np.abs(ref[normal]).astype(np.float32))
print(f"normal results: {normal.sum() > n - 100}, within 1 ulp: {ulp.max() <= 1.0}")
got = y[-len(special) - 1:-1]
print("special values exact:",
      all(a == b for a, b in zip(got.tolist(), special.values())))
print("NaN stays NaN:", bool(np.isnan(y[-1])))
# CHECK: normal results: True, within 1 ulp: True
# CHECK: special values exact: True
# CHECK: NaN stays NaN: True
