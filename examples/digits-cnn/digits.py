"""The model of model.mlir in numpy/torch terms: data, parameters, reference.

Shared by train.py (training) and check_grad.py (step-0 gradients vs torch).
"""
import gzip
import importlib.util
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
BATCH = 32
# name, shape, offset in the flat parameter vector (model.mlir's table)
PARAMS = [("w1", (8, 1, 3, 3), 0), ("g1", (8,), 72), ("b1", (8,), 80),
          ("w2", (16, 8, 3, 3), 88), ("g2", (16,), 1240), ("b2", (16,), 1256),
          ("w3", (64, 10), 1272), ("b3", (10,), 1912)]
NUM_PARAMS = 1922


def model_text(dtype=np.float32, mixed_bf16=False):
    """model.mlir, in f64 when asked (the attributes stay f32), or in bf16
    mixed precision (mixed_bf16_text)."""
    text = open(os.path.join(HERE, "model.mlir")).read()
    if np.dtype(dtype) == np.float64:
        text = text.replace("f32", "f64").replace(": f64}", ": f32}")
    if mixed_bf16:
        text = mixed_bf16_text(text)
    return text


# The f32 parameters of @loss and @logits; mixed precision rounds each to bf16
# once, where it is sliced out of the flat vector.
_MASTER = ("w1", "g1", "b1", "w2", "g2", "b2", "w3")


def mixed_bf16_text(text):
    """model.mlir in bf16 mixed precision: the parameters (and SGD) stay f32
    master weights; @loss and @logits round them and the images to bf16
    (arith.truncf) and run the convolutions, norms, activations and pools in
    bf16 (each rlx op computes in f32 and rounds its result once); the
    classifier matmul takes bf16 operands and accumulates into f32 logits, so
    the bias, the cross-entropy and the loss are f32. rlx-grad
    differentiates through the truncf (its gradient is an extf), so the
    gradient of the f32 parameters is f32. Derived from model.mlir's text so
    that the two models cannot drift apart."""
    import re
    out, state, start = [], None, 0
    for line in text.splitlines():
        if line.startswith(("func.func @loss(", "func.func @logits(")):
            state, start = "params", len(out)
        if state == "params" and re.match(r"\s+%c1 = rlx.conv2d", line):
            # Round the master weights and the images once, before use.
            body = "\n".join(out[start:]) + "\n" + line
            for name in _MASTER:
                shape = re.search(r"%" + name + r" = .* (?:to|into) tensor<([0-9x]+)xf32>",
                                  body).group(1)
                out.append("  %%%sb = arith.truncf %%%s : tensor<%sxf32> to tensor<%sxbf16>"
                           % (name, name, shape, shape))
            xshape = re.search(r"%x: tensor<([0-9?x]+)xf32>", body).group(1)
            out.append("  %%xb = arith.truncf %%x : tensor<%sxf32> to tensor<%sxbf16>"
                       % (xshape, xshape))
            state = "activations"
        if state == "activations":
            line = line.replace("xf32>", "xbf16>").replace("%x,", "%xb,")
            for name in _MASTER:
                line = re.sub(r"%" + name + r"\b", "%" + name + "b", line)
            if "tensor.collapse_shape" in line:
                state = "classifier"
        elif state == "classifier" and "linalg.matmul" in line:
            line = line.replace("%f, %w3 : tensor<", "%f, %w3b : tensor<")
            line = line.replace("x64xf32>, tensor<64x10xf32>)",
                                "x64xbf16>, tensor<64x10xbf16>)")
            state = None
        out.append(line)
    return "\n".join(out) + "\n"


def load_digits():
    """(images [1797, 1, 8, 8] in [0, 1], labels [1797]) from the copy of
    the UCI digits that Debian's python3-sklearn ships."""
    spec = importlib.util.find_spec("sklearn")
    if spec is None:
        raise SystemExit("needs python3-sklearn (its digits data)")
    path = os.path.join(os.path.dirname(spec.origin), "datasets", "data",
                        "digits.csv.gz")
    with gzip.open(path, "rt") as fh:
        data = np.loadtxt(fh, delimiter=",")
    images = (data[:, :64] / 16.0).reshape(-1, 1, 8, 8)
    return images, data[:, 64].astype(np.int64)


def split(images, labels, seed=0, held_out=0.2):
    order = np.random.default_rng(seed).permutation(len(labels))
    n_test = int(len(labels) * held_out)
    test, train = order[:n_test], order[n_test:]
    return images[train], labels[train], images[test], labels[test]


def init_params(seed=0, dtype=np.float32):
    gen = np.random.default_rng(seed)
    p = np.zeros(NUM_PARAMS)
    for name, shape, off in PARAMS:
        n = int(np.prod(shape))
        if name.startswith("w"):
            fan_in = int(np.prod(shape[1:])) if len(shape) == 4 else shape[0]
            p[off:off + n] = gen.standard_normal(n) * np.sqrt(2.0 / fan_in)
        elif name.startswith("g"):
            p[off:off + n] = 1.0
    return p.astype(dtype)


def torch_loss(p, x, t):
    """The loss of model.mlir in torch (p a flat tensor)."""
    import torch
    import torch.nn.functional as F
    w = {name: p[off:off + int(np.prod(shape))].reshape(shape)
         for name, shape, off in PARAMS}
    h = F.conv2d(x, w["w1"], padding=1)
    h = F.max_pool2d(torch.relu(F.group_norm(h, 2, w["g1"], w["b1"], 1e-5)), 2)
    h = F.conv2d(h, w["w2"], padding=1)
    h = F.max_pool2d(F.gelu(F.group_norm(h, 4, w["g2"], w["b2"], 1e-5)), 2)
    logits = h.reshape(h.shape[0], 64) @ w["w3"] + w["b3"]
    return F.cross_entropy(logits, t)
