# RUN: %python %s
"""Numerics of rlx.max_pool2d and rlx.max_pool2d_backward against PyTorch.

Forward: torch.nn.functional.max_pool2d. Backward: torch.autograd.grad of the
same call, which routes each dy to its window's argmax (first maximum in
row-major order; a NaN wins, the last NaN of a window if several; padded
positions never win) and accumulates over overlapping windows. Inputs cover
ties (constant and small-integer tensors), NaNs (several per window), -inf,
overlapping windows, kernel == stride (each form), padding, non-square kernels and strides, stride >
kernel, odd sizes, a dynamic batch and dynamic H/W, and `dilation` and
`ceil_mode` (PyTorch's output-size rule: the last window must start inside
the input or the left padding), alone and together, with ties. Central
finite differences in f64 check the compiled gradient against the compiled
forward on tie-free inputs.
"""
import numpy as np
import torch

import rlxtest as rt

FWD, BWD = "rlx.max_pool2d", "rlx.max_pool2d_backward"

# (label, x shape, kernel, stride, padding, input kind, dynamic batch)
CASES = [
    ("k2s2", (2, 3, 8, 8), (2, 2), (2, 2), (0, 0), "randn", False),
    ("k3s1p1 overlap odd", (2, 3, 7, 9), (3, 3), (1, 1), (1, 1), "randn", False),
    ("k3s2p1 overlap odd", (3, 2, 9, 7), (3, 3), (2, 2), (1, 1), "randn", False),
    ("k2x3 s1x2 p1 nonsquare", (2, 2, 6, 7), (2, 3), (1, 2), (1, 1), "randn", False),
    ("k3x2 s2x1 p1x0 nonsquare", (2, 3, 7, 6), (3, 2), (2, 1), (1, 0), "randn", False),
    ("k2 s3 p1 gaps", (2, 2, 7, 7), (2, 2), (3, 3), (1, 1), "randn", False),
    ("k1 identity", (2, 3, 4, 5), (1, 1), (1, 1), (0, 0), "randn", False),
    ("k1x3 s3x1", (1, 2, 6, 5), (1, 3), (3, 1), (0, 1), "randn", False),
    ("constant k3s2", (2, 3, 5, 5), (3, 3), (2, 2), (0, 0), "const", False),
    ("constant k3s1p1", (2, 2, 6, 5), (3, 3), (1, 1), (1, 1), "const", False),
    ("int ties k3s1p1", (2, 4, 8, 8), (3, 3), (1, 1), (1, 1), "int", False),
    ("int ties k3s2p1", (2, 2, 7, 7), (3, 3), (2, 2), (1, 1), "int", False),
    ("int ties k2x3", (3, 2, 5, 8), (2, 3), (1, 2), (0, 1), "int", False),
    ("nan k2s2", (2, 3, 6, 6), (2, 2), (2, 2), (0, 0), "nan", False),
    ("nan k3s1p1", (2, 3, 7, 7), (3, 3), (1, 1), (1, 1), "nan", False),
    ("nan k3x2 s2x1", (1, 2, 5, 6), (3, 2), (2, 1), (1, 0), "nan", False),
    ("nan+ties k3s2p1", (2, 2, 7, 7), (3, 3), (2, 2), (1, 1), "nanint", False),
    ("-inf k2s1p1", (1, 2, 4, 4), (2, 2), (1, 1), (1, 1), "neginf", False),
    # kernel == stride (max-pool-direct): exact tiling, padding, rows and
    # columns no window covers, ties, NaNs, a dynamic batch, wide rows (Wo
    # past the argmax's 16 lanes).
    ("k==s int ties k2s2", (3, 2, 8, 8), (2, 2), (2, 2), (0, 0), "int", False),
    ("k==s int ties k2s2p1", (2, 3, 9, 10), (2, 2), (2, 2), (1, 1), "int", False),
    ("k==s int ties k3s3p1 uncovered", (2, 2, 12, 13), (3, 3), (3, 3), (1, 1), "int", False),
    ("k==s k2x3 s2x3 p1x0", (2, 2, 7, 11), (2, 3), (2, 3), (1, 0), "randn", False),
    ("k==s nan+ties k2s2p1", (2, 2, 7, 7), (2, 2), (2, 2), (1, 1), "nanint", False),
    ("k==s const k3s3", (2, 2, 9, 9), (3, 3), (3, 3), (0, 0), "const", False),
    ("k==s dynamic batch int k2s2p1", (3, 2, 9, 9), (2, 2), (2, 2), (1, 1), "int", True),
    ("k==s wide int k2s2", (2, 2, 6, 70), (2, 2), (2, 2), (0, 0), "int", False),
    ("wide int k3s2p1", (2, 2, 7, 69), (3, 3), (2, 2), (1, 1), "int", False),
    ("dynamic batch int k3s2p1", (3, 2, 9, 9), (3, 3), (2, 2), (1, 1), "int", True),
    ("dynamic batch randn k2x3", (2, 3, 6, 7), (2, 3), (2, 1), (1, 1), "randn", True),
    # Overlapping windows on planes that split into whole stride phases (the
    # gather form of max-pool-direct): ties, NaNs, windows that start before
    # the plane (k5 p2: offsets -1..1), wide rows, a dynamic batch.
    ("even int ties k3s2p1", (2, 2, 8, 10), (3, 3), (2, 2), (1, 1), "int", False),
    ("even nan+ties k3s2p1", (2, 3, 8, 8), (3, 3), (2, 2), (1, 1), "nanint", False),
    ("even int ties k3x2 s2x1 p1x0", (2, 3, 8, 6), (3, 2), (2, 1), (1, 0), "int", False),
    ("even int ties k5s2p2", (2, 2, 10, 12), (5, 5), (2, 2), (2, 2), "int", False),
    ("even randn k4x3 s2x3 p1", (2, 2, 8, 9), (4, 3), (2, 3), (1, 1), "randn", False),
    ("even wide int k3s2", (2, 2, 8, 70), (3, 3), (2, 2), (0, 0), "int", False),
    ("even dynamic batch nanint k3s2p1", (3, 2, 10, 10), (3, 3), (2, 2), (1, 1), "nanint", True),
    ("even nan+inf k3s2p1", (2, 3, 8, 12), (3, 3), (2, 2), (1, 1), "naninf", False),
    ("k==s nan+inf k2s2", (2, 2, 8, 8), (2, 2), (2, 2), (0, 0), "naninf", False),
    ("nan+inf k3s1p1", (2, 2, 7, 7), (3, 3), (1, 1), (1, 1), "naninf", False),
    # dilation / ceil_mode: (..., dilation, ceil_mode); dyn may name the
    # dynamic dims ("n", "hw", "nchw").
    ("d2 k3s1", (2, 3, 9, 8), (3, 3), (1, 1), (0, 0), "randn", False, (2, 2), False),
    ("d2x3 k2 s2x1 p1", (2, 2, 9, 10), (2, 2), (2, 1), (1, 1), "randn", False, (2, 3), False),
    ("d3 k3s2p1 int ties", (2, 3, 11, 11), (3, 3), (2, 2), (1, 1), "int", False, (3, 3), False),
    ("d2 k3s1p1 nan", (2, 2, 8, 9), (3, 3), (1, 1), (1, 1), "nan", False, (2, 2), False),
    ("ceil k2s2 odd", (2, 3, 7, 9), (2, 2), (2, 2), (0, 0), "randn", False, (1, 1), True),
    ("ceil k3s2p1", (2, 2, 8, 6), (3, 3), (2, 2), (1, 1), "randn", False, (1, 1), True),
    ("ceil k3s3 int ties", (3, 2, 10, 8), (3, 3), (3, 3), (0, 0), "int", False, (1, 1), True),
    ("ceil k2x3 s2x3 p1 nan", (2, 2, 7, 8), (2, 3), (2, 3), (1, 1), "nan", False, (1, 1), True),
    ("ceil window > input k3s2", (2, 2, 2, 2), (3, 3), (2, 2), (0, 0), "randn", False, (1, 1), True),
    ("ceil last dropped k2s2p1", (2, 2, 5, 5), (2, 2), (2, 2), (1, 1), "int", False, (1, 1), True),
    ("ceil+d2 k3s2p1", (2, 3, 10, 9), (3, 3), (2, 2), (1, 1), "randn", False, (2, 2), True),
    ("ceil+d2x1 k2 s3 int", (2, 2, 9, 8), (2, 2), (3, 3), (0, 1), "int", False, (2, 1), True),
    ("dyn n ceil+d2", (3, 2, 9, 9), (3, 3), (2, 2), (1, 1), "int", "n", (2, 2), True),
    ("dyn hw ceil k3s2", (2, 2, 9, 8), (3, 3), (2, 2), (1, 1), "randn", "hw", (1, 1), True),
    ("dyn nchw d2 k2s2p1", (2, 3, 9, 11), (2, 2), (2, 2), (1, 1), "int", "nchw", (2, 2), False),
    ("dyn hw ceil+d3 k2s2", (1, 2, 10, 7), (2, 2), (2, 2), (1, 0), "nanint", "hw", (3, 3), True),
]

# Tie-free f64 cases for finite differences (shape, kernel, stride, padding).
FD_CASES = [
    ((1, 2, 5, 5), (3, 3), (1, 1), (1, 1)),
    ((2, 1, 5, 6), (2, 3), (2, 1), (1, 1)),
    ((1, 1, 6, 6), (2, 2), (2, 2), (0, 0)),
    ((1, 2, 7, 6), (2, 2), (2, 1), (1, 0), (2, 2), True),
    ((2, 1, 6, 7), (3, 2), (2, 2), (1, 1), (1, 3), True),
]


def out_size(n, k, s, p, d=1, ceil=False):
    """PyTorch's pooling_output_shape."""
    num = n + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil else 0)
    out = num // s + 1
    if ceil and (out - 1) * s >= n + p:
        out -= 1
    return out


def attrs(k, s, p, d=(1, 1), ceil=False):
    text = ("kernel_size = array<i64: %d, %d>, stride = array<i64: %d, %d>, "
            "padding = array<i64: %d, %d>" % (k + s + p))
    if d != (1, 1):
        text += ", dilation = array<i64: %d, %d>" % d
    if ceil:
        text += ", ceil_mode = true"
    return "{" + text + "}"


def dyn_dims(dynamic):
    if dynamic is True:
        return (0,)
    if not dynamic:
        return ()
    return tuple("nchw".index(ch) for ch in dynamic)


def functions(tag, shape, k, s, p, dtype, dynamic, d=(1, 1), ceil=False):
    n, c, h, w = shape
    yshape = (n, c, out_size(h, k[0], s[0], p[0], d[0], ceil),
              out_size(w, k[1], s[1], p[1], d[1], ceil))
    for i in range(2):  # every window holds an element of x (see the doc)
        for o in range(yshape[2 + i]):
            taps = [o * s[i] - p[i] + j * d[i] for j in range(k[i])]
            assert any(0 <= t < shape[2 + i] for t in taps), (tag, i, o)
    dims = dyn_dims(dynamic)
    tx = rt.mlir_type([None if j in dims else v for j, v in enumerate(shape)],
                      dtype)
    ty = rt.mlir_type([None if j in dims else v for j, v in enumerate(yshape)],
                      dtype)
    a = attrs(k, s, p, d, ceil)
    return """
  func.func @fwd_{t}(%x: {tx}) -> {ty} {{
    %y = rlx.max_pool2d %x {a} : {tx} -> {ty}
    return %y : {ty}
  }}
  func.func @bwd_{t}(%x: {tx}, %dy: {ty}) -> {tx} {{
    %dx = rlx.max_pool2d_backward %x, %dy {a} : {tx}, {ty} -> {tx}
    return %dx : {tx}
  }}
""".format(t=tag, tx=tx, ty=ty, a=a), yshape


def make_input(rng, kind, shape, dtype):
    if kind == "const":
        return np.full(shape, 0.75, dtype=dtype)
    if kind in ("int", "nanint"):
        x = rng.integers(-2, 3, size=shape).astype(dtype)
    else:
        x = rng.standard_normal(shape).astype(dtype)
    if kind in ("nan", "nanint"):
        # About one NaN in five: many windows hold several.
        x[rng.random(shape) < 0.2] = np.nan
    if kind == "naninf":
        # NaN and +inf in the same windows, in both orders: a NaN beats an
        # earlier +inf, and after a NaN only a later NaN is taken.
        x = rng.integers(-2, 3, size=shape).astype(dtype)
        r = rng.random(shape)
        x[r < 0.2] = np.nan
        x[(r >= 0.2) & (r < 0.45)] = np.inf
    if kind == "neginf":
        x[rng.random(shape) < 0.5] = -np.inf
        x[0, 0] = -np.inf  # a channel of -inf only
    return x


def torch_reference(x, dy, k, s, p, d=(1, 1), ceil=False):
    xt = torch.from_numpy(x).requires_grad_()
    yt = torch.nn.functional.max_pool2d(xt, k, s, p, d, ceil_mode=ceil)
    (gt,) = torch.autograd.grad(yt, xt, torch.from_numpy(dy))
    return yt.detach().numpy(), gt.numpy()


def same_infinities(got, want):
    """rt.check's error is got - want, NaN for equal infinities: where both
    hold the same infinity compare 0 with 0 (a mismatch stays a failure)."""
    got, want = np.array(got), np.array(want)
    both = np.isinf(got) & (got == want)
    got[both], want[both] = 0, 0
    return got, want


# The forms of max_pool2d_backward (pipeline options); each must match torch.
FORMS = [None, "max-pool-direct=0", "max-pool-scatter=0"]


def main():
    rng = rt.rng(7)
    for dtype in rt.DTYPES:
        body, shapes = "", []
        for i, (label, shape, k, s, p, kind, dyn, *dc) in enumerate(CASES):
            text, yshape = functions("c%d" % i, shape, k, s, p, dtype, dyn,
                                     *dc)
            body += text
            shapes.append(yshape)
        mods = [(form, rt.compile("module {%s}" % body, form))
                for form in FORMS]
        for i, (label, shape, k, s, p, kind, dyn, *dc) in enumerate(CASES):
            x = make_input(rng, kind, shape, dtype)
            dy = rng.standard_normal(shapes[i]).astype(dtype)
            want_y, want_dx = torch_reference(x, dy, k, s, p, *dc)
            name = "%s %s" % (label, np.dtype(dtype).name)
            got_y, want_y = same_infinities(mods[0][1]["fwd_c%d" % i](x),
                                            want_y)
            rt.check(FWD, got_y, want_y, dtype, name)
            for form, m in mods:
                rt.check(BWD, m["bwd_c%d" % i](x, dy), want_dx, dtype,
                         name + (" " + form if form else ""))

    # Finite differences (f64, distinct values: no ties, no NaN).
    body = ""
    for i, (shape, k, s, p, *dc) in enumerate(FD_CASES):
        body += functions("fd%d" % i, shape, k, s, p, np.float64, False,
                          *dc)[0]
    m = rt.compile("module {%s}" % body)
    for i, (shape, k, s, p, *dc) in enumerate(FD_CASES):
        x = rng.permutation(np.prod(shape)).reshape(shape).astype(np.float64)
        x = x / x.size + 0.01 * rng.standard_normal(shape)
        yshape = functions("fd%d" % i, shape, k, s, p, np.float64, False,
                           *dc)[1]
        dy = rng.standard_normal(yshape)
        got = m["bwd_fd%d" % i](x, dy)
        rt.check_fd(BWD, m["fwd_fd%d" % i], [x], 0, dy, got,
                    "%s k%s s%s p%s %s" % (shape, k, s, p, dc))
    rt.finish()


if __name__ == "__main__":
    main()
