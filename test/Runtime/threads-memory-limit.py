# RUN: %python %s | FileCheck %s
# The allocations of OpenMP threads are checked and counted like the calling
# thread's: the threaded micro-kernel of a large matmul packs its A and B
# blocks into buffers that each thread allocates inside the parallel loop.
# A memory limit that the result fits in but a packed block does not makes
# the call fail with the usual error, on every thread count, and the module
# stays usable (nothing leaked, libomp's team intact).
import re

import numpy as np

import rlx

# 2 * 128 * 128 * 2048 flops: threaded (>= 1M multiply-adds), and K = 2048
# is cut into KC blocks, which are packed.
text = """
func.func @mm(%a: tensor<128x2048xf32>, %b: tensor<2048x128xf32>) -> tensor<128x128xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x2048xf32>, tensor<2048x128xf32>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
"""
g = np.random.default_rng(0)
a = g.standard_normal((128, 2048)).astype(np.float32)
b = g.standard_normal((2048, 128)).astype(np.float32)
m = rlx.compile(text)
result_bytes = 128 * 128 * 4

for threads in (2, 1):
    rlx.set_num_threads(threads)
    m.memory_limit = result_bytes + 1024
    errors = set()
    for _ in range(20):
        try:
            m.mm(a, b)
            errors.add("no error")
        except rlx.RlxError as e:
            errors.add(re.sub(r"\d+ in use", "N in use", str(e).split(" (")[-1]))
    print(threads, "threads, tight limit:", sorted(errors))
    m.memory_limit = 64 << 20
    print(threads, "threads, 64 MB limit:", bool(np.allclose(m.mm(a, b), a @ b, rtol=1e-3, atol=1e-2)))
# CHECK: 2 threads, tight limit: ['memory limit 66560 bytes, N in use)']
# CHECK: 2 threads, 64 MB limit: True
# CHECK: 1 threads, tight limit: ['memory limit 66560 bytes, N in use)']
# CHECK: 1 threads, 64 MB limit: True
rlx.set_num_threads(0)
