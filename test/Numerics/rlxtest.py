"""Shared harness of the numerics suite (test/Numerics/test_*.py).

Each test file:

    import rlxtest as rt
    m = rt.compile(MLIR_TEXT)                 # rlx-to-llvm + JIT (python/rlx)
    got = m.my_fn(x, dy)                      # numpy in, numpy out
    rt.check("rlx.layer_norm_backward_input", got, want)   # want: torch/numpy
    rt.check_fd("rlx.layer_norm_backward_input", fwd, inputs, wrt, dy, got)
    rt.finish()                               # summary; exit 1 on any failure

Errors are normwise relative: max|got - want| / max(max|want|, 1). The
tolerance depends only on the dtype and is defined once, here. NaNs must
match position for position.
"""
import collections
import json
import os
import sys

import numpy as np

import rlx

# One place for tolerances: f64 is tight, f32 loose enough to be honest about
# reduction-order rounding over a few thousand terms.
TOLERANCE = {np.dtype(np.float32): 2e-4, np.dtype(np.float64): 1e-10}
# Central finite differences in f64 (h = 1e-6) are accurate to ~1e-8.
FD_TOLERANCE = 1e-6
FD_STEP = 1e-6

DTYPES = (np.float32, np.float64)

_stats = collections.OrderedDict()   # op -> {"cases": n, dtype: worst}
_failures = []


def rng(seed=0):
    """The suite's fixed-seed generator."""
    return np.random.default_rng(seed)


def compile(source, options=None):
    return rlx.compile(source, options)


def mlir_type(shape, dtype):
    """tensor<AxBx?xf32> for a shape (None = dynamic) and a numpy dtype."""
    names = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
             np.dtype(np.int32): "i32", np.dtype(np.int64): "i64"}
    dims = "".join(("?" if d is None else str(d)) + "x" for d in shape)
    return "tensor<%s%s>" % (dims, names[np.dtype(dtype)])


def rel_error(got, want):
    got = np.asarray(got, dtype=np.float64)
    want = np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        return float("inf")
    nan_got, nan_want = np.isnan(got), np.isnan(want)
    if (nan_got != nan_want).any():
        return float("inf")
    if want.size == 0:
        return 0.0
    # NaN matches NaN and an infinity matches the same infinity exactly.
    same = nan_want | (got == want)
    with np.errstate(invalid="ignore"):  # inf - inf where `same` holds
        diff = np.abs(np.where(same, 0.0, got - want))
    finite_want = np.where(same | ~np.isfinite(want), 0.0, want)
    scale = max(float(np.max(np.abs(finite_want))), 1.0)
    return float(np.max(diff)) / scale


def _record(op, dtype_key, err, tol, label):
    entry = _stats.setdefault(op, {"cases": 0})
    entry["cases"] += 1
    entry[dtype_key] = max(entry.get(dtype_key, 0.0), err)
    if not err <= tol:
        _failures.append("%s [%s] %s: rel error %.3g > %.3g"
                         % (op, dtype_key, label, err, tol))
        print("FAIL: " + _failures[-1], flush=True)


def check(op, got, want, dtype=None, label=""):
    """Compares one result with its reference at the dtype's tolerance."""
    dtype = np.dtype(dtype or np.asarray(got).dtype)
    if np.asarray(got).dtype != dtype:
        _failures.append("%s %s: result dtype %s, expected %s"
                         % (op, label, np.asarray(got).dtype, dtype))
        print("FAIL: " + _failures[-1], flush=True)
    if np.shape(got) != np.shape(want):
        _failures.append("%s %s: result shape %s, expected %s"
                         % (op, label, np.shape(got), np.shape(want)))
        print("FAIL: " + _failures[-1], flush=True)
        return
    _record(op, dtype.name, rel_error(got, want), TOLERANCE[dtype], label)


def check_tolerance(op, key, got, want, tol, label=""):
    """Compares `got` with `want` (both already as f64 values) at an explicit
    tolerance, recorded under the column `key` (test_lowprec.py: "bf16 f32",
    "f16 torch", ...; its tolerance table is the one place for those)."""
    _record(op, key, rel_error(got, want), tol, label)


def numeric_vjp(f, inputs, wrt, dy, step=FD_STEP):
    """Central-difference d/d inputs[wrt] of sum(f(*inputs) * dy) (f64)."""
    x = np.array(inputs[wrt], dtype=np.float64)
    grad = np.zeros_like(x)
    args = list(inputs)
    for idx in np.ndindex(x.shape):
        saved = x[idx]
        x[idx] = saved + step
        args[wrt] = x.copy()
        plus = float(np.sum(np.asarray(f(*args)) * dy))
        x[idx] = saved - step
        args[wrt] = x.copy()
        minus = float(np.sum(np.asarray(f(*args)) * dy))
        x[idx] = saved
        grad[idx] = (plus - minus) / (2 * step)
    return grad


def check_fd(op, forward, inputs, wrt, dy, got, label=""):
    """Checks a compiled gradient `got` against central finite differences of
    the compiled `forward` (f64, small shapes): forward and backward agree."""
    want = numeric_vjp(forward, inputs, wrt, dy)
    _record(op, "fd", rel_error(got, want), FD_TOLERANCE, "fd " + label)


def finish():
    """Prints the per-op case counts and worst errors; exits 1 on failure."""
    name = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    total = sum(e["cases"] for e in _stats.values())
    print("numerics %s: %d cases, %d failures" % (name, total, len(_failures)))
    for op, e in _stats.items():
        cols = " ".join("%s=%.2e" % (k, v) for k, v in e.items()
                        if k != "cases")
        print("  %-40s cases=%-4d %s" % (op, e["cases"], cols))
    out_dir = os.environ.get("RLX_NUMERICS_REPORT_DIR")
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
        with open(os.path.join(out_dir, name + ".json"), "w") as fh:
            json.dump({"ops": _stats, "failures": _failures}, fh, indent=1)
    if total == 0:
        print("FAIL: no case ran")
        sys.exit(1)
    sys.exit(1 if _failures else 0)
