"""A MAML step on a small MLP with rms_norm and gelu: the meta-gradient is
the gradient of the query loss after one inner SGD step on the support set,
through that step:

    theta' = theta - alpha * dL_support/dtheta (theta)
    meta-gradient = d L_query(theta') / d theta

rlx-grad makes @inner_grad; @outer calls it (inlined) and rlx-grad of @outer
differentiates through it (second order: rms_norm_backward_*,
activation_backward, matmuls). Compared with torch (create_graph=True) in
f64 at step 0, then a few meta-training steps over sampled tasks run
identically in rlx and torch.

    PYTHONPATH=python RLX_BUILD_DIR=build /usr/bin/python3 examples/higher-order/maml.py
"""
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import rlx  # noqa: E402
from passes import rel, rlx_opt, worst_error  # noqa: E402

N, DIN, HID, DOUT = 6, 3, 8, 2   # samples per set, MLP sizes
ALPHA, BETA = 0.1, 0.05          # inner and outer learning rates
PARAMS = [("w1", (DIN, HID)), ("b1", (HID,)), ("g", (HID,)), ("beta", (HID,)),
          ("w2", (HID, DOUT))]

TYPES = "tensor<3x8xF>, tensor<8xF>, tensor<8xF>, tensor<8xF>, tensor<8x2xF>"
MODEL = """
// Mean squared error of the MLP x -> rms_norm(x w1 + b1) -> gelu -> w2.
func.func @inner(%w1: tensor<3x8xF>, %b1: tensor<8xF>, %g: tensor<8xF>, %beta: tensor<8xF>,
                 %w2: tensor<8x2xF>, %x: tensor<6x3xF>, %y: tensor<6x2xF>) -> tensor<F> {
  %zero = arith.constant 0.0 : F
  %e = tensor.empty() : tensor<6x8xF>
  %z = linalg.fill ins(%zero : F) outs(%e : tensor<6x8xF>) -> tensor<6x8xF>
  %h = linalg.matmul ins(%x, %w1 : tensor<6x3xF>, tensor<3x8xF>) outs(%z : tensor<6x8xF>) -> tensor<6x8xF>
  %hb = linalg.generic {indexing_maps = [affine_map<(n, c) -> (n, c)>, affine_map<(n, c) -> (c)>, affine_map<(n, c) -> (n, c)>],
                        iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<6x8xF>, tensor<8xF>) outs(%e : tensor<6x8xF>) {
    ^bb0(%v: F, %bv: F, %o: F):
      %s = arith.addf %v, %bv : F
      linalg.yield %s : F
  } -> tensor<6x8xF>
  %n = rlx.rms_norm %hb, %g, %beta {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<6x8xF>, tensor<8xF>, tensor<8xF> -> tensor<6x8xF>
  %a = rlx.activation %n {kind = #rlx.activation<gelu>} : tensor<6x8xF> -> tensor<6x8xF>
  %e2 = tensor.empty() : tensor<6x2xF>
  %z2 = linalg.fill ins(%zero : F) outs(%e2 : tensor<6x2xF>) -> tensor<6x2xF>
  %p = linalg.matmul ins(%a, %w2 : tensor<6x8xF>, tensor<8x2xF>) outs(%z2 : tensor<6x2xF>) -> tensor<6x2xF>
  %e0 = tensor.empty() : tensor<F>
  %z0 = linalg.fill ins(%zero : F) outs(%e0 : tensor<F>) -> tensor<F>
  %l = linalg.generic {indexing_maps = [affine_map<(n, c) -> (n, c)>, affine_map<(n, c) -> (n, c)>, affine_map<(n, c) -> ()>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%p, %y : tensor<6x2xF>, tensor<6x2xF>) outs(%z0 : tensor<F>) {
    ^bb0(%pv: F, %yv: F, %acc: F):
      %inv = arith.constant 0.083333333333333329 : F
      %d = arith.subf %pv, %yv : F
      %d2 = arith.mulf %d, %d : F
      %s = arith.mulf %d2, %inv : F
      %r = arith.addf %acc, %s : F
      linalg.yield %r : F
  } -> tensor<F>
  return %l : tensor<F>
}

func.func private @inner_grad(TYPES, tensor<6x3xF>, tensor<6x2xF>)
    -> (tensor<F>, TYPES)

// The query loss after one inner SGD step on the support set.
func.func @outer(%w1: tensor<3x8xF>, %b1: tensor<8xF>, %g: tensor<8xF>, %beta: tensor<8xF>,
                 %w2: tensor<8x2xF>, %xs: tensor<6x3xF>, %ys: tensor<6x2xF>,
                 %xq: tensor<6x3xF>, %yq: tensor<6x2xF>) -> tensor<F> {
  %ls, %d1, %db1, %dg, %dbeta, %d2 = func.call @inner_grad(%w1, %b1, %g, %beta, %w2, %xs, %ys)
      : (TYPES, tensor<6x3xF>, tensor<6x2xF>) -> (tensor<F>, TYPES)
  %a38 = arith.constant dense<ALPHA> : tensor<3x8xF>
  %a8 = arith.constant dense<ALPHA> : tensor<8xF>
  %a82 = arith.constant dense<ALPHA> : tensor<8x2xF>
  %s1 = arith.mulf %d1, %a38 : tensor<3x8xF>
  %w1n = arith.subf %w1, %s1 : tensor<3x8xF>
  %sb1 = arith.mulf %db1, %a8 : tensor<8xF>
  %b1n = arith.subf %b1, %sb1 : tensor<8xF>
  %sg = arith.mulf %dg, %a8 : tensor<8xF>
  %gn = arith.subf %g, %sg : tensor<8xF>
  %sbeta = arith.mulf %dbeta, %a8 : tensor<8xF>
  %betan = arith.subf %beta, %sbeta : tensor<8xF>
  %s2 = arith.mulf %d2, %a82 : tensor<8x2xF>
  %w2n = arith.subf %w2, %s2 : tensor<8x2xF>
  %lq = func.call @inner(%w1n, %b1n, %gn, %betan, %w2n, %xq, %yq)
      : (TYPES, tensor<6x3xF>, tensor<6x2xF>) -> tensor<F>
  return %lq : tensor<F>
}
"""


def model_text(dtype=np.float64):
    f = "f64" if np.dtype(dtype) == np.float64 else "f32"
    return (MODEL.replace("TYPES", TYPES).replace("xF>", "x" + f + ">")
            .replace("<F>", "<" + f + ">").replace(": F", ": " + f)
            .replace("ALPHA", repr(ALPHA)))


def build(dtype=np.float64):
    """@outer_grad(params, support, query) -> (query loss, meta-gradients)."""
    return rlx_opt(model_text(dtype), "--rlx-grad=function=inner wrt=0,1,2,3,4",
                   "--inline", "--rlx-grad=function=outer wrt=0,1,2,3,4")


def torch_inner(params, x, y):
    w1, b1, g, beta, w2 = params
    h = x @ w1 + b1
    n = h * torch.rsqrt((h * h).mean(-1, keepdim=True) + 1e-5) * g + beta
    return ((F.gelu(n) @ w2 - y) ** 2).mean()


def torch_meta(params, xs, ys, xq, yq):
    ps = [torch.tensor(p, requires_grad=True) for p in params]
    grads = torch.autograd.grad(torch_inner(ps, xs, ys), ps, create_graph=True)
    adapted = [p - ALPHA * g for p, g in zip(ps, grads)]
    loss = torch_inner(adapted, xq, yq)
    return float(loss), [g.numpy() for g in torch.autograd.grad(loss, ps)]


def init(gen):
    return [gen.standard_normal((DIN, HID)) / np.sqrt(DIN), 0.1 * gen.standard_normal(HID),
            1.0 + 0.1 * gen.standard_normal(HID), 0.1 * gen.standard_normal(HID),
            gen.standard_normal((HID, DOUT)) / np.sqrt(HID)]


def task(gen):
    """A random linear-sine regression task: support and query sets."""
    a = gen.standard_normal((DIN, DOUT))
    phase = gen.uniform(0, np.pi, DOUT)

    def sample():
        x = gen.uniform(-2, 2, (N, DIN))
        return x, np.sin(x @ a + phase)
    return sample() + sample()


STEPS, TOL = 5, 1e-9


def main():
    torch.set_num_threads(1)
    m = rlx.compile(build(np.float64))
    gen = np.random.default_rng(0)
    params = init(gen)
    pr, pt = [p.copy() for p in params], [p.copy() for p in params]
    ok = True
    first_loss = None
    for step in range(STEPS):
        xs, ys, xq, yq = task(gen)
        out = m.outer_grad(*pr, xs, ys, xq, yq)
        loss, grads = float(out[0]), list(out[1:])
        tloss, tgrads = torch_meta(pt, *[torch.tensor(a) for a in (xs, ys, xq, yq)])
        err = worst_error(loss, grads, tloss, tgrads)
        ok &= err <= TOL
        if step == 0:
            first_loss = loss
            for (name, _), g, w in zip(PARAMS, grads, tgrads):
                print("step 0: d%-4s rel error vs torch %.2e" % (name, rel(g, w)))
        print("step %d: query loss after adaptation %.6f (torch %.6f), worst rel error %.2e"
              % (step, loss, tloss, err))
        pr = [p - BETA * g for p, g in zip(pr, grads)]
        pt = [p - BETA * g for p, g in zip(pt, tgrads)]
    print("MAML step: %s" % ("ok" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
