# RUN: %python %s
"""Double backward of gather_backward (direct rule: its adjoint in dy is a
gather, scaled for padding_idx and scale_grad_by_freq), against torch
autograd of the first-order gradient (embedding's backward as index_add, or
index select, with create_graph=True) in f64 and finite differences of the
compiled first-order gradient; indices are integers (not differentiated).
"""
import numpy as np
import torch
import torch.nn.functional as F

import gradtest as gt
import rlxtest as rt
from gradtest import Arg

IDX = np.array([[1, 4, 4], [0, 9, 2]])
T = (10, 4)


def embedding_backward(dy, i, padding_idx=None, scale_grad_by_freq=False):
    """F.embedding's backward written with index_add, so autograd
    differentiates it: torch 1.13's own double backward of embedding drops
    the 1/count factor of scale_grad_by_freq (finite differences agree with
    this formula)."""
    flat = i.reshape(-1)
    w = torch.ones(flat.shape, dtype=dy.dtype)
    if scale_grad_by_freq:
        counts = torch.bincount(flat, minlength=T[0]).to(dy.dtype)
        w = w / counts[flat]
    if padding_idx is not None:
        w = torch.where(flat == padding_idx, torch.zeros_like(w), w)
    rows = dy.reshape(-1, T[1]) * w[:, None]
    return torch.zeros(T, dtype=dy.dtype).index_add(0, flat, rows)
for extra, kwargs in (("", {}), (", padding_idx = 4 : i64", {"padding_idx": 4}),
                      (", scale_grad_by_freq", {"scale_grad_by_freq": True}),
                      (", padding_idx = 2 : i64, scale_grad_by_freq",
                       {"padding_idx": 2, "scale_grad_by_freq": True})):
    gt.run_second("rlx.gather_backward",
                  "  %y = rlx.gather_backward %a0, %a1 {axis = 0 : i64" + extra +
                  "} : {T0}, {T1} -> {R}",
                  [Arg((2, 3, 4)), Arg((2, 3), wrt=False, dtype=np.int64,
                                       sample=lambda g, d: IDX)], T,
                  lambda dy, i, kw=kwargs: embedding_backward(dy, i, **kw),
                  label=extra or "plain")

# axis 1 of a 3-d table with 1-d indices
IDX1 = np.array([3, 0, 3, 6])
# F.embedding's own double backward agrees where it has no scaling.
gt.run_second("rlx.gather_backward",
              "  %y = rlx.gather_backward %a0, %a1 {axis = 0 : i64, padding_idx = 4 : i64}"
              " : {T0}, {T1} -> {R}",
              [Arg((2, 3, 4)), Arg((2, 3), wrt=False, dtype=np.int64,
                                   sample=lambda g, d: IDX)], T,
              lambda dy, i: gt.vjp(lambda t: F.embedding(i, t, padding_idx=4),
                                   [torch.zeros(T, dtype=dy.dtype)], dy),
              label="F.embedding")
gt.run_second("rlx.gather_backward",
              "  %y = rlx.gather_backward %a0, %a1 {axis = 1 : i64} : {T0}, {T1} -> {R}",
              [Arg((2, 4, 3)), Arg((4,), wrt=False, dtype=np.int64,
                                   sample=lambda g, d: IDX1)], (2, 7, 3),
              lambda dy, i: gt.vjp(lambda t: t[:, i], [torch.zeros((2, 7, 3), dtype=dy.dtype)], dy),
              label="axis 1")

rt.finish()
