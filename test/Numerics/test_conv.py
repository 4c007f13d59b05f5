# RUN: %python %s
"""Numerics of rlx.conv2d and its gradients against PyTorch autograd
(torch.nn.functional.conv2d, torch.autograd.grad), plus central finite
differences of the compiled forward op in f64 on tiny shapes."""
import numpy as np
import torch
import torch.nn.functional as F

import rlxtest as rt

# (name, N, Ci, Co, (H, W), (kH, kW), stride, padding, dilation, groups, dyn)
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
    ("kernel1x1", 2, 5, 3, (6, 6), (1, 1), (1, 1), (0, 0), (1, 1), 1, False),
    ("kernel1x1_stride2", 1, 3, 2, (7, 6), (1, 1), (2, 2), (0, 0), (1, 1), 1, False),
    # padding > d(k-1): the outer dy rows only ever saw padding.
    ("pad_gt_span", 2, 2, 3, (5, 6), (2, 2), (2, 1), (2, 3), (1, 2), 1, False),
    ("stride_gt_kernel", 2, 2, 2, (8, 9), (2, 2), (3, 3), (0, 1), (1, 1), 1, False),
    ("dynamic_batch", 3, 4, 6, (8, 7), (3, 3), (2, 2), (1, 1), (1, 1), 2, True),
    ("dynamic_batch_dw", 2, 3, 3, (5, 6), (3, 2), (1, 2), (1, 0), (1, 1), 3, True),
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


def functions(case, dtype):
    """MLIR text of fwd/bwi/bww functions for one case and dtype."""
    name, dyn = case[0], case[10]
    xs, ws, ys = shapes(case)
    batch = (None,) if dyn else ()
    tx = rt.mlir_type((batch or xs[:1]) + xs[1:], dtype)
    tw = rt.mlir_type(ws, dtype)
    ty = rt.mlir_type((batch or ys[:1]) + ys[1:], dtype)
    sfx = "%s_%s" % (name, np.dtype(dtype).name)
    a = attrs(case)
    return """
  func.func @fwd_{s}(%x: {tx}, %w: {tw}) -> {ty} {{
    %y = rlx.conv2d %x, %w {a} : {tx}, {tw} -> {ty}
    return %y : {ty}
  }}
  func.func @bwi_{s}(%dy: {ty}, %w: {tw}) -> {tx} {{
    %dx = rlx.conv2d_backward_input %dy, %w {a} : {ty}, {tw} -> {tx}
    return %dx : {tx}
  }}
  func.func @bww_{s}(%x: {tx}, %dy: {ty}) -> {tw} {{
    %dw = rlx.conv2d_backward_weight %x, %dy {a} : {tx}, {ty} -> {tw}
    return %dw : {tw}
  }}
""".format(s=sfx, tx=tx, tw=tw, ty=ty, a=a)


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
    rt.check("rlx.conv2d", y, y_ref, label=sfx)
    rt.check("rlx.conv2d_backward_input", dx, dx_ref, label=sfx)
    rt.check("rlx.conv2d_backward_weight", dw, dw_ref, label=sfx)
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
    rt.finish()


main()
