"""rlx functions as PyTorch autograd functions.

    import rlx, rlx.torch
    m = rlx.compile("block.mlir")            # @block marked rlx.grad
    block = rlx.torch.function(m, "block", grad="block_grad")
    y = block(x, gamma, beta)                # a torch op: y.backward() works

`grad` names the rlx gradient of the function (rlx-grad's calling convention,
docs/Autodiff.md): it takes the arguments, then one cotangent per float
result that is not a scalar loss, and returns the results, then the
gradients of the `wrt` arguments. `wrt` defaults to every float argument,
which is what a unit `rlx.grad` mark differentiates; give the indices when
the mark (or --rlx-grad) names others. The backward calls `grad`, which
recomputes the forward: nothing is saved but the inputs.

Tensors are passed to rlx without a copy when C-contiguous on the CPU (see
rlx.Module.call); the gradients come back as new CPU tensors.
"""
import torch as _torch

__all__ = ["function"]


def _is_scalar_loss(t):
    """rlx-grad gives no cotangent to a 0-d or one-element float result."""
    shape = t.shape
    return shape is not None and all(d == 1 for d in shape)


def function(module, name, grad=None, wrt=None):
    """Wraps `module`'s function `name` (and its gradient `grad`) as a
    callable applying a torch.autograd.Function. Without `grad`, the result
    has no backward (calling backward through it raises)."""
    f = module[name]
    g = module[grad] if grad is not None else None
    arg_types = getattr(f, "arg_types", None)
    res_types = getattr(f, "result_types", None)
    if arg_types is None or res_types is None:
        raise ValueError("rlx.torch.function: cannot read the signature of "
                         "@%s" % name)
    for t in list(arg_types) + list(res_types):
        if t.dtype is None:
            raise ValueError("rlx.torch.function: @%s has a %s; it takes "
                             "ranked tensors of f32, f64, i32, i64" % (name, t))
    is_float = [t.dtype.kind == "f" for t in res_types]
    if wrt is None:
        wrt = [i for i, t in enumerate(arg_types) if t.dtype.kind == "f"]
    wrt = list(wrt)
    # The results that take a cotangent, and the implicit-cotangent (scalar
    # loss) ones.
    with_cot = [k for k, t in enumerate(res_types)
                if is_float[k] and not _is_scalar_loss(t)]
    implicit = [k for k, t in enumerate(res_types)
                if is_float[k] and _is_scalar_loss(t)]
    if g is not None:
        g_args, g_res = g.arg_types, g.result_types
        if g_args is not None and len(g_args) != len(arg_types) + len(with_cot):
            raise ValueError(
                "rlx.torch.function: @%s takes %d arguments; the gradient of "
                "@%s (%d arguments + %d cotangents) must take %d" %
                (grad, len(g_args), name, len(arg_types), len(with_cot),
                 len(arg_types) + len(with_cot)))
        if g_res is not None and len(g_res) != len(res_types) + len(wrt):
            raise ValueError(
                "rlx.torch.function: @%s returns %d results; @%s's %d results "
                "and %d gradients (wrt=%s) make %d" %
                (grad, len(g_res), name, len(res_types), len(wrt), wrt,
                 len(res_types) + len(wrt)))

    class RlxFunction(_torch.autograd.Function):
        @staticmethod
        def forward(ctx, *args):
            outs = f(*args)
            outs = outs if isinstance(outs, tuple) else (outs,)
            ctx.save_for_backward(*args)
            ctx.mark_non_differentiable(
                *[o for o, fl in zip(outs, is_float) if not fl])
            return outs[0] if len(outs) == 1 else outs

        @staticmethod
        def backward(ctx, *grad_outputs):
            if g is None:
                raise RuntimeError("rlx.torch.function(%r): no grad= function "
                                   "was given" % name)
            args = ctx.saved_tensors
            # (torch materialises the gradient of an unused output as zeros.)
            cots = [grad_outputs[k] for k in with_cot]
            # A scalar loss's cotangent is 1 inside @grad: scale afterwards
            # when it is the only float result, else it must be 1.
            scale = None
            if implicit:
                seeds = [grad_outputs[k] for k in implicit]
                if len(implicit) == 1 and not with_cot:
                    scale = seeds[0]
                elif any(s is not None and not bool((s == 1).all())
                         for s in seeds):
                    raise RuntimeError(
                        "rlx.torch.function(%r): a scalar-loss result next to "
                        "other results must have gradient 1" % name)
            outs = g(*args, *cots)
            outs = outs if isinstance(outs, tuple) else (outs,)
            grads = list(outs[len(res_types):])
            if scale is not None:
                grads = [d * scale.reshape(()) if d.dtype.is_floating_point
                         else d for d in grads]
            result = [None] * len(args)
            for i, d in zip(wrt, grads):
                if ctx.needs_input_grad[i]:
                    result[i] = d
            return tuple(result)

    def apply(*args):
        return RlxFunction.apply(*args)

    apply.__name__ = apply.__qualname__ = name
    apply.__signature__ = getattr(f, "__signature__", None)
    apply.__doc__ = ("%s as a torch.autograd.Function (backward: @%s, wrt "
                     "%s).\n\n%s" % (name, grad, wrt, f.__doc__ or ""))
    apply.autograd_function = RlxFunction
    return apply
