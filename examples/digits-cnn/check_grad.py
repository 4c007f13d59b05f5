"""Step-0 gradients of the digits CNN: rlx-grad's @loss_grad vs torch
autograd of the same model, for every parameter, in f32 and f64.

    PYTHONPATH=python RLX_BUILD_DIR=build /usr/bin/python3 examples/digits-cnn/check_grad.py
"""
import sys

import numpy as np
import torch

import digits
import rlx

TOL = {np.float32: 1e-4, np.float64: 1e-9}


def main():
    torch.set_num_threads(1)
    images, labels = digits.load_digits()
    x, t = images[:digits.BATCH], labels[:digits.BATCH]
    worst = {}
    ok = True
    for dtype in (np.float32, np.float64):
        m = rlx.compile(digits.model_text(dtype))
        p = digits.init_params(seed=3, dtype=dtype)
        loss, g = m.loss_grad(p, x.astype(dtype), t)
        tp = torch.tensor(p, requires_grad=True)
        tl = digits.torch_loss(tp, torch.tensor(x.astype(dtype)), torch.tensor(t))
        (tg,) = torch.autograd.grad(tl, [tp])
        tg = tg.numpy()
        errs = [abs(float(loss) - float(tl)) / max(abs(float(tl)), 1.0)]
        for name, shape, off in digits.PARAMS:
            n = int(np.prod(shape))
            want, got = tg[off:off + n], g[off:off + n]
            err = np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-30)
            errs.append(err)
            print("%s %-3s %-12s rel error %.2e" % (
                np.dtype(dtype).name, name, "x".join(map(str, shape)), err))
        worst[np.dtype(dtype).name] = max(errs)
        ok &= max(errs) <= TOL[dtype]
    print("digits CNN step-0 gradients: worst f32 %.2e, f64 %.2e: %s" % (
        worst["float32"], worst["float64"], "ok" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
