# RUN: %python %s
"""Double backward of the softmax family: rlx-grad of softmax_backward,
log_softmax_backward (x and dy, two axes) and
softmax_cross_entropy_backward (logits and dy; labels are integers) against
torch autograd of the first-order gradient (create_graph=True) in f64, and
finite differences of the compiled first-order gradient (f64).
"""
import numpy as np
import torch
import torch.nn.functional as F

import gradtest as gt
import rlxtest as rt
from gradtest import Arg

for op, fn in (("softmax_backward", torch.softmax),
               ("log_softmax_backward", torch.log_softmax)):
    for axis, shape in ((-1, (3, 7)), (1, (2, 4, 5))):
        gt.run_second("rlx." + op,
                    "  %%y = rlx.%s %%a0, %%a1 {axis = %d : i64} : {T0}, {T1} -> {R}"
                    % (op, axis), [Arg(shape), Arg(shape)], shape,
                    lambda x, dy, a=axis, fn=fn: gt.vjp(lambda x: fn(x, a), [x], dy),
                    label="axis %d" % axis)

LAB = np.array([2, 0, 6, 3])
gt.run_second("rlx.softmax_cross_entropy_backward",
            "  %y = rlx.softmax_cross_entropy_backward %a0, %a1, %a2"
            " : {T0}, {T1}, {T2} -> {R}",
            [Arg((4, 7)), Arg((4,), wrt=False, dtype=np.int64,
                              sample=lambda g, d: LAB), Arg((4,))],
            (4, 7), lambda l, t, dy: gt.vjp(
                lambda l: F.cross_entropy(l, t, reduction="none"), [l], dy))

rt.finish()
