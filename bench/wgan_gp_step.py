"""One WGAN-GP critic step (examples/higher-order/wgan_gp.py: the critic
loss with the gradient penalty, differentiated through dD/dx), rlx vs torch
eager (create_graph=True), f32, one thread: the compile time (rlx-opt's
rlx-grad/inline/rlx-grad, then rlx.compile: rlx-to-llvm + JIT) and the
median run time of a step. Run after building, on a quiet machine:

    RLX_BUILD_DIR=build PYTHONPATH=python /usr/bin/python3 bench/wgan_gp_step.py [repeat]
"""
import os
import sys
import time

import numpy as np
import torch

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(root, "examples", "higher-order"),
                os.path.dirname(os.path.abspath(__file__))]
import rlx      # noqa: E402
import wgan_gp  # noqa: E402
from train_step import median_time  # noqa: E402

torch.set_num_threads(1)
rlx.set_num_threads(1)


def main():
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    dtype = np.float32
    t0 = time.perf_counter()
    text = wgan_gp.build(dtype)
    t1 = time.perf_counter()
    m = rlx.compile(text)
    t2 = time.perf_counter()
    gen = np.random.default_rng(0)
    params = wgan_gp.init(gen, dtype)
    data = wgan_gp.batch(gen, dtype)
    rlx_s = median_time(lambda: m.loss_grad(*params, *data), repeat)

    ps = [torch.tensor(p, requires_grad=True) for p in params]
    td = [torch.tensor(d) for d in data]

    def torch_step():
        loss = wgan_gp.torch_loss(ps, *td)
        torch.autograd.grad(loss, ps)
    torch_s = median_time(torch_step, repeat)
    print("WGAN-GP critic step (B=%d, 1x%dx%d images, f32, 1 thread)" % (
        wgan_gp.B, wgan_gp.H, wgan_gp.H))
    print("  rlx compile: rlx-opt (grad, inline, grad) %.2f s + rlx.compile %.2f s" % (
        t1 - t0, t2 - t1))
    print("  run: rlx %.1f us, torch eager %.1f us, torch/rlx %.2fx" % (
        rlx_s * 1e6, torch_s * 1e6, torch_s / rlx_s))


if __name__ == "__main__":
    main()
