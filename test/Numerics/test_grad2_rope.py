# RUN: %python %s
"""Double backward of rope_backward with respect to dy, cos and sin (direct
rule: the adjoint of the inverse rotation is rlx.rope; the tables' gradients
sum the products of the rotated pairs), against torch autograd of the
first-order gradient (create_graph=True) in f64, and finite differences of
the compiled first-order gradient; partial rotation (n_rot < head_dim). Also
the first order of rlx.rope with respect to its tables (the same sums).
"""
import numpy as np
import torch

import gradtest as gt
import rlxtest as rt
from gradtest import Arg

B, SEQ, H, HD, NROT = 2, 5, 2, 8, 6


def torch_rope(x, c, s):
    """[.., S, H*HD] rotated per head by the [S, HD/2] tables."""
    xs = x.reshape(*x.shape[:-1], H, HD)
    h = NROT // 2
    a, b = xs[..., :h], xs[..., h:NROT]
    cc, ss = c[:, None, :h], s[:, None, :h]
    y = torch.cat([a * cc - b * ss, b * cc + a * ss, xs[..., NROT:]], -1)
    return y.reshape(x.shape)


def table(fn):
    def sample(gen, dtype):
        freq = 1.0 / 10000 ** (np.arange(HD // 2) / (HD // 2))
        return fn(np.arange(SEQ)[:, None] * freq[None, :])
    return sample


X = (B, SEQ, H * HD)
gt.run_second("rlx.rope_backward",
              "  %%y = rlx.rope_backward %%a0, %%a1, %%a2 {head_dim = %d : i64, n_rot = %d : i64}"
              " : {T0}, {T1}, {T2} -> {R}" % (HD, NROT),
              [Arg(X), Arg((SEQ, HD // 2), sample=table(np.cos)),
               Arg((SEQ, HD // 2), sample=table(np.sin))], X,
              lambda dy, c, s: gt.vjp(torch_rope, [torch.zeros(X, dtype=dy.dtype), c, s], dy))

gt.run_second("rlx.rope",
              "  %%y = rlx.rope %%a0, %%a1, %%a2 {head_dim = %d : i64, n_rot = %d : i64}"
              " : {T0}, {T1}, {T2} -> {R}" % (HD, NROT),
              [Arg(X), Arg((SEQ, HD // 2)), Arg((SEQ, HD // 2))], X, torch_rope,
              label="first order, tables")
# rank 2 (no batch), dynamic sequence length
gt.run_second("rlx.rope_backward",
              "  %%y = rlx.rope_backward %%a0, %%a1, %%a2 {head_dim = %d : i64, n_rot = %d : i64}"
              " : {T0}, {T1}, {T2} -> {R}" % (HD, NROT),
              [Arg((SEQ, H * HD), mlir_shape=(None, H * HD)), Arg((SEQ, HD // 2)),
               Arg((SEQ, HD // 2))], (SEQ, H * HD),
              lambda dy, c, s: gt.vjp(
                  torch_rope,
                  [torch.zeros((SEQ, H * HD), dtype=dy.dtype), c, s], dy),
              label="rank 2")

rt.finish()
