# RUN: %python %s
"""Numerics of rlx.fake_quantize and rlx.fake_quantize_backward.

PyTorch has no op with this contract, so the references are numpy formulas
implementing the rule exactly, in the case's dtype (np.round is
round-half-to-even, like math.roundeven). Each STE is also checked through
torch autograd of a straight-through surrogate whose derivative is the STE
factor (scale detached). No finite differences: the forward is piecewise
constant, so its numerical derivative says nothing about an STE."""
import numpy as np
import torch

import rlxtest as rt

R = rt.rng(5)
QMAX = {8: 127, 4: 7, 2: 1}
STES = ("identity", "clipped_identity", "tanh", "hard_tanh")
funcs, cases = [], []


def attrs(bits, axis, ste):
    a = "" if axis is None else "axis = %d : i64, " % axis
    return "{%sbits = %d : i64, ste = #rlx.ste<%s>}" % (a, bits, ste)


def fq_fns(name, tshape, dtype, bits, axis, ste):
    t = rt.mlir_type(tshape, dtype)
    at = attrs(bits, axis, ste)
    return ("func.func @%s_fwd(%%x: %s) -> %s {\n"
            "  %%y = rlx.fake_quantize %%x %s : %s -> %s\n"
            "  return %%y : %s\n}\n"
            "func.func @%s_bwd(%%x: %s, %%dy: %s) -> %s {\n"
            "  %%y = rlx.fake_quantize_backward %%x, %%dy %s : %s, %s -> %s\n"
            "  return %%y : %s\n}\n"
            % (name, t, t, at, t, t, t, name, t, t, t, at, t, t, t, t))


def scale(x, bits, axis):
    """s = max|x| / qmax (per tensor, or per channel along axis), keepdims."""
    dims = tuple(d for d in range(x.ndim) if axis is None or d != axis % x.ndim)
    m = np.max(np.abs(x), axis=dims, keepdims=True)
    return (m / x.dtype.type(QMAX[bits])).astype(x.dtype)


def fq_ref(x, bits, axis):
    q = x.dtype.type(QMAX[bits])
    s = scale(x, bits, axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        y = np.clip(np.round(x / s), -q, q) * s
    return np.where(s == 0, x, y).astype(x.dtype)


def abs_max(x, axis):
    dims = tuple(d for d in range(x.ndim) if axis is None or d != axis % x.ndim)
    return np.max(np.abs(x), axis=dims, keepdims=True)


def fq_grad_ref(x, dy, bits, axis, ste):
    # The clip bound qmax*s is max|x| exactly (mathematics, not the rounded
    # product): the largest element is never clipped.
    m = abs_max(x, axis)
    s = scale(x, bits, axis)
    one = x.dtype.type(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        if ste == "identity":
            g = dy
        elif ste == "clipped_identity":
            g = np.where(np.abs(x) <= m, dy, 0)
        elif ste == "tanh":
            g = dy * (one - np.tanh(x / s) ** 2)
        else:
            g = dy * np.maximum(0, one - np.abs(x) / m)
    return np.where(s == 0, dy, g).astype(x.dtype)


def fq_grad_torch(x, dy, bits, axis, ste):
    """torch autograd of y = surrogate(x) + (fq(x) - surrogate(x)).detach()
    with the scale detached; surrogate' is the STE factor. Needs s != 0."""
    xt = torch.tensor(x, requires_grad=True)
    s = torch.tensor(scale(x, bits, axis))
    m = torch.tensor(abs_max(x, axis))  # = qmax*s exactly
    if ste == "identity":
        sur = xt
    elif ste == "clipped_identity":
        sur = torch.clamp(xt, -m, m)
    elif ste == "tanh":
        sur = s * torch.tanh(xt / s)
    else:  # d/dx sign(x)*m*(u - u^2/2), u = min(|x|/m, 1): factor 1 - u
        u = torch.clamp(xt.abs() / m, max=1.0)
        sur = torch.sign(xt) * m * (u - u * u / 2)
    y = sur + (torch.tensor(fq_ref(x, bits, axis)) - sur).detach()
    (g,) = torch.autograd.grad(y, xt, torch.tensor(dy))
    return g.numpy()


# (shape, type shape, axis): per tensor, per channel on the first, a middle
# and the last axis, negative axis, dynamic leading dims, odd sizes.
LAYOUTS = [((5, 7), (5, 7), None), ((3, 4, 5), (3, 4, 5), 0),
           ((3, 4, 5), (3, 4, 5), 1), ((2, 3, 5), (None, 3, 5), -1),
           ((4, 6), (None, 6), None), ((4, 6), (None, 6), 1),
           ((9,), (9,), 0), ((2, 5, 3), (None, None, None), 1)]
i = 0
for dtype in rt.DTYPES:
    for bi, bits in enumerate((8, 4, 2)):
        for li, (shape, tshape, axis) in enumerate(LAYOUTS):
            # Two STEs per (bits, layout), rotating so that every layout meets
            # all four STEs over the bit widths and every width all four.
            for ste in (STES[(li + bi) % 4], STES[(li + bi + 2) % 4]):
                name = "fq_%d" % i
                i += 1
                funcs.append(fq_fns(name, tshape, dtype, bits, axis, ste))
                x = (R.standard_normal(shape) * 2).astype(dtype)
                dy = R.standard_normal(shape).astype(dtype)
                cases.append((name, x, dy, bits, axis, ste, True))

# s == 0: an all-zero tensor (per tensor and per channel), and a per-channel
# tensor with one all-zero channel (only that channel has s == 0).
for dtype in rt.DTYPES:
    for ste in STES:
        for shape, axis in (((3, 4), None), ((3, 4), 1)):
            name = "fq_%d" % i
            i += 1
            funcs.append(fq_fns(name, (None, 4), dtype, 8, axis, ste))
            x = np.zeros(shape, dtype)
            dy = R.standard_normal(shape).astype(dtype)
            cases.append((name, x, dy, 8, axis, ste, False))
        name = "fq_%d" % i
        i += 1
        funcs.append(fq_fns(name, (3, 4), dtype, 4, 0, ste))
        x = R.standard_normal((3, 4)).astype(dtype)
        x[1] = 0
        dy = R.standard_normal((3, 4)).astype(dtype)
        cases.append((name, x, dy, 4, 0, ste, False))
    # Round-half-to-even ties: max|x| = 127 gives s = 1 exactly.
    name = "fq_%d" % i
    i += 1
    funcs.append(fq_fns(name, (8,), dtype, 8, None, "hard_tanh"))
    x = np.array([127, 0.5, 1.5, 2.5, -0.5, -2.5, 3.5, -126.5], dtype)
    cases.append((name, x, np.ones(8, dtype), 8, None, "hard_tanh", True))

m = rt.compile("\n".join(funcs))

for name, x, dy, bits, axis, ste, torch_check in cases:
    label = "%s %s bits=%d axis=%s ste=%s" % (name, x.shape, bits, axis, ste)
    rt.check("rlx.fake_quantize", m[name + "_fwd"](x), fq_ref(x, bits, axis),
             label=label)
    got = m[name + "_bwd"](x, dy)
    rt.check("rlx.fake_quantize_backward", got,
             fq_grad_ref(x, dy, bits, axis, ste), label=label)
    if torch_check:
        rt.check("rlx.fake_quantize_backward (torch STE)", got,
                 fq_grad_torch(x, dy, bits, axis, ste), label=label)

# Regression: in f32, 127 * (m / 127) < m for m = 0.9990273; the largest
# element must still pass clipped_identity's |x| <= qmax*s (= max|x|).
m = rt.compile(fq_fns("round", (3,), np.float32, 8, None, "clipped_identity"))
x = np.array([0.9990273, -0.5, 0.25], dtype=np.float32)
assert np.float32(127) * np.float32(x[0] / np.float32(127)) < x[0]
rt.check("rlx.fake_quantize_backward", m.round_bwd(x, np.ones(3, np.float32)),
         np.ones(3, np.float32), label="max element not clipped by rounding")

rt.finish()
