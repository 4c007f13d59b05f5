# RUN: %python %s
"""Double backward of attention_backward (decomposition, all heads at once)
for each `wrt` (query, key, value) with respect to q, k, v, dy and an
additive bias mask, against torch autograd of the first-order gradient
(create_graph=True) in f64, and finite differences of the compiled
first-order gradient. Masks: none, causal, bias.
"""
import numpy as np
import torch

import gradtest as gt
import rlxtest as rt
from gradtest import Arg

HEADS, D = 2, 4
Q, K = (2, 3, 8), (2, 5, 8)


def torch_attention(q, k, v, mask, bias=None):
    def split(x):
        return x.reshape(x.shape[0], x.shape[1], HEADS, D).transpose(1, 2)
    q4, k4, v4 = split(q), split(k), split(v)
    s = torch.matmul(q4, k4.transpose(-1, -2)) / np.sqrt(D)
    if mask == "causal":
        sq, sk = s.shape[-2], s.shape[-1]
        keep = torch.arange(sk)[None, :] <= torch.arange(sq)[:, None] + (sk - sq)
        s = s.masked_fill(~keep, float("-inf"))
    if mask == "bias":
        s = s + bias
    o = torch.matmul(torch.softmax(s, -1), v4)
    return o.transpose(1, 2).reshape(q.shape)


for mask in ("none", "causal", "bias"):
    for wrt, index in (("query", 0), ("key", 1), ("value", 2)):
        args = [Arg(Q), Arg(K), Arg(K), Arg(Q)]
        operands = "%a0, %a1, %a2, %a3"
        types = "{T0}, {T1}, {T2}, {T3}"
        if mask == "bias":
            args.append(Arg((3, 5)))
            operands += ", %a4"
            types += ", {T4}"
        shape = (Q, K, K)[index]

        def first(*t, mask=mask, index=index):
            q, k, v, dy = t[:4]
            bias = t[4] if mask == "bias" else None
            return gt.vjp(lambda q, k, v: torch_attention(q, k, v, mask, bias),
                          [q, k, v], dy, wrt=index)

        gt.run_second("rlx.attention_backward",
                      "  %%y = rlx.attention_backward %s {num_heads = %d : i64, head_dim = %d : i64, "
                      "mask_kind = #rlx.mask_kind<%s>, wrt = #rlx.attention_wrt<%s>} : %s -> {R}"
                      % (operands, HEADS, D, mask, wrt, types),
                      args, shape, first, label="%s %s" % (mask, wrt))

rt.finish()
