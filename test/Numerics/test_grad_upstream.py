# RUN: %python %s
"""rlx-grad on upstream ops, against PyTorch autograd.

linalg named ops (matmul, batch_matmul, transpose, broadcast, reduce (sum
and max), fill, copy, elementwise add/sub/mul/div/exp/...), linalg.generic
(elementwise bodies, broadcasts, sum and max reductions, a body reading its
output), tensor reshapes/slices/pad/concat, and arith/math on tensors: the
gradient of every float operand in f32 and f64 vs torch.autograd.grad, and
in f64 vs central finite differences of the compiled forward.
"""
import numpy as np
import torch

import gradtest as gt
import rlxtest as rt
from gradtest import Arg

# -- linalg named ops --------------------------------------------------------
gt.run_case("linalg.matmul", """  %z = arith.constant 0.0 : {F}
  %e = tensor.empty() : {R}
  %i = linalg.fill ins(%z : {F}) outs(%e : {R}) -> {R}
  %y = linalg.matmul ins(%a0, %a1 : {T0}, {T1}) outs(%i : {R}) -> {R}""",
            [Arg((4, 3)), Arg((3, 5))], (4, 5), torch.matmul)
gt.run_case("linalg.matmul", """  %y = linalg.matmul ins(%a0, %a1 : {T0}, {T1}) outs(%a2 : {T2}) -> {R}""",
            [Arg((4, 3)), Arg((3, 5)), Arg((4, 5))], (4, 5),
            lambda a, b, c: c + a @ b, label="accumulate")
gt.run_case("linalg.batch_matmul", """  %z = arith.constant 0.0 : {F}
  %e = tensor.empty() : {R}
  %i = linalg.fill ins(%z : {F}) outs(%e : {R}) -> {R}
  %y = linalg.batch_matmul ins(%a0, %a1 : {T0}, {T1}) outs(%i : {R}) -> {R}""",
            [Arg((2, 4, 3)), Arg((2, 3, 5))], (2, 4, 5), torch.matmul)
gt.run_case("linalg.transpose", """  %e = tensor.empty() : {R}
  %y = linalg.transpose ins(%a0 : {T0}) outs(%e : {R}) permutation = [2, 0, 1]""",
            [Arg((2, 3, 4))], (4, 2, 3), lambda x: x.permute(2, 0, 1))
gt.run_case("linalg.broadcast", """  %e = tensor.empty() : {R}
  %y = linalg.broadcast ins(%a0 : {T0}) outs(%e : {R}) dimensions = [0, 2]""",
            [Arg((3,))], (2, 3, 4), lambda x: x[None, :, None].expand(2, 3, 4))
gt.run_case("linalg.reduce", """  %z = arith.constant 0.0 : {F}
  %e = tensor.empty() : {R}
  %i = linalg.fill ins(%z : {F}) outs(%e : {R}) -> {R}
  %y = linalg.reduce ins(%a0 : {T0}) outs(%i : {R}) dimensions = [1]
    (%in: {F}, %acc: {F}) {
      %s = arith.addf %in, %acc : {F}
      linalg.yield %s : {F}
    }""", [Arg((3, 4, 5))], (3, 5), lambda x: x.sum(1), label="sum")
gt.run_case("linalg.reduce", """  %z = arith.constant -1.0e30 : {F}
  %e = tensor.empty() : {R}
  %i = linalg.fill ins(%z : {F}) outs(%e : {R}) -> {R}
  %y = linalg.reduce ins(%a0 : {T0}) outs(%i : {R}) dimensions = [1]
    (%in: {F}, %acc: {F}) {
      %s = arith.maximumf %in, %acc : {F}
      linalg.yield %s : {F}
    }""", [Arg((3, 6))], (3,), lambda x: x.amax(1), label="max")
gt.run_case("linalg.fill", """  %e = tensor.empty() : tensor<3x4x{F}>
  %s = tensor.extract %a0[] : {T0}
  %f = linalg.fill ins(%s : {F}) outs(%e : tensor<3x4x{F}>) -> tensor<3x4x{F}>
  %e2 = tensor.empty() : {R}
  %y = linalg.mul ins(%f, %a1 : tensor<3x4x{F}>, {T1}) outs(%e2 : {R}) -> {R}""",
            [Arg(()), Arg((3, 4))], (3, 4), lambda s, x: s * x)
gt.run_case("linalg.copy", """  %e = tensor.empty() : {R}
  %y = linalg.copy ins(%a0 : {T0}) outs(%e : {R}) -> {R}""",
            [Arg((3, 4))], (3, 4), lambda x: x.clone())
BIN = {"add": torch.add, "sub": torch.sub, "mul": torch.mul, "div": torch.div,
       "max": torch.maximum, "min": torch.minimum}
for name, fn in BIN.items():
    gt.run_case("linalg." + name, """  %e = tensor.empty() : {R}
  %y = linalg.NAME ins(%a0, %a1 : {T0}, {T1}) outs(%e : {R}) -> {R}""".replace(
        "NAME", name), [Arg((3, 4)), Arg((3, 4))], (3, 4), fn)
UN = {"exp": (torch.exp, None), "log": (torch.log, "pos"), "abs": (torch.abs, None),
      "negf": (torch.neg, None), "sqrt": (torch.sqrt, "pos"),
      "rsqrt": (torch.rsqrt, "pos"), "tanh": (torch.tanh, None),
      "erf": (torch.erf, None), "reciprocal": (torch.reciprocal, "pos"),
      "square": (torch.square, None), "floor": (torch.floor, None)}
for name, (fn, dom) in UN.items():
    sample = (lambda g, d: g.uniform(0.5, 2.0, (3, 4))) if dom else None
    gt.run_case("linalg." + name, """  %e = tensor.empty() : {R}
  %y = linalg.NAME ins(%a0 : {T0}) outs(%e : {R}) -> {R}""".replace("NAME", name),
                [Arg((3, 4), sample=sample)], (3, 4), fn, fd=(name != "floor"))

# -- linalg.generic ----------------------------------------------------------
gt.run_case("linalg.generic", """  %e = tensor.empty() : {R}
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a0, %a1 : {T0}, {T1}) outs(%e : {R}) {
    ^bb0(%x: {F}, %b: {F}, %o: {F}):
      %s = arith.addf %x, %b : {F}
      %t = math.tanh %s : {F}
      %p = arith.mulf %t, %x : {F}
      %q = math.powf %b, %x : {F}
      %r = arith.subf %p, %q : {F}
      linalg.yield %r : {F}
  } -> {R}""", [Arg((3, 4)), Arg((4,), sample=lambda g, d: g.uniform(0.5, 2, 4))],
            (3, 4), lambda x, b: torch.tanh(x + b) * x - b ** x,
            label="broadcast elementwise")
gt.run_case("linalg.generic", """  %z = arith.constant 0.0 : {F}
  %e = tensor.empty() : {R}
  %i = linalg.fill ins(%z : {F}) outs(%e : {R}) -> {R}
  %y = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (k, i, j)>, affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (j, i)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a0, %a1 : {T0}, {T1}) outs(%i : {R}) {
    ^bb0(%x: {F}, %w: {F}, %o: {F}):
      %m = arith.mulf %x, %w : {F}
      %s = math.sin %m : {F}
      %r = arith.addf %o, %s : {F}
      linalg.yield %r : {F}
  } -> {R}""", [Arg((5, 3, 4)), Arg((3, 5))], (4, 3),
            lambda x, w: torch.sin(x.permute(1, 2, 0) * w[:, None, :]).sum(-1).T,
            label="sum reduction, permuted")
gt.run_case("linalg.generic", """  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a0 : {T0}) outs(%a1 : {T1}) {
    ^bb0(%x: {F}, %o: {F}):
      %m = arith.mulf %x, %o : {F}
      %r = math.exp %m : {F}
      linalg.yield %r : {F}
  } -> {R}""", [Arg((3, 4)), Arg((3, 4))], (3, 4), lambda x, o: torch.exp(x * o),
            label="reads its output")
gt.run_case("linalg.generic", """  %z = arith.constant -1.0e30 : {F}
  %e = tensor.empty() : {R}
  %i = linalg.fill ins(%z : {F}) outs(%e : {R}) -> {R}
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>],
                       iterator_types = ["reduction", "parallel"]}
      ins(%a0 : {T0}) outs(%i : {R}) {
    ^bb0(%x: {F}, %o: {F}):
      %c = math.cos %x : {F}
      %r = arith.maxnumf %o, %c : {F}
      linalg.yield %r : {F}
  } -> {R}""", [Arg((6, 4))], (4,), lambda x: torch.cos(x).amax(0),
            label="max reduction")

# -- tensor ops --------------------------------------------------------------
gt.run_case("tensor.expand_shape", """  %r = tensor.expand_shape %a0 [[0, 1], [2]] output_shape [2, 3, 4] : {T0} into tensor<2x3x4x{F}>
  %y = math.sin %r : {R}""", [Arg((6, 4))], (2, 3, 4),
            lambda x: torch.sin(x.reshape(2, 3, 4)))
gt.run_case("tensor.collapse_shape", """  %r = tensor.collapse_shape %a0 [[0, 1], [2]] : {T0} into tensor<6x4x{F}>
  %y = math.sin %r : {R}""", [Arg((2, 3, 4))], (6, 4),
            lambda x: torch.sin(x.reshape(6, 4)))
gt.run_case("tensor.collapse_shape", """  %r = tensor.collapse_shape %a0 [[0, 1], [2]] : {T0} into tensor<?x4x{F}>
  %c = tensor.cast %r : tensor<?x4x{F}> to tensor<6x4x{F}>
  %y = math.sin %c : {R}""", [Arg((2, 3, 4), mlir_shape=(None, 3, 4))], (6, 4),
            lambda x: torch.sin(x.reshape(6, 4)), label="dynamic, cast")
gt.run_case("tensor.extract_slice", """  %s = tensor.extract_slice %a0[1, 0, 2] [2, 1, 3] [1, 1, 2] : {T0} to tensor<2x3x{F}>
  %y = math.exp %s : {R}""", [Arg((4, 3, 7))], (2, 3),
            lambda x: torch.exp(x[1:3, 0, 2:7:2]))
gt.run_case("tensor.insert_slice", """  %y = tensor.insert_slice %a0 into %a1[1, 2] [2, 3] [1, 1] : {T0} into {T1}""",
            [Arg((2, 3)), Arg((4, 6))], (4, 6),
            lambda s, d: torch.cat([d[:1], torch.cat([d[1:3, :2], s, d[1:3, 5:]], 1), d[3:]], 0))
gt.run_case("tensor.pad", """  %z = arith.constant 0.5 : {F}
  %y = tensor.pad %a0 low[1, 0] high[2, 3] {
    ^bb0(%i: index, %j: index):
      tensor.yield %z : {F}
  } : {T0} to {R}""", [Arg((3, 4))], (6, 7),
            lambda x: torch.nn.functional.pad(x, (0, 3, 1, 2), value=0.5))
gt.run_case("tensor.concat", """  %y = tensor.concat dim(1) %a0, %a1, %a0 : ({T0}, {T1}, {T0}) -> {R}""",
            [Arg((2, 3)), Arg((2, 2))], (2, 8),
            lambda a, b: torch.cat([a, b, a], 1), label="fan-out")

# -- arith / math on tensors -------------------------------------------------
gt.run_case("arith", """  %m = arith.mulf %a0, %a1 : {T0}
  %d = arith.divf %m, %a2 : {T0}
  %s = arith.subf %d, %a0 : {T0}
  %n = arith.negf %s : {T0}
  %x = arith.maximumf %n, %a1 : {T0}
  %c = arith.constant dense<0.25> : {T0}
  %y = arith.addf %x, %c : {T0}""",
            [Arg((3, 4)), Arg((3, 4)), Arg((3, 4), sample=lambda g, d: g.uniform(1, 2, (3, 4)))],
            (3, 4), lambda a, b, c: torch.maximum(-((a * b) / c - a), b) + 0.25)
gt.run_case("math", """  %e = math.exp %a0 : {T0}
  %l = math.log1p %e : {T0}
  %s = math.sqrt %l : {T0}
  %t = math.atan %s : {T0}
  %c = math.cos %t : {T0}
  %y = math.fma %c, %a0, %t : {T0}""", [Arg((3, 4))], (3, 4),
            lambda x: torch.cos(torch.atan(torch.sqrt(torch.log1p(torch.exp(x))))) * x
            + torch.atan(torch.sqrt(torch.log1p(torch.exp(x)))))
gt.run_case("arith", """  %p = arith.cmpf ogt, %a0, %a1 : {T0}
  %y = arith.select %p, %a0, %a1 : tensor<3x4xi1>, {T0}""",
            [Arg((3, 4)), Arg((3, 4))], (3, 4), lambda a, b: torch.where(a > b, a, b),
            label="select")

rt.finish()
