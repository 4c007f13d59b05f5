# RUN: %python %s
"""Numerics of rlx.rope and rlx.rope_backward against a numpy reference of
the NeoX rotation and torch autograd of the same rotation written in torch;
finite differences of the compiled forward for the gradient (f64)."""
import numpy as np
import torch

import rlxtest as rt

R = rt.rng(3)
funcs, cases = [], []


def rope_fns(name, xshape, sshape, dtype, head_dim, n_rot):
    xt = rt.mlir_type(xshape, dtype)
    ct = rt.mlir_type(sshape, dtype)
    at = "{head_dim = %d : i64, n_rot = %d : i64}" % (head_dim, n_rot)
    out = []
    for suffix, op in (("fwd", "rope"), ("bwd", "rope_backward")):
        out.append("func.func @%s_%s(%%x: %s, %%c: %s, %%s: %s) -> %s {\n"
                   "  %%y = rlx.%s %%x, %%c, %%s %s : %s, %s, %s -> %s\n"
                   "  return %%y : %s\n}\n"
                   % (name, suffix, xt, ct, ct, xt, op, at, xt, ct, ct, xt, xt))
    return "".join(out)


def rope_np(x, cos, sin, head_dim, n_rot):
    """NeoX rotation per head: y[i] = a c - b t, y[i+h] = b c + a t."""
    h = n_rot // 2
    xs = x.reshape(x.shape[:-1] + (-1, head_dim))
    c, t = cos[:, None, :h], sin[:, None, :h]
    y = xs.copy()
    a, b = xs[..., :h], xs[..., h:n_rot]
    y[..., :h] = a * c - b * t
    y[..., h:n_rot] = b * c + a * t
    return y.reshape(x.shape)


def rope_torch(x, cos, sin, head_dim, n_rot):
    h = n_rot // 2
    xs = x.reshape(x.shape[:-1] + (-1, head_dim))
    c, t = cos[:, None, :h], sin[:, None, :h]
    a, b = xs[..., :h], xs[..., h:n_rot]
    y = torch.cat([a * c - b * t, b * c + a * t, xs[..., n_rot:]], dim=-1)
    return y.reshape(x.shape)


# (x shape, x type shape, head_dim, n_rot): batch > 1, several heads, partial
# rotation (cos/sin have unused columns), odd head_dim, rank 2, no rotation,
# dynamic batch and fully dynamic shapes.
CASES = [((2, 5, 24), (2, 5, 24), 8, 8), ((3, 4, 24), (3, 4, 24), 8, 4),
         ((2, 3, 18), (2, 3, 18), 6, 2), ((2, 3, 15), (2, 3, 15), 5, 4),
         ((7, 16), (7, 16), 4, 4), ((2, 3, 8), (2, 3, 8), 4, 0),
         ((4, 5, 12), (None, 5, 12), 6, 6), ((3, 2, 16), (None, None, None), 8, 6),
         ((6, 10), (None, 10), 10, 8)]
for dtype in rt.DTYPES:
    for i, (shape, tshape, head_dim, n_rot) in enumerate(CASES):
        name = "rope_%s_%d" % (np.dtype(dtype).name, i)
        seq = shape[-2]
        sshape = (None, None) if tshape[-1] is None else (seq, head_dim // 2)
        funcs.append(rope_fns(name, tshape, sshape, dtype, head_dim, n_rot))
        x = R.standard_normal(shape).astype(dtype)
        theta = R.uniform(-np.pi, np.pi, (seq, head_dim // 2))
        cos, sin = np.cos(theta).astype(dtype), np.sin(theta).astype(dtype)
        dy = R.standard_normal(shape).astype(dtype)
        cases.append((name, x, cos, sin, dy, head_dim, n_rot))

m = rt.compile("\n".join(funcs))

for name, x, cos, sin, dy, head_dim, n_rot in cases:
    label = "%s %s D=%d n_rot=%d" % (name, x.shape, head_dim, n_rot)
    y = m[name + "_fwd"](x, cos, sin)
    rt.check("rlx.rope", y, rope_np(x, cos, sin, head_dim, n_rot), label=label)
    xt = torch.tensor(x, requires_grad=True)
    yt = rope_torch(xt, torch.tensor(cos), torch.tensor(sin), head_dim, n_rot)
    rt.check("rlx.rope", y, yt.detach().numpy(), label="torch " + label)
    (want,) = torch.autograd.grad(yt, xt, torch.tensor(dy))
    got = m[name + "_bwd"](dy, cos, sin)
    rt.check("rlx.rope_backward", got, want.numpy(), label=label)
    # The backward is the rotation by -sin.
    rt.check("rlx.rope_backward", got,
             rope_np(dy, cos, -sin, head_dim, n_rot), label="-sin " + label)
    if x.dtype == np.float64 and x.size <= 200:
        rt.check_fd("rlx.rope_backward", m[name + "_fwd"], [x, cos, sin], 0,
                    dy, got, label=label)

rt.finish()
