# RUN: %python %s
"""Double backward of the activation family: rlx-grad of relu_backward and
activation_backward (every kind) with respect to x and dy, against torch
autograd of the first-order gradient (create_graph=True) in f64, and
finite differences of the compiled first-order gradient (f64).

relu's second derivative is zero by definition (a.e.): the x-gradient of
relu_backward is zero, as in torch; likewise for the piecewise-linear kinds.
"""
import numpy as np
import torch
import torch.nn.functional as F

import gradtest as gt
import rlxtest as rt
from gradtest import Arg

S = (3, 5)


def away_from_zero(gen, dtype):
    x = gen.standard_normal(S)
    return np.where(np.abs(x) < 0.1, 0.5, x)


def positive(gen, dtype):
    return gen.uniform(0.5, 2.0, S)


def backward_case(op, attrs, fn, sample, label):
    # torch 1.13's double backward of abs reads uninitialised memory for
    # the x-gradient: its first order is written out with sign (whose
    # derivative is zero).
    first = ((lambda x, dy: dy * torch.sign(x)) if fn is torch.abs
             else (lambda x, dy: gt.vjp(fn, [x], dy)))
    gt.run_second("rlx." + op,
                "  %y = rlx." + op + " %a0, %a1 " + attrs + " : {T0}, {T1} -> {R}",
                [Arg(S, sample=sample), Arg(S)], S, first, label=label)


backward_case("relu_backward", "", torch.relu, away_from_zero, "relu")

ACTS = {
    "gelu": (lambda x: F.gelu(x), None),
    "gelu_tanh": (lambda x: F.gelu(x, approximate="tanh"), None),
    "silu": (F.silu, None), "sigmoid": (torch.sigmoid, None),
    "tanh": (torch.tanh, None), "exp": (torch.exp, None),
    "log": (torch.log, positive), "sqrt": (torch.sqrt, positive),
    "rsqrt": (torch.rsqrt, positive), "neg": (torch.neg, None),
    "abs": (torch.abs, away_from_zero), "sin": (torch.sin, None),
    "cos": (torch.cos, None), "tan": (torch.tan, lambda g, d: g.uniform(-1.2, 1.2, S)),
    "atan": (torch.atan, None), "relu": (torch.relu, away_from_zero),
}
for kind, (fn, sample) in ACTS.items():
    backward_case("activation_backward",
                  "{kind = #rlx.activation<%s>}" % kind, fn, sample, kind)


def away_from_kinks(gen, dtype):
    return gen.uniform(-3.5, 3.5, S) * 1.9 + 0.01


for kind, params, fn in gt.PARAM_ACTIVATIONS:
    attrs = "{kind = #rlx.activation<%s>%s}" % (kind, ", " + params if params else "")
    backward_case("activation_backward", attrs, fn, away_from_kinks, kind)

# Third order: rlx-grad of the second-order function.
for kind, fn in (("gelu", F.gelu), ("tanh", torch.tanh), ("silu", F.silu),
                 ("sigmoid", torch.sigmoid), ("exp", torch.exp),
                 ("relu", torch.relu)):
    gt.run_third("rlx.activation_backward",
                 "  %%y = rlx.activation_backward %%a0, %%a1 {kind = #rlx.activation<%s>}"
                 " : {T0}, {T1} -> {R}" % kind,
                 [Arg(S, sample=away_from_zero), Arg(S)], S,
                 lambda x, dy, fn=fn: gt.vjp(fn, [x], dy), label=kind)
gt.run_third("rlx.relu_backward",
             "  %y = rlx.relu_backward %a0, %a1 : {T0}, {T1} -> {R}",
             [Arg(S, sample=away_from_zero), Arg(S)], S,
             lambda x, dy: gt.vjp(torch.relu, [x], dy))

rt.finish()
