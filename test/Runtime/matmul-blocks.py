# RUN: %python %s | FileCheck %s
# Matmuls large enough for several KC blocks (K > 384) and for Goto's loop
# order (reuse-packed-b: blocks of C that span several 128-row blocks of A
# and pack each block of B once), with C starting as a fill of a nonzero
# constant (no longer filled: the first KC block's micro-kernels start from
# the constant), against numpy in float64, with the option on and off, on 1
# and 2 threads (bitwise the same).
import numpy as np

import rlx


def matmul(name, m, k, n, dtype, fill):
    t = f"tensor<{m}x{k}x{dtype}>, tensor<{k}x{n}x{dtype}>"
    return f"""
func.func @{name}(%a: tensor<{m}x{k}x{dtype}>, %b: tensor<{k}x{n}x{dtype}>) -> tensor<{m}x{n}x{dtype}> {{
  %z = arith.constant {fill} : {dtype}
  %e = tensor.empty() : tensor<{m}x{n}x{dtype}>
  %f = linalg.fill ins(%z : {dtype}) outs(%e : tensor<{m}x{n}x{dtype}>) -> tensor<{m}x{n}x{dtype}>
  %r = linalg.matmul ins(%a, %b : {t}) outs(%f : tensor<{m}x{n}x{dtype}>) -> tensor<{m}x{n}x{dtype}>
  return %r : tensor<{m}x{n}x{dtype}>
}}"""


cases = [  # name, m, k, n, dtype, fill
    ("square", 512, 512, 512, "f32", 1.5),
    ("tall", 1024, 768, 512, "f64", -0.25),
    ("odd", 1000, 600, 520, "f32", 0.0),
]
text = "".join(matmul(*c) for c in cases)
g = np.random.default_rng(0)
inputs = {}
for name, m, k, n, dtype, fill in cases:
    np_type = np.float32 if dtype == "f32" else np.float64
    a = g.standard_normal((m, k)).astype(np_type)
    b = g.standard_normal((k, n)).astype(np_type)
    ref = a.astype(np.float64) @ b.astype(np.float64) + fill
    inputs[name] = (a, b, ref, 1e-5 if dtype == "f32" else 1e-12)

for options in [None, "reuse-packed-b=0"]:
    module = rlx.compile(text, pipeline_options=options)
    for name, (a, b, ref, tol) in inputs.items():
        results = []
        for threads in (1, 2):
            rlx.set_num_threads(threads)
            results.append(np.asarray(getattr(module, name)(a, b)))
        err = np.abs(results[0] - ref).max() / np.abs(ref).max()
        print(f"{options or 'default'} {name}: close {err < tol}, "
              f"threads bitwise {np.array_equal(results[0], results[1])}")
rlx.set_num_threads(0)
# CHECK: default square: close True, threads bitwise True
# CHECK: default tall: close True, threads bitwise True
# CHECK: default odd: close True, threads bitwise True
# CHECK: reuse-packed-b=0 square: close True, threads bitwise True
# CHECK: reuse-packed-b=0 tall: close True, threads bitwise True
# CHECK: reuse-packed-b=0 odd: close True, threads bitwise True
