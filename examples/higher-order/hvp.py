"""Hessian-vector products of the digits CNN loss (examples/digits-cnn):
rlx-grad makes @loss_grad, and rlx-grad of <loss_grad(p), u> with respect
to p (after inlining the call) is H u. Compared with torch (double backward
of the same model) in f64 at step 0, then used for a few steps of steepest
descent with the step size of the local quadratic model,
lr = g.g / g.H g (capped), run identically in rlx and torch.

    PYTHONPATH=python RLX_BUILD_DIR=build /usr/bin/python3 examples/higher-order/hvp.py
"""
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "digits-cnn"))

import digits  # noqa: E402
import rlx  # noqa: E402
from passes import rel, rlx_opt  # noqa: E402

GDOT = """
// <d loss / d p, u>: its gradient in p is the Hessian-vector product H u.
func.func @gdot(%p: tensor<1922xf64>, %x: tensor<32x1x8x8xf64>, %t: tensor<32xi64>,
                %u: tensor<1922xf64>) -> tensor<f64> attributes {rlx.grad = array<i64: 0>} {
  %l, %g = func.call @loss_grad(%p, %x, %t) : (tensor<1922xf64>, tensor<32x1x8x8xf64>, tensor<32xi64>) -> (tensor<f64>, tensor<1922xf64>)
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<f64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<f64>) -> tensor<f64>
  %d = linalg.dot ins(%g, %u : tensor<1922xf64>, tensor<1922xf64>) outs(%z : tensor<f64>) -> tensor<f64>
  return %d : tensor<f64>
}
"""
STEPS = 5
LR_MAX = 2.0
TOL = 1e-9


def main():
    torch.set_num_threads(1)
    text = digits.model_text(np.float64) + GDOT
    text = rlx_opt(text, "--rlx-grad=function=loss", "--inline",
                   "--rlx-grad=function=gdot")
    m = rlx.compile(text)
    images, labels = digits.load_digits()
    x, t = images[:digits.BATCH].astype(np.float64), labels[:digits.BATCH]
    tx, tt = torch.tensor(x), torch.tensor(t)

    p = digits.init_params(seed=3, dtype=np.float64)
    u = np.random.default_rng(1).standard_normal(p.shape)
    _, hu = m.gdot_grad(p, x, t, u)
    tp = torch.tensor(p, requires_grad=True)
    (tg,) = torch.autograd.grad(digits.torch_loss(tp, tx, tt), tp, create_graph=True)
    (thu,) = torch.autograd.grad((tg * torch.tensor(u)).sum(), tp)
    err0 = rel(hu, thu.numpy())
    print("step 0: H u rel error vs torch %.2e" % err0)
    ok = err0 <= TOL

    # Steepest descent with the quadratic model's step, in rlx and torch.
    pr, pt = p.copy(), torch.tensor(p)
    for step in range(STEPS):
        loss, g = m.loss_grad(pr, x, t)
        _, hg = m.gdot_grad(pr, x, t, g)
        curv = float(g @ hg)
        lr = min(float(g @ g) / curv, LR_MAX) if curv > 0 else LR_MAX
        pr = pr - lr * g

        tpp = pt.clone().requires_grad_(True)
        tl = digits.torch_loss(tpp, tx, tt)
        (tg,) = torch.autograd.grad(tl, tpp, create_graph=True)
        (thg,) = torch.autograd.grad((tg * tg.detach()).sum(), tpp)
        tg = tg.detach()
        tcurv = float(tg @ thg)
        tlr = min(float(tg @ tg) / tcurv, LR_MAX) if tcurv > 0 else LR_MAX
        pt = pt - tlr * tg
        err = max(rel(loss, tl.detach().numpy()), abs(lr - tlr) / tlr, rel(pr, pt.numpy()))
        ok &= err <= TOL
        print("step %d: loss %.6f  g.Hg %.4e  lr %.4f  (torch: loss %.6f lr %.4f; rel error %.2e)"
              % (step, float(loss), curv, lr, float(tl), tlr, err))
    final = float(m.loss_grad(pr, x, t)[0])
    print("loss after %d steps: %.6f" % (STEPS, final))
    ok &= final < float(m.loss_grad(p, x, t)[0])
    print("digits CNN Hessian-vector product: %s" % ("ok" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
