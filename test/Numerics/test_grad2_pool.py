# RUN: %python %s
"""Double backward of max_pool2d_backward (direct rule): linear in dy, whose
adjoint reads the cotangent at each window's argmax, and piecewise constant
in x, whose second derivative is zero by definition (a.e.). Against torch
autograd of the first-order gradient (create_graph=True) in f64 and finite
differences of the compiled first-order gradient (random inputs have no
ties, so the selection is locally constant). Padding, stride, dilation and
ceil mode.
"""
import numpy as np
import torch
import torch.nn.functional as F

import gradtest as gt
import rlxtest as rt
from gradtest import Arg

for xs, ys, attrs, kw in [
        ((2, 3, 6, 6), (2, 3, 3, 3),
         "kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>",
         dict(kernel_size=3, stride=2, padding=1)),
        ((2, 2, 7, 7), (2, 2, 3, 3),
         "kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, dilation = array<i64: 2, 2>, ceil_mode = true",
         dict(kernel_size=2, stride=2, dilation=2, ceil_mode=True)),
        ((1, 2, 5, 6), (1, 2, 4, 5),
         "kernel_size = array<i64: 2, 2>, stride = array<i64: 1, 1>",
         dict(kernel_size=2, stride=1))]:
    gt.run_second("rlx.max_pool2d_backward",
                  "  %y = rlx.max_pool2d_backward %a0, %a1 {" + attrs +
                  "} : {T0}, {T1} -> {R}", [Arg(xs), Arg(ys)], xs,
                  lambda x, dy, kw=kw: gt.vjp(lambda x: F.max_pool2d(x, **kw), [x], dy),
                  label=attrs)

rt.finish()
