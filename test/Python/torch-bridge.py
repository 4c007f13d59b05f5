# RUN: %python %s | FileCheck %s
# rlx.torch.function: a torch model whose middle block (layer_norm + gelu) is
# rlx, its backward rlx-grad's @block_grad, trained with torch's optimizer;
# its losses and gradients match the same model in pure torch.
import numpy as np
import torch

import rlx
import rlx.torch

BLOCK = """
func.func @block(%x: tensor<?x16xT>, %g: tensor<16xT>, %b: tensor<16xT>) -> tensor<?x16xT>
    attributes {rlx.grad} {
  %h = rlx.layer_norm %x, %g, %b {axis = -1 : i64, eps = 1.0e-5 : f32}
      : tensor<?x16xT>, tensor<16xT>, tensor<16xT> -> tensor<?x16xT>
  %y = rlx.activation %h {kind = #rlx.activation<gelu>} : tensor<?x16xT> -> tensor<?x16xT>
  return %y : tensor<?x16xT>
}
"""


# rlx's eps is an f32 attribute: the reference uses the same value.
EPS = float(np.float32(1e-5))


class Model(torch.nn.Module):
    def __init__(self, dtype, block=None):
        super().__init__()
        self.inp = torch.nn.Linear(8, 16, dtype=dtype)
        self.gamma = torch.nn.Parameter(torch.ones(16, dtype=dtype))
        self.beta = torch.nn.Parameter(torch.zeros(16, dtype=dtype))
        self.out = torch.nn.Linear(16, 4, dtype=dtype)
        self.block = block

    def forward(self, x):
        h = self.inp(x)
        if self.block is not None:
            h = self.block(h, self.gamma, self.beta)
        else:
            h = torch.nn.functional.gelu(torch.nn.functional.layer_norm(
                h, (16,), self.gamma, self.beta, eps=EPS))
        return self.out(h)


def train(dtype, steps=10):
    m = rlx.compile(BLOCK.replace("xT>", "x" + {torch.float32: "f32", torch.float64: "f64"}[dtype] + ">"))
    block = rlx.torch.function(m, "block", grad="block_grad")
    torch.manual_seed(0)
    ref = Model(dtype)
    test = Model(dtype, block)
    test.load_state_dict(ref.state_dict())
    opts = [torch.optim.Adam(model.parameters(), lr=1e-2) for model in (ref, test)]
    data = torch.randn(32, 8, dtype=dtype)
    target = torch.randn(32, 4, dtype=dtype)
    loss_err = grad_err = 0.0
    losses = []
    for step in range(steps):
        grads = []
        for model, opt in zip((ref, test), opts):
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(model(data), target)
            loss.backward()
            opt.step()
            grads.append({n: p.grad.clone() for n, p in model.named_parameters()})
            losses.append(loss.item())
        loss_err = max(loss_err, abs(losses[-1] - losses[-2]) / abs(losses[-2]))
        for n, g in grads[0].items():
            scale = g.abs().max().item() or 1.0
            grad_err = max(grad_err, (grads[1][n] - g).abs().max().item() / scale)
        if step == 0:
            step0_err = grad_err
    return losses[0], losses[-1], loss_err, step0_err, grad_err


tolerance = {torch.float64: 1e-12, torch.float32: 1e-4}
for dtype in (torch.float64, torch.float32):
    first, last, loss_err, step0_err, grad_err = train(dtype)
    # Errors relative to each gradient's largest entry, over all parameters.
    print("%s: loss %.4f -> %.4f, max rel loss error %.2g, max rel grad error "
          "%.2g at step 0, %.2g over all steps"
          % (dtype, first, last, loss_err, step0_err, grad_err))
    print("%s: trains %s, matches torch %s" % (
        dtype, last < first, loss_err < tolerance[dtype] and grad_err < tolerance[dtype]))
# CHECK: torch.float64: trains True, matches torch True
# CHECK: torch.float32: trains True, matches torch True

# The block's gradients through torch.autograd.gradcheck (f64).
m = rlx.compile(BLOCK.replace("xT>", "xf64>"))
block = rlx.torch.function(m, "block", grad="block_grad")
args = [torch.randn(5, 16, dtype=torch.float64, requires_grad=True),
        torch.rand(16, dtype=torch.float64, requires_grad=True) + 0.5,
        torch.randn(16, dtype=torch.float64, requires_grad=True)]
print("gradcheck:", torch.autograd.gradcheck(block, args))
# CHECK: gradcheck: True

# Only the arguments that need a gradient get one; a scalar loss seeds 1.
LOSS = """
func.func @loss(%x: tensor<4xf64>, %w: tensor<4xf64>) -> tensor<f64> attributes {rlx.grad} {
  %z = arith.constant dense<0.0> : tensor<f64>
  %p = arith.mulf %x, %w : tensor<4xf64>
  %s = linalg.reduce ins(%p : tensor<4xf64>) outs(%z : tensor<f64>) dimensions = [0]
    (%a: f64, %acc: f64) { %t = arith.addf %a, %acc : f64
                           linalg.yield %t : f64 }
  return %s : tensor<f64>
}
"""
lm = rlx.compile(LOSS)
loss = rlx.torch.function(lm, "loss", grad="loss_grad")
x = torch.arange(4.0, dtype=torch.float64, requires_grad=True)
w = torch.full((4,), 2.0, dtype=torch.float64)
(3 * loss(x, w)).backward()
print("scalar loss:", x.grad.tolist(), w.grad)
# CHECK: scalar loss: [6.0, 6.0, 6.0, 6.0] None

try:
    rlx.torch.function(m, "block", grad="block_grad", wrt=[0])
except ValueError as e:
    print("error:", e)
# CHECK: error: rlx.torch.function: @block_grad returns 4 results; @block's 1 results and 1 gradients (wrt=[0]) make 2
