// bf16/f16 ops are rewritten once, for every op, by the pattern glue
// (runInF32): operands extended to f32, the op's f32 rewrite, results
// rounded once. Integer operands (labels) are untouched; region arguments of
// a scan become f32 and are rounded back on entry.
// RUN: rlx-opt %s --split-input-file --rlx-to-linalg | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-to-llvm | FileCheck %s --check-prefix=LLVM

// The statistics (the mean, then three fused row sums) and the gradient are
// f32.
// CHECK-LABEL: func.func @layer_norm_bf16
// CHECK-COUNT-3: arith.extf %{{.*}} : bf16 to f32
// CHECK-NOT: bf16
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} outs(%{{.*}} : tensor<2xf32>)
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]{{.*}} outs({{.*}} : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
// CHECK: math.rsqrt %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK-NOT: arith.truncf
// CHECK: return %{{.*}} : tensor<2x?xbf16>
// The bf16 conversions become integer code (no CPU feature or libcall).
// LLVM-LABEL: llvm.func @layer_norm_bf16
// LLVM-NOT: llvm.fptrunc
// LLVM-NOT: llvm.fpext
// LLVM: llvm.return
func.func @layer_norm_bf16(%x: tensor<2x?xbf16>, %g: tensor<?xbf16>, %dy: tensor<2x?xbf16>) -> tensor<2x?xbf16> {
  %dx = rlx.layer_norm_backward_input %x, %g, %dy {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<2x?xbf16>, tensor<?xbf16>, tensor<2x?xbf16> -> tensor<2x?xbf16>
  return %dx : tensor<2x?xbf16>
}

// -----

// The labels stay i32; the logsumexp is f32.
// CHECK-LABEL: func.func @cross_entropy_f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: ins(%{{.*}}, %{{.*}}, %{{.*}} : tensor<?x5xf32>, tensor<?xf32>, tensor<?xi32>)
// CHECK: math.log %{{.*}} : f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: return %{{.*}} : tensor<?xf16>
func.func @cross_entropy_f16(%l: tensor<?x5xf16>, %t: tensor<?xi32>) -> tensor<?xf16> {
  %loss = rlx.softmax_cross_entropy %l, %t : tensor<?x5xf16>, tensor<?xi32> -> tensor<?xf16>
  return %loss : tensor<?xf16>
}

// -----

// The carry is f32 between steps and rounded to bf16 where the body reads
// it, so the body computes what it says (its bf16 add rounds, its tanh is an
// rlx op and runs in f32); the final carry is rounded once more (exactly).
// CHECK-LABEL: func.func @scan_bf16
// CHECK: scf.for {{.*}} iter_args(%[[C:.+]] = %{{.*}}) -> (tensor<2x4xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[C]] : tensor<2x4xf32>) outs(%{{.*}} : tensor<2x4xbf16>)
// CHECK: arith.truncf
// CHECK: math.tanh %{{.*}} : f32
// CHECK: scf.yield %{{.*}} : tensor<2x4xf32>
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: return %{{.*}} : tensor<2x4xbf16>
func.func @scan_bf16(%h0: tensor<2x4xbf16>, %x: tensor<3x2x4xbf16>) -> tensor<2x4xbf16> {
  %c = rlx.scan %h0 xs(%x : tensor<3x2x4xbf16>) {length = 3 : i64} : tensor<2x4xbf16> -> tensor<2x4xbf16> {
  ^bb0(%h: tensor<2x4xbf16>, %xt: tensor<2x4xbf16>):
    %s = arith.addf %h, %xt : tensor<2x4xbf16>
    %n = rlx.activation %s {kind = #rlx.activation<tanh>} : tensor<2x4xbf16> -> tensor<2x4xbf16>
    rlx.yield %n : tensor<2x4xbf16>
  }
  return %c : tensor<2x4xbf16>
}
