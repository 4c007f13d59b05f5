# RUN: %python %s | FileCheck %s
# The Python package: compile, call with numpy arrays, get numpy arrays back,
# and a clear RlxError for every bad call.
import numpy as np

import rlx

m = rlx.compile(open(__file__.replace("python-api.py", "Inputs/grad.mlir")).read())
print("functions:", m.functions)
# CHECK: functions: ['grad', 'both']

x = np.linspace(-2, 2, 12, dtype=np.float32).reshape(4, 3)
dy = np.ones_like(x)
dx = m.grad(x, dy)
print("grad:", dx.dtype, dx.shape, bool(np.allclose(dx, 1 - np.tanh(x) ** 2, atol=1e-6)))
# CHECK: grad: float32 (4, 3) True

a, b = m["both"](np.array([-1.0, 0.0, 0.5, 2.0]))
print("both:", a.tolist(), bool(np.allclose(b, np.exp([-1.0, 0.0, 0.5, 2.0]))))
# CHECK: both: [0.0, 0.0, 0.5, 2.0] True

# Inputs are never written to.
print("inputs intact:", bool((dy == 1).all()))
# CHECK: inputs intact: True

for call in (lambda: m.grad(x), lambda: m.grad(x.astype(np.float64), dy),
             lambda: m.grad(np.ones((4, 5), np.float32), dy),
             lambda: m["missing"](x)):
    try:
        call()
        print("no error")
    except rlx.RlxError as e:
        print("error:", e)
# CHECK: error: function 'grad' takes 2 arguments, got 1
# CHECK: error: function 'grad' argument #0: expected tensor<?x3xf32>, got tensor<4x3xf64>
# CHECK: error: function 'grad' argument #0: expected tensor<?x3xf32>, got tensor<4x5xf32> (dim 1)
# CHECK: error: no public function 'missing' in the module (has: grad, both)

try:
    rlx.compile("func.func @f(")
except rlx.RlxError as e:
    print("compile error:", str(e).splitlines()[0])
# CHECK: compile error: failed to parse the module:
