# RUN: %python %s
"""Double backward of fake_quantize_backward (decomposition): dx = factor(x)
* dy with the straight-through factor of `ste` and the scale recomputed from
x. Linear in dy; in x the identity and clipped_identity factors are
piecewise constant (second derivative zero by definition, a.e.), while tanh
and hard_tanh depend on x, also through max|x|. Against torch autograd of
the factor written with torch ops (create_graph=True) in f64 and finite
differences of the compiled first-order gradient, per tensor and per channel.
"""
import numpy as np
import torch

import gradtest as gt
import rlxtest as rt
from gradtest import Arg

Q = (4, 6)
QMAX = {8: 127, 4: 7, 2: 1}


def ste_first(ste, bits, axis):
    qmax = QMAX[bits]

    def first(x, dy):
        a = torch.abs(x)
        if axis is None:
            m = a.max()
        else:
            dims = [d for d in range(x.dim()) if d != axis % x.dim()]
            m = torch.amax(a, dim=dims, keepdim=True)
        s = m / qmax
        factor = {"identity": lambda: torch.ones_like(x),
                  "clipped_identity": lambda: (a <= m).to(x.dtype),
                  "tanh": lambda: 1 - torch.tanh(x / s) ** 2,
                  "hard_tanh": lambda: torch.clamp(1 - a / m, min=0)}[ste]()
        return factor * dy
    return first


for ste in ("identity", "clipped_identity", "tanh", "hard_tanh"):
    for axis in (None, 1):
        attrs = "bits = 4 : i64, ste = #rlx.ste<%s>" % ste
        if axis is not None:
            attrs += ", axis = %d : i64" % axis
        gt.run_second("rlx.fake_quantize_backward",
                      "  %y = rlx.fake_quantize_backward %a0, %a1 {" + attrs +
                      "} : {T0}, {T1} -> {R}", [Arg(Q), Arg(Q)], Q,
                      ste_first(ste, 4, axis), label=attrs)

rt.finish()
