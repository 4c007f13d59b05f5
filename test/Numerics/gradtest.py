"""Helpers of the rlx-grad numerics (test/Numerics/test_grad_*.py).

A case is a forward function written in MLIR (its body, argument shapes and
result shape) and the same function in torch. The MLIR function is marked
`rlx.grad` with the indices to differentiate, so compiling it (rlx-to-llvm
runs rlx-grad first) gives `@f_grad(args..., dy) -> (y, grads...)`. Its
gradients are compared with torch.autograd.grad (f32 and f64) and, in f64 on
small shapes, with central finite differences of the compiled forward `@f`.
"""
import numpy as np
import torch
import torch.nn.functional as F

import rlxtest as rt

torch.set_num_threads(1)

NAMES = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
         np.dtype(np.int32): "i32", np.dtype(np.int64): "i64"}


def ttype(shape, dtype):
    """tensor<AxBxf32>; a dtype given as "f" is the case's float type."""
    return rt.mlir_type(shape, dtype)


class Arg:
    """An argument: shape, kind "f" (float, random normal) or an integer
    dtype with a sampler, and whether to differentiate it."""

    def __init__(self, shape, wrt=True, sample=None, dtype=None, mlir_shape=None):
        self.shape = tuple(shape)
        self.wrt = wrt
        self.sample = sample          # gen, dtype -> array
        self.dtype = dtype            # None: the case's float dtype
        self.mlir_shape = mlir_shape  # with None for dynamic dims

    def make(self, gen, fdtype):
        dtype = self.dtype or fdtype
        if self.sample is not None:
            return np.asarray(self.sample(gen, dtype)).astype(dtype)
        return gen.standard_normal(self.shape).astype(dtype)


def mlir_function(body, args, result_shape, dtype, result_dtype=None):
    """func.func @f marked rlx.grad for the wrt args; body uses %a0, %a1, ...
    and the type placeholders {F} (element type), {T0}, {T1}... (argument
    types) and {R} (result type); it ends by defining %y."""
    fname = NAMES[np.dtype(dtype)]
    types = [ttype(a.mlir_shape or a.shape, a.dtype or dtype) for a in args]
    rtype = ttype(result_shape, result_dtype or dtype)
    wrt = [str(i) for i, a in enumerate(args) if a.wrt]
    subst = {"F": fname, "R": rtype}
    for i, t in enumerate(types):
        subst["T%d" % i] = t
    text = body
    for k, v in subst.items():
        text = text.replace("{%s}" % k, v)
    sig = ", ".join("%%a%d: %s" % (i, t) for i, t in enumerate(types))
    return ("func.func @f(%s) -> %s attributes {rlx.grad = array<i64: %s>} {\n"
            "%s\n  return %%y : %s\n}\n" % (sig, rtype, ", ".join(wrt), text, rtype))


def is_scalar(shape):
    return int(np.prod(shape)) == 1


def run_case(op, body, args, result_shape, torch_fn, dtypes=rt.DTYPES, fd=True,
             seed=0, label="", reference=None, dy_sample=None):
    """Compiles and checks one case for each dtype. `reference(inputs, dy)`
    replaces torch autograd when given (returns the list of wrt grads)."""
    for dtype in dtypes:
        gen = rt.rng(seed)
        inputs = [a.make(gen, dtype) for a in args]
        scalar = is_scalar(result_shape)
        dy = None
        if not scalar:
            dy = (dy_sample(gen, dtype) if dy_sample
                  else gen.standard_normal(result_shape).astype(dtype))
        text = mlir_function(body, args, result_shape, dtype)
        try:
            m = rt.compile(text)
        except Exception as e:  # a compile failure is a failed case
            rt._failures.append("%s %s: %s" % (op, label, e))
            print("FAIL: %s %s compile: %s\n%s" % (op, label, e, text), flush=True)
            return
        out = m.f_grad(*inputs) if scalar else m.f_grad(*inputs, dy)
        y, grads = out[0], list(out[1:])
        wrt = [i for i, a in enumerate(args) if a.wrt]
        if reference is not None:
            want_y, want = reference(inputs, dy)
        else:
            ts = [torch.tensor(x, requires_grad=(i in wrt))
                  for i, x in enumerate(inputs)]
            ty = torch_fn(*ts)
            tdy = (torch.ones_like(ty) if scalar else torch.tensor(dy))
            want = torch.autograd.grad(ty, [ts[i] for i in wrt], tdy,
                                       allow_unused=True)
            want = [np.zeros_like(inputs[i]) if g is None else g.detach().numpy()
                    for i, g in zip(wrt, want)]
            want_y = ty.detach().numpy()
        rt.check(op + " (forward)", y, np.asarray(want_y).reshape(np.shape(y)),
                 dtype, label)
        for i, g, w in zip(wrt, grads, want):
            rt.check(op, g, w, dtype, "%s d%d" % (label, i))
        if fd and np.dtype(dtype) == np.float64:
            fdy = np.ones(result_shape) if scalar else dy
            for i, g in zip(wrt, grads):
                rt.check_fd(op, lambda *a: m.f(*a), inputs, i, fdy, g,
                            "%s d%d" % (label, i))


# -- second order (test/Numerics/test_grad2_*.py) -----------------------------
# A case of the double-backward battery is a function whose body is one rlx
# *_backward op; rlx-grad differentiates it (every differentiable operand),
# and its torch function is the first-order gradient computed by autograd with
# create_graph=True, so run_case's autograd.grad with a random cotangent is
# the second-order reference, and its finite differences are those of the
# compiled first-order gradient.

def leaf(t):
    """t itself when autograd tracks it, else a fresh leaf that it does (an
    operand the outer grad does not differentiate may still be the inner
    variable)."""
    return t if t.requires_grad else t.detach().requires_grad_()


def vjp(fn, xs, dy, wrt=0):
    """d/d xs[wrt] <dy, fn(*xs)>, differentiable again (create_graph)."""
    xs = list(xs)
    xs[wrt] = leaf(xs[wrt])
    y = fn(*xs)
    return torch.autograd.grad(y, xs[wrt], dy, create_graph=True)[0]


def rlx_opt(text, *flags):
    """`text` through build/bin/rlx-opt with `flags`."""
    import os
    import subprocess
    tool = os.path.join(os.environ["RLX_BUILD_DIR"], "bin", "rlx-opt")
    return subprocess.run([tool] + list(flags), input=text, text=True,
                          check=True, capture_output=True).stdout


def run_third(op, body, args, result_shape, first, dtype=np.float64, seed=0,
              label=""):
    """Third order: rlx-grad applied to @f (one backward op, first order of
    some forward), then to @f_grad with respect to all its float arguments,
    compiled; @f_grad_grad against torch, where `first` is the torch
    first-order gradient (create_graph). Every argument is differentiated."""
    gen = rt.rng(seed)
    inputs = [a.make(gen, dtype) for a in args]
    text = mlir_function(body, args, result_shape, dtype)
    try:
        text = rlx_opt(text, "--rlx-grad")
        text = rlx_opt(text, "--rlx-grad=function=f_grad")
        m = rt.compile(text)
    except Exception as e:
        rt._failures.append("%s %s third order: %s" % (op, label, e))
        print("FAIL: %s %s third order: %s" % (op, label, getattr(e, "stderr", e)),
              flush=True)
        return
    # f_grad(inputs, v) -> (R, g_0..g_n); f_grad_grad(inputs, v, c_R, c_g...)
    v = gen.standard_normal(result_shape).astype(dtype)
    cs = [gen.standard_normal(result_shape).astype(dtype)]
    cs += [gen.standard_normal(a.shape).astype(dtype) for a in args]
    out = m.f_grad_grad(*inputs, v, *cs)
    ts = [torch.tensor(x, requires_grad=True) for x in inputs]
    tv = torch.tensor(v, requires_grad=True)
    r = first(*ts)
    gs = torch.autograd.grad(r, ts, tv, create_graph=True, allow_unused=True)
    total = (r * torch.tensor(cs[0])).sum()
    for g, c in zip(gs, cs[1:]):
        if g is not None:
            total = total + (g * torch.tensor(c)).sum()
    want = torch.autograd.grad(total, ts + [tv], allow_unused=True)
    want = [np.zeros_like(x.detach().numpy()) if w is None else w.detach().numpy()
            for w, x in zip(want, ts + [tv])]
    got = list(out[1 + len(args):])
    for i, (g, w) in enumerate(zip(got, want)):
        rt.check(op + " (third order)", g, w, dtype, "%s d%d" % (label, i))
    # and finite differences of the compiled second order, all its results
    # weighted by their cotangents
    flat_c = np.concatenate([c.ravel() for c in cs])
    second = lambda *a: np.concatenate([np.ravel(o) for o in m.f_grad(*a)])
    for i, g in enumerate(got):
        rt.check_fd(op + " (third order)", second, inputs + [v], i, flat_c, g,
                    "%s d%d" % (label, i))


def run_second(*args, **kwargs):
    """run_case for the double-backward battery: f64 only (the checks of
    issue 12 are f64; compile time dominates the suite)."""
    kwargs.setdefault("dtypes", (np.float64,))
    run_case(*args, **kwargs)


# Activation kinds with parameters, and piecewise kinds: (kind, the rlx
# attributes, the PyTorch reference). The first- and second-order batteries
# both run every entry (their inputs stay away from the kinks).
PARAM_ACTIVATIONS = [
    ("hardtanh", "min_val = -0.5, max_val = 0.75", lambda x: F.hardtanh(x, -0.5, 0.75)),
    ("softplus", "beta = 2.0, threshold = 1.5", lambda x: F.softplus(x, 2.0, 1.5)),
    ("elu", "alpha = 0.7", lambda x: F.elu(x, 0.7)),
    ("leaky_relu", "negative_slope = 0.2", lambda x: F.leaky_relu(x, 0.2)),
    ("relu6", "", F.relu6),
    ("hardswish", "", F.hardswish),
    # PyTorch's hardsigmoid backward uses 1/6 rounded to f32, so the
    # reference is the formula, differentiated by autograd.
    ("hardsigmoid", "", lambda x: torch.clamp(x + 3, 0, 6) / 6),
    ("mish", "", F.mish),
]
