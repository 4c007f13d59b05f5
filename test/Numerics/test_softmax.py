# RUN: %python %s
"""Numerics of rlx.softmax, rlx.log_softmax, their gradients
rlx.softmax_backward / rlx.log_softmax_backward, rlx.softmax_cross_entropy
and its gradient against PyTorch (torch.softmax, torch.log_softmax,
torch._softmax_backward_data, torch._log_softmax_backward_data,
F.cross_entropy(reduction='none') and its autograd); out-of-range labels
against the contract's formula logsumexp(logits) - (masked pick) written in
torch; finite differences of the compiled forward for the gradients (f64)."""
import numpy as np
import torch
import torch.nn.functional as F

import rlxtest as rt

R = rt.rng(11)
TORCH = {np.float32: torch.float32, np.float64: torch.float64}
funcs, cases = [], []


def softmax_fn(name, shape, dtype, axis):
    t = rt.mlir_type(shape, dtype)
    return ("func.func @%s(%%x: %s) -> %s {\n"
            "  %%y = rlx.softmax %%x {axis = %d : i64} : %s -> %s\n"
            "  return %%y : %s\n}\n" % (name, t, t, axis, t, t, t))


def ce_fns(name, n, c, dtype, ltype):
    """name_fwd(logits, labels) -> loss and name_bwd(logits, labels, d_loss)."""
    lt = rt.mlir_type((n, c), dtype)
    it = rt.mlir_type((n,), ltype)
    vt = rt.mlir_type((n,), dtype)
    return ("func.func @%s_fwd(%%l: %s, %%t: %s) -> %s {\n"
            "  %%y = rlx.softmax_cross_entropy %%l, %%t : %s, %s -> %s\n"
            "  return %%y : %s\n}\n"
            "func.func @%s_bwd(%%l: %s, %%t: %s, %%d: %s) -> %s {\n"
            "  %%y = rlx.softmax_cross_entropy_backward %%l, %%t, %%d : %s, %s, %s -> %s\n"
            "  return %%y : %s\n}\n"
            % (name, lt, it, vt, lt, it, vt, vt,
               name, lt, it, vt, lt, lt, it, vt, lt, lt))


def ce_reference(logits, labels, d_loss):
    """(loss, dlogits): F.cross_entropy for in-range labels, the contract's
    formula (no one-hot term) elsewhere; gradients by torch autograd."""
    l = torch.tensor(logits, requires_grad=True)
    lab = torch.tensor(labels.astype(np.int64))
    c = logits.shape[1]
    valid = (lab >= 0) & (lab < c)
    if bool(valid.all()):
        loss = F.cross_entropy(l, lab, reduction="none")
    else:
        picked = torch.gather(l, 1, lab.clamp(0, c - 1)[:, None])[:, 0]
        loss = torch.logsumexp(l, dim=1) - torch.where(valid, picked,
                                                        torch.zeros_like(picked))
    (grad,) = torch.autograd.grad(loss, l, torch.tensor(d_loss))
    return loss.detach().numpy(), grad.numpy()


def nonfinite_rows(shape, dtype):
    """Random logits whose rows 0-3 hold a NaN, a +inf, only -inf, and a
    -inf among finite values."""
    x = R.standard_normal(shape).astype(dtype)
    x[0, 2], x[1, 4], x[2, :], x[3, 1] = np.nan, np.inf, -np.inf, -np.inf
    return x


# --- softmax: (shape, static/dynamic type shape, axis) -----------------------
SOFTMAX = [((3, 7), (3, 7), -1), ((2, 5, 4), (2, 5, 4), 1),
           ((4, 3), (4, 3), 0), ((5, 6), (None, 6), 1),
           ((2, 3, 5), (None, 3, 5), -3), ((3, 1), (3, 1), 1),
           ((4, 9), (None, None), -1)]
for dtype in rt.DTYPES:
    for i, (shape, tshape, axis) in enumerate(SOFTMAX):
        name = "softmax_%s_%d" % (np.dtype(dtype).name, i)
        funcs.append(softmax_fn(name, tshape, dtype, axis))
        x = (R.standard_normal(shape) * 3).astype(dtype)
        cases.append(("softmax", name, (x, axis)))
    # Large logits: without the max subtraction exp overflows.
    name = "softmax_%s_large" % np.dtype(dtype).name
    funcs.append(softmax_fn(name, (2, 6), dtype, -1))
    x = (R.standard_normal((2, 6)) * 400).astype(dtype)
    cases.append(("softmax", name, (x, -1)))

# --- softmax / log_softmax gradients: (shape, type shape, axis) ------------
def smb_fns(name, shape, dtype, axis):
    """name_{sm,lsm}_fwd(x) and name_{sm,lsm}_bwd(x, dy)."""
    t = rt.mlir_type(shape, dtype)
    a = "{axis = %d : i64}" % axis
    out = []
    for fwd, bwd, tag in (("softmax", "softmax_backward", "sm"),
                          ("log_softmax", "log_softmax_backward", "lsm")):
        out.append("func.func @%s_%s_fwd(%%x: %s) -> %s {\n"
                   "  %%y = rlx.%s %%x %s : %s -> %s\n"
                   "  return %%y : %s\n}\n" % (name, tag, t, t, fwd, a, t, t, t))
        out.append("func.func @%s_%s_bwd(%%x: %s, %%dy: %s) -> %s {\n"
                   "  %%dx = rlx.%s %%x, %%dy %s : %s, %s -> %s\n"
                   "  return %%dx : %s\n}\n"
                   % (name, tag, t, t, t, bwd, a, t, t, t, t))
    return "".join(out)


SMB = [((4, 7), (4, 7), -1), ((3, 5, 4), (3, 5, 4), 1),
       ((5, 3), (5, 3), 0), ((6, 9), (None, 9), 1),       # dynamic batch
       ((2, 3, 5), (None, 3, 5), -3),                    # reduce the dynamic dim
       ((3, 4, 6), (None, 4, 6), 1), ((4, 1), (4, 1), 1),  # one class
       ((2, 3, 2, 5), (2, None, 2, None), 2),             # dims 1 and 3 dynamic
       ((5, 11), (None, None), -1), ((1, 13), (1, 13), -1)]
for dtype in rt.DTYPES:
    for i, (shape, tshape, axis) in enumerate(SMB):
        name = "smb_%s_%d" % (np.dtype(dtype).name, i)
        funcs.append(smb_fns(name, tshape, dtype, axis))
        x = (R.standard_normal(shape) * 2).astype(dtype)
        dy = R.standard_normal(shape).astype(dtype)
        cases.append(("smb", name, (x, dy, axis)))
    # Large logits (the max subtraction) and ties (equal logits in a row).
    name = "smb_%s_large" % np.dtype(dtype).name
    funcs.append(smb_fns(name, (3, 6), dtype, -1))
    x = (R.standard_normal((3, 6)) * 300).astype(dtype)
    x[1, :] = 2.5
    cases.append(("smb", name, (x, R.standard_normal((3, 6)).astype(dtype), -1)))
    # Non-finite rows: a NaN (the row max skips it, and the row is NaN all
    # the same), +inf, all -inf, and -inf among finite logits.
    name = "smb_%s_nonfinite" % np.dtype(dtype).name
    funcs.append(smb_fns(name, (4, 6), dtype, -1))
    funcs.append(softmax_fn(name + "_y", (4, 6), dtype, -1))
    x = nonfinite_rows((4, 6), dtype)
    cases.append(("smb", name, (x, R.standard_normal((4, 6)).astype(dtype), -1)))
    cases.append(("softmax", name + "_y", (x, -1)))

# --- cross entropy: (n, c, type n, label dtype, labels override) ------------
CE = [(4, 7, 4, np.int64, None), (5, 3, 5, np.int32, None),
      (6, 5, None, np.int64, None), (3, 4, None, np.int32, [-1, 4, 2]),
      (4, 6, 4, np.int64, [100, -7, 0, 5]), (1, 1, 1, np.int32, None),
      (2, 1, None, np.int64, [0, 1])]
for dtype in rt.DTYPES:
    for i, (n, c, tn, ltype, labels) in enumerate(CE):
        name = "ce_%s_%d" % (np.dtype(dtype).name, i)
        funcs.append(ce_fns(name, tn, c, dtype, ltype))
        logits = (R.standard_normal((n, c)) * 2).astype(dtype)
        lab = np.array(labels if labels is not None else R.integers(0, c, n),
                       dtype=ltype)
        d_loss = R.standard_normal(n).astype(dtype)
        cases.append(("ce", name, (logits, lab, d_loss)))
    name = "ce_%s_nonfinite" % np.dtype(dtype).name
    funcs.append(ce_fns(name, 5, 6, dtype, np.int64))
    logits = np.concatenate([nonfinite_rows((4, 6), dtype),
                             R.standard_normal((1, 6)).astype(dtype)])
    lab = np.array([2, 1, 0, 3, 5], dtype=np.int64)
    cases.append(("ce", name, (logits, lab, R.standard_normal(5).astype(dtype))))

m = rt.compile("\n".join(funcs))

def smb_reference(x, dy, axis):
    """(softmax, log_softmax, their gradients) from torch's own backward
    kernels, which take the forward output."""
    tx, tdy = torch.tensor(x), torch.tensor(dy)
    y = torch.softmax(tx, dim=axis)
    z = torch.log_softmax(tx, dim=axis)
    dsm = torch._softmax_backward_data(tdy, y, axis, tx.dtype)
    dlsm = torch._log_softmax_backward_data(tdy, z, axis, tx.dtype)
    return [a.numpy() for a in (y, dsm, z, dlsm)]


for kind, name, args in cases:
    if kind == "smb":
        x, dy, axis = args
        y, dsm, z, dlsm = smb_reference(x, dy, axis)
        for tag, op, want_y, want_dx in (("sm", "softmax", y, dsm),
                                         ("lsm", "log_softmax", z, dlsm)):
            fwd = m["%s_%s_fwd" % (name, tag)]
            got = m["%s_%s_bwd" % (name, tag)](x, dy)
            if op == "log_softmax":
                rt.check("rlx.log_softmax", fwd(x), want_y, label=name)
            rt.check("rlx.%s_backward" % op, got, want_dx, label=name)
            if (x.dtype == np.float64 and x.size <= 64 and "large" not in name
                    and np.isfinite(x).all()):
                rt.check_fd("rlx.%s_backward" % op, fwd, [x], 0, dy, got,
                            label=name)
        continue
    if kind == "softmax":
        x, axis = args
        want = torch.softmax(torch.tensor(x), dim=axis).numpy()
        rt.check("rlx.softmax", m[name](x), want, label=name)
        continue
    logits, lab, d_loss = args
    loss, grad = ce_reference(logits, lab, d_loss)
    rt.check("rlx.softmax_cross_entropy", m[name + "_fwd"](logits, lab), loss,
             label=name)
    got = m[name + "_bwd"](logits, lab, d_loss)
    rt.check("rlx.softmax_cross_entropy_backward", got, grad, label=name)
    if logits.dtype == np.float64 and np.isfinite(logits).all():
        rt.check_fd("rlx.softmax_cross_entropy_backward", m[name + "_fwd"],
                    [logits, lab], 0, d_loss, got, label=name)

rt.finish()
