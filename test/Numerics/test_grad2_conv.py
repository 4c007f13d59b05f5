# RUN: %python %s
"""Double backward of the conv family: rlx-grad of conv2d_backward_input
(dy, w), conv2d_backward_weight (x, dy) and conv2d_backward_bias (dy), by
their direct rules (convolutions again) and the decomposition
(backward_bias), against torch autograd of the first-order gradient
(create_graph=True) in f64, and finite differences of the compiled
first-order gradient. Strided, padded, grouped and dilated geometry.
"""
import numpy as np
import torch
import torch.nn.functional as F

import gradtest as gt
import rlxtest as rt
from gradtest import Arg

# (x, w, stride, pad, dilation, groups, y)
GEOMETRY = [((2, 3, 7, 7), (4, 3, 3, 3), 2, 1, 1, 1, (2, 4, 4, 4)),
            ((2, 4, 5, 5), (6, 2, 3, 3), 1, 0, 1, 2, (2, 6, 3, 3)),
            ((1, 2, 7, 6), (2, 2, 2, 2), 1, 1, 2, 1, (1, 2, 7, 6))]

for xs, ws, s, p, d, g, ys in GEOMETRY:
    attrs = ("{stride = array<i64: %d, %d>, padding = array<i64: %d, %d>, "
             "dilation = array<i64: %d, %d>, groups = %d : i64}" % (s, s, p, p, d, d, g))
    label = "s%d p%d d%d g%d" % (s, p, d, g)

    def conv(x, w, s=s, p=p, d=d, g=g):
        return F.conv2d(x, w, stride=s, padding=p, dilation=d, groups=g)

    gt.run_second("rlx.conv2d_backward_input",
                  "  %y = rlx.conv2d_backward_input %a0, %a1 " + attrs +
                  " : {T0}, {T1} -> {R}", [Arg(ys), Arg(ws)], xs,
                  lambda dy, w, conv=conv: gt.vjp(
                      conv, [torch.zeros(xs, dtype=dy.dtype), w], dy, wrt=0),
                  label=label)
    gt.run_second("rlx.conv2d_backward_weight",
                  "  %y = rlx.conv2d_backward_weight %a0, %a1 " + attrs +
                  " : {T0}, {T1} -> {R}", [Arg(xs), Arg(ys)], ws,
                  lambda x, dy, conv=conv, ws=ws: gt.vjp(
                      conv, [x, torch.zeros(ws, dtype=x.dtype)], dy, wrt=1),
                  label=label)

gt.run_second("rlx.conv2d_backward_bias",
              "  %y = rlx.conv2d_backward_bias %a0 : {T0} -> {R}",
              [Arg((2, 4, 3, 5))], (4,), lambda dy: dy.sum((0, 2, 3)))

rt.finish()
