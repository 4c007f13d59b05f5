// RUN: rlx-opt %s --split-input-file --rlx-grad | FileCheck %s

// arith on tensors: each op's adjoint is an elementwise generic with its
// scalar rule (mulf: (d b, d a)); the constant carries no gradient; the fan
// out of %x accumulates.
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>, %[[W:.+]]: tensor<4xf32>, %[[DY:.+]]: tensor<4xf32>)
// CHECK: %[[M:.+]] = arith.mulf %[[X]], %[[W]] : tensor<4xf32>
// CHECK: %[[Y:.+]] = arith.addf %[[M]], %[[X]] : tensor<4xf32>
// CHECK: %[[DM:.+]] = linalg.generic {{.*}} ins(%[[M]], %[[X]], %[[DY]] : {{.*}})
// CHECK: %[[DX1:.+]] = linalg.generic {{.*}} ins(%[[M]], %[[X]], %[[DY]] : {{.*}})
// CHECK: %[[DX2:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[W]], %[[DM]] : {{.*}})
// CHECK-NEXT: ^bb0(%{{.+}}: f32, %[[WV:.+]]: f32, %[[DV:.+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[G:.+]] = arith.mulf %[[DV]], %[[WV]] : f32
// CHECK-NEXT: linalg.yield %[[G]]
// CHECK: %[[DW:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[W]], %[[DM]] : {{.*}})
// CHECK: %[[DX:.+]] = linalg.generic {{.*}} ins(%[[DX2]] : tensor<4xf32>) outs(%[[DX1]] : tensor<4xf32>)
// CHECK: return %[[Y]], %[[DX]], %[[DW]]
func.func @f(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> attributes {rlx.grad} {
  %m = arith.mulf %x, %w : tensor<4xf32>
  %y = arith.addf %m, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Scalars: the rules directly (exp: d * exp(x)); an argument no result
// depends on gets zeros.
// CHECK-LABEL: func.func @s_grad
// CHECK-SAME: (%[[X:.+]]: f32, %[[U:.+]]: f32) -> (f32, f32, f32)
// CHECK: %[[E:.+]] = math.exp %[[X]] : f32
// CHECK: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[DX:.+]] = arith.mulf %[[ONE]], %[[E]] : f32
// CHECK: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: return %[[E]], %[[DX]], %[[Z]]
func.func @s(%x: f32, %u: f32) -> f32 attributes {rlx.grad} {
  %e = math.exp %x : f32
  return %e : f32
}
