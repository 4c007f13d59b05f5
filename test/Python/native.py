# RUN: %python %s %S/../Runtime/Inputs | FileCheck %s
# The Python API feels native: compile from a path or text, functions with
# their MLIR signature in help(), numpy arrays and torch tensors passed
# without a copy when C-contiguous, errors with file:line:col.
import pathlib
import pydoc
import sys

import numpy as np
import torch

import rlx

inputs = sys.argv[1]
grad_mlir = inputs + "/grad.mlir"

# --- compile(text_or_path, pipeline_options=...) -----------------------------
m = rlx.compile(grad_mlir)
print("path:", m.functions)
# CHECK: path: ['grad', 'both']
print("pathlib:", rlx.compile(pathlib.Path(grad_mlir), pipeline_options="").functions)
# CHECK: pathlib: ['grad', 'both']
text = open(grad_mlir).read()
print("text:", rlx.compile(text, options="scan-unroll-max-length=4").functions)
# CHECK: text: ['grad', 'both']
for bad in (lambda: rlx.compile(text, pipeline_options="bogus-option=1"),
            lambda: rlx.compile(text, pipeline_options="a", options="b"),
            lambda: rlx.compile(inputs + "/missing.mlir")):
    try:
        bad()
        print("no error")
    except (rlx.RlxError, TypeError, OSError) as e:
        print(type(e).__name__ + ":", str(e).splitlines()[0])
# CHECK: RlxError: invalid rlx-to-llvm pipeline options 'bogus-option=1'
# CHECK: TypeError: compile(): give pipeline_options or its alias options, not both
# CHECK: FileNotFoundError: {{.*}}missing.mlir

# --- help() shows the MLIR signature --------------------------------------------
print(pydoc.render_doc(m.grad, renderer=pydoc.plaintext).splitlines()[2])
# CHECK: grad(arg0: tensor<?x3xf32>, arg1: tensor<?x3xf32>, /) -> tensor<?x3xf32>
print(pydoc.render_doc(m.both, renderer=pydoc.plaintext).splitlines()[2])
# CHECK: both(arg0: tensor<4xf64>, /) -> (tensor<4xf64>, tensor<4xf64>)
print(m.grad.__name__, "|", m.grad.__doc__.splitlines()[0], "|", m.grad.mlir_type)
# CHECK: grad | The compiled MLIR function @grad : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>. | (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
print("dir:", "grad" in dir(m), "both" in dir(m))
# CHECK: dir: True True

# --- arguments: no copy where the layout allows ---------------------------------
passed = []
rlx._call_hook = passed.extend  # the data pointers rlxModuleCall receives


def pointers(f, *args):
    passed.clear()
    out = f(*args)
    return out, list(passed)


x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3)
dy = np.full((4, 3), 2.0, np.float32)
want = (1 - np.tanh(x) ** 2) * dy
out, ptrs = pointers(m.grad, x, dy)
print("numpy C-contiguous: no copy", ptrs == [x.ctypes.data, dy.ctypes.data],
      np.allclose(out, want, atol=1e-6))
# CHECK: numpy C-contiguous: no copy True True

# A strided view is copied once (the runtime takes dense row-major tensors).
xt = np.ascontiguousarray(x.T).T      # Fortran order, same values
rows = np.linspace(-2, 2, 24, dtype=np.float32).reshape(8, 3)[::2]
out_f, ptrs_f = pointers(m.grad, xt, dy)
out_r, ptrs_r = pointers(m.grad, rows, dy)
print("numpy strided: copied", ptrs_f[0] != xt.ctypes.data, ptrs_r[0] != rows.ctypes.data,
      np.allclose(out_f, want, atol=1e-6),
      np.allclose(out_r, (1 - np.tanh(rows) ** 2) * dy, atol=1e-6))
# CHECK: numpy strided: copied True True True True

tx = torch.from_numpy(x.copy()).requires_grad_()
tdy = torch.from_numpy(dy.copy())
out, ptrs = pointers(m.grad, tx, tdy)
print("torch contiguous: no copy", ptrs == [tx.data_ptr(), tdy.data_ptr()],
      type(out).__name__, out.dtype, bool(torch.allclose(out, torch.from_numpy(want), atol=1e-6)))
# CHECK: torch contiguous: no copy True Tensor torch.float32 True
tT = torch.from_numpy(np.ascontiguousarray(x.T)).t()
out, ptrs = pointers(m.grad, tT, tdy)
print("torch strided: copied", ptrs[0] != tT.data_ptr(),
      bool(torch.allclose(out, torch.from_numpy(want), atol=1e-6)))
# CHECK: torch strided: copied True True
rlx._call_hook = None

# Python numbers and lists take the argument's dtype; arrays and tensors of
# another dtype are an error (no silent f64 -> f32).
a, b = m.both([-1, 0, 0.5, 2])
print("list:", a.dtype, a.tolist())
# CHECK: list: float64 [0.0, 0.0, 0.5, 2.0]
for call in (lambda: m.grad(x.astype(np.float64), dy),
             lambda: m.grad(torch.ones(4, 3, dtype=torch.float64), tdy),
             lambda: m.grad(x.astype(np.float16), dy),
             lambda: m.grad(torch.ones(4, 3, dtype=torch.bfloat16), tdy)):
    try:
        call()
        print("no error")
    except rlx.RlxError as e:
        print("error:", e)
# CHECK: error: function 'grad' argument #0: expected tensor<?x3xf32>, got tensor<4x3xf64>
# CHECK: error: function 'grad' argument #0: expected tensor<?x3xf32>, got tensor<4x3xf64>
# CHECK: error: function 'grad' argument #0: expected tensor<?x3xf32>, got tensor<4x3xf16>
# CHECK: error: function 'grad' argument #0: expected tensor<?x3xf32>, got tensor<4x3xbf16>

# --- errors carry the MLIR file, line and column ---------------------------------
for source in (inputs + "/bad.mlir", open(inputs + "/bad.mlir").read(),
               "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  return %y : tensor<4xf32>\n}"):
    try:
        rlx.compile(source)
        print("no error")
    except rlx.RlxError as e:
        print("located:", str(e).splitlines()[1])
# CHECK: located: {{.*}}Runtime/Inputs/bad.mlir:2:8: error: 'rlx.relu' op expects dim 0 of 'operand #0' (4) to equal dim 0 of 'result #0' (5)
# CHECK: located: <string>:2:8: error: 'rlx.relu' op expects dim 0 of 'operand #0' (4) to equal dim 0 of 'result #0' (5)
# CHECK: located: <string>:2:10: error: use of undeclared SSA value name

# --- results: numpy arrays that own the runtime's buffers (no copy) ----------
edge = rlx.compile("""
func.func @twice(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %y = rlx.relu %x : tensor<?xf32> -> tensor<?xf32>
  return %y, %y, %x : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}""")
v = np.array([-1.0, 2.0, -3.0], np.float32)
a, b, c = edge.twice(v)
print("owned:", type(a.base).__name__, a.flags.writeable,
      "aliases:", np.shares_memory(a, b), np.shares_memory(c, v))
# CHECK: owned: _Result True aliases: False False
a[0] = 7.0
print("independent:", a.tolist(), b.tolist(), c.tolist())
# CHECK: independent: [7.0, 2.0, 0.0] [0.0, 2.0, 0.0] [-1.0, 2.0, -3.0]
del edge  # results outlive their module
print("after the module:", (a + b).tolist())
# CHECK: after the module: [7.0, 4.0, 0.0]


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 // 2 ** 20


big = np.ones(1 << 20, np.float32)  # 4 MiB results
relu = rlx.compile("""
func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = rlx.relu %x : tensor<?xf32> -> tensor<?xf32>
  return %y : tensor<?xf32>
}""")
kept = [relu.f(big) for _ in range(5)]
before = rss_mb()
for _ in range(200):
    relu.f(big)
    torch.from_numpy(relu.f(big)).sum()
print("released: %s" % (rss_mb() - before < 64), "kept:", [float(k[-1]) for k in kept])
# CHECK: released: True kept: [1.0, 1.0, 1.0, 1.0, 1.0]

# A module is freed as soon as nothing refers to it or to one of its
# functions (no reference cycle waits for the garbage collector).
import gc
import weakref

gc.disable()
relu_f = relu.f
handle = weakref.ref(relu._owner)
del relu
print("alive with a function:", handle() is not None, relu_f(np.array([-1.0, 1.0], np.float32)).tolist())
# CHECK: alive with a function: True [0.0, 1.0]
del relu_f
print("freed at once:", handle() is None)
# CHECK: freed at once: True
gc.enable()
