# RUN: %python %s
"""Numerics of rlx.attention and rlx.attention_backward (wrt query, key and
value) against PyTorch autograd of attention written as matmul / softmax /
matmul with the same masks, plus central finite differences (f64) of the
compiled forward op.

Covers both layouts ([B,H,S,D] and [B,S,H*D]), Sq != Sk (both ways), B and
H > 1, f32 and f64, dynamic batch (and fully dynamic shapes), every mask kind
(bottom-right aligned causal and sliding window, custom [B,Sk] and
[B,H,Sq,Sk], bias [Sq,Sk] and broadcast rank-4 shapes), explicit scale,
softcap, and fully masked rows (uniform softmax, no NaN), a value head dim
Dv != D, and grouped-query heads (num_kv_heads dividing num_heads, group
sizes 1, 2, 3, 4 and 6; torch 1.13 has no grouped-query attention, so the
reference repeats each k/v head over its group with repeat_interleave and
autograd sums dk and dv over the group).
"""
import numpy as np
import torch

import rlxtest as rt

torch.set_num_threads(1)
WRTS = ("query", "key", "value")
MASKED = -1e9


class Case:
    """One attention configuration; `name` is unique within a module."""

    def __init__(self, name, b, h, sq, sk, d, layout=4, mask_kind="none",
                 window=None, scale=None, softcap=None, mask_shape=None,
                 dynamic=None, fully_masked_row=False, kv_heads=None, dv=None):
        self.name, self.b, self.h, self.sq, self.sk, self.d = name, b, h, sq, sk, d
        # Grouped-query heads and the value head dim (None: the defaults,
        # attributes left out).
        self.kv_attr, self.dv_attr = kv_heads, dv
        self.hkv = kv_heads if kv_heads is not None else h
        self.dv = dv if dv is not None else d
        self.layout, self.mask_kind, self.window = layout, mask_kind, window
        self.scale, self.softcap, self.mask_shape = scale, softcap, mask_shape
        # dynamic: None, "batch" (leading dim ?) or "all" (every dim ?).
        self.dynamic, self.fully_masked_row = dynamic, fully_masked_row

    def tag(self):
        """Reported separately: the cases with grouped heads or Dv != D."""
        if self.kv_attr is None and self.dv_attr is None:
            return ""
        return " (num_kv_heads, value_head_dim)"

    # Shapes -----------------------------------------------------------------
    def seq_shape(self, s, heads=None, d=None):
        heads = self.h if heads is None else heads
        d = self.d if d is None else d
        if self.layout == 4:
            return [self.b, heads, s, d]
        return [self.b, s, heads * d]

    def shapes(self):
        """q, k, v and output (= dy) shapes."""
        return (self.seq_shape(self.sq), self.seq_shape(self.sk, self.hkv),
                self.seq_shape(self.sk, self.hkv, self.dv),
                self.seq_shape(self.sq, self.h, self.dv))

    def type_shape(self, shape, is_mask=False):
        if self.dynamic == "all":
            return [None] * len(shape)
        if self.dynamic == "batch" and not (is_mask and shape[0] == 1):
            if is_mask and self.mask_kind == "bias" and len(shape) == 2:
                return shape
            return [None] + list(shape[1:])
        return shape

    # MLIR -------------------------------------------------------------------
    def attrs(self, wrt=None):
        parts = ["num_heads = %d : i64" % self.h, "head_dim = %d : i64" % self.d,
                 "mask_kind = #rlx.mask_kind<%s>" % self.mask_kind]
        if self.kv_attr is not None:
            parts.append("num_kv_heads = %d : i64" % self.kv_attr)
        if self.dv_attr is not None:
            parts.append("value_head_dim = %d : i64" % self.dv_attr)
        if self.window is not None:
            parts.append("window = %d : i64" % self.window)
        if self.scale is not None:
            parts.append("scale = %r : f32" % self.scale)
        if self.softcap is not None:
            parts.append("softcap = %r : f32" % self.softcap)
        if wrt:
            parts.append("wrt = #rlx.attention_wrt<%s>" % wrt)
        return "{" + ", ".join(parts) + "}"

    def mlir(self, dtype):
        """One function per case: the forward output and the three gradients
        (after CSE they share the recomputed probabilities, which keeps the
        module small and the JIT quick)."""
        t = lambda shape, m=False: rt.mlir_type(self.type_shape(shape, m), dtype)
        tq, tk, tv, to = (t(x) for x in self.shapes())
        has_mask = self.mask_shape is not None
        tm = [t(self.mask_shape, True)] if has_mask else []
        mops = ", %m" if has_mask else ""
        args = "%q: {0}, %k: {1}, %v: {2}, %dy: {3}".format(tq, tk, tv, to)
        args += "".join(", %m: " + x for x in tm)
        results = ", ".join([to, tq, tk, tv])
        lines = ["func.func @{n}({a}) -> ({r}) {{".format(
            n=self.name, a=args, r=results)]
        lines.append("  %o = rlx.attention %q, %k, %v{m} {at} : {ty} -> {to}".format(
            m=mops, at=self.attrs(), ty=", ".join([tq, tk, tv] + tm), to=to))
        for wrt, tr in zip(WRTS, (tq, tk, tv)):
            lines.append(
                "  %d{w} = rlx.attention_backward %q, %k, %v, %dy{m} {at} : {ty} -> {tr}"
                .format(w=wrt, m=mops, at=self.attrs(wrt),
                        ty=", ".join([tq, tk, tv, to] + tm), tr=tr))
        lines.append("  return %o, %dquery, %dkey, %dvalue : " + results)
        lines.append("}")
        return "\n".join(lines)

    # Inputs -----------------------------------------------------------------
    def inputs(self, gen, dtype):
        q, k, v, dy = (gen.standard_normal(x).astype(dtype)
                       for x in self.shapes())
        mask = None
        if self.mask_kind == "custom":
            mask = gen.choice([0.0, 0.2, 0.7, 1.0], size=self.mask_shape).astype(dtype)
            if self.fully_masked_row:
                if len(self.mask_shape) == 2:
                    mask[-1, :] = 0.0          # every row of the last batch
                else:
                    mask[0, -1, 1, :] = 0.0    # one (batch, head, query) row
        elif self.mask_kind == "bias":
            mask = gen.standard_normal(self.mask_shape).astype(dtype)
        return q, k, v, dy, mask

    # Reference --------------------------------------------------------------
    def torch_forward(self, q, k, v, mask):
        b, h, d = self.b, self.h, self.d
        group = h // self.hkv

        def heads(x, nh, hd):  # -> [B, nh, S, hd]
            if self.layout == 4:
                return x
            return x.reshape(b, x.shape[1], nh, hd).transpose(1, 2)

        # Grouped query: query head i reads key/value head i // group.
        q4 = heads(q, h, d)
        k4 = heads(k, self.hkv, d).repeat_interleave(group, dim=1)
        v4 = heads(v, self.hkv, self.dv).repeat_interleave(group, dim=1)
        scale = (float(np.float32(self.scale)) if self.scale is not None
                 else 1.0 / np.sqrt(d))
        s = scale * torch.matmul(q4, k4.transpose(-1, -2))
        if self.softcap is not None:
            c = float(np.float32(self.softcap))
            s = c * torch.tanh(s / c)
        sq, sk = q4.shape[2], k4.shape[2]
        off = sk - sq
        i = torch.arange(sq).reshape(sq, 1)
        j = torch.arange(sk).reshape(1, sk)
        keep = None
        if self.mask_kind == "causal":
            keep = j <= i + off
        elif self.mask_kind == "sliding_window":
            keep = (j <= i + off) & (j >= i + off - self.window)
        elif self.mask_kind == "custom":
            keep = mask >= 0.5
            if mask.dim() == 2:
                keep = keep.reshape(b, 1, 1, sk)
        if keep is not None:
            s = s.masked_fill(~keep, MASKED)
        if self.mask_kind == "bias":
            s = s + mask
        p = torch.softmax(s, dim=-1)
        o = torch.matmul(p, v4)
        if self.layout == 3:
            o = o.transpose(1, 2).reshape(b, sq, h * self.dv)
        return o

    def reference(self, q, k, v, dy, mask):
        tq, tk, tv = (torch.tensor(a, requires_grad=True) for a in (q, k, v))
        tm = torch.tensor(mask) if mask is not None else None
        o = self.torch_forward(tq, tk, tv, tm)
        grads = torch.autograd.grad(o, [tq, tk, tv], torch.tensor(dy))
        return o.detach().numpy(), [g.numpy() for g in grads]


def cases():
    cs = [
        Case("plain", 2, 3, 3, 5, 4),
        Case("plain_square_scale", 2, 2, 5, 5, 3, layout=3, scale=0.3),
        Case("causal_seq", 2, 2, 3, 5, 4, layout=3, mask_kind="causal"),
        Case("causal_square", 3, 2, 5, 5, 2, mask_kind="causal", scale=0.7),
        # Sq > Sk: off = -2, the first two query rows see no key (uniform).
        Case("causal_long_q", 2, 2, 5, 3, 4, mask_kind="causal"),
        Case("window_cap", 2, 2, 3, 5, 4, mask_kind="sliding_window", window=1,
             softcap=2.0),
        Case("window0_seq", 2, 3, 5, 5, 2, layout=3, mask_kind="sliding_window",
             window=0),
        Case("window_wide", 2, 2, 5, 5, 3, mask_kind="sliding_window", window=9),
        Case("custom_bsk", 3, 2, 3, 5, 4, layout=3, mask_kind="custom",
             mask_shape=[3, 5], fully_masked_row=True),
        Case("custom_full", 2, 2, 5, 5, 3, mask_kind="custom",
             mask_shape=[2, 2, 5, 5], fully_masked_row=True, softcap=3.0),
        Case("bias_2d", 2, 2, 3, 5, 4, layout=3, mask_kind="bias",
             mask_shape=[3, 5], softcap=1.5, scale=0.5),
        Case("bias_b1", 2, 3, 3, 5, 2, mask_kind="bias", mask_shape=[2, 1, 3, 5]),
        Case("bias_1h", 2, 3, 5, 5, 2, layout=3, mask_kind="bias",
             mask_shape=[1, 3, 5, 5]),
        Case("bias_full", 2, 2, 3, 4, 3, mask_kind="bias", mask_shape=[2, 2, 3, 4]),
        Case("bias_rows", 2, 2, 3, 5, 2, mask_kind="bias", mask_shape=[1, 2, 3, 1]),
        Case("dyn_causal_seq", 3, 2, 3, 5, 4, layout=3, mask_kind="causal",
             dynamic="batch", softcap=4.0),
        Case("dyn_custom", 2, 2, 3, 5, 2, mask_kind="custom", mask_shape=[2, 5],
             dynamic="batch", fully_masked_row=True),
        Case("dyn_all_window", 2, 2, 4, 6, 2, mask_kind="sliding_window",
             window=2, dynamic="all"),
        Case("dyn_all_bias_seq", 2, 2, 3, 5, 2, layout=3, mask_kind="bias",
             mask_shape=[2, 2, 3, 5], dynamic="all"),
        # Value head dim != head dim.
        Case("dv_plain", 2, 3, 3, 5, 4, dv=6),
        Case("dv_small_causal_seq", 2, 2, 4, 4, 5, layout=3, dv=2,
             mask_kind="causal"),
        # Grouped-query heads: group sizes 2, 3, 4, 6 (and 1, explicit).
        Case("gqa2", 2, 4, 3, 5, 4, kv_heads=2),
        Case("gqa_explicit1", 2, 2, 3, 5, 3, kv_heads=2, layout=3),
        Case("gqa3_causal_seq", 2, 6, 4, 4, 2, layout=3, kv_heads=2,
             mask_kind="causal"),
        Case("mqa4_dv", 2, 4, 3, 5, 2, kv_heads=1, dv=3, mask_kind="causal"),
        Case("gqa6_window_cap", 2, 6, 3, 5, 2, kv_heads=1,
             mask_kind="sliding_window", window=1, softcap=2.0),
        Case("gqa2_dv_seq", 3, 4, 5, 3, 3, layout=3, kv_heads=2, dv=5,
             scale=0.4),
        Case("gqa2_custom_full", 2, 4, 3, 5, 2, kv_heads=2, mask_kind="custom",
             mask_shape=[2, 4, 3, 5], fully_masked_row=True),
        Case("gqa2_custom_bsk_seq", 2, 4, 3, 5, 2, layout=3, kv_heads=2, dv=3,
             mask_kind="custom", mask_shape=[2, 5]),
        Case("gqa3_bias_full_seq", 2, 6, 3, 4, 2, layout=3, kv_heads=2,
             mask_kind="bias", mask_shape=[2, 6, 3, 4]),
        Case("gqa2_bias_b1", 2, 4, 3, 5, 2, kv_heads=2, dv=4, mask_kind="bias",
             mask_shape=[2, 1, 3, 5]),
        Case("gqa2_bias_2d", 2, 4, 3, 5, 2, kv_heads=2, mask_kind="bias",
             mask_shape=[3, 5]),
        Case("dyn_gqa2_causal", 3, 4, 3, 5, 2, kv_heads=2, dv=3,
             mask_kind="causal", dynamic="batch"),
        Case("dyn_gqa3_seq", 2, 6, 4, 4, 2, layout=3, kv_heads=2, dv=4,
             dynamic="batch"),
        Case("dyn_all_gqa2_dv", 2, 4, 3, 5, 2, kv_heads=2, dv=3,
             mask_kind="causal", dynamic="all"),
        Case("dyn_all_gqa2_dv_seq", 2, 4, 3, 5, 2, layout=3, kv_heads=2, dv=3,
             dynamic="all"),
        Case("dyn_all_gqa2_bias", 2, 4, 3, 5, 2, kv_heads=2,
             mask_kind="bias", mask_shape=[2, 4, 3, 5], dynamic="all"),
    ]
    return cs


def run_against_torch(dtype, gen, cs):
    m = rt.compile("\n".join(c.mlir(dtype) for c in cs))
    for c in cs:
        q, k, v, dy, mask = c.inputs(gen, dtype)
        extra = [mask] if mask is not None else []
        want_o, want_grads = c.reference(q, k, v, dy, mask)
        label = "%s %s" % (c.name, np.dtype(dtype).name)
        got_o, *got_grads = m[c.name](q, k, v, dy, *extra)
        rt.check("rlx.attention" + c.tag(), got_o, want_o, dtype, label)
        for wrt, got, want in zip(WRTS, got_grads, want_grads):
            rt.check("rlx.attention_backward" + c.tag(), got, want, dtype,
                     "%s wrt %s" % (label, wrt))


def run_finite_differences(gen):
    """Each gradient against central differences of the compiled forward."""
    cs = [
        Case("fd_causal", 1, 2, 3, 4, 2, layout=3, mask_kind="causal"),
        Case("fd_window_cap", 2, 1, 3, 3, 2, mask_kind="sliding_window",
             window=1, softcap=1.5, scale=0.8),
        Case("fd_custom", 1, 2, 3, 4, 2, mask_kind="custom",
             mask_shape=[1, 2, 3, 4], fully_masked_row=True),
        Case("fd_bias", 1, 2, 4, 3, 2, layout=3, mask_kind="bias",
             mask_shape=[4, 3], softcap=2.0),
        Case("fd_gqa_dv", 1, 4, 3, 4, 2, layout=3, kv_heads=2, dv=3,
             mask_kind="causal"),
    ]
    m = rt.compile("\n".join(c.mlir(np.float64) for c in cs))
    for c in cs:
        q, k, v, dy, mask = c.inputs(gen, np.float64)
        extra = [mask] if mask is not None else []
        fn = m[c.name]
        # The forward output (result 0) of the compiled function; dy is unused.
        forward = lambda q_, k_, v_, fn=fn, dy=dy, extra=extra: \
            fn(q_, k_, v_, dy, *extra)[0]
        got_grads = fn(q, k, v, dy, *extra)[1:]
        for index, (wrt, got) in enumerate(zip(WRTS, got_grads)):
            rt.check_fd("rlx.attention_backward" + c.tag(), forward, [q, k, v], index, dy,
                        got, "%s wrt %s" % (c.name, wrt))


def main():
    gen = rt.rng(0)
    for dtype in rt.DTYPES:
        run_against_torch(dtype, gen, cases())
    run_finite_differences(gen)
    rt.finish()


if __name__ == "__main__":
    main()
