# RUN: %python %s
"""Double backward of the norm family: rlx-grad of every layer_norm,
rms_norm and group_norm backward op with respect to each float operand
(x, gamma, beta, dy), against torch autograd of the first-order gradient
(create_graph=True) in f64, and finite differences of the compiled
first-order gradient (f64). beta never reaches a gradient: its second-order
gradient is zero.
"""
import numpy as np
import torch
import torch.nn.functional as F

import gradtest as gt
import rlxtest as rt
from gradtest import Arg

X, D = (2, 3, 8), (8,)
ATTRS = "{axis = -1 : i64, eps = 1.0e-05 : f32}"


def layer_norm(x, g, b):
    return F.layer_norm(x, (8,), g, b, 1e-5)


def layer_norm_composite(x, g, b):
    # torch 1.13's third order through its native layer_norm double backward
    # disagrees with finite differences in x; the composite formula is the
    # third-order reference.
    m = x.mean(-1, keepdim=True)
    var = ((x - m) ** 2).mean(-1, keepdim=True)
    return (x - m) * torch.rsqrt(var + 1e-5) * g


def rms_norm(x, g, b):
    return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-5) * g + b


def case(op, args, shape, first, label=""):
    n = len(args)
    types = ", ".join("{T%d}" % i for i in range(n))
    gt.run_second("rlx." + op,
                "  %%y = rlx.%s %s %s : %s -> {R}" % (
                    op, ", ".join("%%a%d" % i for i in range(n)),
                    ATTRS if "beta" not in op or "rms" in op else
                    "{axis = -1 : i64}", types),
                args, shape, first, label=label)


# layer_norm: input(x, gamma, dy), gamma(x, dy), beta(dy).
case("layer_norm_backward_input", [Arg(X), Arg(D), Arg(X)], X,
     lambda x, g, dy: gt.vjp(lambda x, g: layer_norm(x, g, None), [x, g], dy))
case("layer_norm_backward_gamma", [Arg(X), Arg(X)], D,
     lambda x, dy: gt.vjp(lambda g, x: layer_norm(x, g, None),
                          [torch.ones(8, dtype=x.dtype), x], dy))
case("layer_norm_backward_beta", [Arg(X)], D,
     lambda dy: gt.vjp(lambda b: b.expand(X) * 1.0, [torch.zeros(8, dtype=dy.dtype)], dy))

# rms_norm: every op takes (x, gamma, beta, dy).
P4 = [Arg(X), Arg(D), Arg(D), Arg(X)]
case("rms_norm_backward_input", P4, X,
     lambda x, g, b, dy: gt.vjp(rms_norm, [x, g, b], dy, wrt=0))
case("rms_norm_backward_gamma", P4, D,
     lambda x, g, b, dy: gt.vjp(rms_norm, [x, g, b], dy, wrt=1))
case("rms_norm_backward_beta", P4, D,
     lambda x, g, b, dy: gt.vjp(rms_norm, [x, g, b], dy, wrt=2))

# group_norm: input(x, gamma, beta, dy), gamma(x, dy), beta(x, dy).
G, C = (2, 6, 3, 3), (6,)
GATTRS = "{num_groups = 3 : i64, eps = 1.0e-05 : f32}"


def group_norm(x, g, b):
    return F.group_norm(x, 3, g, b, 1e-5)


def gcase(op, args, shape, first):
    n = len(args)
    gt.run_second("rlx." + op,
                "  %%y = rlx.%s %s %s : %s -> {R}" % (
                    op, ", ".join("%%a%d" % i for i in range(n)), GATTRS,
                    ", ".join("{T%d}" % i for i in range(n))),
                args, shape, first)


gcase("group_norm_backward_input", [Arg(G), Arg(C), Arg(C), Arg(G)], G,
      lambda x, g, b, dy: gt.vjp(group_norm, [x, g, b], dy, wrt=0))
gcase("group_norm_backward_gamma", [Arg(G), Arg(G)], C,
      lambda x, dy: gt.vjp(lambda g, x: group_norm(x, g, None),
                           [torch.ones(6, dtype=x.dtype), x], dy))
gcase("group_norm_backward_beta", [Arg(G), Arg(G)], C,
      lambda x, dy: gt.vjp(lambda b, x: group_norm(x, torch.ones(6, dtype=x.dtype), b),
                           [torch.zeros(6, dtype=x.dtype), x], dy))

# Third order: rlx-grad of the second-order function of each input gradient.
gt.run_third("rlx.layer_norm_backward_input",
             "  %y = rlx.layer_norm_backward_input %a0, %a1, %a2 " + ATTRS +
             " : {T0}, {T1}, {T2} -> {R}", [Arg(X), Arg(D), Arg(X)], X,
             lambda x, g, dy: gt.vjp(lambda x, g: layer_norm_composite(x, g, None),
                                     [x, g], dy))
gt.run_third("rlx.rms_norm_backward_gamma",
             "  %y = rlx.rms_norm_backward_gamma %a0, %a1, %a2, %a3 " + ATTRS +
             " : {T0}, {T1}, {T2}, {T3} -> {R}", P4, D,
             lambda x, g, b, dy: gt.vjp(rms_norm, [x, g, b], dy, wrt=1))
gt.run_third("rlx.group_norm_backward_input",
             "  %y = rlx.group_norm_backward_input %a0, %a1, %a2, %a3 " + GATTRS +
             " : {T0}, {T1}, {T2}, {T3} -> {R}",
             [Arg(G), Arg(C), Arg(C), Arg(G)], G,
             lambda x, g, b, dy: gt.vjp(group_norm, [x, g, b], dy, wrt=0))

rt.finish()
