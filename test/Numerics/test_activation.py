# RUN: %python %s
"""relu/activation forward and backward vs PyTorch autograd, f32 and f64,
static and dynamic batch, plus finite differences of the compiled forward.
The parameterised kinds (hardtanh, softplus, elu, leaky_relu) run with
PyTorch's defaults and OpInfo-style parameters; every piecewise kind is hit
exactly at its kinks, where PyTorch's backward kernels set the convention."""
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

# ---------------------------------------------------------------------------
# The parameterised and piecewise kinds (hardtanh, softplus, elu, leaky_relu,
# relu6, hardswish, hardsigmoid, mish) with PyTorch's defaults and with
# OpInfo-style parameters, vs torch.nn.functional and its autograd (whose
# backward kernels set the conventions at the kinks).
# ---------------------------------------------------------------------------
F = torch.nn.functional
PARAM_CASES = [
    # (kind, attributes, torch function)
    ("hardtanh", {}, lambda x: F.hardtanh(x)),
    ("hardtanh", {"min_val": -0.5, "max_val": 2.25},
     lambda x: F.hardtanh(x, -0.5, 2.25)),
    ("hardtanh", {"min_val": 0.5, "max_val": 0.5},     # min == max
     lambda x: F.hardtanh(x, 0.5, 0.5)),
    ("softplus", {}, lambda x: F.softplus(x)),
    ("softplus", {"beta": 2.0, "threshold": 1.5},
     lambda x: F.softplus(x, 2.0, 1.5)),
    ("softplus", {"beta": 0.5, "threshold": 30.0},
     lambda x: F.softplus(x, 0.5, 30.0)),
    ("elu", {}, lambda x: F.elu(x)),
    ("elu", {"alpha": 0.3}, lambda x: F.elu(x, 0.3)),
    ("elu", {"alpha": -1.5}, lambda x: F.elu(x, -1.5)),
    ("leaky_relu", {}, lambda x: F.leaky_relu(x)),
    ("leaky_relu", {"negative_slope": 0.2}, lambda x: F.leaky_relu(x, 0.2)),
    ("leaky_relu", {"negative_slope": -1.25},
     lambda x: F.leaky_relu(x, -1.25)),
    ("relu6", {}, lambda x: F.relu6(x)),
    ("hardswish", {}, lambda x: F.hardswish(x)),
    ("hardsigmoid", {}, lambda x: F.hardsigmoid(x)),
    ("mish", {}, lambda x: F.mish(x)),
]
# The points where the piecewise kinds switch, hit exactly by the inputs.
KINKS = [0.0, -1.0, 1.0, -0.5, 2.25, 0.5, 6.0, -3.0, 3.0, 0.75, 60.0,
         -0.0, 25.0, -25.0]


def attr_text(kind, attrs):
    extra = "".join(", %s = %r" % (k, float(v)) for k, v in attrs.items())
    return "{kind = #rlx.activation<%s>%s}" % (kind, extra)


def param_module(dtype, shape):
    t = rt.mlir_type(shape, dtype)
    fns = []
    for i, (kind, attrs, _) in enumerate(PARAM_CASES):
        a = attr_text(kind, attrs)
        fns.append(f"""
func.func @pfwd_{i}(%x: {t}) -> {t} {{
  %y = rlx.activation %x {a} : {t} -> {t}
  return %y : {t}
}}
func.func @pbwd_{i}(%x: {t}, %dy: {t}) -> {t} {{
  %dx = rlx.activation_backward %x, %dy {a} : {t}, {t} -> {t}
  return %dx : {t}
}}""")
    return rt.compile("\n".join(fns))


def param_reference(fn, x, dy):
    tx = torch.tensor(x, requires_grad=True)
    ty = fn(tx)
    (gx,) = torch.autograd.grad(ty, tx, torch.tensor(dy))
    return ty.detach().numpy(), gx.numpy()


for dtype in rt.DTYPES:
    for shape, sig in (((3, 5), (3, 5)), ((4, 7), (None, 7)),
                       ((2, 3, 4), (None, 3, None)), ((5, 16), (None, 16))):
        m = param_module(dtype, sig)
        label = "%s shape=%s sig=%s" % (np.dtype(dtype).name, shape, sig)
        for i, (kind, attrs, fn) in enumerate(PARAM_CASES):
            x = rng.standard_normal(shape) * 4
            if x.size >= len(KINKS):
                x.flat[:len(KINKS)] = KINKS   # exact kinks, ties at bounds
            x = x.astype(dtype)
            dy = rng.standard_normal(shape).astype(dtype)
            want_y, want_dx = param_reference(fn, x, dy)
            if kind == "hardswish":
                # At x = 3 PyTorch 1.13's scalar kernel gives 3/2 (the left
                # derivative, rlx's contract) and its vectorised kernel 1,
                # depending on the element's position: use the contract.
                want_dx = np.where(x == 3, 1.5 * dy, want_dx)
            if kind == "hardsigmoid" and dtype == np.float64:
                # PyTorch's f64 kernel multiplies by the f32 constant 1/6
                # (3e-8 off); compare with the exact derivative.
                want_dx = np.where((x > -3) & (x < 3), dy / 6, 0 * dy)
            case = "%s%s %s" % (kind, attrs or "", label)
            rt.check("rlx.activation", m["pfwd_%d" % i](x), want_y, label=case)
            rt.check("rlx.activation_backward", m["pbwd_%d" % i](x, dy),
                     want_dx, label=case)

# Large magnitudes: softplus/mish must not overflow (exp(1000) = inf).
m = param_module(np.float64, (6,))
x = np.array([-1000.0, -40.0, -1e-8, 1e-8, 40.0, 1000.0])
dy = np.ones(6)
for i, (kind, attrs, fn) in enumerate(PARAM_CASES):
    if kind in ("softplus", "mish", "elu"):
        want_y, want_dx = param_reference(fn, x, dy)
        rt.check("rlx.activation", m["pfwd_%d" % i](x), want_y,
                 label="%s large |x|" % kind)
        rt.check("rlx.activation_backward", m["pbwd_%d" % i](x, dy), want_dx,
                 label="%s large |x|" % kind)

# Forward and backward agree away from the kinks: central differences (f64).
m = param_module(np.float64, (2, 3))
for i, (kind, attrs, fn) in enumerate(PARAM_CASES):
    x = rng.standard_normal((2, 3)) * 4
    kinks = np.array([k for k in KINKS if abs(k) < 30] +
                     [attrs.get("threshold", 20.0) / attrs.get("beta", 1.0)])
    # Move every point at least 1e-3 away from a kink.
    for k in kinks:
        near = np.abs(x - k) < 1e-3
        x[near] = k + 2e-3
    dy = rng.standard_normal((2, 3))
    rt.check_fd("rlx.activation_backward", m["pfwd_%d" % i], [x], 0, dy,
                m["pbwd_%d" % i](x, dy), label="%s%s" % (kind, attrs or ""))

rt.finish()
