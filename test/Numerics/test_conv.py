# RUN: %python %s
"""Numerics of rlx.conv2d and its gradients against PyTorch autograd
(torch.nn.functional.conv2d, torch.autograd.grad), plus central finite
differences of the compiled forward op in f64 on tiny shapes; 1-D
convolution through the documented H = 1 mapping against F.conv1d at
torch-mlir's conv1d shapes, and the bias gradient rlx.conv2d_backward_bias."""
import numpy as np
import torch
import torch.nn.functional as F

import rlxtest as rt

# (name, N, Ci, Co, (H, W), (kH, kW), stride, padding, dilation, groups, dyn)
# dyn: False (static), True (dynamic batch), or which dims are dynamic:
# "channels", "spatial" (H, W and the kernel), "all". A result dim is left
# static only where it cannot follow from the operands: the spatial dims of
# dx and the kernel dims of dw along an axis with stride (or, for dw,
# dilation) > 1.
CASES = [
    ("basic", 2, 3, 4, (8, 8), (3, 3), (1, 1), (1, 1), (1, 1), 1, False),
    ("stride2_pad1", 2, 3, 5, (8, 7), (3, 3), (2, 2), (1, 1), (1, 1), 1, False),
    # H = 7 and H = 8 both give Ho = 4: dx must have the requested size.
    ("stride2_h7", 1, 2, 3, (7, 8), (3, 3), (2, 2), (1, 1), (1, 1), 1, False),
    ("dilation2", 2, 2, 3, (9, 9), (3, 3), (1, 1), (2, 2), (2, 2), 1, False),
    ("combo_3x2_7x5", 2, 4, 6, (7, 5), (3, 2), (2, 1), (1, 2), (2, 1), 2, False),
    ("groups2", 3, 4, 4, (6, 6), (3, 3), (1, 1), (1, 1), (1, 1), 2, False),
    ("depthwise", 2, 4, 4, (7, 7), (3, 3), (2, 2), (1, 1), (1, 1), 4, False),
    ("depthwise_x2", 2, 3, 6, (6, 5), (2, 3), (1, 1), (0, 1), (1, 1), 3, False),
    # 32 (n, c) planes, enough blocks for up to 8 threads: rlx-optimize-
    # contractions makes each block a whole plane and pads it in the block.
    ("depthwise_planes", 2, 16, 16, (9, 11), (3, 3), (1, 1), (1, 1), (1, 1),
     16, False),
    ("depthwise_planes_s2", 2, 16, 16, (10, 9), (3, 3), (2, 2), (1, 0),
     (1, 1), 16, False),
    # Large enough (f32: dy over 1 MiB, dw under 256 KiB) for rlx-optimize-
    # contractions to block the weight gradient's reduction outside its
    # register tiles: by 16 of 64 rows, 16 rows of 61 (a partial block),
    # and, with stride 2, 21 rows of 47 (a partial block).
    ("outer_reduction", 2, 64, 64, (64, 64), (3, 3), (1, 1), (1, 1), (1, 1),
     1, False),
    ("outer_reduction_61", 3, 64, 64, (61, 64), (3, 3), (1, 1), (1, 1),
     (1, 1), 1, False),
    ("outer_reduction_s2", 2, 64, 64, (93, 96), (3, 3), (2, 2), (1, 1),
     (1, 1), 1, False),
    # Channels per group a multiple of 16: conv2d (output channels) and
    # conv2d_backward_input (input channels) are computed channels-last
    # (vectorized along the channels) and transposed back: with groups,
    # strides (stride phases of dx, even and odd sizes), dilation, a
    # kernel tap that reaches no row of a phase, and a dynamic batch.
    ("channels_last_s2_groups", 2, 32, 32, (9, 11), (3, 3), (2, 2), (1, 1),
     (1, 1), 2, False),
    ("channels_last_s2_even", 2, 16, 16, (8, 8), (3, 3), (2, 2), (1, 1),
     (1, 1), 1, False),
    ("channels_last_dilation", 3, 16, 16, (10, 7), (3, 2), (1, 2), (2, 1),
     (2, 1), 1, False),
    ("channels_last_s3_k2", 2, 16, 32, (9, 8), (2, 2), (3, 3), (0, 1),
     (1, 1), 1, False),
    ("channels_last_dyn_batch", 3, 16, 32, (8, 6), (3, 3), (2, 2), (1, 1),
     (1, 1), 1, True),
    # ... and with H and W multiples of the stride, every phase written
    # into one channels-last dx transposed once (conv-phase-shuffle): with
    # groups, phases of a 2x2 kernel at stride 3 that get no tap, and a
    # stride of 1 along W with a dynamic batch.
    ("channels_last_shuffle_groups", 2, 32, 32, (10, 8), (3, 3), (2, 2),
     (1, 1), (1, 1), 2, False),
    ("channels_last_shuffle_s3_k2", 2, 16, 16, (9, 6), (2, 2), (3, 3),
     (0, 1), (1, 1), 1, False),
    ("channels_last_shuffle_s2x1", 3, 16, 16, (6, 5), (3, 3), (2, 1),
     (1, 1), (1, 1), 1, True),
    ("kernel1x1", 2, 5, 3, (6, 6), (1, 1), (1, 1), (0, 0), (1, 1), 1, False),
    ("kernel1x1_stride2", 1, 3, 2, (7, 6), (1, 1), (2, 2), (0, 0), (1, 1), 1, False),
    # padding > d(k-1): the outer dy rows only ever saw padding.
    ("pad_gt_span", 2, 2, 3, (5, 6), (2, 2), (2, 1), (2, 3), (1, 2), 1, False),
    ("stride_gt_kernel", 2, 2, 2, (8, 9), (2, 2), (3, 3), (0, 1), (1, 1), 1, False),
    ("dynamic_batch", 3, 4, 6, (8, 7), (3, 3), (2, 2), (1, 1), (1, 1), 2, True),
    # H and W multiples of the stride: dx's stride phases go through the
    # phase-major buffer and one pixel shuffle (conv-phase-shuffle); some
    # phases of the 2x2 kernel at stride 3 get no tap.
    ("stride2_even_groups", 2, 4, 6, (8, 6), (3, 3), (2, 2), (1, 1), (1, 1), 2,
     True),
    ("stride_gt_kernel_even", 2, 2, 2, (9, 6), (2, 2), (3, 3), (0, 1), (1, 1),
     1, False),
    ("stride2x1_even", 1, 3, 4, (6, 5), (3, 3), (2, 1), (1, 1), (1, 1), 1,
     False),
    ("dynamic_batch_dw", 2, 3, 3, (5, 6), (3, 2), (1, 2), (1, 0), (1, 1), 3, True),
    # Dynamic channel, spatial and kernel dims (peer parity: torch-mlir's
    # dynamic-shape convolution tests).
    ("dyn_all_basic", 2, 3, 4, (8, 8), (3, 3), (1, 1), (1, 1), (1, 1), 1, "all"),
    ("dyn_all_stride2_groups", 2, 4, 6, (8, 7), (3, 3), (2, 2), (1, 1), (1, 1),
     2, "all"),
    ("dyn_all_stride2_h7", 1, 2, 3, (7, 8), (3, 3), (2, 2), (1, 1), (1, 1), 1,
     "all"),
    ("dyn_all_dilation2", 2, 2, 3, (9, 9), (3, 3), (1, 1), (2, 2), (2, 2), 1,
     "all"),
    ("dyn_all_pad_gt_span", 2, 2, 3, (5, 6), (2, 2), (2, 1), (2, 3), (1, 2), 1,
     "all"),
    ("dyn_all_stride_gt_kernel", 2, 2, 2, (8, 9), (2, 2), (3, 3), (0, 1),
     (1, 1), 1, "all"),
    ("dyn_all_kernel1x1", 2, 5, 3, (6, 6), (1, 1), (1, 1), (0, 0), (1, 1), 1,
     "all"),
    ("dyn_channels_depthwise", 2, 4, 4, (7, 7), (3, 3), (2, 2), (1, 1), (1, 1),
     4, "channels"),
    ("dyn_channels_x2", 3, 3, 6, (6, 5), (2, 3), (1, 1), (0, 1), (1, 1), 3,
     "channels"),
    ("dyn_spatial_combo", 2, 4, 6, (7, 5), (3, 2), (2, 1), (1, 2), (2, 1), 2,
     "spatial"),
    ("dyn_spatial_s1", 2, 3, 2, (6, 7), (2, 3), (1, 1), (1, 0), (1, 1), 1,
     "spatial"),
]

# Tiny f64 cases for finite differences (every element perturbed).
FD_CASES = [
    ("fd_basic", 1, 2, 2, (5, 4), (3, 2), (1, 1), (1, 0), (1, 1), 1, False),
    ("fd_stride_groups", 2, 2, 4, (5, 5), (3, 3), (2, 2), (1, 1), (1, 1), 2, False),
    ("fd_dilation_pad", 1, 1, 2, (6, 5), (2, 2), (2, 1), (3, 1), (2, 1), 1, False),
]


# conv2d_backward_weight with the im2col buffer capped (compiled with
# im2col-max-elements=IM2COL_CAP): 648 elements per sample, so the batch is
# tiled by 2 (N = 6), by 1 (N = 5, no divisor fits) or by 2 with a dynamic
# remainder tile (N = ? called with 5).
IM2COL_CAP = 1500
TILED_CASES = [
    ("tiled_n6", 6, 2, 3, (6, 6), (3, 3), (1, 1), (1, 1), (1, 1), 1, False),
    ("tiled_n5", 5, 2, 3, (6, 6), (3, 3), (1, 1), (1, 1), (1, 1), 1, False),
    ("tiled_dynamic_groups", 5, 2, 4, (6, 6), (3, 3), (1, 1), (1, 1), (1, 1), 2,
     True),
]


def out_size(n, k, s, p, d):
    return (n + 2 * p - d * (k - 1) - 1) // s + 1


def shapes(case):
    _, n, ci, co, hw, k, s, p, d, g, _ = case
    ho = tuple(out_size(hw[i], k[i], s[i], p[i], d[i]) for i in range(2))
    return ((n, ci) + hw, (co, ci // g) + k, (n, co) + ho)


def attrs(case):
    _, _, _, _, _, _, s, p, d, g, _ = case
    return ("{stride = array<i64: %d, %d>, padding = array<i64: %d, %d>, "
            "dilation = array<i64: %d, %d>, groups = %d : i64}"
            % (s + p + d + (g,)))


def dynamic_dims(case):
    """The dims of x, w, y that are dynamic as operands."""
    dyn = case[10]
    if dyn is True:
        return {0}, set(), {0}
    return {False: (set(), set(), set()),
            "channels": ({1}, {0, 1}, {1}),
            "spatial": ({2, 3}, {2, 3}, {2, 3}),
            "all": ({0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3})}[dyn]


def typed(shape, dyn, dtype):
    return rt.mlir_type(tuple(None if i in dyn else n
                              for i, n in enumerate(shape)), dtype)


def functions(case, dtype):
    """MLIR text of fwd/bwi/bww functions for one case and dtype."""
    name, s, d = case[0], case[6], case[8]
    xs, ws, ys = shapes(case)
    dx, dw, dyd = dynamic_dims(case)
    tx, tw, ty = typed(xs, dx, dtype), typed(ws, dw, dtype), typed(ys, dyd, dtype)
    # Results: dx's H/W and dw's kernel stay static where they cannot follow
    # from the operands (stride > 1; for dw also dilation > 1).
    trx = typed(xs, dx - {2 + i for i in range(2) if s[i] != 1}, dtype)
    trw = typed(ws, dw - {2 + i for i in range(2) if s[i] != 1 or d[i] != 1},
                dtype)
    sfx = "%s_%s" % (name, np.dtype(dtype).name)
    a = attrs(case)
    return """
  func.func @fwd_{s}(%x: {tx}, %w: {tw}) -> {ty} {{
    %y = rlx.conv2d %x, %w {a} : {tx}, {tw} -> {ty}
    return %y : {ty}
  }}
  func.func @bwi_{s}(%dy: {ty}, %w: {tw}) -> {trx} {{
    %dx = rlx.conv2d_backward_input %dy, %w {a} : {ty}, {tw} -> {trx}
    return %dx : {trx}
  }}
  func.func @bww_{s}(%x: {tx}, %dy: {ty}) -> {trw} {{
    %dw = rlx.conv2d_backward_weight %x, %dy {a} : {tx}, {ty} -> {trw}
    return %dw : {trw}
  }}
""".format(s=sfx, tx=tx, tw=tw, ty=ty, trx=trx, trw=trw, a=a)


def torch_reference(case, x, w, dy):
    _, _, _, _, _, _, s, p, d, g, _ = case
    tx = torch.tensor(x, requires_grad=True)
    tw = torch.tensor(w, requires_grad=True)
    y = F.conv2d(tx, tw, stride=s, padding=p, dilation=d, groups=g)
    gx, gw = torch.autograd.grad(y, (tx, tw), torch.tensor(dy))
    return y.detach().numpy(), gx.numpy(), gw.numpy()


def run(module, case, dtype, rng, fd=False):
    xs, ws, ys = shapes(case)
    x = rng.standard_normal(xs).astype(dtype)
    w = rng.standard_normal(ws).astype(dtype)
    dy = rng.standard_normal(ys).astype(dtype)
    sfx = "%s_%s" % (case[0], np.dtype(dtype).name)
    y_ref, dx_ref, dw_ref = torch_reference(case, x, w, dy)
    y = module["fwd_" + sfx](x, w)
    dx = module["bwi_" + sfx](dy, w)
    dw = module["bww_" + sfx](x, dy)
    # Cases with dynamic channel/spatial dims are reported on their own.
    tag = " (dynamic C/H/W)" if case[10] not in (False, True) else ""
    rt.check("rlx.conv2d" + tag, y, y_ref, label=sfx)
    rt.check("rlx.conv2d_backward_input" + tag, dx, dx_ref, label=sfx)
    rt.check("rlx.conv2d_backward_weight" + tag, dw, dw_ref, label=sfx)
    if fd:
        fwd = module["fwd_" + sfx]
        rt.check_fd("rlx.conv2d_backward_input", fwd, [x, w], 0, dy, dx,
                    label=sfx)
        rt.check_fd("rlx.conv2d_backward_weight", fwd, [x, w], 1, dy, dw,
                    label=sfx)


def main():
    rng = rt.rng(0)
    for dtype in rt.DTYPES:
        body = "".join(functions(c, dtype) for c in CASES)
        if dtype == np.float64:
            body += "".join(functions(c, dtype) for c in FD_CASES)
        module = rt.compile("module {%s}" % body)
        for case in CASES:
            run(module, case, dtype, rng)
        if dtype == np.float64:
            for case in FD_CASES:
                run(module, case, dtype, rng, fd=True)
    for dtype in rt.DTYPES:
        body = "".join(functions(c, dtype) for c in TILED_CASES)
        module = rt.compile("module {%s}" % body,
                            "im2col-max-elements=%d" % IM2COL_CAP)
        for case in TILED_CASES:
            run(module, case, dtype, rng)
    conv1d_main()
    rt.finish()


# ---------------------------------------------------------------------------
# 1-D convolution as the documented H = 1 mapping (docs/README.md): x [N, C,
# L] -> [N, C, 1, L], w [Co, C/g, K] -> [Co, C/g, 1, K], stride [1, s],
# padding [0, p], dilation [1, d]; the results collapse back. And the bias
# gradient rlx.conv2d_backward_bias (sum of dy over N and the spatial dims).
# Shapes of torch-mlir's conv1d e2e tests (Conv1dModule, ..._WithValidPadding,
# ..._Group, ..._DepthwiseWithPaddingDilationStride, ..._WithSamePadding,
# ..._NoPadding at 1x768x768, kernel 1), then stride/dilation/odd sizes.
# (name, N, Ci, Co, L, K, stride, padding, dilation, groups, dynamic: False,
#  True (batch) or "all")
# ---------------------------------------------------------------------------
CONV1D_CASES = [
    ("tm_conv1d", 2, 2, 8, 6, 3, 1, 0, 1, 1, True),
    ("tm_group", 2, 4, 8, 6, 3, 1, 0, 1, 2, True),
    ("tm_depthwise_pad4", 2, 4, 4, 6, 3, 1, 4, 1, 4, False),
    ("tm_same_padding", 5, 2, 10, 10, 3, 1, 1, 1, 1, True),
    ("tm_no_padding_768_k1", 1, 768, 768, 768, 1, 1, 0, 1, 1, False),
    ("stride2_dil2_pad2", 3, 3, 6, 13, 3, 2, 2, 2, 3, True),
    ("stride3_odd", 2, 5, 7, 17, 4, 3, 1, 1, 1, False),
    ("dil3_groups2", 2, 6, 4, 19, 3, 1, 3, 3, 2, True),
    # Every dim dynamic (channels, length, kernel).
    ("dyn_all_same_padding", 5, 2, 10, 10, 3, 1, 1, 1, 1, "all"),
    ("dyn_all_group_pad2", 2, 4, 8, 9, 3, 1, 2, 1, 2, "all"),
    ("dyn_all_depthwise_k1", 3, 4, 4, 7, 1, 1, 0, 1, 4, "all"),
]


def conv1d_functions(case, dtype):
    name, n, ci, co, L, k, s, p, d, g, dyn = case
    lo = (L + 2 * p - d * (k - 1) - 1) // s + 1
    b = None if dyn else n
    lo_size = lo
    if dyn == "all":   # every dim of x, w and dy (stride and dilation 1)
        ci = co = L = k = lo = None
    cig = None if ci is None else ci // g
    t = lambda shape: rt.mlir_type(shape, dtype)
    x3, w3, y3 = t((b, ci, L)), t((co, cig, k)), t((b, co, lo))
    x4, w4, y4 = t((b, ci, 1, L)), t((co, cig, 1, k)), t((b, co, 1, lo))
    a = ("{stride = array<i64: 1, %d>, padding = array<i64: 0, %d>, "
         "dilation = array<i64: 1, %d>, groups = %d : i64}" % (s, p, d, g))
    e = "[[0], [1], [2, 3]]"   # [N, C, L] <-> [N, C, 1, L]
    sfx = "%s_%s" % (name, np.dtype(dtype).name)
    shapes = lambda shape: "[%s]" % ", ".join(
        "%" + v if isinstance(v, str) else str(v) for v in shape)
    dim_b = "" if not dyn else "".join(
        "  %%c%d = arith.constant %d : index\n" % (i, i) for i in range(3))
    def expand(val, src, dst, shape, out):
        # A dynamic dim j of the 4-D view is dim j (j < 2) or j - 1 of val.
        nb = ""
        shape = list(shape)
        for j, size in enumerate(shape):
            if size is None:
                nb += "  %%%s_%d = tensor.dim %%%s, %%c%d : %s\n" % (
                    out, j, val, j if j < 2 else j - 1, src)
                shape[j] = "%s_%d" % (out, j)
        return nb + ("  %%%s = tensor.expand_shape %%%s %s output_shape %s"
                     " : %s into %s\n" % (out, val, e, shapes(shape), src, dst))
    return (
        "func.func @c1f_{s}(%x: {x3}, %w: {w3}) -> {y3} {{\n{d}"
        "{ex}{ew}"
        "  %y4 = rlx.conv2d %x4, %w4 {a} : {x4}, {w4} -> {y4}\n"
        "  %y = tensor.collapse_shape %y4 {e} : {y4} into {y3}\n"
        "  return %y : {y3}\n}}\n"
        "func.func @c1b_{s}(%x: {x3}, %w: {w3}, %dy: {y3}) -> ({x3}, {w3}, "
        "{bt}) {{\n{d}{ex}{ew}{edy}"
        "  %dx4 = rlx.conv2d_backward_input %dy4, %w4 {a} : {y4}, {w4} -> {x4}\n"
        "  %dw4 = rlx.conv2d_backward_weight %x4, %dy4 {a} : {x4}, {y4} -> {w4}\n"
        "  %db = rlx.conv2d_backward_bias %dy4 : {y4} -> {bt}\n"
        "  %dx = tensor.collapse_shape %dx4 {e} : {x4} into {x3}\n"
        "  %dw = tensor.collapse_shape %dw4 {e} : {w4} into {w3}\n"
        "  return %dx, %dw, %db : {x3}, {w3}, {bt}\n}}\n").format(
            s=sfx, x3=x3, w3=w3, y3=y3, x4=x4, w4=w4, y4=y4, a=a, e=e, d=dim_b,
            bt=t((co,)),
            ex=expand("x", x3, x4, (b, ci, 1, L), "x4"),
            ew=expand("w", w3, w4, (co, cig, 1, k), "w4"),
            edy=expand("dy", y3, y4, (b, co, 1, lo), "dy4")), lo_size


def conv1d_main():
    rng = rt.rng(3)
    for dtype in rt.DTYPES:
        body = "".join(conv1d_functions(c, dtype)[0] for c in CONV1D_CASES)
        m = rt.compile("module {%s}" % body)
        for case in CONV1D_CASES:
            name, n, ci, co, L, k, s, p, d, g, dyn = case
            lo = conv1d_functions(case, dtype)[1]
            for batch in ((n, 1) if dyn else (n,)):
                x = rng.standard_normal((batch, ci, L)).astype(dtype)
                w = rng.standard_normal((co, ci // g, k)).astype(dtype)
                bias = rng.standard_normal(co).astype(dtype)
                dy = rng.standard_normal((batch, co, lo)).astype(dtype)
                tx = torch.tensor(x, requires_grad=True)
                tw = torch.tensor(w, requires_grad=True)
                tb = torch.tensor(bias, requires_grad=True)
                ty = F.conv1d(tx, tw, tb, stride=s, padding=p, dilation=d,
                              groups=g)
                gx, gw, gb = torch.autograd.grad(ty, (tx, tw, tb),
                                                 torch.tensor(dy))
                sfx = "%s_%s" % (name, np.dtype(dtype).name)
                label = "conv1d %s N=%d" % (sfx, batch)
                y = m["c1f_" + sfx](x, w) + bias[None, :, None]
                dx, dw, db = m["c1b_" + sfx](x, w, dy)
                rt.check("rlx.conv2d (conv1d, H=1)", y, ty.detach().numpy(),
                         label=label)
                rt.check("rlx.conv2d_backward_input (conv1d, H=1)", dx,
                         gx.numpy(), label=label)
                rt.check("rlx.conv2d_backward_weight (conv1d, H=1)", dw,
                         gw.numpy(), label=label)
                rt.check("rlx.conv2d_backward_bias", db, gb.numpy(),
                         label=label)
    # 2-D bias gradients, every dim dynamic or static, vs torch autograd of
    # conv2d(x, w, b).
    for dtype in rt.DTYPES:
        cases = [((2, 5, 4, 3), False), ((3, 7, 1, 9), True),
                 ((1, 4, 6, 6), True), ((4, 3, 5, 2), False)]
        body = ""
        for i, (shape, dyn) in enumerate(cases):
            ty = rt.mlir_type((None,) * 4 if dyn else shape, dtype)
            tb = rt.mlir_type((None,) if dyn else shape[1:2], dtype)
            body += ("func.func @bias%d(%%dy: %s) -> %s {\n"
                     "  %%db = rlx.conv2d_backward_bias %%dy : %s -> %s\n"
                     "  return %%db : %s\n}\n" % (i, ty, tb, ty, tb, tb))
        m = rt.compile(body)
        for i, (shape, dyn) in enumerate(cases):
            n, co, ho, wo = shape
            x = rng.standard_normal((n, 2, ho + 2, wo + 1)).astype(dtype)
            w = rng.standard_normal((co, 2, 3, 2)).astype(dtype)
            b = torch.zeros(co, dtype=torch.float32 if dtype == np.float32
                            else torch.float64, requires_grad=True)
            dy = rng.standard_normal(shape).astype(dtype)
            ty = F.conv2d(torch.tensor(x), torch.tensor(w), b)
            (gb,) = torch.autograd.grad(ty, b, torch.tensor(dy))
            rt.check("rlx.conv2d_backward_bias", m["bias%d" % i](dy),
                     gb.numpy(), label="conv2d bias %s dyn=%s" % (shape, dyn))


main()

