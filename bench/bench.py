"""Times rlx-compiled backward ops against PyTorch autograd (same run).

Each case gives MLIR text, numpy inputs and the equivalent torch computation;
both are warmed up, then timed (median of several runs). Prints one row per
case with the ratio torch_time / rlx_time (> 1: rlx is faster).
"""
import sys
import time

import numpy as np
import torch

import rlx

torch.set_num_threads(1)


def median_ms(fn, runs):
    fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1e3)
    return float(np.median(times))


def case_activation():
    x = np.random.default_rng(0).standard_normal((4096, 1024)).astype(np.float32)
    dy = np.ones_like(x)
    text = """
func.func @f(%x: tensor<4096x1024xf32>, %dy: tensor<4096x1024xf32>) -> tensor<4096x1024xf32> {
  %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<gelu>} : tensor<4096x1024xf32>, tensor<4096x1024xf32> -> tensor<4096x1024xf32>
  return %dx : tensor<4096x1024xf32>
}"""
    tx = torch.tensor(x, requires_grad=True)
    ty = torch.nn.functional.gelu(tx)
    tdy = torch.tensor(dy)
    return ("activation_backward gelu 4096x1024 f32", text, [x, dy],
            lambda: torch.autograd.grad(ty, tx, tdy, retain_graph=True))


CASES = [case_activation]


def main():
    pattern = sys.argv[1] if len(sys.argv) > 1 else ""
    print("| case | rlx ms | torch ms | torch/rlx |")
    print("|---|---|---|---|")
    for make in CASES:
        name, text, inputs, torch_fn = make()
        if pattern not in name:
            continue
        m = rlx.compile(text)
        rlx_ms = median_ms(lambda: m.f(*inputs), 10)
        torch_ms = median_ms(torch_fn, 10)
        print("| %s | %.3f | %.3f | %.2f |" % (name, rlx_ms, torch_ms, torch_ms / rlx_ms))


if __name__ == "__main__":
    main()
