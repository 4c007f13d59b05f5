# RUN: %python %s
"""rlx.cumsum and rlx.cumsum_backward against PyTorch autograd.

torch.cumsum is the inclusive sum; the exclusive one is cumsum(x) - x.
Compared: the default options (the tiled scan along a last axis longer than
the block length of a static number of rows that 16 divides, the blocked
form for the other static axes longer than the block length, the L x L
matrix for shorter ones, the O(L) scan for dynamic axes); the tiled scan
with tiles of 2 KiB (chunks of 32 f32 or 16 f64 elements: the running sums
carried across many tiles); with the tiles off: the scan for every static
axis longer than 4
(cumsum-matrix-max-length=4, which also caps the block's matrix; the forward
lowering has its own forward-* options); the L x L matrix up to 1024
(block length 0); the blocked form with blocks of 8 (L = B + 1, a multiple
of B, ragged, every direction and axis position) with the block totals summed
by a matrix, and with blocks of 4 and a matrix cap of 8, so that the totals
of more than 8 blocks are scanned. Then finite differences (f64) of the
compiled forward check the compiled gradient.
"""
import numpy as np
import torch

import rlxtest as rt

# (name, static shape, dynamic dims, axis, exclusive)
CASES = [
    ("last", (3, 7), (), 1, False),
    ("last_excl", (3, 7), (), -1, True),
    ("first", (6, 3), (), 0, False),
    ("middle", (2, 5, 4), (), 1, True),
    ("middle_neg", (2, 5, 4), (), -2, False),
    ("rank1", (11,), (), 0, True),
    ("long", (2, 300), (), 1, False),
    ("long_excl_first", (300, 3), (), 0, True),
    ("dyn_batch", (4, 9), (0,), 1, False),
    ("dyn_axis", (3, 13), (1,), 1, True),
    ("dyn_all", (2, 3, 6), (0, 1, 2), 2, False),
    # Longer than the blocks of 8 (and 4) of the blocked runs below, the
    # last ones than the default block length as well.
    ("b_plus1", (3, 9), (), 1, False),
    ("b_plus1_excl_mid", (2, 9, 3), (), 1, True),
    ("b_multiple_dyn", (4, 32), (0,), 1, True),
    ("b_first", (33, 2, 2), (), 0, False),
    ("b_rank1_excl", (70,), (), 0, True),
    ("b_long_dyn", (5, 1000), (0,), -1, False),
    # The tiled scan: one tile of whole rows per block of 16 rows, chunks
    # of the axis (512 f32 / 256 f64 by default), rows collapsed from rank 3.
    ("t_rows", (32, 100), (), 1, False),
    ("t_chunks_excl", (16, 2048), (), -1, True),
    ("t_rank3", (4, 8, 48), (), 2, False),
    ("t_blocks", (64, 96), (), 1, True),
]

NAMES = {np.float32: "f32", np.float64: "f64"}


def mlir_shape(shape, dyn):
    return [None if d in dyn else s for d, s in enumerate(shape)]


def module_text():
    funcs = []
    for name, shape, dyn, axis, excl in CASES:
        for dt in rt.DTYPES:
            t = rt.mlir_type(mlir_shape(shape, dyn), dt)
            attrs = "{axis = %d : i64%s}" % (axis, ", exclusive" if excl else "")
            fn = "%s_%s" % (name, NAMES[dt])
            funcs.append(
                "func.func @fwd_%s(%%x: %s) -> %s {\n"
                "  %%y = rlx.cumsum %%x %s : %s -> %s\n"
                "  return %%y : %s\n}\n" % (fn, t, t, attrs, t, t, t))
            funcs.append(
                "func.func @bwd_%s(%%dy: %s) -> %s {\n"
                "  %%dx = rlx.cumsum_backward %%dy %s : %s -> %s\n"
                "  return %%dx : %s\n}\n" % (fn, t, t, attrs, t, t, t))
    return "\n".join(funcs)


def torch_reference(x, dy, axis, excl):
    xt = torch.tensor(x, requires_grad=True)
    y = torch.cumsum(xt, dim=axis)
    if excl:
        y = y - xt
    (dx,) = torch.autograd.grad(y, xt, torch.tensor(dy))
    return y.detach().numpy(), dx.numpy()


def run(m, label, r):
    for name, shape, dyn, axis, excl in CASES:
        for dt in rt.DTYPES:
            fn = "%s_%s" % (name, NAMES[dt])
            shapes = [shape]
            if 0 in dyn:  # a dynamic batch: also run batch 1
                shapes.append((1,) + shape[1:])
            for s in shapes:
                x = r.standard_normal(s).astype(dt)
                dy = r.standard_normal(s).astype(dt)
                want_y, want_dx = torch_reference(x, dy, axis, excl)
                tag = "%s %s %s" % (label, fn, s)
                rt.check("rlx.cumsum", m["fwd_" + fn](x), want_y, label=tag)
                rt.check("rlx.cumsum_backward", m["bwd_" + fn](dy), want_dx,
                         label=tag)


def main():
    r = rt.rng(0)
    text = module_text()
    default = rt.compile(text)
    run(default, "default", r)
    # Tiles of 2 KiB: many chunks per row, the running sums carried.
    run(rt.compile(text, "cumsum-tile-bytes=2048 "
                   "forward-cumsum-tile-bytes=2048"), "tiled_small", r)
    no_tiles = "cumsum-tile-bytes=0 forward-cumsum-tile-bytes=0 "
    # Forces the O(L) scan for every static axis longer than 4.
    run(rt.compile(text, no_tiles + "cumsum-matrix-max-length=4 "
                   "forward-cumsum-matrix-max-length=4"), "scan", r)
    # Every static axis through the L x L triangular matmul.
    run(rt.compile(text, no_tiles + "cumsum-matrix-max-length=1024 "
                   "cumsum-block-length=0 "
                   "forward-cumsum-matrix-max-length=1024 "
                   "forward-cumsum-block-length=0"), "matrix", r)
    # Blocks of 8, the totals of at most 125 blocks summed by a matrix.
    run(rt.compile(text, no_tiles + "cumsum-block-length=8 "
                   "forward-cumsum-block-length=8"), "blocked", r)
    # Blocks of 4; more than 8 blocks (L > 32) have their totals scanned.
    run(rt.compile(text, no_tiles + "cumsum-block-length=4 "
                   "forward-cumsum-block-length=4 "
                   "cumsum-matrix-max-length=8 "
                   "forward-cumsum-matrix-max-length=8"), "blocked_scan", r)

    # Finite differences of the compiled f64 forward on small shapes.
    for name, shape, dyn, axis, excl in CASES:
        if np.prod(shape) > 64:
            continue
        fn = "%s_f64" % name
        x = r.standard_normal(shape)
        dy = r.standard_normal(shape)
        rt.check_fd("rlx.cumsum_backward", default["fwd_" + fn], [x], 0, dy,
                    default["bwd_" + fn](dy), label=fn)
    rt.finish()


main()
