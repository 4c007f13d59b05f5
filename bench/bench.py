"""Times rlx-compiled backward ops against PyTorch autograd (same run).

Each case gives MLIR text (static shapes, f32), numpy inputs and the
equivalent torch computation: the forward graph is built once, outside the
timing, and only `torch.autograd.grad(..., retain_graph=True)` is timed. Both
are warmed up, then timed (median of `runs` calls). Before timing, every case
checks once that rlx's result matches torch's (so a wrong kernel cannot be
timed silently). Prints one row per case with the ratio torch_time / rlx_time
(> 1: rlx is faster) and the JIT compile time of the rlx function.

    RLX_BUILD_DIR=build PYTHONPATH=python /usr/bin/python3 bench/bench.py [filter]
"""
import math
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

import rlx

torch.set_num_threads(1)

RTOL = 1e-3
ATOL = 1e-3   # times max|want|: relative to the result's scale


class Case:
    def __init__(self, name, text, inputs, torch_fn, runs=20, options=None):
        self.name, self.text, self.inputs = name, text, inputs
        self.torch_fn, self.runs, self.options = torch_fn, runs, options


def ty(shape, elt="f32"):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), elt)


def single(name, args, op_line, result):
    """func.func @name(args...) -> result { %r = op_line; return %r }."""
    params = ", ".join("%%%s: %s" % (n, t) for n, t in args)
    return ("func.func @%s(%s) -> %s {\n  %%r = %s\n  return %%r : %s\n}\n"
            % (name, params, result, op_line, result))


def rng(seed):
    return np.random.default_rng(seed)


def grad_fn(y, wrt, dy):
    """The timed torch call: the backward of a prebuilt graph."""
    tdy = torch.tensor(dy) if isinstance(dy, np.ndarray) else dy
    return lambda: torch.autograd.grad(y, wrt, tdy, retain_graph=True)


def median_ms(fn, runs):
    """Median wall time; the caller has already warmed fn up (the check)."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(times))


# ----------------------------------------------------------------------------
# Cases
# ----------------------------------------------------------------------------

def case_activation():
    x = rng(0).standard_normal((4096, 1024)).astype(np.float32)
    dy = np.ones_like(x)
    t = ty(x.shape)
    text = single("f", [("x", t), ("dy", t)],
                  "rlx.activation_backward %%x, %%dy {kind = #rlx.activation<gelu>} : %s, %s -> %s"
                  % (t, t, t), t)
    tx = torch.tensor(x, requires_grad=True)
    return Case("activation_backward gelu 4096x1024", text, [x, dy],
                grad_fn(F.gelu(tx), tx, dy))


def norm_inputs(seed, shape, c):
    """x, gamma, beta, dy of a norm case with C = c parameters."""
    g = rng(seed)
    x = g.standard_normal(shape).astype(np.float32)
    gamma = g.uniform(0.5, 1.5, c).astype(np.float32)
    beta = g.standard_normal(c).astype(np.float32)
    dy = g.standard_normal(shape).astype(np.float32)
    return x, gamma, beta, dy


def case_layer_norm():
    n, d, eps = 4096, 1024, 1e-5
    x, gamma, beta, dy = norm_inputs(1, (n, d), d)
    t, p = ty((n, d)), ty((d,))
    text = single("f", [("x", t), ("g", p), ("dy", t)],
                  "rlx.layer_norm_backward_input %%x, %%g, %%dy {axis = -1 : i64, eps = %e : f32} : %s, %s, %s -> %s"
                  % (eps, t, p, t, t), t)
    tx = torch.tensor(x, requires_grad=True)
    y = F.layer_norm(tx, (d,), torch.tensor(gamma), torch.tensor(beta), eps)
    return Case("layer_norm_backward_input 4096x1024", text, [x, gamma, dy],
                grad_fn(y, tx, dy))


def case_rms_norm():
    n, d, eps = 4096, 1024, 1e-6
    x, gamma, beta, dy = norm_inputs(2, (n, d), d)
    t, p = ty((n, d)), ty((d,))
    text = single("f", [("x", t), ("g", p), ("b", p), ("dy", t)],
                  "rlx.rms_norm_backward_input %%x, %%g, %%b, %%dy {axis = -1 : i64, eps = %e : f32} : %s, %s, %s, %s -> %s"
                  % (eps, t, p, p, t, t), t)
    # torch 1.13 has no F.rms_norm: the formula, differentiated by autograd.
    tx = torch.tensor(x, requires_grad=True)
    r = torch.rsqrt(tx.pow(2).mean(-1, keepdim=True) + eps)
    y = tx * r * torch.tensor(gamma) + torch.tensor(beta)
    return Case("rms_norm_backward_input 4096x1024", text, [x, gamma, beta, dy],
                grad_fn(y, tx, dy))


def case_group_norm():
    shape, groups, eps = (8, 64, 56, 56), 32, 1e-5
    c = shape[1]
    x, gamma, beta, dy = norm_inputs(3, shape, c)
    t, p = ty(shape), ty((c,))
    text = single("f", [("x", t), ("g", p), ("b", p), ("dy", t)],
                  "rlx.group_norm_backward_input %%x, %%g, %%b, %%dy {num_groups = %d : i64, eps = %e : f32} : %s, %s, %s, %s -> %s"
                  % (groups, eps, t, p, p, t, t), t)
    tx = torch.tensor(x, requires_grad=True)
    y = F.group_norm(tx, groups, torch.tensor(gamma), torch.tensor(beta), eps)
    return Case("group_norm_backward_input 8x64x56x56 G=32", text,
                [x, gamma, beta, dy], grad_fn(y, tx, dy))


CONV_X, CONV_W = (8, 64, 56, 56), (64, 64, 3, 3)
CONV_ATTRS = "{padding = array<i64: 1, 1>}"


def conv_inputs(seed):
    g = rng(seed)
    x = g.standard_normal(CONV_X).astype(np.float32)
    w = (g.standard_normal(CONV_W) / math.sqrt(64 * 9)).astype(np.float32)
    dy = g.standard_normal(CONV_X).astype(np.float32)  # 3x3, pad 1: Ho = H
    return x, w, dy


def case_conv_weight():
    x, w, dy = conv_inputs(4)
    tx, tw = ty(CONV_X), ty(CONV_W)
    text = single("f", [("x", tx), ("dy", tx)],
                  "rlx.conv2d_backward_weight %%x, %%dy %s : %s, %s -> %s"
                  % (CONV_ATTRS, tx, tx, tw), tw)
    w_t = torch.tensor(w, requires_grad=True)
    y = F.conv2d(torch.tensor(x), w_t, padding=1)
    return Case("conv2d_backward_weight 8x64x56x56 3x3 Co=64 p1", text,
                [x, dy], grad_fn(y, w_t, dy), runs=3)


def case_conv_input():
    x, w, dy = conv_inputs(5)
    tx, tw = ty(CONV_X), ty(CONV_W)
    text = single("f", [("dy", tx), ("w", tw)],
                  "rlx.conv2d_backward_input %%dy, %%w %s : %s, %s -> %s"
                  % (CONV_ATTRS, tx, tw, tx), tx)
    x_t = torch.tensor(x, requires_grad=True)
    y = F.conv2d(x_t, torch.tensor(w), padding=1)
    return Case("conv2d_backward_input 8x64x56x56 3x3 Co=64 p1", text,
                [dy, w], grad_fn(y, x_t, dy), runs=5)


def case_max_pool():
    shape, yshape = (8, 64, 112, 112), (8, 64, 56, 56)
    g = rng(6)
    x = g.standard_normal(shape).astype(np.float32)
    dy = g.standard_normal(yshape).astype(np.float32)
    tx, tyy = ty(shape), ty(yshape)
    text = single("f", [("x", tx), ("dy", tyy)],
                  "rlx.max_pool2d_backward %%x, %%dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : %s, %s -> %s"
                  % (tx, tyy, tx), tx)
    x_t = torch.tensor(x, requires_grad=True)
    y = F.max_pool2d(x_t, 3, 2, 1)
    return Case("max_pool2d_backward 8x64x112x112 k3 s2 p1", text, [x, dy],
                grad_fn(y, x_t, dy), runs=10)


def case_cross_entropy():
    n, c = 4096, 1000
    g = rng(7)
    logits = (3 * g.standard_normal((n, c))).astype(np.float32)
    labels = g.integers(0, c, n).astype(np.int64)
    d_loss = g.standard_normal(n).astype(np.float32)
    tl, tt, tv = ty((n, c)), ty((n,), "i64"), ty((n,))
    text = single("f", [("l", tl), ("t", tt), ("d", tv)],
                  "rlx.softmax_cross_entropy_backward %%l, %%t, %%d : %s, %s, %s -> %s"
                  % (tl, tt, tv, tl), tl)
    l_t = torch.tensor(logits, requires_grad=True)
    y = F.cross_entropy(l_t, torch.tensor(labels), reduction="none")
    return Case("softmax_cross_entropy_backward 4096x1000", text,
                [logits, labels, d_loss], grad_fn(y, l_t, d_loss))


def case_fake_quantize():
    # Per-output-channel 8-bit weight quantisation of a 4096x1024 matrix with
    # the clipped-identity STE. torch side: the contract's STE as an autograd
    # graph, y = clamp(x, -m, m) + (fq(x) - clamp(...)).detach(), with
    # m = max|x_c| = qmax*s exactly and s = m/qmax detached.
    shape, qmax = (4096, 1024), 127.0
    g = rng(8)
    x = g.standard_normal(shape).astype(np.float32)
    dy = g.standard_normal(shape).astype(np.float32)
    t = ty(shape)
    text = single("f", [("x", t), ("dy", t)],
                  "rlx.fake_quantize_backward %%x, %%dy {axis = 0 : i64, bits = 8 : i64, ste = #rlx.ste<clipped_identity>} : %s, %s -> %s"
                  % (t, t, t), t)
    m = torch.tensor(np.abs(x).max(axis=1, keepdims=True))
    s = m / qmax
    x_t = torch.tensor(x, requires_grad=True)
    sur = torch.clamp(x_t, -m, m)
    fq = torch.clamp(torch.round(x_t / s), -qmax, qmax) * s
    y = sur + (fq - sur).detach()
    return Case("fake_quantize_backward per-channel 8-bit clipped 4096x1024",
                text, [x, dy], grad_fn(y, x_t, dy))


def case_rope():
    b, s, h, d = 8, 512, 8, 64
    g = rng(9)
    x = g.standard_normal((b, s, h * d)).astype(np.float32)
    theta = g.uniform(-np.pi, np.pi, (s, d // 2))
    cos, sin = np.cos(theta).astype(np.float32), np.sin(theta).astype(np.float32)
    dy = g.standard_normal(x.shape).astype(np.float32)
    tx, tc = ty(x.shape), ty(cos.shape)
    text = single("f", [("dy", tx), ("c", tc), ("s", tc)],
                  "rlx.rope_backward %%dy, %%c, %%s {head_dim = %d : i64, n_rot = %d : i64} : %s, %s, %s -> %s"
                  % (d, d, tx, tc, tc, tx), tx)
    # NeoX rotation per head, as a torch user writes it (rotate_half).
    x_t = torch.tensor(x, requires_grad=True)
    xs = x_t.reshape(b, s, h, d)
    c = torch.tensor(cos)[:, None, :].repeat(1, 1, 2)
    t = torch.tensor(sin)[:, None, :].repeat(1, 1, 2)
    rot = torch.cat([-xs[..., d // 2:], xs[..., :d // 2]], dim=-1)
    y = (xs * c + rot * t).reshape(b, s, h * d)
    return Case("rope_backward [8,512,8*64] n_rot=64", text, [dy, cos, sin],
                grad_fn(y, x_t, dy))


def case_attention():
    b, h, s, d = 2, 8, 512, 64
    g = rng(10)
    q, k, v, dy = (g.standard_normal((b, h, s, d)).astype(np.float32)
                   for _ in range(4))
    t = ty((b, h, s, d))
    text = single("f", [("q", t), ("k", t), ("v", t), ("dy", t)],
                  "rlx.attention_backward %%q, %%k, %%v, %%dy {num_heads = %d : i64, head_dim = %d : i64, mask_kind = #rlx.mask_kind<causal>, wrt = #rlx.attention_wrt<query>} : %s, %s, %s, %s -> %s"
                  % (h, d, t, t, t, t, t), t)
    # torch 1.13 has no scaled_dot_product_attention: the eager formula.
    q_t = torch.tensor(q, requires_grad=True)
    scores = torch.matmul(q_t, torch.tensor(k).transpose(-1, -2)) / math.sqrt(d)
    keep = torch.ones(s, s, dtype=torch.bool).tril()
    p = torch.softmax(scores.masked_fill(~keep, -1e9), dim=-1)
    y = torch.matmul(p, torch.tensor(v))
    return Case("attention_backward B2 H8 S512 D64 causal wrt=query", text,
                [q, k, v, dy], grad_fn(y, q_t, dy), runs=5)


def case_scan():
    # h_t = tanh(h_{t-1} W + x_t); loss = sum_t <h_t, upstream[t]>; dinit.
    length, batch, hid = 64, 16, 128
    g = rng(11)
    h0 = g.standard_normal((batch, hid)).astype(np.float32)
    xs = g.standard_normal((length, batch, hid)).astype(np.float32)
    w = (g.standard_normal((hid, hid)) * (0.9 / math.sqrt(hid))).astype(np.float32)
    up = g.standard_normal((length, batch, hid)).astype(np.float32)
    h0_t = torch.tensor(h0, requires_grad=True)
    w_t, xs_t = torch.tensor(w), torch.tensor(xs)
    hs, hcur = [], h0_t
    for i in range(length):
        hcur = torch.tanh(hcur @ w_t + xs_t[i])
        hs.append(hcur)
    traj_t = torch.stack(hs)
    traj = traj_t.detach().numpy().copy()
    c, seq, wt = ty((batch, hid)), ty((length, batch, hid)), ty((hid, hid))
    text = """
func.func @f(%h0: {c}, %traj: {seq}, %up: {seq}, %x: {seq}, %w: {wt}) -> {c} {{
  %we = tensor.empty() : {wt}
  %wtr = linalg.transpose ins(%w : {wt}) outs(%we : {wt}) permutation = [1, 0]
  %r = rlx.scan_backward %h0, %traj, %up xs(%x : {seq}) {{length = {L} : i64, num_checkpoints = 0 : i64}} : {c}, {seq}, {seq} -> {c} vjp {{
  ^bb0(%h: {c}, %xt: {c}, %d: {c}):
    %z = linalg.matmul ins(%h, %w : {c}, {wt}) outs(%xt : {c}) -> {c}
    %dz = rlx.activation_backward %z, %d {{kind = #rlx.activation<tanh>}} : {c}, {c} -> {c}
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%h : {c}) -> {c}
    %dh = linalg.matmul ins(%dz, %wtr : {c}, {wt}) outs(%f : {c}) -> {c}
    rlx.yield %dh, %dz : {c}, {c}
  }}
  return %r : {c}
}}
""".format(c=c, seq=seq, wt=wt, L=length)
    # Loop form: with the default scan-unroll-max-length (256) the 64 steps are
    # unrolled and the JIT takes over a minute (README); the run time is alike.
    return Case("scan_backward tanh RNN L=64 B=16 H=128 (loop form)", text,
                [h0, traj, up, xs, w], grad_fn(traj_t, h0_t, up),
                options="scan-unroll-max-length=16")


CASES = [case_activation, case_layer_norm, case_rms_norm, case_group_norm,
         case_conv_weight, case_conv_input, case_max_pool, case_cross_entropy,
         case_fake_quantize, case_rope, case_attention, case_scan]


def check(name, got, want):
    """np.allclose with rtol 1e-3 and atol 1e-3 * max|want|."""
    want = want.detach().numpy()
    got = np.asarray(got)
    scale = max(float(np.max(np.abs(want))), 1e-30)
    if got.shape != want.shape or not np.allclose(got, want, rtol=RTOL,
                                                  atol=ATOL * scale):
        err = (np.max(np.abs(got - want)) / scale
               if got.shape == want.shape else float("inf"))
        raise SystemExit("MISMATCH %s: rlx differs from torch (max err %.3g "
                         "of scale %.3g)" % (name, err, scale))


def main():
    pattern = sys.argv[1] if len(sys.argv) > 1 else ""
    print("| case | rlx ms | torch ms | torch/rlx | rlx JIT s |", flush=True)
    print("|---|---|---|---|---|", flush=True)
    for make in CASES:
        case = make()
        if pattern not in case.name:
            continue
        t0 = time.perf_counter()
        m = rlx.compile(case.text, case.options)
        jit_s = time.perf_counter() - t0
        check(case.name, m.f(*case.inputs), case.torch_fn()[0])
        rlx_ms = median_ms(lambda: m.f(*case.inputs), case.runs)
        torch_ms = median_ms(case.torch_fn, case.runs)
        print("| %s | %.3f | %.3f | %.3g | %.1f |" % (
            case.name, rlx_ms, torch_ms, torch_ms / rlx_ms, jit_s), flush=True)


if __name__ == "__main__":
    main()
