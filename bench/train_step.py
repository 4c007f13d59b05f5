"""One training step of each example model (examples/digits-cnn,
examples/char-transformer): rlx (forward-only MLIR, gradient by rlx-grad,
the optimizer step in MLIR) vs the same model and optimizer in torch eager,
both on one thread. Run after building, on a quiet machine:

    RLX_BUILD_DIR=build PYTHONPATH=python /usr/bin/python3 bench/train_step.py
"""
import os
import sys
import time

import numpy as np
import torch

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(root, "examples", "digits-cnn"),
                os.path.join(root, "examples", "char-transformer")]
import charlm      # noqa: E402
import digits      # noqa: E402
import gen_model   # noqa: E402
import rlx         # noqa: E402

torch.set_num_threads(1)
rlx.set_num_threads(1)


def median_time(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return float(np.median(times))


def bench_digits(repeat):
    m = rlx.compile(digits.model_text())
    images, labels = digits.load_digits()
    x = images[:digits.BATCH].astype(np.float32)
    t = labels[:digits.BATCH]
    p = digits.init_params()
    mom = np.zeros_like(p)
    lr = np.array(0.05, np.float32)
    rlx_s = median_time(lambda: m.train_step(p, mom, x, t, lr), repeat)
    tp = torch.tensor(p, requires_grad=True)
    tm = torch.zeros_like(tp)
    tx, tt = torch.tensor(x), torch.tensor(t)

    def torch_step():
        loss = digits.torch_loss(tp, tx, tt)
        (g,) = torch.autograd.grad(loss, [tp])
        with torch.no_grad():
            tm.mul_(0.9).add_(g)
            tp.sub_(0.05 * tm)
    torch_s = median_time(torch_step, repeat)
    return rlx_s, torch_s


def bench_transformer(repeat):
    m = rlx.compile(charlm.model_text())
    ids, _ = charlm.load_text()
    tok, tgt = charlm.batch(ids, np.random.default_rng(0))
    cos, sin = charlm.rope_tables()
    p = charlm.init_params()
    mo, ve = np.zeros_like(p), np.zeros_like(p)
    lr, step = np.array(3e-3, np.float32), np.array(1, np.float32)
    rlx_s = median_time(
        lambda: m.train_step(p, mo, ve, tok, tgt, cos, sin, lr, step), repeat)
    tp = torch.tensor(p, requires_grad=True)
    opt = torch.optim.Adam([tp], lr=3e-3, betas=(0.9, 0.99), eps=1e-8)
    args = [torch.tensor(a) for a in (tok, tgt, cos, sin)]

    def torch_step():
        opt.zero_grad()
        charlm.torch_loss(tp, *args).backward()
        opt.step()
    torch_s = median_time(torch_step, repeat)
    return rlx_s, torch_s


def main():
    print("one training step, 1 thread (median); torch %s" % torch.__version__)
    print("%-34s %10s %10s %8s" % ("model", "rlx ms", "torch ms", "rlx/torch"))
    for name, fn, repeat in (
            ("digits CNN (B=32, SGD momentum)", bench_digits, 50),
            ("char transformer (B=16 T=32, Adam)", bench_transformer, 20)):
        r, t = fn(repeat)
        print("%-34s %10.2f %10.2f %8.2f" % (name, 1e3 * r, 1e3 * t, r / t))


if __name__ == "__main__":
    main()
