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
             lambda: m.grad(np.ones((2000000, 3), np.float32), np.ones((1, 3), np.float32)),
             lambda: m.grad(np.ones((4, 5), np.float32), dy),
             lambda: m["missing"](x)):
    try:
        call()
        print("no error")
    except rlx.RlxError as e:
        print("error:", e)
# CHECK: error: function 'grad' takes 2 arguments, got 1
# CHECK: error: function 'grad' argument #0: expected tensor<?x3xf32>, got tensor<4x3xf64>
# CHECK: error: function 'grad': rlx: run-time shape check failed in 'rlx.activation_backward' at loc({{.*}}): expects dim 0 of 'operand #0' to equal dim 0 of 'operand #1'
# CHECK: error: function 'grad' argument #0: expected tensor<?x3xf32>, got tensor<4x5xf32> (dim 1)
# CHECK: error: no public function 'missing' in the module (has: grad, both)

# The module still works after a failed check.
print("after failed check:", bool(np.allclose(m.grad(x, dy), dx)))
# CHECK: after failed check: True


# Results that alias an argument, a constant, or each other; 0-d and empty
# tensors. Called repeatedly: every result is an owned buffer, freed once.
edge = rlx.compile("""
func.func @ident(%x: tensor<3xf32>) -> tensor<3xf32> { return %x : tensor<3xf32> }
func.func @const() -> tensor<2xf64> {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf64>
  return %c : tensor<2xf64>
}
func.func @twice(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  return %x, %x : tensor<3xf32>, tensor<3xf32>
}
func.func @scalar(%x: tensor<f32>) -> tensor<f32> {
  %y = rlx.relu %x : tensor<f32> -> tensor<f32>
  return %y : tensor<f32>
}
func.func @empty(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %y = rlx.relu %x : tensor<?x3xf32> -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
""")
for _ in range(50):
    r = (edge.ident(np.arange(3, dtype=np.float32)).tolist(), edge.const().tolist(),
         [t.tolist() for t in edge.twice(np.ones(3, np.float32))],
         float(edge.scalar(np.array(-2.0, np.float32))), edge.empty(np.zeros((0, 3), np.float32)).shape)
print("edge:", r)
# CHECK: edge: ([0.0, 1.0, 2.0], [1.0, 2.0], {{\[}}[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]], 0.0, (0, 3))

try:
    rlx.compile("func.func @f(")
except rlx.RlxError as e:
    print("compile error:", str(e).splitlines()[0])
# CHECK: compile error: failed to parse the module:
