# RUN: %python %s
"""relu/activation forward and backward vs PyTorch autograd, f32 and f64,
static and dynamic batch, plus finite differences of the compiled forward."""
import numpy as np
import torch

import rlxtest as rt

KINDS = ["gelu", "gelu_tanh", "silu", "sigmoid", "tanh", "exp", "log", "sqrt",
         "rsqrt", "neg", "abs", "sin", "cos", "tan", "atan", "relu"]
# Domains where each function is smooth enough for autograd and FD.
POSITIVE = {"log", "sqrt", "rsqrt"}


def torch_act(kind, x):
    if kind == "gelu":
        return torch.nn.functional.gelu(x)
    if kind == "gelu_tanh":
        return torch.nn.functional.gelu(x, approximate="tanh")
    if kind == "silu":
        return torch.nn.functional.silu(x)
    if kind == "neg":
        return -x
    return getattr(torch, kind)(x)


def module(dtype, shape):
    t = rt.mlir_type(shape, dtype)
    fns = []
    for kind in KINDS:
        fns.append(f"""
func.func @fwd_{kind}(%x: {t}) -> {t} {{
  %y = rlx.activation %x {{kind = #rlx.activation<{kind}>}} : {t} -> {t}
  return %y : {t}
}}
func.func @bwd_{kind}(%x: {t}, %dy: {t}) -> {t} {{
  %dx = rlx.activation_backward %x, %dy {{kind = #rlx.activation<{kind}>}} : {t}, {t} -> {t}
  return %dx : {t}
}}""")
    fns.append(f"""
func.func @relu_bwd(%x: {t}, %dy: {t}) -> {t} {{
  %dx = rlx.relu_backward %x, %dy : {t}, {t} -> {t}
  return %dx : {t}
}}
func.func @relu_fwd(%x: {t}) -> {t} {{
  %y = rlx.relu %x : {t} -> {t}
  return %y : {t}
}}""")
    return rt.compile("\n".join(fns))


def inputs(rng, kind, shape, dtype):
    x = rng.standard_normal(shape)
    if kind in POSITIVE:
        x = np.abs(x) + 0.2
    if kind == "tan":
        x = np.clip(x, -1.2, 1.2)
    return x.astype(dtype), rng.standard_normal(shape).astype(dtype)


rng = rt.rng(0)
for dtype in rt.DTYPES:
    for shape, sig in (((3, 5), (3, 5)), ((4, 7), (None, 7)), ((2, 3, 4), (None, 3, 4))):
        m = module(dtype, sig)
        label = "%s shape=%s sig=%s" % (np.dtype(dtype).name, shape, sig)
        for kind in KINDS:
            x, dy = inputs(rng, kind, shape, dtype)
            tx = torch.tensor(x, requires_grad=True)
            ty = torch_act(kind, tx)
            (gx,) = torch.autograd.grad(ty, tx, torch.tensor(dy))
            rt.check("rlx.activation", m["fwd_" + kind](x), ty.detach().numpy(), label=kind + " " + label)
            rt.check("rlx.activation_backward", m["bwd_" + kind](x, dy), gx.numpy(), label=kind + " " + label)
        x, dy = inputs(rng, "relu", shape, dtype)
        x.flat[0] = 0.0  # relu'(0) = 0, as in PyTorch
        tx = torch.tensor(x, requires_grad=True)
        (gx,) = torch.autograd.grad(torch.relu(tx), tx, torch.tensor(dy))
        rt.check("rlx.relu", m.relu_fwd(x), np.maximum(x, 0), label=label)
        rt.check("rlx.relu_backward", m.relu_bwd(x, dy), gx.numpy(), label=label)

# Kinks: abs'(0) = 0, sqrt'/rsqrt' = 0 where x <= 0 (the contract).
m = module(np.float64, (4,))
x = np.array([0.0, -1.0, 2.0, -0.0])
dy = np.ones(4)
rt.check("rlx.activation_backward", m.bwd_abs(x, dy), np.array([0.0, -1.0, 1.0, 0.0]), label="abs kink")
rt.check("rlx.activation_backward", m.bwd_sqrt(x, dy), np.array([0.0, 0.0, 0.5 / np.sqrt(2), 0.0]), label="sqrt x<=0")
rt.check("rlx.activation_backward", m.bwd_rsqrt(x, dy), np.array([0.0, 0.0, -0.5 * 2 ** -1.5, 0.0]), label="rsqrt x<=0")

# Forward and backward agree: central differences of the compiled forward (f64).
m = module(np.float64, (2, 3))
for kind in KINDS:
    if kind in ("abs", "relu"):
        continue  # kinks: covered above
    x, dy = inputs(rng, kind, (2, 3), np.float64)
    rt.check_fd("rlx.activation_backward", m["fwd_" + kind], [x], 0, dy, m["bwd_" + kind](x, dy), label=kind)

rt.finish()
