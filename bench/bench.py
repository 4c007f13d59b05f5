"""Times rlx-compiled ops against PyTorch (same run), 1 and 2 threads.

Each case gives MLIR text (static shapes, f32), numpy inputs and the
equivalent torch computation: the forward graph is built once, outside the
timing, and only `torch.autograd.grad(..., retain_graph=True)` is timed. Both
are warmed up, then timed: the median of `runs` calls, taken in turns
(rlx, torch, rlx, ...) RLX_BENCH_ROUNDS times (default 3), best of them.
Before timing, every case checks once that rlx's result matches torch's (so
a wrong kernel cannot be timed silently). Prints one row per case with the
ratio torch_time / rlx_time (> 1: rlx is faster) and the JIT compile time of
the rlx function.

Contraction rows also print GFLOPS and the percentage of the FMA peak that
a small vector-FMA kernel (compiled by rlx) measures at the start of the same
run, per thread count. torch uses OpenBLAS for matmul (Debian's
libopenblas0-pthread is installed when missing) and oneDNN for convolutions;
the BLAS and OPENBLAS_CORETYPE are printed (an inherited
OPENBLAS_CORETYPE is dropped so that OpenBLAS detects the host;
RLX_BENCH_OPENBLAS_CORETYPE sets one). `--rss CASE_FUNCTION` runs one
case's rlx function alone, without torch, and prints the process's peak RSS
(used for the memory rows).

    RLX_BUILD_DIR=build PYTHONPATH=python /usr/bin/python3 bench/bench.py [filter]
"""
import ctypes
import math
import os
import subprocess
import sys
import time


# Both libraries allocate through glibc's malloc. With its defaults, a
# buffer above the dynamic mmap threshold is mapped afresh by every call and
# faulted in 4 KiB at a time (~10 us a fault on this VM), and whether a
# 16 MB result is mapped or comes from the heap depends on what the process
# freed before: torch's gelu backward took 5 or 50 ms from run to run
# (torch.mul of 4M floats 37 ms, numpy's 0.8). The bench runs under fixed
# settings, the same for both: buffers up to 32 MiB (glibc's largest
# threshold) come from the heap, which is never trimmed, and larger ones are
# mapped with huge pages. A GLIBC_TUNABLES of the caller's is kept.
MALLOC_TUNABLES = ("glibc.malloc.mmap_threshold=33554432:"
                   "glibc.malloc.trim_threshold=1073741824:"
                   "glibc.malloc.hugetlb=1")
if "GLIBC_TUNABLES" not in os.environ:
    os.environ["GLIBC_TUNABLES"] = MALLOC_TUNABLES
    os.execv(sys.executable, [sys.executable] + sys.argv)

# torch at its best: OpenBLAS picks its kernels for the host unless
# OPENBLAS_CORETYPE names a core. An inherited one is dropped (the Zen 5 VM
# of 2026-12-07 set Haswell, OpenBLAS's AVX2 kernels: torch's 1024^3 matmul
# ran at 96 GFLOPS, 177 with the detected Cooperlake kernels);
# RLX_BENCH_OPENBLAS_CORETYPE sets one on purpose. OpenBLAS reads the
# variable when it is loaded (numpy's and torch's imports below), so no
# re-exec is needed; the dropped value is printed with the BLAS line.
INHERITED_CORETYPE = os.environ.pop("OPENBLAS_CORETYPE", None)
if "RLX_BENCH_OPENBLAS_CORETYPE" in os.environ:
    os.environ["OPENBLAS_CORETYPE"] = os.environ["RLX_BENCH_OPENBLAS_CORETYPE"]


def ensure_openblas():
    """torch's matmuls go through libblas.so.3: make that OpenBLAS."""
    ok = subprocess.run(["dpkg-query", "-W", "-f=${Status}",
                         "libopenblas0-pthread"], capture_output=True,
                        text=True).stdout.startswith("install ok installed")
    if not ok:
        print("bench: installing libopenblas0-pthread", flush=True)
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq",
                               "libopenblas0-pthread"], check=False)


# --rss FN: only rlx runs (no torch import or graph: its memory is not
# rlx's), so the process's peak RSS is rlx's (plus Python and numpy).
RSS_MODE = len(sys.argv) > 2 and sys.argv[1] == "--rss"
if not RSS_MODE:
    ensure_openblas()

import numpy as np  # noqa: E402

if not RSS_MODE:
    import torch  # noqa: E402
    import torch.nn.functional as F  # noqa: E402

import rlx  # noqa: E402

THREADS = (1, 2)
# Timings per row and thread count, each the median of the case's runs
# (RLX_BENCH_ROUNDS, default 3); a row reports the best of them.
ROUNDS = max(1, int(os.environ.get("RLX_BENCH_ROUNDS", "3")))

RTOL = 1e-3
ATOL = 1e-3   # times max|want|: relative to the result's scale


class Case:
    def __init__(self, name, text, inputs, torch_fn, runs=20, options=None,
                 flops=None, rss=False, traffic=None):
        self.name, self.text = name, text
        self.inputs = [aligned(a) for a in inputs]
        self.torch_fn, self.runs, self.options = torch_fn, runs, options
        self.flops = flops  # of the contraction(s); None: not a contraction
        self.rss = rss      # also report the peak RSS of rlx alone
        # Memory-bound rows: the compulsory bytes (every input read once,
        # the result written once); None: the inputs' and result's sizes.
        self.traffic = traffic


def aligned(a, alignment=64):
    """A copy of `a` whose data starts on a 64-byte boundary, like torch's
    tensors (c10's CPU allocator aligns to 64; numpy's to 16). rlx then
    reads the same alignment as torch: a 16-byte offset splits every
    64-byte vector load across two cache lines, which cost the
    layer_norm beta row 0.53 vs 0.30 ms (1 thread, 2026-12-04)."""
    a = np.asarray(a)
    raw = np.empty(a.nbytes + alignment, np.uint8)
    start = -raw.ctypes.data % alignment
    out = raw[start:start + a.nbytes].view(a.dtype).reshape(a.shape)
    out[...] = a
    return out


def compulsory_bytes(case, result):
    if case.traffic is not None:
        return case.traffic
    return sum(a.nbytes for a in case.inputs) + np.asarray(result).nbytes


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
    """Median wall time; the caller has already warmed fn up (the check).

    First waits until the other library's idle worker threads have stopped
    spinning: after a parallel region OpenBLAS's threads spin ~0.1 s and
    libomp's 0.2 s (KMP_BLOCKTIME), and would take a core from this timing
    (rlx at 2 threads measured no faster than at 1 right after torch).

    Then warms fn up again for 50 ms (at least 3 calls): after the pause
    its own threads sleep and the idle core runs slow, so the first calls
    are slow (a 0.2 ms layer_norm beta call at 2 threads took 1.1 ms, then
    0.9, 0.6, ...), and 20 timed calls of a short row were mostly warm-up
    (medians of 0.17 to 0.58 ms from run to run)."""
    time.sleep(0.3)
    start, calls = time.perf_counter(), 0
    while calls < 3 or time.perf_counter() - start < 0.05:
        fn()
        calls += 1
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


def norm_param_case(kind, wrt):
    """layer_norm / rms_norm gamma or beta gradient at 4096x1024."""
    n, d, eps = 4096, 1024, 1e-5
    x, gamma, beta, dy = norm_inputs(20, (n, d), d)
    t, p = ty((n, d)), ty((d,))
    a = "{axis = -1 : i64, eps = %e : f32}" % eps
    tx = torch.tensor(x)
    tg = torch.tensor(gamma, requires_grad=True)
    tb = torch.tensor(beta, requires_grad=True)
    if kind == "layer_norm":
        if wrt == "gamma":
            line = ("rlx.layer_norm_backward_gamma %%x, %%dy %s : %s, %s -> %s"
                    % (a, t, t, p))
            args, inputs = [("x", t), ("dy", t)], [x, dy]
        else:
            line = ("rlx.layer_norm_backward_beta %%dy {axis = -1 : i64} : "
                    "%s -> %s" % (t, p))
            args, inputs = [("dy", t)], [dy]
        y = F.layer_norm(tx, (d,), tg, tb, eps)
    else:
        line = ("rlx.rms_norm_backward_%s %%x, %%g, %%b, %%dy %s : %s, %s, %s, "
                "%s -> %s" % (wrt, a, t, p, p, t, p))
        args, inputs = [("x", t), ("g", p), ("b", p), ("dy", t)], [x, gamma,
                                                                 beta, dy]
        y = tx * torch.rsqrt(tx.pow(2).mean(-1, keepdim=True) + eps) * tg + tb
    text = single("f", args, line, p)
    return Case("%s_backward_%s 4096x1024" % (kind, wrt), text, inputs,
                grad_fn(y, tg if wrt == "gamma" else tb, dy))


def case_layer_norm_gamma():
    return norm_param_case("layer_norm", "gamma")


def case_layer_norm_beta():
    return norm_param_case("layer_norm", "beta")


def case_rms_norm_gamma():
    return norm_param_case("rms_norm", "gamma")


def case_gather():
    # Embedding gradient: 4096 token rows of 512 into a 32000-row table.
    vocab, n, d = 32000, 4096, 512
    g = rng(21)
    idx = g.integers(0, vocab, n).astype(np.int64)
    dy = g.standard_normal((n, d)).astype(np.float32)
    td, ti, tt = ty((n, d)), ty((n,), "i64"), ty((vocab, d))
    text = single("f", [("dy", td), ("i", ti)],
                  "rlx.gather_backward %%dy, %%i {axis = 0 : i64} : %s, %s -> %s"
                  % (td, ti, tt), tt)
    w = torch.zeros(vocab, d, requires_grad=True)
    y = F.embedding(torch.tensor(idx), w)
    return Case("gather_backward embedding 32000x512, 4096 indices", text,
                [dy, idx], grad_fn(y, w, dy), runs=10)


def cumsum_case(shape):
    g = rng(22)
    x = g.standard_normal(shape).astype(np.float32)
    dy = g.standard_normal(shape).astype(np.float32)
    t = ty(shape)
    text = single("f", [("dy", t)],
                  "rlx.cumsum_backward %%dy {axis = -1 : i64} : %s -> %s"
                  % (t, t), t)
    tx = torch.tensor(x, requires_grad=True)
    return Case("cumsum_backward %dx%d axis -1" % shape, text, [dy],
                grad_fn(torch.cumsum(tx, -1), tx, dy))


def case_cumsum_short():
    return cumsum_case((4096, 128))


def case_cumsum_long():
    return cumsum_case((64, 4096))


def conv_case(kind, x_shape, co, stride=1, groups=1, seed=4, runs=3):
    """conv2d (forward), conv2d_backward_weight or _input, 3x3, padding 1."""
    n, ci, h, w = x_shape
    cig = ci // groups
    ho, wo = (h + 2 - 3) // stride + 1, (w + 2 - 3) // stride + 1
    y_shape, w_shape = (n, co, ho, wo), (co, cig, 3, 3)
    g = rng(seed)
    x = g.standard_normal(x_shape).astype(np.float32)
    wt = (g.standard_normal(w_shape) / math.sqrt(cig * 9)).astype(np.float32)
    dy = g.standard_normal(y_shape).astype(np.float32)
    attrs = "{stride = array<i64: %d, %d>, padding = array<i64: 1, 1>, groups = %d : i64}" % (
        stride, stride, groups)
    tx, tw, tyy = ty(x_shape), ty(w_shape), ty(y_shape)
    flops = 2.0 * n * co * ho * wo * cig * 9
    label = "%dx%dx%dx%d 3x3 Co=%d s%d%s" % (
        n, ci, h, w, co, stride, " depthwise" if groups == ci and groups > 1
        else (" g%d" % groups if groups > 1 else ""))
    conv = lambda xx, ww: F.conv2d(xx, ww, stride=stride, padding=1,
                                   groups=groups)
    if kind == "forward":
        text = single("f", [("x", tx), ("w", tw)],
                      "rlx.conv2d %%x, %%w %s : %s, %s -> %s"
                      % (attrs, tx, tw, tyy), tyy)
        tx_t, tw_t = torch.tensor(x), torch.tensor(wt)  # no autograd graph
        return Case("conv2d " + label, text, [x, wt],
                    lambda: (conv(tx_t, tw_t),), runs=runs, flops=flops)
    if kind == "weight":
        text = single("f", [("x", tx), ("dy", tyy)],
                      "rlx.conv2d_backward_weight %%x, %%dy %s : %s, %s -> %s"
                      % (attrs, tx, tyy, tw), tw)
        w_t = torch.tensor(wt, requires_grad=True)
        y = conv(torch.tensor(x), w_t)
        return Case("conv2d_backward_weight " + label, text, [x, dy],
                    grad_fn(y, w_t, dy), runs=runs, flops=flops)
    text = single("f", [("dy", tyy), ("w", tw)],
                  "rlx.conv2d_backward_input %%dy, %%w %s : %s, %s -> %s"
                  % (attrs, tyy, tw, tx), tx)
    x_t = torch.tensor(x, requires_grad=True)
    y = conv(x_t, torch.tensor(wt))
    return Case("conv2d_backward_input " + label, text, [dy, wt],
                grad_fn(y, x_t, dy), runs=runs, flops=flops)


CONV_X = (8, 64, 56, 56)


def case_conv_weight():
    return conv_case("weight", CONV_X, 64)


def case_conv_input():
    return conv_case("input", CONV_X, 64, seed=5, runs=5)


def case_conv_forward():
    return conv_case("forward", CONV_X, 64, seed=12, runs=5)


def case_conv_weight_s2():
    return conv_case("weight", CONV_X, 64, stride=2, seed=13)


def case_conv_input_s2():
    return conv_case("input", CONV_X, 64, stride=2, seed=14)


def case_conv_forward_s2():
    return conv_case("forward", CONV_X, 64, stride=2, seed=15)


def case_conv_weight_dw():
    return conv_case("weight", CONV_X, 64, groups=64, seed=16)


def case_conv_input_dw():
    return conv_case("input", CONV_X, 64, groups=64, seed=17)


def case_conv_forward_dw():
    return conv_case("forward", CONV_X, 64, groups=64, seed=18)


def matmul_case(size):
    g = rng(19)
    a = g.standard_normal((size, size)).astype(np.float32)
    b = g.standard_normal((size, size)).astype(np.float32)
    t = ty((size, size))
    text = ("func.func @f(%a: {t}, %b: {t}) -> {t} {{\n"
            "  %z = arith.constant 0.0 : f32\n"
            "  %e = tensor.empty() : {t}\n"
            "  %i = linalg.fill ins(%z : f32) outs(%e : {t}) -> {t}\n"
            "  %r = linalg.matmul ins(%a, %b : {t}, {t}) outs(%i : {t}) -> {t}\n"
            "  return %r : {t}\n}}\n").format(t=t)
    ta, tb = torch.tensor(a), torch.tensor(b)
    return Case("matmul %d^3" % size, text, [a, b],
                lambda: (torch.matmul(ta, tb),), runs=10,
                flops=2.0 * size ** 3)


def case_matmul_512():
    return matmul_case(512)


def case_matmul_1024():
    return matmul_case(1024)


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


def attention_case(wrt, b=2, h=8, s=512, d=64, runs=5, rss=False):
    g = rng(10)
    q, k, v, dy = (g.standard_normal((b, h, s, d)).astype(np.float32)
                   for _ in range(4))
    t = ty((b, h, s, d))
    text = single("f", [("q", t), ("k", t), ("v", t), ("dy", t)],
                  "rlx.attention_backward %%q, %%k, %%v, %%dy {num_heads = %d : i64, head_dim = %d : i64, mask_kind = #rlx.mask_kind<causal>, wrt = #rlx.attention_wrt<%s>} : %s, %s, %s, %s -> %s"
                  % (h, d, wrt, t, t, t, t, t), t)
    name = "attention_backward B%d H%d S%d D%d causal wrt=%s" % (b, h, s, d,
                                                                   wrt)
    if RSS_MODE:
        return Case(name, text, [q, k, v, dy], None, rss=rss)
    # torch 1.13 has no scaled_dot_product_attention: the eager formula.
    ts = [torch.tensor(x, requires_grad=(n == wrt))
          for n, x in (("query", q), ("key", k), ("value", v))]
    scores = torch.matmul(ts[0], ts[1].transpose(-1, -2)) / math.sqrt(d)
    keep = torch.ones(s, s, dtype=torch.bool).tril()
    p = torch.softmax(scores.masked_fill(~keep, -1e9), dim=-1)
    y = torch.matmul(p, ts[2])
    wrt_t = ts[("query", "key", "value").index(wrt)]
    # S = q k^T, then dv = P^T dy (value) or dP = dy v^T and dS k / dS^T q:
    # 2 or 3 [S, S] x D products per head, of which causal needs only the
    # s (s + 1) / 2 scores a query sees (counted in full, the dense count,
    # before 2026-12-07 08:00: up to 104% of the FMA peak on the Zen 5 VM).
    flops = 2.0 * b * h * (s * (s + 1) / 2) * d * (2 if wrt == "value" else 3)
    return Case(name, text, [q, k, v, dy], grad_fn(y, wrt_t, dy), runs=runs,
                flops=flops, rss=rss)


def case_attention():
    return attention_case("query")


def case_attention_key():
    return attention_case("key")


def case_attention_value():
    return attention_case("value")


def case_attention_4096():
    return attention_case("query", b=1, h=8, s=4096, runs=2, rss=True)


def scan_case(length):
    # h_t = tanh(h_{t-1} W + x_t); loss = sum_t <h_t, upstream[t]>; dinit.
    batch, hid = 16, 128
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
    # Default options: above scan-unroll-max-length (4) the steps are an
    # scf.for (unrolled, L = 64 took over a minute in the JIT; README).
    return Case("scan_backward tanh RNN L=%d B=16 H=128" % length, text,
                [h0, traj, up, xs, w], grad_fn(traj_t, h0_t, up))


def case_scan():
    return scan_case(64)


def case_scan_256():
    return scan_case(256)


CASES = [case_matmul_512, case_matmul_1024,
         case_activation, case_layer_norm, case_rms_norm, case_group_norm,
         case_layer_norm_gamma, case_layer_norm_beta, case_rms_norm_gamma,
         case_gather, case_cumsum_short, case_cumsum_long,
         case_conv_weight, case_conv_input, case_conv_forward,
         case_conv_weight_s2, case_conv_input_s2, case_conv_forward_s2,
         case_conv_weight_dw, case_conv_input_dw, case_conv_forward_dw,
         case_max_pool, case_cross_entropy,
         case_fake_quantize, case_rope, case_attention, case_attention_key,
         case_attention_value, case_attention_4096, case_scan,
         case_scan_256]


PEAK_TEXT = """
func.func @f(%x: tensor<{T}x16xf32>) -> tensor<{T}x16xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {N} : index
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{T}x16xf32>
  %r = scf.forall (%t) in ({T}) shared_outs(%o = %e) -> tensor<{T}x16xf32> {{
    %v = vector.transfer_read %x[%t, %c0], %z {{in_bounds = [true]}} : tensor<{T}x16xf32>, vector<16xf32>
    %m = arith.constant dense<0.999> : vector<16xf32>
    %s:16 = scf.for %i = %c0 to %n step %c1 iter_args({ARGS}) -> ({TYPES}) {{
{FMAS}
      scf.yield {NEXT} : {TYPES}
    }}
{SUMS}
    %row = tensor.empty() : tensor<16xf32>
    %w = vector.transfer_write %sum, %row[%c0] {{in_bounds = [true]}} : vector<16xf32>, tensor<16xf32>
    scf.forall.in_parallel {{
      tensor.parallel_insert_slice %w into %o[%t, 0] [1, 16] [1, 1] : tensor<16xf32> into tensor<{T}x16xf32>
    }}
  }}
  return %r : tensor<{T}x16xf32>
}}
"""


def peak_text(tasks, iters):
    """16 independent FMA chains on 16-lane vectors per task; the tasks run
    on the threads (scf.forall)."""
    args = ", ".join("%%a%d = %%v" % i for i in range(16))
    types = ", ".join(["vector<16xf32>"] * 16)
    fmas = "\n".join("      %%b%d = vector.fma %%a%d, %%m, %%v : vector<16xf32>"
                     % (i, i) for i in range(16))
    nxt = ", ".join("%%b%d" % i for i in range(16))
    sums = ["    %p1 = arith.addf %s#0, %s#1 : vector<16xf32>"]
    for i in range(2, 16):
        sums.append("    %%p%d = arith.addf %%p%d, %%s#%d : vector<16xf32>"
                    % (i, i - 1, i))
    sums.append("    %sum = arith.addf %p15, %v : vector<16xf32>")
    text = PEAK_TEXT.format(T=tasks, N=iters, ARGS=args, TYPES=types,
                            FMAS=fmas, NEXT=nxt, SUMS="\n".join(sums))
    return text, 2.0 * 16 * 16 * iters * tasks


def measure_peak():
    """GFLOPS of the FMA kernel per thread count (best of 5)."""
    tasks, iters = 64, 200000
    text, flops = peak_text(tasks, iters)
    m = rlx.compile(text)
    x = np.ones((tasks, 16), np.float32)
    peaks = {}
    for t in THREADS:
        rlx.set_num_threads(t)
        m.f(x)
        best = min(median_ms(lambda: m.f(x), 3) for _ in range(5))
        peaks[t] = flops / best / 1e6
    return peaks


def measure_bandwidth():
    """Copy (b -> a, 2 x 128 MB moved) and triad (a = b + 3c, 3 x 128 MB)
    GB/s per thread count, by torch's copy_ and add(out=): single-pass,
    vectorised, threaded kernels over buffers far larger than the caches.
    Best of 5 medians, like the FMA peak."""
    n = 32 * 1024 * 1024
    a, b, c = (torch.ones(n) for _ in range(3))
    copy, triad = {}, {}
    for t in THREADS:
        set_torch_threads(t)
        ms = min(median_ms(lambda: a.copy_(b), 3) for _ in range(5))
        copy[t] = 2 * 4 * n / ms / 1e6
        ms = min(median_ms(lambda: torch.add(b, c, alpha=3.0, out=a), 3)
                 for _ in range(5))
        triad[t] = 3 * 4 * n / ms / 1e6
    return copy, triad


def openblas_libs():
    """The OpenBLAS libraries loaded in this process (torch's libblas.so.3)."""
    torch.matmul(torch.ones(64, 64), torch.ones(64, 64))
    return sorted({line.split()[-1] for line in open("/proc/self/maps")
                   if "blas" in line.split()[-1]})


def set_torch_threads(t):
    """torch.set_num_threads sets torch's OpenMP pool but not OpenBLAS's
    own pthreads pool, which otherwise runs torch's matmuls on every core
    in the one-thread rows (seen on 2026-12-06: a "1-thread" 1024^3 matmul
    at 1.95 CPUs, 6.4 ms; 12.0 ms on one)."""
    torch.set_num_threads(t)
    for lib in openblas_libs():
        try:
            ctypes.CDLL(lib).openblas_set_num_threads(ctypes.c_int(t))
        except (OSError, AttributeError):
            pass


SIZED_COPY = {}


def copy_bandwidth_at(nbytes, t):
    """GB/s of torch's copy_ moving `nbytes` in all (half read, half
    written) on t threads, best of 3 medians: the limit for a row whose
    compulsory traffic is `nbytes`, from the cache level that holds that
    much (the 128 MB copy measures DRAM; a VM with a 480 MiB L3 keeps a
    4096x1024 row's 32 MB in cache, and its rows then ran at 130-190% of
    the 128 MB copy). Call with the threads already set to t."""
    n = max(nbytes // 8, 4096)
    if (n, t) not in SIZED_COPY:
        a, b = torch.empty(n), torch.ones(n)
        ms = min(median_ms(lambda: a.copy_(b), 20) for _ in range(3))
        SIZED_COPY[(n, t)] = 2 * 4 * n / ms / 1e6
    return SIZED_COPY[(n, t)]


def blas_info():
    """The BLAS library torch's matmul calls, and OpenBLAS's core type."""
    libs = openblas_libs()
    info = ", ".join(os.path.realpath(l) for l in libs) or "none loaded"
    core = os.environ.get("OPENBLAS_CORETYPE", "unset (auto-detected)")
    if INHERITED_CORETYPE is not None and "OPENBLAS_CORETYPE" not in os.environ:
        core += " (the caller's %s dropped)" % INHERITED_CORETYPE
    for lib in libs:
        try:
            h = ctypes.CDLL(lib)
            h.openblas_get_corename.restype = ctypes.c_char_p
            core += ", OpenBLAS core " + h.openblas_get_corename().decode()
            break
        except (OSError, AttributeError):
            pass
    return info, core


def peak_rss_mb(make):
    """Runs the rlx function of case `make` once in a fresh process without
    torch; its peak RSS in MB (Python, numpy, the inputs, the compiler, the
    call)."""
    out = subprocess.run([sys.executable, __file__, "--rss", make.__name__],
                         capture_output=True, text=True)
    for line in out.stdout.splitlines():
        if line.startswith("RSS_MB "):
            return float(line.split()[1])
    return float("nan")


def case_options(case):
    """The case's pipeline options plus $RLX_BENCH_OPTIONS (e.g.
    "fuse-rows=1"): one switch compared over every row, same run setup."""
    extra = os.environ.get("RLX_BENCH_OPTIONS", "")
    return " ".join(o for o in (case.options, extra) if o) or None


def rss_main(fn):
    case = globals()[fn]()
    m = rlx.compile(case.text, case_options(case))
    m.f(*case.inputs)
    # VmHWM, not getrusage's ru_maxrss: Linux carries ru_maxrss across
    # exec, so a child of the bench would report the bench's own peak.
    with open("/proc/self/status") as f:
        hwm_kb = next(int(line.split()[1]) for line in f
                      if line.startswith("VmHWM:"))
    print("RSS_MB %.0f" % (hwm_kb / 1024.0))


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
    print("torch %s; BLAS: %s; OPENBLAS_CORETYPE: %s; convolutions: oneDNN "
          "(mkldnn %s)" % ((torch.__version__,) + blas_info()
                          + (torch.backends.mkldnn.is_available(),)))
    if os.environ.get("RLX_BENCH_OPTIONS"):
        print("RLX_BENCH_OPTIONS: %s" % os.environ["RLX_BENCH_OPTIONS"])
    with open("/proc/loadavg") as f:
        print("load average at start: %s" % " ".join(f.read().split()[:3]))
    print("GLIBC_TUNABLES: %s" % os.environ.get("GLIBC_TUNABLES"))
    peaks = measure_peak()
    print("FMA peak (f32, rlx vector.fma kernel): " + ", ".join(
        "%d thread%s %.0f GFLOPS" % (t, "s" if t > 1 else "", peaks[t])
        for t in THREADS), flush=True)
    copy_bw, triad_bw = measure_bandwidth()
    print("memory bandwidth (torch copy_ / add(out=), 128 MB arrays): " +
          ", ".join("%d thread%s copy %.1f GB/s triad %.1f GB/s"
                    % (t, "s" if t > 1 else "", copy_bw[t], triad_bw[t])
                    for t in THREADS), flush=True)
    cols = []
    for t in THREADS:
        cols += ["rlx ms %dT" % t, "torch ms %dT" % t, "torch/rlx %dT" % t,
                 "GFLOPS %dT" % t, "%% peak %dT" % t, "GB/s %dT" % t,
                 "%% copy %dT" % t, "%% same-size copy %dT" % t]
    print("| case | " + " | ".join(cols) + " | rlx 2T/1T | JIT s | peak RSS MB |",
          flush=True)
    print("|---" * (len(cols) + 4) + "|", flush=True)
    for make in CASES:
        case = make()
        if pattern not in case.name:
            continue
        t0 = time.perf_counter()
        m = rlx.compile(case.text, case_options(case))
        jit_s = time.perf_counter() - t0
        cells, rlx_ms = [], {}
        for t in THREADS:
            rlx.set_num_threads(t)
            set_torch_threads(t)
            result = m.f(*case.inputs)
            check(case.name, result, case.torch_fn()[0])
            # Best of ROUNDS medians each, rlx and torch taking turns: a
            # single median moved by 10-20% from run to run on these VMs
            # (torch's gelu backward 3.2-5.3 ms in one evening).
            rlx_runs, torch_runs = [], []
            for _ in range(ROUNDS):
                rlx_runs.append(median_ms(lambda: m.f(*case.inputs), case.runs))
                torch_runs.append(median_ms(case.torch_fn, case.runs))
            rlx_ms[t], torch_ms = min(rlx_runs), min(torch_runs)
            cells += ["%.3f" % rlx_ms[t], "%.3f" % torch_ms,
                      "%.3g" % (torch_ms / rlx_ms[t])]
            if case.flops:
                gf = case.flops / rlx_ms[t] / 1e6
                cells += ["%.0f" % gf, "%.0f%%" % (100 * gf / peaks[t])]
            else:
                cells += ["", ""]
            if case.flops:
                cells += ["", "", ""]
            else:
                # Effective bandwidth: compulsory bytes / rlx time, against
                # the 128 MB copy and a copy that moves as many bytes.
                nbytes = compulsory_bytes(case, result)
                gbs = nbytes / rlx_ms[t] / 1e6
                cells += ["%.1f" % gbs, "%.0f%%" % (100 * gbs / copy_bw[t]),
                          "%.0f%%" % (100 * gbs / copy_bandwidth_at(nbytes, t))]
        rss = "%.0f" % peak_rss_mb(make) if case.rss else ""
        print("| %s | %s | %.2f | %.1f | %s |" % (
            case.name, " | ".join(cells), rlx_ms[1] / rlx_ms[THREADS[-1]],
            jit_s, rss), flush=True)


class Tee:
    """Writes to stdout and keeps a copy (for --plot)."""

    def __init__(self, out):
        self.out, self.text = out, []

    def write(self, s):
        self.text.append(s)
        return self.out.write(s)

    def flush(self):
        self.out.flush()


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--rss":
        rss_main(sys.argv[2])
    elif len(sys.argv) > 2 and sys.argv[1] == "--plot":
        # bench.py --plot OUT.png [filter]: the table, then its picture.
        png = sys.argv.pop(2)
        sys.argv.pop(1)
        sys.stdout = tee = Tee(sys.stdout)
        main()
        sys.stdout = tee.out
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import plot
        plot.plot("".join(tee.text), png)
    else:
        main()
