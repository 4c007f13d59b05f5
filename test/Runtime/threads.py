# RUN: %python %s | FileCheck %s
# Threads: the parallel loops of compiled contractions run on
# rlx.set_num_threads(n) threads, and the results are bitwise the same for
# any count (no reduction is split by the thread count).
import numpy as np

import rlx

text = """
func.func @mm(%a: tensor<?x200x150xf32>, %b: tensor<?x150x130xf32>) -> tensor<?x200x130xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x200x150xf32>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty(%n) : tensor<?x200x130xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x200x130xf32>) -> tensor<?x200x130xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<?x200x150xf32>, tensor<?x150x130xf32>) outs(%f : tensor<?x200x130xf32>) -> tensor<?x200x130xf32>
  return %r : tensor<?x200x130xf32>
}
func.func @conv(%x: tensor<2x8x9x11xf64>, %dy: tensor<2x16x5x6xf64>) -> tensor<16x8x3x3xf64> {
  %r = rlx.conv2d_backward_weight %x, %dy {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x8x9x11xf64>, tensor<2x16x5x6xf64> -> tensor<16x8x3x3xf64>
  return %r : tensor<16x8x3x3xf64>
}
"""
g = np.random.default_rng(0)
a = g.standard_normal((3, 200, 150)).astype(np.float32)
b = g.standard_normal((3, 150, 130)).astype(np.float32)
x = g.standard_normal((2, 8, 9, 11))
dy = g.standard_normal((2, 16, 5, 6))

m = rlx.compile(text, num_threads=1)
print("threads:", rlx.get_num_threads())
# CHECK: threads: 1
one = m.mm(a, b), m.conv(x, dy)
rlx.set_num_threads(2)
print("threads:", rlx.get_num_threads())
# CHECK: threads: 2
two = m.mm(a, b), m.conv(x, dy)
print("matmul close:", bool(np.allclose(one[0], a @ b, rtol=1e-4, atol=1e-3)))
# CHECK: matmul close: True
print("bitwise equal:", all(np.array_equal(p, q) for p, q in zip(one, two)))
# CHECK: bitwise equal: True
rlx.set_num_threads(0)  # back to the default (RLX_NUM_THREADS or the cores)
print("default >= 1:", rlx.get_num_threads() >= 1)
# CHECK: default >= 1: True

# Row-fused memory-bound ops (rlx-fuse-rows): row blocks on threads, each
# row's statistics computed by one thread, so bitwise equal too.
rows = """
func.func @ln(%x: tensor<1024x1024xf32>, %g: tensor<1024xf32>, %dy: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %r = rlx.layer_norm_backward_input %x, %g, %dy {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<1024x1024xf32>, tensor<1024xf32>, tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
func.func @ce(%l: tensor<1024x1000xf32>, %t: tensor<1024xi64>, %d: tensor<1024xf32>) -> tensor<1024x1000xf32> {
  %r = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<1024x1000xf32>, tensor<1024xi64>, tensor<1024xf32> -> tensor<1024x1000xf32>
  return %r : tensor<1024x1000xf32>
}
"""
xs = g.standard_normal((1024, 1024)).astype(np.float32)
gs = g.uniform(0.5, 1.5, 1024).astype(np.float32)
dys = g.standard_normal((1024, 1024)).astype(np.float32)
logits = g.standard_normal((1024, 1000)).astype(np.float32)
labels = g.integers(0, 1000, 1024).astype(np.int64)
dl = g.standard_normal(1024).astype(np.float32)
m = rlx.compile(rows, pipeline_options="fuse-rows=1", num_threads=1)
one = m.ln(xs, gs, dys), m.ce(logits, labels, dl)
rlx.set_num_threads(2)
two = m.ln(xs, gs, dys), m.ce(logits, labels, dl)
print("rows bitwise equal:", all(np.array_equal(p, q) for p, q in zip(one, two)))
# CHECK: rows bitwise equal: True
rlx.set_num_threads(0)

# Column sums (a norm's gamma and beta gradients): row blocks split into a
# fixed number of partial sums (set by the shape, not the thread count),
# added in a fixed order, so bitwise equal too.
cols = """
func.func @gamma(%x: tensor<1024x1024xf32>, %dy: tensor<1024x1024xf32>) -> tensor<1024xf32> {
  %r = rlx.layer_norm_backward_gamma %x, %dy {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<1024x1024xf32>, tensor<1024x1024xf32> -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}
func.func @beta(%dy: tensor<1024x1024xf32>) -> tensor<1024xf32> {
  %r = rlx.layer_norm_backward_beta %dy {axis = -1 : i64} : tensor<1024x1024xf32> -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}
"""
m = rlx.compile(cols, num_threads=1)
one = m.gamma(xs, dys), m.beta(dys)
rlx.set_num_threads(2)
two = m.gamma(xs, dys), m.beta(dys)
x64 = xs.astype(np.float64)
xhat = (x64 - x64.mean(1, keepdims=True)) / np.sqrt(x64.var(1, keepdims=True) + 1e-5)
want = (dys * xhat).sum(0), dys.astype(np.float64).sum(0)
print("columns close:", all(np.allclose(p, w, rtol=1e-4, atol=1e-3)
                            for p, w in zip(one, want)))
# CHECK: columns close: True
print("columns bitwise equal:",
      all(np.array_equal(p, q) for p, q in zip(one, two)))
# CHECK: columns bitwise equal: True
rlx.set_num_threads(0)

# Convolutions on tensors large enough that rlx-optimize-contractions puts
# the copies made for them on threads: the zero padding of x (an scf.forall
# over the (n, c) planes), the transpose of dy in the weight gradient (16x16
# vectorized squares in an scf.forall), the split of a strided input into
# its stride phases, and, depthwise, a whole padded plane per block. Checked against torch in f64 and across thread counts.
import torch
import torch.nn.functional as F

convs = """
func.func @weight(%x: tensor<2x64x48x48xf32>, %dy: tensor<2x64x48x48xf32>) -> tensor<64x64x3x3xf32> {
  %r = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 1, 1>} : tensor<2x64x48x48xf32>, tensor<2x64x48x48xf32> -> tensor<64x64x3x3xf32>
  return %r : tensor<64x64x3x3xf32>
}
func.func @forward(%x: tensor<2x64x48x48xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<2x64x48x48xf32> {
  %r = rlx.conv2d %x, %w {padding = array<i64: 1, 1>} : tensor<2x64x48x48xf32>, tensor<64x64x3x3xf32> -> tensor<2x64x48x48xf32>
  return %r : tensor<2x64x48x48xf32>
}
func.func @strided(%x: tensor<2x64x48x48xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<2x64x24x24xf32> {
  %r = rlx.conv2d %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x64x48x48xf32>, tensor<64x64x3x3xf32> -> tensor<2x64x24x24xf32>
  return %r : tensor<2x64x24x24xf32>
}
func.func @strided_input(%dy: tensor<2x64x24x24xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<2x64x48x48xf32> {
  %r = rlx.conv2d_backward_input %dy, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x64x24x24xf32>, tensor<64x64x3x3xf32> -> tensor<2x64x48x48xf32>
  return %r : tensor<2x64x48x48xf32>
}
func.func @depthwise(%x: tensor<2x64x48x48xf32>, %w: tensor<64x1x3x3xf32>) -> tensor<2x64x48x48xf32> {
  %r = rlx.conv2d %x, %w {padding = array<i64: 1, 1>, groups = 64 : i64} : tensor<2x64x48x48xf32>, tensor<64x1x3x3xf32> -> tensor<2x64x48x48xf32>
  return %r : tensor<2x64x48x48xf32>
}
"""
cx = g.standard_normal((2, 64, 48, 48)).astype(np.float32)
cdy = g.standard_normal((2, 64, 48, 48)).astype(np.float32)
cw = (g.standard_normal((64, 64, 3, 3)) / 24).astype(np.float32)
cdw = g.standard_normal((64, 1, 3, 3)).astype(np.float32)
m = rlx.compile(convs, num_threads=1)
sdy = g.standard_normal((2, 64, 24, 24)).astype(np.float32)
calls = lambda: (m.weight(cx, cdy), m.forward(cx, cw), m.depthwise(cx, cdw),
                 m.strided(cx, cw), m.strided_input(sdy, cw))
one = calls()
rlx.set_num_threads(2)
two = calls()
t = lambda a: torch.tensor(a, dtype=torch.float64)
w_ref = torch.nn.grad.conv2d_weight(t(cx), (64, 64, 3, 3), t(cdy), padding=1)
want = (w_ref, F.conv2d(t(cx), t(cw), padding=1),
        F.conv2d(t(cx), t(cdw), padding=1, groups=64),
        F.conv2d(t(cx), t(cw), stride=2, padding=1),
        torch.nn.grad.conv2d_input((2, 64, 48, 48), t(cw), t(sdy), stride=2,
                                   padding=1))
print("convolutions close:", all(np.allclose(p, w.numpy(), rtol=1e-4, atol=1e-3)
                                 for p, w in zip(one, want)))
# CHECK: convolutions close: True
print("convolutions bitwise equal:",
      all(np.array_equal(p, q) for p, q in zip(one, two)))
# CHECK: convolutions bitwise equal: True
rlx.set_num_threads(0)

# An embedding gradient whose zeroed table (1M elements) is filled by an
# scf.forall before the scatter loop, with duplicate indices (added in
# index order): against numpy in f64 and across thread counts.
table = """
func.func @emb(%dy: tensor<300x512xf32>, %i: tensor<300xi64>) -> tensor<2048x512xf32> {
  %r = rlx.gather_backward %dy, %i {axis = 0 : i64} : tensor<300x512xf32>, tensor<300xi64> -> tensor<2048x512xf32>
  return %r : tensor<2048x512xf32>
}
"""
edy = g.standard_normal((300, 512)).astype(np.float32)
eidx = g.integers(0, 2048, 300).astype(np.int64)
eidx[:40] = 7
m = rlx.compile(table, num_threads=1)
one = m.emb(edy, eidx)
rlx.set_num_threads(2)
two = m.emb(edy, eidx)
want = np.zeros((2048, 512))
np.add.at(want, eidx, edy.astype(np.float64))
print("embedding close:", bool(np.allclose(one, want, rtol=1e-5, atol=1e-4)))
# CHECK: embedding close: True
print("embedding bitwise equal:", bool(np.array_equal(one, two)))
# CHECK: embedding bitwise equal: True
rlx.set_num_threads(0)
