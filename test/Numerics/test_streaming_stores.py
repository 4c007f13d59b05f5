# RUN: %python %s
"""Results written with non-temporal stores (rlx-streaming-stores) are the
results written without them, bit for bit, at 1 and 2 threads, and match
PyTorch. streaming-store-min-bytes=4096 makes the suite's small shapes
stream (the default 4 MiB would need shapes too slow for a test): the
fused row blocks of rms_norm's input gradient (on threads), an
elementwise gradient (gelu, rows of 48 floats: three lines each), and
gelu with rows of 24 floats, whose stores are not all line-aligned, so
that none may stream (rlx-opt shows which do: grep nontemporal).
"""
import numpy as np
import torch

import rlx
import rlxtest as rt

torch.set_num_threads(1)
R = rt.rng(11)
STREAM = "streaming-store-min-bytes=4096"
PLAIN = "streaming-stores=0"


def both(source, args, label):
    """The results with and without streaming stores, at 1 and 2 threads,
    which must be equal bitwise; returns one of them."""
    results = []
    for options in (STREAM, PLAIN):
        module = rt.compile(source, options)
        for threads in (1, 2):
            rlx.set_num_threads(threads)
            results.append(np.asarray(module.f(*args)))
    for r in results[1:]:
        rt.check_tolerance("streaming_stores", "bitwise", r, results[0], 0.0,
                           label)
    return results[0]


def rms_input(rows, d):
    x = R.standard_normal((rows, d)).astype(np.float32)
    g = R.uniform(0.5, 1.5, d).astype(np.float32)
    b = R.standard_normal(d).astype(np.float32)
    dy = R.standard_normal((rows, d)).astype(np.float32)
    t, p = rt.mlir_type((rows, d), np.float32), rt.mlir_type((d,), np.float32)
    src = ("func.func @f(%%x: %s, %%g: %s, %%b: %s, %%dy: %s) -> %s {\n"
           "  %%r = rlx.rms_norm_backward_input %%x, %%g, %%b, %%dy "
           "{axis = -1 : i64, eps = 1.0e-05 : f32} : %s, %s, %s, %s -> %s\n"
           "  return %%r : %s\n}\n" % (t, p, p, t, t, t, p, p, t, t, t))
    got = both(src, [x, g, b, dy], "rms_norm input %dx%d" % (rows, d))
    tx = torch.tensor(x, requires_grad=True)
    y = (tx * torch.rsqrt(tx.pow(2).mean(-1, keepdim=True) + 1e-5)
         * torch.tensor(g) + torch.tensor(b))
    want, = torch.autograd.grad(y, tx, torch.tensor(dy))
    rt.check("rms_norm_backward_input", got, want.numpy(),
             label="streamed %dx%d" % (rows, d))


def gelu(rows, d):
    x = R.standard_normal((rows, d)).astype(np.float32)
    dy = R.standard_normal((rows, d)).astype(np.float32)
    t = rt.mlir_type((rows, d), np.float32)
    src = ("func.func @f(%%x: %s, %%dy: %s) -> %s {\n"
           "  %%r = rlx.activation_backward %%x, %%dy "
           "{kind = #rlx.activation<gelu>} : %s, %s -> %s\n"
           "  return %%r : %s\n}\n" % (t, t, t, t, t, t, t))
    got = both(src, [x, dy], "gelu %dx%d" % (rows, d))
    tx = torch.tensor(x, requires_grad=True)
    want, = torch.autograd.grad(torch.nn.functional.gelu(tx), tx,
                                torch.tensor(dy))
    rt.check("activation_backward", got, want.numpy(),
             label="gelu streamed %dx%d" % (rows, d))


rms_input(256, 64)   # 64 KiB, row blocks on threads
rms_input(96, 48)    # rows of three lines
gelu(200, 48)
gelu(171, 24)        # rows of 1.5 lines: not streamed
rt.finish()
