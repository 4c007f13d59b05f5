# RUN: %python %s
"""Double backward of cumsum_backward (direct rule: its adjoint is
rlx.cumsum), inclusive and exclusive, both axes, static and dynamic length,
and a 40-long axis (the blocked form of the default block length 32, ragged),
against torch autograd of the first-order gradient (create_graph=True) in
f64 and finite differences of the compiled first-order gradient; and the
third order.
"""
import numpy as np
import torch

import gradtest as gt
import rlxtest as rt
from gradtest import Arg

C = (3, 6)
for axis in (0, 1):
    for exclusive in (False, True):
        def cumsum(x, axis=axis, exclusive=exclusive):
            y = torch.cumsum(x, axis)
            return y - x if exclusive else y
        attrs = "{axis = %d : i64%s}" % (axis, ", exclusive" if exclusive else "")
        for dynamic in (False, True):
            mshape = tuple(None if (dynamic and i == axis) else n
                           for i, n in enumerate(C))
            gt.run_second("rlx.cumsum_backward",
                          "  %y = rlx.cumsum_backward %a0 " + attrs +
                          " : {T0} -> {R}", [Arg(C, mlir_shape=mshape)], C,
                          lambda dy, f=cumsum: gt.vjp(
                              f, [torch.zeros(C, dtype=dy.dtype)], dy),
                          label=attrs + (" dynamic" if dynamic else ""))

L = (2, 40)
for exclusive in (False, True):
    def cumsum(x, exclusive=exclusive):
        y = torch.cumsum(x, 1)
        return y - x if exclusive else y
    attrs = "{axis = 1 : i64%s}" % (", exclusive" if exclusive else "")
    gt.run_second("rlx.cumsum_backward",
                  "  %y = rlx.cumsum_backward %a0 " + attrs + " : {T0} -> {R}",
                  [Arg(L)], L,
                  lambda dy, f=cumsum: gt.vjp(
                      f, [torch.zeros(L, dtype=dy.dtype)], dy),
                  label=attrs + " blocked")

gt.run_third("rlx.cumsum_backward",
             "  %y = rlx.cumsum_backward %a0 {axis = 1 : i64} : {T0} -> {R}",
             [Arg(C)], C, lambda dy: gt.vjp(
                 lambda x: torch.cumsum(x, 1), [torch.zeros(C, dtype=dy.dtype)], dy))

rt.finish()
