# RUN: %python %s
"""rlx.scan, rlx.scan_backward, rlx.scan_backward_xs against PyTorch autograd.

A gated recurrent body with a weight from outside the region:

    c_t = tanh(c_{t-1} @ W + x_t) * g_t

`body_vjp` is written by hand (linalg.matmul, rlx.activation_backward):

    z = c @ W + x_t, a = tanh(z), dz = tanh'(z) * (d_out * g_t)
    dcarry = dz @ W^T, dx_t = dz, dg_t = d_out * a

The loss is sum_t <c_t, upstream[t]> (the final-carry gradient is part of
upstream[L-1]); torch differentiates the same loop. Cases: L = 1, 5, 300
(300 > scan-unroll-max-length uses the loop form; 5 is also compiled with
scan-unroll-max-length=2), K = 0, K = L and 0 < K < L, a dynamic batch,
f32 and f64, plus central finite differences in f64.
The dynamic-batch cases also leave the time dimensions dynamic (`?`).
"""
import math

import numpy as np
import torch

import rlxtest as rt

B, H = 3, 5


def traj_rows(length, k):
    return length if k in (0, length) else k


def saved_steps(length, k):
    """Steps whose carries the trajectory holds (the ops-reference rows)."""
    if k in (0, length):
        return list(range(length))
    return [math.ceil((j + 1) * length / k) - 1 for j in range(k)]


def case_mlir(name, length, k, dtype, batch):
    """One function: forward scan (final carry + trajectory with K rows) and
    the three gradients, chained through the saved trajectory. batch None
    makes every batch and time dimension dynamic."""
    # A dynamic batch also makes the stacked (time) dims dynamic.
    steps = length if batch else None
    rows = traj_rows(length, k) if batch else None
    carry = rt.mlir_type((batch, H), dtype)
    seq = rt.mlir_type((steps, batch, H), dtype)
    traj = rt.mlir_type((rows, batch, H), dtype)
    w = rt.mlir_type((H, H), dtype)
    elt = "f32" if np.dtype(dtype) == np.float32 else "f64"
    forward_body = f"""
  ^bb0(%h: {carry}, %xt: {carry}, %gt: {carry}):
    %z = linalg.matmul ins(%h, %w : {carry}, {w}) outs(%xt : {carry}) -> {carry}
    %a = rlx.activation %z {{kind = #rlx.activation<tanh>}} : {carry} -> {carry}
    %n = linalg.mul ins(%a, %gt : {carry}, {carry}) outs(%gt : {carry}) -> {carry}
    rlx.yield %n : {carry}
  }}"""
    vjp_body = f"""
  ^bb0(%h: {carry}, %xt: {carry}, %gt: {carry}, %d: {carry}):
    %z = linalg.matmul ins(%h, %w : {carry}, {w}) outs(%xt : {carry}) -> {carry}
    %a = rlx.activation %z {{kind = #rlx.activation<tanh>}} : {carry} -> {carry}
    %da = linalg.mul ins(%d, %gt : {carry}, {carry}) outs(%d : {carry}) -> {carry}
    %dg = linalg.mul ins(%d, %a : {carry}, {carry}) outs(%a : {carry}) -> {carry}
    %dz = rlx.activation_backward %z, %da {{kind = #rlx.activation<tanh>}} : {carry}, {carry} -> {carry}
    %zero = arith.constant 0.0 : {elt}
    %f = linalg.fill ins(%zero : {elt}) outs(%h : {carry}) -> {carry}
    %dh = linalg.matmul ins(%dz, %wt : {carry}, {w}) outs(%f : {carry}) -> {carry}
    rlx.yield %dh, %dz, %dg : {carry}, {carry}, {carry}
  }}"""
    fwd_region = (" forward {" + forward_body) if 0 < k < length else ""
    attrs = f"length = {length} : i64, num_checkpoints = {k} : i64"
    grad = f"""%h0, %traj, %dy xs(%x, %g : {seq}, {seq})"""
    grad_types = f"{carry}, {traj}, {seq}"
    return f"""
func.func @{name}(%h0: {carry}, %x: {seq}, %g: {seq}, %w: {w}, %dy: {seq})
    -> ({carry}, {traj}, {carry}, {seq}, {seq}) {{
  %c, %traj = rlx.scan %h0 xs(%x, %g : {seq}, {seq}) {{{attrs}, save_trajectory}}
      : {carry} -> {carry}, {traj} {{{forward_body}
  %we = tensor.empty() : {w}
  %wt = linalg.transpose ins(%w : {w}) outs(%we : {w}) permutation = [1, 0]
  %dh0 = rlx.scan_backward {grad} {{{attrs}}} : {grad_types} -> {carry} vjp {{{vjp_body}{fwd_region}
  %dx = rlx.scan_backward_xs {grad} {{{attrs}, xs_idx = 0 : i64}} : {grad_types} -> {seq} vjp {{{vjp_body}{fwd_region}
  %dg = rlx.scan_backward_xs {grad} {{{attrs}, xs_idx = 1 : i64}} : {grad_types} -> {seq} vjp {{{vjp_body}{fwd_region}
  return %c, %traj, %dh0, %dx, %dg : {carry}, {traj}, {carry}, {seq}, {seq}
}}
"""


def reference(h0, x, g, w, dy, k):
    """Final carry, saved rows, and d/d(h0, x, g) of sum_t <c_t, dy[t]>."""
    h0, x, g, w, dy = (torch.tensor(a, requires_grad=True) for a in (h0, x, g, w, dy))
    h, carries = h0, []
    for t in range(x.shape[0]):
        h = torch.tanh(h @ w + x[t]) * g[t]
        carries.append(h)
    traj = torch.stack(carries)
    dh0, dx, dg = torch.autograd.grad((traj * dy).sum(), [h0, x, g])
    rows = traj[saved_steps(x.shape[0], k)]
    return [v.detach().numpy() for v in (h, rows, dh0, dx, dg)]


def inputs(rng, length, batch, dtype):
    h0 = rng.standard_normal((batch, H))
    x = rng.standard_normal((length, batch, H))
    g = rng.uniform(0.5, 1.5, (length, batch, H))
    w = rng.standard_normal((H, H)) * (0.9 / math.sqrt(H))
    dy = rng.standard_normal((length, batch, H))
    return [a.astype(dtype) for a in (h0, x, g, w, dy)]


# (length, K, dynamic batch?) per function, compiled with
# scan-unroll-max-length=256 (the default is 4): L = 5 runs the unrolled
# forms, L = 300 the loop forms.
CASES = [(1, 0, False), (1, 1, False), (5, 0, False), (5, 5, False),
         (5, 2, False), (5, 3, True), (5, 4, False), (300, 0, False),
         (300, 300, False), (300, 7, False), (300, 1, True)]
NAMES = ("final_carry", "trajectory", "dinit", "dxs[0]", "dxs[1]")
OPS = ("rlx.scan", "rlx.scan", "rlx.scan_backward", "rlx.scan_backward_xs",
       "rlx.scan_backward_xs")


def run_cases(rng, dtype, cases, options=None, tag=""):
    text = "".join(case_mlir("c%d" % i, length, k, dtype, None if dyn else B)
                   for i, (length, k, dyn) in enumerate(cases))
    m = rt.compile(text, options)
    for i, (length, k, dyn) in enumerate(cases):
        batch = 4 if dyn else B
        args = inputs(rng, length, batch, dtype)
        got = m["c%d" % i](*args)
        want = reference(*[a.astype(np.float64) for a in args], k)
        label = "%sL=%d K=%d%s" % (tag, length, k, " dyn" if dyn else "")
        for op, name, gv, wv in zip(OPS, NAMES, got, want):
            rt.check(op, gv, wv.astype(dtype), dtype=dtype,
                     label="%s %s" % (label, name))


def finite_differences(rng):
    """f64: the compiled gradients of the final carry agree with central
    differences of the compiled forward scan (upstream = dy on row L-1)."""
    length, batch = 4, 2
    for k in (0, 2):
        m = rt.compile(case_mlir("fd", length, k, np.float64, batch))
        h0, x, g, w, _ = inputs(rng, length, batch, np.float64)
        dy_final = rng.standard_normal((batch, H))
        upstream = np.zeros((length, batch, H))
        upstream[-1] = dy_final
        _, _, dh0, dx, dg = m.fd(h0, x, g, w, upstream)
        final = lambda *a: m.fd(*a, upstream)[0]
        for op, wrt, got in (("rlx.scan_backward", 0, dh0),
                             ("rlx.scan_backward_xs", 1, dx),
                             ("rlx.scan_backward_xs", 2, dg)):
            rt.check_fd(op, final, [h0, x, g, w], wrt, dy_final, got,
                        label="K=%d wrt %d" % (k, wrt))


def main():
    rng = rt.rng(0)
    torch.set_default_dtype(torch.float64)
    for dtype in rt.DTYPES:
        run_cases(rng, dtype, CASES, options="scan-unroll-max-length=256")
    # The loop forms at a short length, checkpoints included.
    run_cases(rng, np.float64, [(5, 0, False), (5, 2, True), (5, 5, False)],
              options="scan-unroll-max-length=2", tag="loop ")
    finite_differences(rng)
    rt.finish()


main()
