# RUN: %python %s
"""Numerics of the Norm family against PyTorch autograd.

Forward ops are compared with torch (F.layer_norm, F.group_norm, and the RMS
formula x*rsqrt(mean(x^2)+eps)*gamma+beta written in torch); each backward op
with torch.autograd.grad of the same forward; and, in f64 on small shapes,
with central finite differences of the compiled forward op (rt.check_fd).
Cases: f32 and f64, batch > 1, 3-D [B,S,D] inputs, odd sizes (D=7, C=6 with
G=3, H=5, W=3), G=1 and G=C, dynamic leading dims (and a dynamic D / C),
rows with a large mean offset, constant rows (zero variance) and several eps,
negative ones (-0.5, -0.25, as in PyTorch's OpInfo samples) included.
"""
import numpy as np
import torch
import torch.nn.functional as F

import rlxtest as rt

torch.set_num_threads(1)
R = rt.rng(7)

# ---------------------------------------------------------------------------
# Cases. dyn: which dims are dynamic in the MLIR types (None in the shape).
# ---------------------------------------------------------------------------
ROW_CASES = [
    # (shape, dyn dims, eps, offset, fd)
    ((4, 7), (), 1e-5, 0.0, True),
    ((2, 3, 7), (), 1e-5, 0.0, True),
    ((5,), (), 1e-3, 0.0, True),
    ((6, 16), (0,), 1e-5, 0.0, False),      # dynamic batch
    ((3, 4, 9), (0, 1), 1e-2, 0.0, False),  # two dynamic leading dims
    ((2, 5, 6), (0, 1, 2), 1e-5, 0.0, False),  # every dim dynamic (D too)
    ((8, 33), (), 1e-5, 50.0, False),       # large mean offset
    ((16, 128), (0,), 1e-6, 0.0, False),    # wider rows
    # Negative eps (PyTorch OpInfo samples use -0.5): any finite eps is
    # accepted; inputs are scaled so that var + eps stays positive.
    ((4, 7), (), -0.5, 0.0, True),
    ((3, 2, 9), (0,), -0.5, 0.0, False),    # dynamic batch
    ((5, 6), (0, 1), -0.25, 0.0, False),    # dynamic D
]
GROUP_CASES = [
    # (shape, groups, dyn dims, eps, fd)
    ((2, 6, 5, 3), 3, (), 1e-5, True),
    ((3, 4, 2, 2), 2, (0,), 1e-5, False),   # dynamic N
    ((2, 6, 3, 1), 1, (), 1e-3, True),      # G = 1
    ((2, 4, 3, 3), 4, (), 1e-5, False),     # G = C (instance norm)
    ((2, 8, 4, 5), 2, (0, 1, 2, 3), 1e-5, False),  # every dim dynamic (C too)
    ((1, 6, 7, 3), 3, (), 1e-5, False),     # N = 1
    ((2, 6, 3, 3), 3, (), -0.5, True),      # negative eps (var + eps > 0)
    ((3, 4, 5, 3), 2, (0,), -0.5, False),   # negative eps, dynamic N
]


def mlir_shape(shape, dyn):
    return [None if d in dyn else s for d, s in enumerate(shape)]


def attrs_row(eps):
    return "{axis = -1 : i64, eps = %e : f32}" % eps


def attrs_group(groups, eps):
    return "{num_groups = %d : i64, eps = %e : f32}" % (groups, eps)


def row_functions(name, kind, shape, dyn, eps, dtype):
    """forward (x, g, b) -> y and backward (x, g, b, dy) -> (dx, dg, db)."""
    xt = rt.mlir_type(mlir_shape(shape, dyn), dtype)
    d = None if (len(shape) - 1) in dyn else shape[-1]
    pt = rt.mlir_type([d], dtype)
    a = attrs_row(eps)
    fwd = """
func.func @{n}_fwd(%x: {xt}, %g: {pt}, %b: {pt}) -> {xt} {{
  %y = rlx.{k} %x, %g, %b {a} : {xt}, {pt}, {pt} -> {xt}
  return %y : {xt}
}}""".format(n=name, k=kind, xt=xt, pt=pt, a=a)
    if kind == "layer_norm":
        body = """
  %dx = rlx.layer_norm_backward_input %x, %g, %dy {a} : {xt}, {pt}, {xt} -> {xt}
  %dg = rlx.layer_norm_backward_gamma %x, %dy {a} : {xt}, {xt} -> {pt}
  %db = rlx.layer_norm_backward_beta %dy {{axis = -1 : i64}} : {xt} -> {pt}"""
    else:
        body = """
  %dx = rlx.rms_norm_backward_input %x, %g, %b, %dy {a} : {xt}, {pt}, {pt}, {xt} -> {xt}
  %dg = rlx.rms_norm_backward_gamma %x, %g, %b, %dy {a} : {xt}, {pt}, {pt}, {xt} -> {pt}
  %db = rlx.rms_norm_backward_beta %x, %g, %b, %dy {a} : {xt}, {pt}, {pt}, {xt} -> {pt}"""
    bwd = """
func.func @{n}_bwd(%x: {xt}, %g: {pt}, %b: {pt}, %dy: {xt}) -> ({xt}, {pt}, {pt}) {{""" + body + """
  return %dx, %dg, %db : {xt}, {pt}, {pt}
}}"""
    return fwd + bwd.format(n=name, xt=xt, pt=pt, a=a)


def group_functions(name, shape, groups, dyn, eps, dtype):
    xt = rt.mlir_type(mlir_shape(shape, dyn), dtype)
    pt = rt.mlir_type([None if 1 in dyn else shape[1]], dtype)
    a = attrs_group(groups, eps)
    return """
func.func @{n}_fwd(%x: {xt}, %g: {pt}, %b: {pt}) -> {xt} {{
  %y = rlx.group_norm %x, %g, %b {a} : {xt}, {pt}, {pt} -> {xt}
  return %y : {xt}
}}
func.func @{n}_bwd(%x: {xt}, %g: {pt}, %b: {pt}, %dy: {xt}) -> ({xt}, {pt}, {pt}) {{
  %dx = rlx.group_norm_backward_input %x, %g, %b, %dy {a} : {xt}, {pt}, {pt}, {xt} -> {xt}
  %dg = rlx.group_norm_backward_gamma %x, %dy {a} : {xt}, {xt} -> {pt}
  %db = rlx.group_norm_backward_beta %x, %dy {a} : {xt}, {xt} -> {pt}
  return %dx, %dg, %db : {xt}, {pt}, {pt}
}}""".format(n=name, xt=xt, pt=pt, a=a)


# ---------------------------------------------------------------------------
# Torch references (the eps attribute is an f32: use its exact value).
# ---------------------------------------------------------------------------
def f32(eps):
    return float(np.float32(eps))


def torch_layer_norm(x, g, b, eps):
    return F.layer_norm(x, (x.shape[-1],), g, b, f32(eps))


def torch_rms_norm(x, g, b, eps):
    return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + f32(eps)) * g + b


def torch_group_norm(groups):
    return lambda x, g, b, eps: F.group_norm(x, groups, g, b, f32(eps))


def reference(fn, x, g, b, dy, eps):
    ts = [torch.tensor(a, requires_grad=True) for a in (x, g, b)]
    y = fn(*ts, eps)
    grads = torch.autograd.grad(y, ts, torch.tensor(dy))
    return y.detach().numpy(), [t.numpy() for t in grads]


# ---------------------------------------------------------------------------
# Inputs.
# ---------------------------------------------------------------------------
def inputs(shape, channels, dtype, offset=0.0, eps=0.0):
    # With a negative eps, x is scaled so that var + eps (and mean(x^2) + eps)
    # stays well above 0 for every row or group.
    x = R.standard_normal(shape) * (4.0 if eps < 0 else 1.5) + offset
    g = R.standard_normal(channels) * 0.7 + 1.0
    b = R.standard_normal(channels) * 0.3
    dy = R.standard_normal(shape)
    return [a.astype(dtype) for a in (x, g, b, dy)]


def check_all(m, name, fn, ops, x, g, b, dy, eps, fd, label):
    dtype = x.dtype
    y = m[name + "_fwd"](x, g, b)
    grads = m[name + "_bwd"](x, g, b, dy)
    want_y, want = reference(fn, x, g, b, dy, eps)
    rt.check(ops[0], y, want_y, dtype, label)
    for op, got, w in zip(ops[1:], grads, want):
        rt.check(op, got, w, dtype, label)
    if fd and dtype == np.float64:
        fwd = m[name + "_fwd"]
        for wrt, (op, got) in enumerate(zip(ops[1:], grads)):
            rt.check_fd(op, fwd, [x, g, b], wrt, dy, got, label)


ROW_OPS = {
    "layer_norm": ["rlx.layer_norm", "rlx.layer_norm_backward_input",
                   "rlx.layer_norm_backward_gamma",
                   "rlx.layer_norm_backward_beta"],
    "rms_norm": ["rlx.rms_norm", "rlx.rms_norm_backward_input",
                 "rlx.rms_norm_backward_gamma", "rlx.rms_norm_backward_beta"],
}
GROUP_OPS = ["rlx.group_norm", "rlx.group_norm_backward_input",
             "rlx.group_norm_backward_gamma", "rlx.group_norm_backward_beta"]
TORCH_ROW = {"layer_norm": torch_layer_norm, "rms_norm": torch_rms_norm}


def main():
    # One module for every function: the JIT cost is paid once.
    text, plan = [], []
    for dtype in rt.DTYPES:
        dn = np.dtype(dtype).name
        for kind in ("layer_norm", "rms_norm"):
            for i, (shape, dyn, eps, offset, fd) in enumerate(ROW_CASES):
                name = "%s_%s_%d" % (kind, dn, i)
                text.append(row_functions(name, kind, shape, dyn, eps, dtype))
                plan.append(("row", kind, name, dtype, shape, dyn, eps, offset, fd))
        for i, (shape, groups, dyn, eps, fd) in enumerate(GROUP_CASES):
            name = "group_norm_%s_%d" % (dn, i)
            text.append(group_functions(name, shape, groups, dyn, eps, dtype))
            plan.append(("group", groups, name, dtype, shape, dyn, eps, 0.0, fd))
    m = rt.compile("\n".join(text))

    for entry in plan:
        family, kind, name, dtype, shape, dyn, eps, offset, fd = entry
        label = "%s shape=%s dyn=%s eps=%g offset=%g" % (
            name, shape, dyn, eps, offset)
        if family == "row":
            x, g, b, dy = inputs(shape, shape[-1], dtype, offset, eps)
            check_all(m, name, TORCH_ROW[kind], ROW_OPS[kind], x, g, b, dy,
                      eps, fd, label)
            if (kind == "layer_norm" and len(shape) == 2 and offset == 0
                    and eps >= 1e-5 and dtype == np.float64):
                # Constant rows (zero variance): xh = 0, r = 1/sqrt(eps). The
                # rounding of x - mean (which differs between torch and us) is
                # amplified by 1/sqrt(eps), so only in f64, near-zero means
                # and eps >= 1e-5.
                xc = np.repeat(x[:, :1], shape[-1], axis=1)
                check_all(m, name, TORCH_ROW[kind], ROW_OPS[kind], xc, g, b,
                          dy, eps, False, label + " constant rows")
        else:
            x, g, b, dy = inputs(shape, shape[1], dtype, eps=eps)
            check_all(m, name, torch_group_norm(kind), GROUP_OPS, x, g, b, dy,
                      eps, fd, label)
    rt.finish()


if __name__ == "__main__":
    main()
