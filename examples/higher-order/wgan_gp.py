"""A WGAN-GP critic step: the critic D (conv2d -> layer_norm -> gelu ->
linear) is written forward-only; rlx-grad makes dD/dx, the gradient
penalty (||dD/dx(x_hat)||_2 - 1)^2 is written on it, and rlx-grad of the
critic loss

    L = mean D(x_fake) - mean D(x_real) + lambda mean (||grad_x D(x_hat)||_2 - 1)^2

with respect to the parameters differentiates through dD/dx (second order:
conv2d_backward_input, layer_norm_backward_input, activation_backward).
Compared with torch (create_graph=True) in f64 at step 0, then a few SGD
critic steps run identically in rlx and torch.

    PYTHONPATH=python RLX_BUILD_DIR=build /usr/bin/python3 examples/higher-order/wgan_gp.py
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

B, H, C = 8, 6, 4          # batch, image side, conv channels
FEAT = C * H * H           # 144
LAMBDA = 10.0
PARAMS = [("w1", (C, 1, 3, 3)), ("g", (FEAT,)), ("b", (FEAT,)), ("w2", (FEAT, 1))]

MODEL = """
// The critic: one score per image.
func.func @critic(%w1: tensor<4x1x3x3xF>, %g: tensor<144xF>, %b: tensor<144xF>,
                  %w2: tensor<144x1xF>, %x: tensor<8x1x6x6xF>) -> tensor<8xF> {
  %c = rlx.conv2d %x, %w1 {padding = array<i64: 1, 1>} : tensor<8x1x6x6xF>, tensor<4x1x3x3xF> -> tensor<8x4x6x6xF>
  %f = tensor.collapse_shape %c [[0], [1, 2, 3]] : tensor<8x4x6x6xF> into tensor<8x144xF>
  %n = rlx.layer_norm %f, %g, %b {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<8x144xF>, tensor<144xF>, tensor<144xF> -> tensor<8x144xF>
  %a = rlx.activation %n {kind = #rlx.activation<gelu>} : tensor<8x144xF> -> tensor<8x144xF>
  %zero = arith.constant 0.0 : F
  %e = tensor.empty() : tensor<8x1xF>
  %z = linalg.fill ins(%zero : F) outs(%e : tensor<8x1xF>) -> tensor<8x1xF>
  %s = linalg.matmul ins(%a, %w2 : tensor<8x144xF>, tensor<144x1xF>) outs(%z : tensor<8x1xF>) -> tensor<8x1xF>
  %y = tensor.collapse_shape %s [[0, 1]] : tensor<8x1xF> into tensor<8xF>
  return %y : tensor<8xF>
}

// sum_b D(x)_b: its x-gradient holds every per-image dD(x_b)/dx_b (images
// are independent).
func.func @critic_sum(%w1: tensor<4x1x3x3xF>, %g: tensor<144xF>, %b: tensor<144xF>,
                      %w2: tensor<144x1xF>, %x: tensor<8x1x6x6xF>) -> tensor<F> {
  %y = func.call @critic(%w1, %g, %b, %w2, %x) : (tensor<4x1x3x3xF>, tensor<144xF>, tensor<144xF>, tensor<144x1xF>, tensor<8x1x6x6xF>) -> tensor<8xF>
  %zero = arith.constant 0.0 : F
  %e = tensor.empty() : tensor<F>
  %z = linalg.fill ins(%zero : F) outs(%e : tensor<F>) -> tensor<F>
  %s = linalg.reduce ins(%y : tensor<8xF>) outs(%z : tensor<F>) dimensions = [0]
    (%in: F, %acc: F) {
      %a = arith.addf %in, %acc : F
      linalg.yield %a : F
    }
  return %s : tensor<F>
}

func.func private @critic_sum_grad(tensor<4x1x3x3xF>, tensor<144xF>, tensor<144xF>, tensor<144x1xF>, tensor<8x1x6x6xF>)
    -> (tensor<F>, tensor<8x1x6x6xF>)

// The critic loss with the gradient penalty at x_hat.
func.func @loss(%w1: tensor<4x1x3x3xF>, %g: tensor<144xF>, %b: tensor<144xF>, %w2: tensor<144x1xF>,
                %xr: tensor<8x1x6x6xF>, %xf: tensor<8x1x6x6xF>, %xh: tensor<8x1x6x6xF>) -> tensor<F> {
  %dr = func.call @critic(%w1, %g, %b, %w2, %xr) : (tensor<4x1x3x3xF>, tensor<144xF>, tensor<144xF>, tensor<144x1xF>, tensor<8x1x6x6xF>) -> tensor<8xF>
  %df = func.call @critic(%w1, %g, %b, %w2, %xf) : (tensor<4x1x3x3xF>, tensor<144xF>, tensor<144xF>, tensor<144x1xF>, tensor<8x1x6x6xF>) -> tensor<8xF>
  %s, %gx = func.call @critic_sum_grad(%w1, %g, %b, %w2, %xh) : (tensor<4x1x3x3xF>, tensor<144xF>, tensor<144xF>, tensor<144x1xF>, tensor<8x1x6x6xF>) -> (tensor<F>, tensor<8x1x6x6xF>)
  %zero = arith.constant 0.0 : F
  %e8 = tensor.empty() : tensor<8xF>
  %z8 = linalg.fill ins(%zero : F) outs(%e8 : tensor<8xF>) -> tensor<8xF>
  // ||dD/dx_b||^2 per image
  %sq = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n)>],
                        iterator_types = ["parallel", "reduction", "reduction", "reduction"]}
      ins(%gx : tensor<8x1x6x6xF>) outs(%z8 : tensor<8xF>) {
    ^bb0(%v: F, %acc: F):
      %v2 = arith.mulf %v, %v : F
      %a = arith.addf %acc, %v2 : F
      linalg.yield %a : F
  } -> tensor<8xF>
  // mean over the batch of D(x_fake) - D(x_real) + lambda (||.|| - 1)^2
  %e0 = tensor.empty() : tensor<F>
  %z0 = linalg.fill ins(%zero : F) outs(%e0 : tensor<F>) -> tensor<F>
  %l = linalg.generic {indexing_maps = [affine_map<(n) -> (n)>, affine_map<(n) -> (n)>, affine_map<(n) -> (n)>, affine_map<(n) -> ()>],
                       iterator_types = ["reduction"]}
      ins(%df, %dr, %sq : tensor<8xF>, tensor<8xF>, tensor<8xF>) outs(%z0 : tensor<F>) {
    ^bb0(%f: F, %r: F, %q: F, %acc: F):
      %one = arith.constant 1.0 : F
      %lam = arith.constant LAMBDA : F
      %inv = arith.constant 0.125 : F
      %nrm = math.sqrt %q : F
      %dev = arith.subf %nrm, %one : F
      %pen = arith.mulf %dev, %dev : F
      %lp = arith.mulf %lam, %pen : F
      %w = arith.subf %f, %r : F
      %t = arith.addf %w, %lp : F
      %ts = arith.mulf %t, %inv : F
      %a = arith.addf %acc, %ts : F
      linalg.yield %a : F
  } -> tensor<F>
  return %l : tensor<F>
}
"""


def model_text(dtype=np.float64):
    f = "f64" if np.dtype(dtype) == np.float64 else "f32"
    return (MODEL.replace("xF>", "x" + f + ">").replace("<F>", "<" + f + ">")
            .replace(": F", ": " + f).replace("LAMBDA", "%.1f" % LAMBDA))


def build(dtype=np.float64):
    """The critic step's MLIR: @loss_grad(params, x_real, x_fake, x_hat) ->
    (loss, d params), compiled text (rlx-grad, inline, rlx-grad)."""
    return rlx_opt(model_text(dtype), "--inline",
                   "--rlx-grad=function=critic_sum wrt=4", "--inline",
                   "--rlx-grad=function=loss wrt=0,1,2,3")


def init(gen, dtype):
    w1 = gen.standard_normal((C, 1, 3, 3)) * 0.5
    g = 1.0 + 0.1 * gen.standard_normal(FEAT)
    b = 0.1 * gen.standard_normal(FEAT)
    w2 = gen.standard_normal((FEAT, 1)) / np.sqrt(FEAT)
    return [a.astype(dtype) for a in (w1, g, b, w2)]


def batch(gen, dtype):
    """Real images (smooth blobs), fakes (noise), and their interpolation."""
    yy, xx = np.mgrid[0:H, 0:H]
    centers = gen.uniform(1, H - 2, (B, 2))
    real = np.exp(-((yy[None] - centers[:, 0, None, None]) ** 2 +
                    (xx[None] - centers[:, 1, None, None]) ** 2) / 2.0)[:, None]
    fake = gen.standard_normal((B, 1, H, H)) * 0.5
    eps = gen.uniform(0, 1, (B, 1, 1, 1))
    hat = eps * real + (1 - eps) * fake
    return [a.astype(dtype) for a in (real, fake, hat)]


def torch_critic(w1, g, b, w2, x):
    h = F.conv2d(x, w1, padding=1).reshape(B, FEAT)
    h = F.gelu(F.layer_norm(h, (FEAT,), g, b, 1e-5))
    return (h @ w2).reshape(B)


def torch_loss(params, real, fake, hat):
    hat = hat.clone().requires_grad_(True)
    (gx,) = torch.autograd.grad(torch_critic(*params, hat).sum(), hat,
                                create_graph=True)
    pen = (gx.reshape(B, -1).norm(dim=1) - 1) ** 2
    return (torch_critic(*params, fake).sum() - torch_critic(*params, real).sum()
            + LAMBDA * pen.sum()) / B


def torch_step(params, data):
    ps = [torch.tensor(p, requires_grad=True) for p in params]
    loss = torch_loss(ps, *[torch.tensor(d) for d in data])
    grads = torch.autograd.grad(loss, ps)
    return float(loss), [g.numpy() for g in grads]


STEPS, LR, TOL = 5, 0.002, 1e-9


def main():
    torch.set_num_threads(1)
    m = rlx.compile(build(np.float64))
    gen = np.random.default_rng(0)
    params = init(gen, np.float64)
    ok = True
    pr, pt = [p.copy() for p in params], [p.copy() for p in params]
    for step in range(STEPS):
        data = batch(gen, np.float64)
        out = m.loss_grad(*pr, *data)
        loss, grads = float(out[0]), list(out[1:])
        tloss, tgrads = torch_step(pt, data)
        err = worst_error(loss, grads, tloss, tgrads)
        ok &= err <= TOL
        if step == 0:
            for (name, _), g, w in zip(PARAMS, grads, tgrads):
                print("step 0: d%-2s rel error vs torch %.2e" % (name, rel(g, w)))
        print("step %d: critic loss %.6f (torch %.6f), worst rel error %.2e"
              % (step, loss, tloss, err))
        pr = [p - LR * g for p, g in zip(pr, grads)]
        pt = [p - LR * g for p, g in zip(pt, tgrads)]
    print("WGAN-GP critic step: %s" % ("ok" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
