# RUN: %python %s
"""rlx-grad on every rlx forward op, against PyTorch autograd.

Each case marks a one-op forward function (plus, for some, a reshape or a
reduction to a scalar loss) with `rlx.grad`, compiles it (rlx-to-llvm runs
rlx-grad, then decomposes the *_backward ops the rules emit) and compares
the gradients of every float operand with torch.autograd.grad in f32 and f64,
and in f64 with central finite differences of the compiled forward.
Batches > 1 throughout; fake_quantize's straight-through gradient is checked
against the formula of rlx.fake_quantize_backward instead of autograd.
rlx.scan is checked with and without checkpoints.
"""
import numpy as np
import torch
import torch.nn.functional as F

import gradtest as gt
import rlxtest as rt
from gradtest import Arg


def away_from_zero(shape):
    def sample(gen, dtype):
        x = gen.standard_normal(shape)
        return np.where(np.abs(x) < 0.1, 0.5, x)
    return sample


def positive(shape):
    def sample(gen, dtype):
        return gen.uniform(0.5, 2.0, shape)
    return sample


def unary(op, attrs):
    return "  %y = rlx." + op + " %a0 " + attrs + " : {T0} -> {R}"


# -- activations -------------------------------------------------------------
S = (3, 5)
gt.run_case("rlx.relu", unary("relu", ""), [Arg(S, sample=away_from_zero(S))],
            S, torch.relu)
ACTS = {
    "gelu": (lambda x: F.gelu(x), None),
    "gelu_tanh": (lambda x: F.gelu(x, approximate="tanh"), None),
    "silu": (F.silu, None), "sigmoid": (torch.sigmoid, None),
    "tanh": (torch.tanh, None), "exp": (torch.exp, None),
    "log": (torch.log, positive), "sqrt": (torch.sqrt, positive),
    "rsqrt": (torch.rsqrt, positive), "neg": (torch.neg, None),
    "abs": (torch.abs, away_from_zero), "sin": (torch.sin, None),
    "cos": (torch.cos, None), "tan": (torch.tan, None),
    "atan": (torch.atan, None), "relu": (torch.relu, away_from_zero),
}
for kind, (fn, sampler) in ACTS.items():
    sample = sampler(S) if sampler else (
        (lambda g, d: g.uniform(-1.2, 1.2, S)) if kind == "tan" else None)
    gt.run_case("rlx.activation", unary(
        "activation", "{kind = #rlx.activation<%s>}" % kind),
        [Arg(S, sample=sample)], S, fn, label=kind)

# Kinds with parameters (PyTorch's names) and piecewise kinds (random inputs
# stay away from the kinks).
for kind, params, fn in gt.PARAM_ACTIVATIONS:
    attrs = "{kind = #rlx.activation<%s>%s}" % (kind, ", " + params if params else "")
    gt.run_case("rlx.activation", unary("activation", attrs),
                [Arg(S, sample=lambda g, d: g.uniform(-3.5, 3.5, S) * 1.9 + 0.01)],
                S, fn, label=kind)

# -- norms -------------------------------------------------------------------
X, D = (2, 3, 8), (8,)
for kind in ("layer_norm", "rms_norm"):
    def torch_norm(x, g, b, kind=kind):
        if kind == "layer_norm":
            return F.layer_norm(x, (8,), g, b, 1e-5)
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-5) * g + b
    gt.run_case("rlx." + kind,
                "  %y = rlx." + kind + " %a0, %a1, %a2 {axis = -1 : i64, eps = 1.0e-05 : f32}"
                " : {T0}, {T1}, {T2} -> {R}",
                [Arg(X), Arg(D), Arg(D)], X, torch_norm)
    # only gamma and beta (x is data)
    gt.run_case("rlx." + kind,
                "  %y = rlx." + kind + " %a0, %a1, %a2 {axis = -1 : i64, eps = 1.0e-05 : f32}"
                " : {T0}, {T1}, {T2} -> {R}",
                [Arg(X, wrt=False), Arg(D), Arg(D)], X, torch_norm,
                label="params only")
G = (2, 6, 3, 3)
gt.run_case("rlx.group_norm",
            "  %y = rlx.group_norm %a0, %a1, %a2 {num_groups = 3 : i64, eps = 1.0e-05 : f32}"
            " : {T0}, {T1}, {T2} -> {R}",
            [Arg(G), Arg((6,)), Arg((6,))], G,
            lambda x, g, b: F.group_norm(x, 3, g, b, 1e-5))

# -- conv, pool --------------------------------------------------------------
for (xs, ws, stride, pad, groups, ys) in [
        ((2, 3, 7, 7), (4, 3, 3, 3), 2, 1, 1, (2, 4, 4, 4)),
        ((2, 4, 5, 5), (6, 2, 3, 3), 1, 0, 2, (2, 6, 3, 3))]:
    gt.run_case("rlx.conv2d",
                "  %%y = rlx.conv2d %%a0, %%a1 {stride = array<i64: %d, %d>, "
                "padding = array<i64: %d, %d>, groups = %d : i64} : {T0}, {T1} -> {R}"
                % (stride, stride, pad, pad, groups),
                [Arg(xs), Arg(ws)], ys,
                lambda x, w, s=stride, p=pad, g=groups: F.conv2d(
                    x, w, stride=s, padding=p, groups=g),
                label="s%d p%d g%d" % (stride, pad, groups))
P = (2, 3, 6, 6)
gt.run_case("rlx.max_pool2d",
            "  %y = rlx.max_pool2d %a0 {kernel_size = array<i64: 3, 3>, "
            "stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : {T0} -> {R}",
            [Arg(P)], (2, 3, 3, 3),
            lambda x: F.max_pool2d(x, 3, stride=2, padding=1))

gt.run_case("rlx.max_pool2d",
            "  %y = rlx.max_pool2d %a0 {kernel_size = array<i64: 2, 2>, "
            "stride = array<i64: 2, 2>, dilation = array<i64: 2, 2>, ceil_mode = true} : {T0} -> {R}",
            [Arg((2, 2, 7, 7))], (2, 2, 3, 3),
            lambda x: F.max_pool2d(x, 2, stride=2, dilation=2, ceil_mode=True),
            label="dilation, ceil_mode")

# -- cumsum, gather ----------------------------------------------------------
C = (3, 6)
gt.run_case("rlx.cumsum", "  %y = rlx.cumsum %a0 {axis = 1 : i64} : {T0} -> {R}",
            [Arg(C)], C, lambda x: torch.cumsum(x, 1))
gt.run_case("rlx.cumsum",
            "  %y = rlx.cumsum %a0 {axis = 0 : i64, exclusive} : {T0} -> {R}",
            [Arg(C)], C, lambda x: torch.cumsum(x, 0) - x, label="exclusive")
IDX = np.array([[1, 4, 4], [0, 9, 2]])
gt.run_case("rlx.gather",
            "  %y = rlx.gather %a0, %a1 {axis = 0 : i64} : {T0}, {T1} -> {R}",
            [Arg((10, 4)), Arg((2, 3), wrt=False, dtype=np.int64,
                               sample=lambda g, d: IDX)],
            (2, 3, 4), lambda t, i: t[i])

# -- softmax, cross-entropy --------------------------------------------------
for axis, shape in ((-1, (3, 7)), (1, (2, 4, 5))):
    gt.run_case("rlx.softmax",
                "  %%y = rlx.softmax %%a0 {axis = %d : i64} : {T0} -> {R}" % axis,
                [Arg(shape)], shape, lambda x, a=axis: torch.softmax(x, a),
                label="axis %d" % axis)
for axis, shape in ((-1, (3, 7)), (0, (4, 5))):
    gt.run_case("rlx.log_softmax",
                "  %%y = rlx.log_softmax %%a0 {axis = %d : i64} : {T0} -> {R}" % axis,
                [Arg(shape)], shape, lambda x, a=axis: torch.log_softmax(x, a),
                label="axis %d" % axis)
LAB = np.array([2, 0, 6, 3])
gt.run_case("rlx.softmax_cross_entropy",
            "  %y = rlx.softmax_cross_entropy %a0, %a1 : {T0}, {T1} -> {R}",
            [Arg((4, 7)), Arg((4,), wrt=False, dtype=np.int64,
                              sample=lambda g, d: LAB)],
            (4,), lambda l, t: F.cross_entropy(l, t, reduction="none"))
# scalar loss: mean over the batch by linalg.reduce and a divide
gt.run_case("rlx.softmax_cross_entropy",
            """  %ce = rlx.softmax_cross_entropy %a0, %a1 : {T0}, {T1} -> tensor<4x{F}>
  %z = arith.constant 0.0 : {F}
  %e = tensor.empty() : {R}
  %i = linalg.fill ins(%z : {F}) outs(%e : {R}) -> {R}
  %s = linalg.reduce ins(%ce : tensor<4x{F}>) outs(%i : {R}) dimensions = [0]
    (%in: {F}, %acc: {F}) {
      %a = arith.addf %in, %acc : {F}
      linalg.yield %a : {F}
    }
  %n = arith.constant dense<4.0> : {R}
  %y = arith.divf %s, %n : {R}""",
            [Arg((4, 7)), Arg((4,), wrt=False, dtype=np.int64,
                              sample=lambda g, d: LAB)],
            (), lambda l, t: F.cross_entropy(l, t), label="mean loss")

# -- fake_quantize (straight-through: the formula, not autograd) -------------
Q = (4, 6)


def ste_reference(ste, bits):
    qmax = {8: 127, 4: 7, 2: 1}[bits]

    def ref(inputs, dy):
        x = inputs[0].astype(np.float64)
        s = np.abs(x).max() / qmax
        y = np.clip(np.round(x / s), -qmax, qmax) * s
        factor = {"identity": np.ones_like(x),
                  "clipped_identity": (np.abs(x) <= np.abs(x).max()) * 1.0,
                  "tanh": 1 - np.tanh(x / s) ** 2,
                  "hard_tanh": np.maximum(0, 1 - np.abs(x) / np.abs(x).max())}[ste]
        return y, [factor * dy]
    return ref


for ste in ("identity", "clipped_identity", "tanh", "hard_tanh"):
    gt.run_case("rlx.fake_quantize",
                "  %%y = rlx.fake_quantize %%a0 {bits = 4 : i64, ste = #rlx.ste<%s>}"
                " : {T0} -> {R}" % ste, [Arg(Q)], Q, None, fd=False,
                reference=ste_reference(ste, 4), label=ste)

# -- rope --------------------------------------------------------------------
B, SEQ, H, HD, NROT = 2, 5, 2, 8, 6


def rope_tables(gen, dtype, which):
    pos = np.arange(SEQ)[:, None]
    freq = 1.0 / 10000 ** (np.arange(HD // 2) / (HD // 2))
    ang = pos * freq[None, :]
    return np.cos(ang) if which == "cos" else np.sin(ang)


def torch_rope(x, c, s):
    xs = x.reshape(B, SEQ, H, HD)
    h = NROT // 2
    a, b = xs[..., :h], xs[..., h:NROT]
    cc, ss = c[None, :, None, :h], s[None, :, None, :h]
    y = torch.cat([a * cc - b * ss, b * cc + a * ss, xs[..., NROT:]], -1)
    return y.reshape(B, SEQ, H * HD)


gt.run_case("rlx.rope",
            "  %%y = rlx.rope %%a0, %%a1, %%a2 {head_dim = %d : i64, n_rot = %d : i64}"
            " : {T0}, {T1}, {T2} -> {R}" % (HD, NROT),
            [Arg((B, SEQ, H * HD)),
             Arg((SEQ, HD // 2), wrt=False, sample=lambda g, d: rope_tables(g, d, "cos")),
             Arg((SEQ, HD // 2), wrt=False, sample=lambda g, d: rope_tables(g, d, "sin"))],
            (B, SEQ, H * HD), torch_rope)

# -- attention ---------------------------------------------------------------
def torch_attention(q, k, v, causal, heads=2, d=4):
    def split(x):
        return x.reshape(x.shape[0], x.shape[1], heads, d).transpose(1, 2)
    q4, k4, v4 = split(q), split(k), split(v)
    s = torch.matmul(q4, k4.transpose(-1, -2)) / np.sqrt(d)
    if causal:
        sq, sk = s.shape[-2], s.shape[-1]
        keep = torch.arange(sk)[None, :] <= torch.arange(sq)[:, None] + (sk - sq)
        s = s.masked_fill(~keep, -1e9)
    o = torch.matmul(torch.softmax(s, -1), v4)
    return o.transpose(1, 2).reshape(q.shape)


for mask in ("none", "causal"):
    gt.run_case("rlx.attention",
                "  %%y = rlx.attention %%a0, %%a1, %%a2 {num_heads = 2 : i64, head_dim = 4 : i64, "
                "mask_kind = #rlx.mask_kind<%s>} : {T0}, {T1}, {T2} -> {R}" % mask,
                [Arg((2, 3, 8)), Arg((2, 5, 8)), Arg((2, 5, 8))], (2, 3, 8),
                lambda q, k, v, m=mask: torch_attention(q, k, v, m == "causal"),
                label=mask)

# -- scan --------------------------------------------------------------------
def torch_scan(h, x):
    for t in range(x.shape[0]):
        h = torch.tanh(h * 0.5 + x[t])
    return h


for extra in ("", ", num_checkpoints = 2 : i64"):
    gt.run_case("rlx.scan", """  %y = rlx.scan %a0 xs(%a1 : {T1}) {length = 5 : i64EXTRA} : {T0} -> {R} {
  ^bb0(%h: {T0}, %xt: {T0}):
    %e = tensor.empty() : {T0}
    %half = arith.constant dense<0.5> : {T0}
    %hh = arith.mulf %h, %half : {T0}
    %s = linalg.add ins(%hh, %xt : {T0}, {T0}) outs(%e : {T0}) -> {T0}
    %n = rlx.activation %s {kind = #rlx.activation<tanh>} : {T0} -> {T0}
    rlx.yield %n : {T0}
  }""".replace("EXTRA", extra), [Arg((2, 4)), Arg((5, 2, 4))], (2, 4), torch_scan,
                label="checkpointed" if extra else "")

rt.finish()
