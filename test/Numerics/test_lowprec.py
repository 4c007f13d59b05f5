# RUN: %python %s
"""bf16 and f16 numerics of every rlx op, forward and backward, against
PyTorch 1.13 on the CPU.

One file for all families (not one per family, the suite's rule otherwise):
what is tested here is one rewrite shared by every op (runInF32 in
lib/Transforms/Common/PatternGlue.cpp: extend the bf16/f16 operands to f32,
run the op's f32 rewrite, round the results once), the reference rule and
the tolerance table are the same for every op, and the table of tolerances
and worst errors is the one place the issue asks for. Each family's own
mathematics is tested in f32/f64 by its test_<family>.py.

Semantics: an rlx op on bf16/f16 computes in f32 on the (exact) low-precision
inputs and rounds each result once. Two references per result:
- "f32": torch in f32 on the same inputs, rounded once to the dtype. This is
  the contract: it differs from rlx only by f32 reduction order and the f32
  approximations of tanh/erf/exp/log, so at most by a rounding flip (an ulp
  of the dtype: 2^-8 relative for bf16, 2^-11 for f16).
- "torch": torch computing in the dtype itself, where torch 1.13 has a CPU
  kernel for it (most bf16 ops; few f16 ones). Torch rounds intermediate
  results (e.g. attention's probabilities, a bf16 cumsum), so this is looser.
  Where torch raises "not implemented", the "f32" reference is the only one.
Errors are normwise relative (rlxtest.rel_error). Every case has batch > 1.
bf16 travels through rlx.compile as numpy uint16 bit patterns.
"""
import numpy as np
import torch
import torch.nn.functional as F

import rlxtest as rt

torch.set_num_threads(1)
R = rt.rng(16)

TORCH_DTYPE = {"bf16": torch.bfloat16, "f16": torch.float16}

# ---------------------------------------------------------------------------
# The tolerances: ONE place. (vs "f32" reference, vs torch in the dtype).
# ---------------------------------------------------------------------------
TOLERANCE = {
    # vs "f32": one ulp of the dtype at the largest element (2^-7 for bf16,
    # 2^-10 for f16), what a rounding flip costs; an op that computed its
    # statistics in the dtype would miss it. vs "torch": torch rounds
    # intermediates in the dtype (attention's scores and probabilities).
    "bf16": {"default": (8e-3, 3e-2),
             # The scan body's own bf16 ops round at every step (L = 4).
             "rlx.scan": (3e-2, 8e-3), "rlx.scan_backward": (3e-2, 3e-2),
             "rlx.scan_backward_xs": (3e-2, 3e-2)},
    "f16": {"default": (1e-3, 4e-3),
            "rlx.scan": (4e-3, 1e-3), "rlx.scan_backward": (4e-3, 4e-3),
            "rlx.scan_backward_xs": (4e-3, 4e-3)},
}


def tolerance(dtype, op):
    table = TOLERANCE[dtype]
    return table.get(op, table["default"])


# ---------------------------------------------------------------------------
# Low-precision values
# ---------------------------------------------------------------------------
def rounded(a, dtype):
    """f32 numpy array of `a` rounded (to nearest even) to the dtype."""
    return torch.tensor(np.asarray(a, np.float32)).to(TORCH_DTYPE[dtype]).float().numpy()


def to_arg(a, dtype):
    """What rlx.compile takes: float16, or the bf16 bits as uint16."""
    t = torch.tensor(np.asarray(a, np.float32)).to(TORCH_DTYPE[dtype])
    if dtype == "f16":
        return t.numpy()
    return t.view(torch.int16).numpy().view(np.uint16)


def from_result(a, dtype):
    """f64 values of an rlx result (float16, or bf16 bits in uint16)."""
    a = np.asarray(a)
    if dtype == "f16":
        assert a.dtype == np.float16, a.dtype
        return a.astype(np.float64)
    assert a.dtype == np.uint16, a.dtype
    return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


# ---------------------------------------------------------------------------
# Cases: an rlx op applied to inputs, and a torch function of the same inputs
# ---------------------------------------------------------------------------
class Case:
    """`stmt` is the op with {t0}.. for the operand types and {r} for the
    result type, operands %a0...; `inputs` are (shape, kind) with kind
    "normal", "positive", "small" (|x| < 1.2), "theta" (cos/sin rows) or
    ("index", n) for i64 indices in [0, n); `result` the result shape; `fn`
    maps torch tensors (floats in the compute dtype) to the result."""

    def __init__(self, op, stmt, inputs, result, fn):
        self.op, self.stmt, self.inputs, self.result, self.fn = (
            op, stmt, inputs, result, fn)


def grad(f, wrt):
    """(*args, dy) -> d/d args[wrt] of sum(f(*args) * dy), by autograd."""
    def g(*args):
        *xs, dy = args
        xs = [x.detach().requires_grad_(i == wrt) for i, x in enumerate(xs)]
        (gx,) = torch.autograd.grad(f(*xs), xs[wrt], dy)
        return gx
    return g


def cases():
    out = []
    N = "normal"

    # Activation ------------------------------------------------------------
    out.append(Case("rlx.relu", "rlx.relu %a0 : {t0} -> {r}",
                    [((3, 4, 9), N)], (3, 4, 9), F.relu))
    out.append(Case("rlx.relu_backward", "rlx.relu_backward %a0, %a1 : {t0}, {t1} -> {r}",
                    [((3, 4, 9), N)] * 2, (3, 4, 9), grad(F.relu, 0)))
    kinds = {
        "gelu": F.gelu, "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"),
        "silu": F.silu, "sigmoid": torch.sigmoid, "tanh": torch.tanh,
        "exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt,
        "rsqrt": torch.rsqrt, "neg": torch.neg, "abs": torch.abs,
        "sin": torch.sin, "cos": torch.cos, "tan": torch.tan,
        "atan": torch.atan, "relu": F.relu, "hardtanh": F.hardtanh,
        "softplus": F.softplus, "elu": F.elu, "leaky_relu": F.leaky_relu,
        "relu6": F.relu6, "hardswish": F.hardswish,
        "hardsigmoid": F.hardsigmoid, "mish": F.mish,
    }
    for kind, fn in kinds.items():
        dom = ("positive" if kind in ("log", "sqrt", "rsqrt")
               else "small" if kind == "tan" else N)
        a = "{kind = #rlx.activation<%s>}" % kind
        out.append(Case("rlx.activation<%s>" % kind,
                        "rlx.activation %a0 " + a + " : {t0} -> {r}",
                        [((4, 33), dom)], (4, 33), fn))
        out.append(Case("rlx.activation_backward<%s>" % kind,
                        "rlx.activation_backward %a0, %a1 " + a + " : {t0}, {t1} -> {r}",
                        [((4, 33), dom), ((4, 33), N)], (4, 33), grad(fn, 0)))

    # Norm --------------------------------------------------------------------
    x, d = (4, 6, 32), (32,)
    ra = "{axis = -1 : i64, eps = 1.0e-05 : f32}"
    ln = lambda x, g, b: F.layer_norm(x, (x.shape[-1],), g, b, 1e-5)
    rms = lambda x, g, b: x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-5) * g + b
    out.append(Case("rlx.layer_norm", "rlx.layer_norm %a0, %a1, %a2 " + ra +
                    " : {t0}, {t1}, {t2} -> {r}", [(x, N), (d, N), (d, N)], x, ln))
    out.append(Case("rlx.layer_norm_backward_input",
                    "rlx.layer_norm_backward_input %a0, %a1, %a2 " + ra +
                    " : {t0}, {t1}, {t2} -> {r}", [(x, N), (d, N), (x, N)], x,
                    lambda x, g, dy: grad(ln, 0)(x, g, torch.zeros_like(g), dy)))
    out.append(Case("rlx.layer_norm_backward_gamma",
                    "rlx.layer_norm_backward_gamma %a0, %a1 " + ra +
                    " : {t0}, {t1} -> {r}", [(x, N), (x, N)], d,
                    lambda x, dy: grad(ln, 1)(x, torch.ones(d, dtype=x.dtype),
                                             torch.zeros(d, dtype=x.dtype), dy)))
    out.append(Case("rlx.layer_norm_backward_beta",
                    "rlx.layer_norm_backward_beta %a0 {{axis = -1 : i64}} : {t0} -> {r}",
                    [(x, N)], d, lambda dy: dy.sum((0, 1))))
    out.append(Case("rlx.rms_norm", "rlx.rms_norm %a0, %a1, %a2 " + ra +
                    " : {t0}, {t1}, {t2} -> {r}", [(x, N), (d, N), (d, N)], x, rms))
    for i, part in enumerate(("input", "gamma", "beta")):
        out.append(Case("rlx.rms_norm_backward_" + part,
                        "rlx.rms_norm_backward_%s %%a0, %%a1, %%a2, %%a3 " % part + ra +
                        " : {t0}, {t1}, {t2}, {t3} -> {r}",
                        [(x, N), (d, N), (d, N), (x, N)], x if i == 0 else d,
                        grad(rms, i)))
    xg, c = (2, 6, 5, 3), (6,)
    ga = "{num_groups = 3 : i64, eps = 1.0e-05 : f32}"
    gn = lambda x, g, b: F.group_norm(x, 3, g, b, 1e-5)
    ones = lambda t: torch.ones(c, dtype=t.dtype)
    out.append(Case("rlx.group_norm", "rlx.group_norm %a0, %a1, %a2 " + ga +
                    " : {t0}, {t1}, {t2} -> {r}", [(xg, N), (c, N), (c, N)], xg, gn))
    out.append(Case("rlx.group_norm_backward_input",
                    "rlx.group_norm_backward_input %a0, %a1, %a2, %a3 " + ga +
                    " : {t0}, {t1}, {t2}, {t3} -> {r}",
                    [(xg, N), (c, N), (c, N), (xg, N)], xg, grad(gn, 0)))
    for i, part in ((1, "gamma"), (2, "beta")):
        out.append(Case("rlx.group_norm_backward_" + part,
                        "rlx.group_norm_backward_%s %%a0, %%a1 " % part + ga +
                        " : {t0}, {t1} -> {r}", [(xg, N), (xg, N)], c,
                        lambda x, dy, i=i: grad(gn, i)(x, ones(x), 0 * ones(x), dy)))

    # Conv --------------------------------------------------------------------
    cx, cw, cy = (2, 3, 9, 9), (4, 3, 3, 3), (2, 4, 5, 5)
    ca = "{stride = array<i64: 2, 2>, padding = array<i64: 1, 1>}"
    conv = lambda x, w: F.conv2d(x, w, stride=2, padding=1)
    out.append(Case("rlx.conv2d", "rlx.conv2d %a0, %a1 " + ca + " : {t0}, {t1} -> {r}",
                    [(cx, N), (cw, N)], cy, conv))
    out.append(Case("rlx.conv2d_backward_input",
                    "rlx.conv2d_backward_input %a0, %a1 " + ca + " : {t0}, {t1} -> {r}",
                    [(cy, N), (cw, N)], cx,
                    lambda dy, w: grad(conv, 0)(torch.zeros(cx, dtype=w.dtype), w, dy)))
    out.append(Case("rlx.conv2d_backward_weight",
                    "rlx.conv2d_backward_weight %a0, %a1 " + ca + " : {t0}, {t1} -> {r}",
                    [(cx, N), (cy, N)], cw,
                    lambda x, dy: grad(conv, 1)(x, torch.zeros(cw, dtype=x.dtype), dy)))
    out.append(Case("rlx.conv2d_backward_bias",
                    "rlx.conv2d_backward_bias %a0 : {t0} -> {r}", [(cy, N)], (4,),
                    lambda dy: dy.sum((0, 2, 3))))

    # Pool --------------------------------------------------------------------
    px, py = (2, 3, 7, 7), (2, 3, 3, 3)
    pa = "{kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>}"
    pool = lambda x: F.max_pool2d(x, 3, 2)
    out.append(Case("rlx.max_pool2d", "rlx.max_pool2d %a0 " + pa + " : {t0} -> {r}",
                    [(px, N)], py, pool))
    out.append(Case("rlx.max_pool2d_backward",
                    "rlx.max_pool2d_backward %a0, %a1 " + pa + " : {t0}, {t1} -> {r}",
                    [(px, N), (py, N)], px, grad(pool, 0)))

    # Cumsum ------------------------------------------------------------------
    sx = (3, 200)
    out.append(Case("rlx.cumsum", "rlx.cumsum %a0 {{axis = 1 : i64}} : {t0} -> {r}",
                    [(sx, N)], sx, lambda x: torch.cumsum(x, 1)))
    out.append(Case("rlx.cumsum_backward",
                    "rlx.cumsum_backward %a0 {{axis = 1 : i64}} : {t0} -> {r}",
                    [(sx, N)], sx, lambda dy: torch.cumsum(dy.flip(1), 1).flip(1)))

    # Gather ------------------------------------------------------------------
    gt, gi = (10, 8), (3, 5)
    take = lambda t, i: t[i]
    out.append(Case("rlx.gather", "rlx.gather %a0, %a1 {{axis = 0 : i64}} : {t0}, {t1} -> {r}",
                    [(gt, N), (gi, ("index", 10))], gi + (8,), take))
    out.append(Case("rlx.gather_backward",
                    "rlx.gather_backward %a0, %a1 {{axis = 0 : i64}} : {t0}, {t1} -> {r}",
                    [(gi + (8,), N), (gi, ("index", 10))], gt,
                    lambda dy, i: grad(take, 0)(torch.zeros(gt, dtype=dy.dtype), i, dy)))

    # Softmax -----------------------------------------------------------------
    mx = (4, 5, 33)
    sm = lambda x: torch.softmax(x, -1)
    lsm = lambda x: torch.log_softmax(x, -1)
    for name, fn in (("softmax", sm), ("log_softmax", lsm)):
        out.append(Case("rlx." + name, "rlx.%s %%a0 {{axis = -1 : i64}} : {t0} -> {r}" % name,
                        [(mx, N)], mx, fn))
        out.append(Case("rlx.%s_backward" % name,
                        "rlx.%s_backward %%a0, %%a1 {{axis = -1 : i64}} : {t0}, {t1} -> {r}" % name,
                        [(mx, N), (mx, N)], mx, grad(fn, 0)))
    ce = lambda l, t: F.cross_entropy(l, t, reduction="none")
    out.append(Case("rlx.softmax_cross_entropy",
                    "rlx.softmax_cross_entropy %a0, %a1 : {t0}, {t1} -> {r}",
                    [((8, 37), N), ((8,), ("index", 37))], (8,), ce))
    out.append(Case("rlx.softmax_cross_entropy_backward",
                    "rlx.softmax_cross_entropy_backward %a0, %a1, %a2 : {t0}, {t1}, {t2} -> {r}",
                    [((8, 37), N), ((8,), ("index", 37)), ((8,), N)], (8, 37),
                    grad(ce, 0)))

    # Quantize (torch has no such op: the formula of test_quantize.py) -------
    def fq_scale(x):
        return x.abs().amax() / 127

    def fake_quant(x):
        s = fq_scale(x)
        return torch.clamp(torch.round(x / s), -127, 127) * s

    def fq_tanh_grad(x, dy):
        s = fq_scale(x)
        return dy * (1 - torch.tanh(x / s) ** 2)
    qa = "{bits = 8 : i64, ste = #rlx.ste<tanh>}"
    out.append(Case("rlx.fake_quantize", "rlx.fake_quantize %a0 " + qa + " : {t0} -> {r}",
                    [((5, 40), N)], (5, 40), fake_quant))
    out.append(Case("rlx.fake_quantize_backward",
                    "rlx.fake_quantize_backward %a0, %a1 " + qa + " : {t0}, {t1} -> {r}",
                    [((5, 40), N), ((5, 40), N)], (5, 40), fq_tanh_grad))

    # Rope ------------------------------------------------------------------
    rx, rc, hd = (2, 5, 24), (5, 4), 8

    def rope(x, cos, sin, sign=1):
        h = hd // 2
        xs = x.reshape(x.shape[:-1] + (-1, hd))
        c, t = cos[:, None, :h], sign * sin[:, None, :h]
        a, b = xs[..., :h], xs[..., h:hd]
        return torch.cat([a * c - b * t, b * c + a * t], dim=-1).reshape(x.shape)
    rop = "{head_dim = 8 : i64, n_rot = 8 : i64}"
    out.append(Case("rlx.rope", "rlx.rope %a0, %a1, %a2 " + rop + " : {t0}, {t1}, {t2} -> {r}",
                    [(rx, N), (rc, "cos"), (rc, "sin")], rx, rope))
    out.append(Case("rlx.rope_backward",
                    "rlx.rope_backward %a0, %a1, %a2 " + rop + " : {t0}, {t1}, {t2} -> {r}",
                    [(rx, N), (rc, "cos"), (rc, "sin")], rx,
                    lambda dy, c, s: rope(dy, c, s, -1)))

    # Attention ---------------------------------------------------------------
    aq = (2, 2, 6, 8)  # [B, H, S, D]
    at = "{num_heads = 2 : i64, head_dim = 8 : i64, mask_kind = #rlx.mask_kind<causal>%s}"

    def attention(q, k, v):
        s = q @ k.transpose(-1, -2) / np.sqrt(8.0)
        causal = torch.ones(6, 6, dtype=torch.bool).tril()
        s = s.masked_fill(~causal, -1e9)
        return torch.softmax(s, -1) @ v
    out.append(Case("rlx.attention",
                    "rlx.attention %a0, %a1, %a2 " + at % "" + " : {t0}, {t1}, {t2} -> {r}",
                    [(aq, N)] * 3, aq, attention))
    for i, wrt in enumerate(("query", "key", "value")):
        out.append(Case("rlx.attention_backward<%s>" % wrt,
                        "rlx.attention_backward %a0, %a1, %a2, %a3 " +
                        at % (", wrt = #rlx.attention_wrt<%s>" % wrt) +
                        " : {t0}, {t1}, {t2}, {t3} -> {r}",
                        [(aq, N)] * 4, aq, grad(attention, i)))

    # Scan -------------------------------------------------------------------
    # c_t = tanh(c_{t-1} + x_t) * g_t. The body's arith ops are bf16/f16 ops
    # of the user's and round, each, to the dtype (in f32 emulation); its
    # tanh is an rlx op (f32, rounded once). Torch computing in the dtype
    # rounds at the same places; the "f32" reference does not round in the
    # body at all, hence the scan rows of the tolerance table.
    B, H, L = 3, 5, 4
    carry, seq = (B, H), (L, B, H)
    body = """ {
  ^bb0(%h: {t0}, %xt: {t0}, %gt: {t0}):
    %z = arith.addf %h, %xt : {t0}
    %a = rlx.activation %z {kind = #rlx.activation<tanh>} : {t0} -> {t0}
    %n = arith.mulf %a, %gt : {t0}
    rlx.yield %n : {t0}
  }"""
    vjp = """ vjp {
  ^bb0(%h: {t0}, %xt: {t0}, %gt: {t0}, %d: {t0}):
    %z = arith.addf %h, %xt : {t0}
    %a = rlx.activation %z {kind = #rlx.activation<tanh>} : {t0} -> {t0}
    %da = arith.mulf %d, %gt : {t0}
    %dg = arith.mulf %d, %a : {t0}
    %dz = rlx.activation_backward %z, %da {kind = #rlx.activation<tanh>} : {t0}, {t0} -> {t0}
    rlx.yield %dz, %dz, %dg : {t0}, {t0}, {t0}
  }"""

    def cell(c, xt, gt):
        return torch.tanh(c + xt) * gt

    def scan(h0, x, g):
        h = h0
        for t in range(L):
            h = cell(h, x[t], g[t])
        return h

    def scan_grads(h0, traj, dy, x, g):
        """d init, d x, d g of sum_t <c_t, dy[t]> with the saved carries."""
        d, dxs, dgs = dy[L - 1], [None] * L, [None] * L
        for t in reversed(range(L)):
            c = h0 if t == 0 else traj[t - 1]
            c, xt, gt = (v.detach().requires_grad_() for v in (c, x[t], g[t]))
            dc, dxs[t], dgs[t] = torch.autograd.grad(cell(c, xt, gt), [c, xt, gt], d)
            d = dc + dy[t - 1] if t > 0 else dc
        return d, torch.stack(dxs), torch.stack(dgs)
    sa = "{length = %d : i64@XS@}" % L
    ins = [(carry, N), (seq, N), (seq, "gate")]
    out.append(Case("rlx.scan", "rlx.scan %a0 xs(%a1, %a2 : {t1}, {t2}) " + sa.replace("@XS@", "") +
                    " : {t0} -> {r}" + body, ins, carry, scan))
    bins = [(carry, N), (seq, N), (seq, N), (seq, N), (seq, "gate")]
    grad_stmt = (" %a0, %a1, %a2 xs(%a3, %a4 : {t3}, {t4}) " + sa +
                 " : {t0}, {t1}, {t2} -> {r}" + vjp)
    out.append(Case("rlx.scan_backward", "rlx.scan_backward" + grad_stmt.replace("@XS@", ""),
                    bins, carry, lambda *a: scan_grads(*a)[0]))
    for i in (0, 1):
        out.append(Case("rlx.scan_backward_xs",
                        "rlx.scan_backward_xs" +
                        grad_stmt.replace("@XS@", ", xs_idx = %d : i64" % i),
                        bins, seq, lambda *a, i=i: scan_grads(*a)[1 + i]))
    return out


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------
def mlir_type(shape, dtype):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), dtype)


def function(name, case, dtype):
    types = [mlir_type(s, "i64" if isinstance(k, tuple) else dtype)
             for s, k in case.inputs]
    r = mlir_type(case.result, dtype)
    stmt = case.stmt.replace("{{", "{").replace("}}", "}").replace("{r}", r)
    for i, t in enumerate(types):
        stmt = stmt.replace("{t%d}" % i, t)
    args = ", ".join("%%a%d: %s" % (i, t) for i, t in enumerate(types))
    return ("func.func @%s(%s) -> %s {\n  %%r = %s\n  return %%r : %s\n}\n"
            % (name, args, r, stmt, r))


def make_input(shape, kind):
    if isinstance(kind, tuple):
        return R.integers(0, kind[1], size=shape).astype(np.int64)
    if kind == "positive":
        return R.uniform(0.25, 4.0, shape)
    if kind == "small":
        return R.uniform(-1.2, 1.2, shape)
    if kind == "gate":
        return R.uniform(0.5, 1.5, shape)
    if kind in ("cos", "sin"):
        theta = R.uniform(-np.pi, np.pi, shape)
        return np.cos(theta) if kind == "cos" else np.sin(theta)
    return R.standard_normal(shape) * 1.5


def evaluate(case, values, torch_dtype):
    """case.fn on `values` (rounded f32 numpy) computed in `torch_dtype`;
    f64 numpy, or None where torch has no kernel for that dtype."""
    ts = [torch.tensor(v) if v.dtype == np.int64 else
          torch.tensor(v).to(torch_dtype) for v in values]
    try:
        y = case.fn(*ts)
    except RuntimeError as e:  # "... not implemented for 'BFloat16'"
        if "not implemented" not in str(e) and "Half" not in str(e):
            raise
        return None
    return y.detach().to(torch.float64).numpy()


def main():
    all_cases = cases()
    text, plan = [], []
    for dtype in ("bf16", "f16"):
        for i, case in enumerate(all_cases):
            name = "%s_%d" % (dtype, i)
            text.append(function(name, case, dtype))
            plan.append((name, dtype, case))
    m = rt.compile("".join(text))

    worst = {}
    for name, dtype, case in plan:
        values = [v if v.dtype == np.int64 else rounded(v, dtype)
                  for v in (make_input(s, k) for s, k in case.inputs)]
        args = [v if v.dtype == np.int64 else to_arg(v, dtype) for v in values]
        got = from_result(m[name](*args), dtype)
        # The contract: f32 on the rounded inputs, rounded once.
        want = evaluate(case, values, torch.float32)
        want = rounded(want, dtype).astype(np.float64)
        tol_f32, tol_torch = tolerance(dtype, case.op)
        rt.check_tolerance(case.op, dtype + " f32", got, want, tol_f32, name)
        native = evaluate(case, values, TORCH_DTYPE[dtype])
        if native is not None:
            rt.check_tolerance(case.op, dtype + " torch", got, native,
                               tol_torch, name)
    rt.finish()


if __name__ == "__main__":
    main()
