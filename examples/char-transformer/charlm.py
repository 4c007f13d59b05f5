"""The model of model.mlir in numpy/torch terms: text, vocabulary, rope
tables, parameters, and the torch reference (train.py, check_grad.py)."""
import math
import os

import numpy as np

import gen_model as g

HERE = os.path.dirname(os.path.abspath(__file__))
TEXT = "/usr/share/common-licenses/GPL-3"


def model_text(dtype=np.float32):
    """model.mlir, in f64 when asked (the attributes stay f32)."""
    text = open(os.path.join(HERE, "model.mlir")).read()
    if np.dtype(dtype) == np.float64:
        text = text.replace("f32", "f64").replace(": f64}", ": f32}")
    return text


def load_text():
    """(ids, vocabulary): the characters of GPL-3 as ids < V; the last
    characters of a larger vocabulary would share the last id."""
    text = open(TEXT, encoding="utf-8").read()
    chars = sorted(set(text))
    index = {c: min(i, g.V - 1) for i, c in enumerate(chars)}
    return np.array([index[c] for c in text], dtype=np.int64), chars


def unigram_entropy(ids):
    counts = np.bincount(ids, minlength=g.V).astype(np.float64)
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log(p)).sum())


def rope_tables(dtype=np.float32):
    half = g.HD // 2
    freq = 1.0 / 10000 ** (np.arange(half) / half)
    ang = np.arange(g.T)[:, None] * freq[None, :]
    return np.cos(ang).astype(dtype), np.sin(ang).astype(dtype)


def init_params(seed=0, dtype=np.float32):
    gen = np.random.default_rng(seed)
    p = np.zeros(g.P)
    for name, shape, off, n in g.TABLE:
        if name in ("n1g", "n2g", "nfg"):      # norm gains
            p[off:off + n] = 1.0
        elif name in ("n1b", "n2b", "nfb"):    # norm biases
            p[off:off + n] = 0.0
        elif name == "emb":
            p[off:off + n] = gen.standard_normal(n) * 0.5
        else:
            p[off:off + n] = gen.standard_normal(n) / math.sqrt(shape[0])
    return p.astype(dtype)


def batch(ids, gen, batch=g.B):
    """Random windows: tokens [batch, T] and their next characters."""
    starts = gen.integers(0, len(ids) - g.T - 1, size=batch)
    tok = np.stack([ids[s:s + g.T] for s in starts])
    tgt = np.stack([ids[s + 1:s + g.T + 1] for s in starts])
    return tok, tgt.reshape(-1)


def torch_loss(p, tok, tgt, cos, sin):
    import torch
    import torch.nn.functional as F
    w = {name: p[off:off + n].reshape(shape) for name, shape, off, n in g.TABLE}
    b, t = tok.shape

    def rms(x, gn, bn):
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + 1e-5) * w[gn] + w[bn]

    def rope(x):  # [b, t, H*HD], NeoX halves
        xs = x.reshape(b, t, g.H, g.HD)
        h = g.HD // 2
        c, s = cos[None, :, None, :], sin[None, :, None, :]
        x1, x2 = xs[..., :h], xs[..., h:]
        return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], -1).reshape(b, t, -1)

    def heads(x):
        return x.reshape(b, t, g.H, g.HD).transpose(1, 2)

    x = w["emb"][tok]
    h = rms(x, "n1g", "n1b")
    q, k, v = rope(h @ w["wq"]), rope(h @ w["wk"]), h @ w["wv"]
    s = heads(q) @ heads(k).transpose(-1, -2) / math.sqrt(g.HD)
    keep = torch.arange(t)[None, :] <= torch.arange(t)[:, None]
    s = s.masked_fill(~keep, -1e9)
    a = (torch.softmax(s, -1) @ heads(v)).transpose(1, 2).reshape(b * t, -1)
    x2 = x.reshape(b * t, -1) + a @ w["wo"]
    x3 = x2 + F.gelu(rms(x2, "n2g", "n2b") @ w["wup"]) @ w["wdown"]
    logits = rms(x3, "nfg", "nfb") @ w["wout"]
    return F.cross_entropy(logits, tgt)
