"""Step-0 gradients of the char transformer: rlx-grad's @loss_grad vs torch
autograd of the same model, for every parameter, in f32 and f64.

    PYTHONPATH=python RLX_BUILD_DIR=build /usr/bin/python3 examples/char-transformer/check_grad.py
"""
import sys

import numpy as np
import torch

import charlm
import gen_model as g
import rlx

TOL = {np.float32: 1e-4, np.float64: 1e-9}


def main():
    torch.set_num_threads(1)
    ids, _ = charlm.load_text()
    tok, tgt = charlm.batch(ids, np.random.default_rng(0))
    worst, ok = {}, True
    for dtype in (np.float32, np.float64):
        m = rlx.compile(charlm.model_text(dtype))
        p = charlm.init_params(seed=3, dtype=dtype)
        cos, sin = charlm.rope_tables(dtype)
        loss, grad = m.loss_grad(p, tok, tgt, cos, sin)
        tp = torch.tensor(p, requires_grad=True)
        tl = charlm.torch_loss(tp, torch.tensor(tok), torch.tensor(tgt),
                               torch.tensor(cos), torch.tensor(sin))
        (tg,) = torch.autograd.grad(tl, [tp])
        tg = tg.numpy()
        errs = [abs(float(loss) - float(tl)) / max(abs(float(tl)), 1.0)]
        for name, shape, off, n in g.TABLE:
            want, got = tg[off:off + n], grad[off:off + n]
            err = np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-30)
            errs.append(err)
            print("%s %-6s %-8s rel error %.2e" % (
                np.dtype(dtype).name, name, "x".join(map(str, shape)), err))
        worst[np.dtype(dtype).name] = max(errs)
        ok &= max(errs) <= TOL[dtype]
    print("char transformer step-0 gradients: worst f32 %.2e, f64 %.2e: %s" % (
        worst["float32"], worst["float64"], "ok" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
