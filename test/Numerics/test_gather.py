# RUN: %python %s
"""rlx.gather and rlx.gather_backward against PyTorch autograd and numpy.

In-range indices (duplicates included) are compared with
torch.index_select(table, axis, idx.flatten()).reshape(...) and its autograd
gradient; cases with out-of-range indices (negative ones, ones >= V) with an
independent numpy reference (np.take with a mask, np.add.at). Axis 0 and a
middle axis, i32 and i64, index ranks 0-2, a dynamic batch, f32 and f64;
finite differences (f64) of the compiled forward check the gradient.
gather_backward's embedding options (padding_idx, negative too, and
scale_grad_by_freq) against torch.ops.aten.embedding_dense_backward and the
autograd of F.embedding, with duplicates and the padding row among the
indices.
"""
import numpy as np
import torch

import rlxtest as rt

# (name, table shape, indices shape, axis, dynamic dims of the indices,
#  dynamic dims of the table)
CASES = [
    ("emb", (10, 4), (6,), 0, (), ()),
    ("emb2d", (9, 5), (3, 4), 0, (0,), ()),        # dynamic batch of indices
    ("middle", (3, 8, 2), (5,), 1, (), (0,)),       # [A, V, B], dynamic A
    ("middle2d", (2, 7, 3), (2, 3), -2, (), ()),
    ("last", (4, 6), (2, 5), 1, (0,), (0,)),
    ("scalar", (3, 5, 2), (), 1, (), ()),
]
INDEX_TYPES = (np.int32, np.int64)
NAMES = {np.float32: "f32", np.float64: "f64", np.int32: "i32", np.int64: "i64"}


def result_shape(tshape, ishape, axis):
    a = axis % len(tshape)
    return tuple(tshape[:a]) + tuple(ishape) + tuple(tshape[a + 1:])


def mlir_shape(shape, dyn):
    return [None if d in dyn else s for d, s in enumerate(shape)]


def module_text():
    funcs = []
    for name, tshape, ishape, axis, idyn, tdyn in CASES:
        a = axis % len(tshape)
        # Result dims: table dims keep their dynamism, index dims theirs; the
        # gathered table axis (V) of gather_backward's result stays static.
        ydyn = [d for d in tdyn if d < a] + [a + d for d in idyn] + \
            [d + len(ishape) - 1 for d in tdyn if d > a]
        for dt in rt.DTYPES:
            for it in INDEX_TYPES:
                fn = "%s_%s_%s" % (name, NAMES[dt], NAMES[it])
                tt = rt.mlir_type(mlir_shape(tshape, tdyn), dt)
                ti = rt.mlir_type(mlir_shape(ishape, idyn), it)
                ty = rt.mlir_type(
                    mlir_shape(result_shape(tshape, ishape, axis), ydyn), dt)
                attrs = "{axis = %d : i64}" % axis
                # The Python package passes 0-d arrays as [1]: rank-0 indices
                # arrive as tensor<1xiN> and are collapsed in the function.
                arg, prologue, iv = ti, "", "%i"
                if not ishape:
                    arg = rt.mlir_type((1,), it)
                    prologue = ("  %%i0 = tensor.collapse_shape %%i [] : %s into %s\n"
                                % (arg, ti))
                    iv = "%i0"
                funcs.append(
                    "func.func @fwd_%s(%%t: %s, %%i: %s) -> %s {\n%s"
                    "  %%y = rlx.gather %%t, %s %s : %s, %s -> %s\n"
                    "  return %%y : %s\n}\n"
                    % (fn, tt, arg, ty, prologue, iv, attrs, tt, ti, ty, ty))
                funcs.append(
                    "func.func @bwd_%s(%%dy: %s, %%i: %s) -> %s {\n%s"
                    "  %%dt = rlx.gather_backward %%dy, %s %s : %s, %s -> %s\n"
                    "  return %%dt : %s\n}\n"
                    % (fn, ty, arg, tt, prologue, iv, attrs, ty, ti, tt, tt))
    return "\n".join(funcs)


def torch_reference(table, idx, axis, dy):
    """index_select + autograd; idx must be in range."""
    t = torch.tensor(table, requires_grad=True)
    a = axis % table.ndim
    flat = torch.tensor(idx.reshape(-1).astype(np.int64))
    y = torch.index_select(t, a, flat).reshape(result_shape(table.shape, idx.shape, axis))
    (dt,) = torch.autograd.grad(y, t, torch.tensor(dy))
    return y.detach().numpy(), dt.numpy()


def numpy_reference(table, idx, axis, dy):
    """Out-of-range indices give zeros and contribute nothing."""
    a = axis % table.ndim
    v = table.shape[a]
    valid = (idx >= 0) & (idx < v)
    y = np.take(table, np.where(valid, idx, 0), axis=a)
    mask = valid.reshape((1,) * a + idx.shape + (1,) * (table.ndim - a - 1))
    y = np.where(mask, y, 0).astype(table.dtype)
    dt = np.zeros_like(table)
    flat_dy = dy.reshape(table.shape[:a] + (idx.size,) + table.shape[a + 1:])
    flat_idx, flat_valid = idx.reshape(-1), valid.reshape(-1)
    np.add.at(np.moveaxis(dt, a, 0), flat_idx[flat_valid],
              np.moveaxis(flat_dy, a, 0)[flat_valid])
    return y, dt


def as_arg(idx):
    """Rank-0 indices are passed as [1] (see module_text)."""
    return idx.reshape(1) if idx.ndim == 0 else idx


def main():
    r = rt.rng(1)
    m = rt.compile(module_text())
    for name, tshape, ishape, axis, idyn, tdyn in CASES:
        a = axis % len(tshape)
        v = tshape[a]
        for dt in rt.DTYPES:
            for it in INDEX_TYPES:
                fn = "%s_%s_%s" % (name, NAMES[dt], NAMES[it])
                ishapes = [ishape]
                if 0 in idyn:  # dynamic batch: also a batch of 1
                    ishapes.append((1,) + ishape[1:])
                for ish in ishapes:
                    table = r.standard_normal(tshape).astype(dt)
                    # In range, with duplicates (fewer rows than indices).
                    idx = r.integers(0, v, size=ish).astype(it)
                    if idx.size > 1:
                        idx.reshape(-1)[1] = idx.reshape(-1)[0]
                    dy = r.standard_normal(result_shape(tshape, ish, axis)).astype(dt)
                    want_y, want_dt = torch_reference(table, idx, axis, dy)
                    tag = "%s %s" % (fn, ish)
                    rt.check("rlx.gather", m["fwd_" + fn](table, as_arg(idx)), want_y, label=tag)
                    rt.check("rlx.gather_backward", m["bwd_" + fn](dy, as_arg(idx)), want_dt,
                             label=tag)
                    # Out of range: negative, V and far beyond, next to valid ones.
                    bad = r.integers(-3, v + 3, size=ish).astype(it)
                    if bad.size > 2:
                        bad.reshape(-1)[:3] = [-1, v, np.iinfo(it).max]
                    elif bad.size >= 1:
                        bad.reshape(-1)[0] = v
                    want_y, want_dt = numpy_reference(table, bad, axis, dy)
                    tag = "%s %s out-of-range" % (fn, ish)
                    rt.check("rlx.gather", m["fwd_" + fn](table, as_arg(bad)), want_y, label=tag)
                    rt.check("rlx.gather_backward", m["bwd_" + fn](dy, as_arg(bad)), want_dt,
                             label=tag)

    # A dynamic row count V (gathered axis), 0 at run time too: then the
    # result is zeros and the table is not read.
    dyn_rows = rt.compile("\n".join(
        "func.func @rows_%s(%%t: %s, %%i: tensor<5xi32>) -> %s {\n"
        "  %%y = rlx.gather %%t, %%i {axis = 1 : i64} : %s, tensor<5xi32> -> %s\n"
        "  return %%y : %s\n}\n"
        % (NAMES[dt], rt.mlir_type((3, None, 2), dt), rt.mlir_type((3, 5, 2), dt),
           rt.mlir_type((3, None, 2), dt), rt.mlir_type((3, 5, 2), dt),
           rt.mlir_type((3, 5, 2), dt)) for dt in rt.DTYPES))
    for dt in rt.DTYPES:
        idx = np.array([0, -1, 2, 0, 1], dtype=np.int32)
        for rows in (0, 1, 4):
            table = r.standard_normal((3, rows, 2)).astype(dt)
            want_y = np.zeros((3, 5, 2), dt)
            if rows:
                want_y, _ = numpy_reference(table, idx, 1, want_y)
            rt.check("rlx.gather", dyn_rows["rows_" + NAMES[dt]](table, idx), want_y,
                     label="dynamic V = %d" % rows)

    # Finite differences (f64) of the compiled forward w.r.t. the table.
    for name, tshape, ishape, axis, idyn, tdyn in CASES:
        a = axis % len(tshape)
        fn = "%s_f64_i64" % name
        table = r.standard_normal(tshape)
        idx = r.integers(-1, tshape[a] + 1, size=ishape).astype(np.int64)
        dy = r.standard_normal(result_shape(tshape, ishape, axis))
        rt.check_fd("rlx.gather_backward", m["fwd_" + fn], [table, as_arg(idx)], 0, dy,
                    m["bwd_" + fn](dy, as_arg(idx)), label=fn)
    emb_main()
    rt.finish()


# ---------------------------------------------------------------------------
# Embedding options (PyTorch's embedding_backward): padding_idx and
# scale_grad_by_freq, vs torch.ops.aten.embedding_dense_backward and the
# autograd of F.embedding. (name, V, D, indices shape, dynamic index dims,
# padding_idx or None, scale_grad_by_freq)
# ---------------------------------------------------------------------------
EMB_OP = "rlx.gather_backward (padding_idx, scale_grad_by_freq)"
EMB_CASES = [
    ("pad0", 10, 4, (7,), (), 0, False),
    ("pad_neg", 9, 3, (3, 5), (0,), -1, False),     # V - 1, dynamic batch
    ("pad_mid_scale", 8, 5, (4, 6), (0,), 3, True),
    ("scale", 6, 7, (11,), (0,), None, True),        # many duplicates
    ("scale_pad_neg2", 12, 2, (2, 3, 4), (0, 1), -2, True),
    ("scale_batch1", 5, 3, (1, 9), (0,), None, True),
]


def emb_text():
    funcs = []
    for name, v, d, ishape, idyn, pad, scale in EMB_CASES:
        attrs = "axis = 0 : i64"
        if pad is not None:
            attrs += ", padding_idx = %d : i64" % pad
        if scale:
            attrs += ", scale_grad_by_freq"
        for dt in rt.DTYPES:
            for it in INDEX_TYPES:
                fn = "%s_%s_%s" % (name, NAMES[dt], NAMES[it])
                ti = rt.mlir_type(mlir_shape(ishape, idyn), it)
                ty = rt.mlir_type(mlir_shape(ishape + (d,), idyn), dt)
                tt = rt.mlir_type((v, d), dt)
                funcs.append(
                    "func.func @emb_%s(%%dy: %s, %%i: %s) -> %s {\n"
                    "  %%g = rlx.gather_backward %%dy, %%i {%s} : %s, %s -> %s\n"
                    "  return %%g : %s\n}\n"
                    % (fn, ty, ti, tt, attrs, ty, ti, tt, tt))
    return "\n".join(funcs)


def emb_reference(dy, idx, v, pad, scale):
    """(embedding_dense_backward, autograd of F.embedding) for in-range idx."""
    norm_pad = -1 if pad is None else pad % v
    tdy, tidx = torch.tensor(dy), torch.tensor(idx.astype(np.int64))
    dense = torch.ops.aten.embedding_dense_backward(tdy, tidx, v, norm_pad,
                                                    scale)
    w = torch.zeros(v, dy.shape[-1], dtype=tdy.dtype, requires_grad=True)
    y = torch.nn.functional.embedding(tidx, w, padding_idx=pad,
                                      scale_grad_by_freq=scale)
    (auto,) = torch.autograd.grad(y, w, tdy)
    return dense.numpy(), auto.numpy()


def emb_main():
    r = rt.rng(5)
    m = rt.compile(emb_text())
    for name, v, d, ishape, idyn, pad, scale in EMB_CASES:
        for dt in rt.DTYPES:
            for it in INDEX_TYPES:
                fn = "%s_%s_%s" % (name, NAMES[dt], NAMES[it])
                idx = r.integers(0, v, size=ishape).astype(it)
                flat = idx.reshape(-1)
                # Duplicates, and the padding row among them.
                flat[1] = flat[0]
                if pad is not None:
                    flat[2] = pad % v
                    flat[-1] = pad % v
                dy = r.standard_normal(ishape + (d,)).astype(dt)
                dense, auto = emb_reference(dy, idx, v, pad, scale)
                got = m["emb_" + fn](dy, idx)
                rt.check(EMB_OP, got, dense, label=fn + " dense")
                rt.check(EMB_OP, got, auto, label=fn + " autograd")
                if pad is not None:
                    assert not got[pad % v].any(), fn
    # Out-of-range indices next to the padding row (numpy reference: they
    # contribute nothing and are not counted... they are skipped entirely).
    fn = "pad_mid_scale_f64_i64"
    idx = np.array([[3, 3, 1, -1, 8, 1], [0, 3, 100, 1, 7, 7],
                    [2, 2, 2, -5, 3, 0], [5, 5, 5, 5, 5, 4]], dtype=np.int64)
    dy = r.standard_normal((4, 6, 5))
    valid = (idx >= 0) & (idx < 8)
    counts = np.bincount(idx[valid], minlength=8).astype(np.float64)
    want = np.zeros((8, 5))
    for (b, s), i in np.ndenumerate(idx):
        if valid[b, s] and i != 3:
            want[i] += dy[b, s] * (1.0 / counts[i])
    rt.check(EMB_OP, m["emb_" + fn](dy, idx), want,
             label=fn + " out-of-range")



main()

