# RUN: %python %s
"""Double backward of scan_backward and scan_backward_xs (decomposition: the
unrolled walk, whose cloned body_vjp ops are differentiated in turn) with
respect to init, trajectory, upstream and xs, with and without checkpoints
(recomputed carries), against torch autograd of the same walk written in
torch (create_graph=True) in f64, and finite differences of the compiled
first-order gradient. The op's arguments are independent inputs here (the
trajectory is not tied to init and xs).
"""
import math

import numpy as np
import torch

import gradtest as gt
import rlxtest as rt
from gradtest import Arg

L, C = 5, (2, 4)


def body(h, x):
    return torch.tanh(h * 0.5 + x)


def walk(h0, traj, dy, xs, k):
    """The op's definition: carries from the trajectory (recomputed between
    checkpoints), body_vjp of body at each step, t = L-1 .. 0."""
    if k in (0, L):
        saved = {t: traj[t] for t in range(L)}
    else:
        saved = {math.ceil((j + 1) * L / k) - 1: traj[j] for j in range(k)}

    def carry(t):  # c_t, c_{-1} = h0
        start = max([s for s in saved if s <= t], default=-1)
        c = h0 if start < 0 else saved[start]
        for u in range(start + 1, t + 1):
            c = body(c, xs[u])
        return c

    dcarry = torch.zeros_like(h0)
    dxs = [None] * L
    for t in reversed(range(L)):
        d_out = dcarry + dy[t]
        s = carry(t - 1) * 0.5 + xs[t]
        ds = d_out * (1 - torch.tanh(s) ** 2)
        dcarry, dxs[t] = ds * 0.5, ds
    return dcarry, torch.stack(dxs)


BODY_VJP = """  ^bb0(%h: {C}, %xt: {C}, %d: {C}):
    %e = tensor.empty() : {C}
    %half = arith.constant dense<0.5> : {C}
    %hh = arith.mulf %h, %half : {C}
    %s = linalg.add ins(%hh, %xt : {C}, {C}) outs(%e : {C}) -> {C}
    %ds = rlx.activation_backward %s, %d {kind = #rlx.activation<tanh>} : {C}, {C} -> {C}
    %dh = arith.mulf %ds, %half : {C}
    rlx.yield %dh, %ds : {C}, {C}
  }"""
FORWARD = """ forward {
  ^bb0(%h: {C}, %xt: {C}):
    %e = tensor.empty() : {C}
    %half = arith.constant dense<0.5> : {C}
    %hh = arith.mulf %h, %half : {C}
    %s = linalg.add ins(%hh, %xt : {C}, {C}) outs(%e : {C}) -> {C}
    %n = rlx.activation %s {kind = #rlx.activation<tanh>} : {C} -> {C}
    rlx.yield %n : {C}
  }"""

for k in (0, 2):
    rows = L if k == 0 else k
    for op, result, shape, pick in (("scan_backward", "{T0}", C, 0),
                                    ("scan_backward_xs", "{T3}", (L,) + C, 1)):
        attrs = "length = %d : i64" % L
        if k:
            attrs += ", num_checkpoints = %d : i64" % k
        if op == "scan_backward_xs":
            attrs += ", xs_idx = 0 : i64"
        text = ("  %y = rlx." + op + " %a0, %a1, %a2 xs(%a3 : {T3}) {" + attrs +
                "} : {T0}, {T1}, {T2} -> {R} vjp {\n" + BODY_VJP +
                (FORWARD if k else "")).replace("{C}", "tensor<2x4x{F}>")
        gt.run_second("rlx." + op, text,
                      [Arg(C), Arg((rows,) + C), Arg((L,) + C), Arg((L,) + C)],
                      shape,
                      lambda h0, tr, dy, xs, k=k, pick=pick: walk(h0, tr, dy, xs, k)[pick],
                      label="checkpoints %d" % k)

rt.finish()
