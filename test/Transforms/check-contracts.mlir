// RUN: rlx-opt %s --rlx-check-contracts --split-input-file | FileCheck %s

// A dynamic C must be divisible by num_groups; a dynamic x and a static dy
// must agree; the static result pins x's dims.
// CHECK-LABEL: func.func @group_norm
// CHECK-DAG: cf.assert %{{.*}}, "rlx: run-time shape check failed in 'rlx.group_norm_backward_input' at {{.*}}: expects dim 1 of 'x' to be divisible by 'num_groups' (3)"
// CHECK-DAG: cf.assert %{{.*}}, "rlx: run-time shape check failed in 'rlx.group_norm_backward_input' at {{.*}}: expects dim 0 of 'x' to equal dim 0 of 'dy'"
// CHECK-DAG: cf.assert %{{.*}}, "{{.*}}: expects dim 0 of 'gamma' to equal dim 1 of 'x'"
// CHECK-NOT: of 'dx'
// CHECK: rlx.group_norm_backward_input
func.func @group_norm(%x: tensor<?x?x2x2xf32>, %g: tensor<?xf32>, %dy: tensor<2x?x2x2xf32>) -> tensor<2x?x2x2xf32> {
  %dx = rlx.group_norm_backward_input %x, %g, %g, %dy {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<?x?x2x2xf32>, tensor<?xf32>, tensor<?xf32>, tensor<2x?x2x2xf32> -> tensor<2x?x2x2xf32>
  return %dx : tensor<2x?x2x2xf32>
}

// -----

// dy's H follows the pooling formula of a dynamic x's H.
// CHECK-LABEL: func.func @max_pool
// CHECK: cf.assert %{{.*}}, "{{.*}}'rlx.max_pool2d_backward'{{.*}}: expects dim 2 of 'x' to be non-zero"
// CHECK: cf.assert %{{.*}}, "{{.*}}'rlx.max_pool2d_backward'{{.*}}: expects dim 2 of 'x' plus twice the padding (1) to hold one window of 3 dilated by 1"
// CHECK: cf.assert %{{.*}}, "{{.*}}'rlx.max_pool2d_backward'{{.*}}: expects dim 2 of 'dy' to equal floor((dim 2 of 'x' + 2*1 - 1*(3 - 1) - 1) / 2) + 1"
func.func @max_pool(%x: tensor<1x1x?x4xf32>, %dy: tensor<1x1x4x2xf32>) -> tensor<1x1x?x4xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x1x?x4xf32>, tensor<1x1x4x2xf32> -> tensor<1x1x?x4xf32>
  return %dx : tensor<1x1x?x4xf32>
}

// -----

// Nothing to check when every dim is static.
// CHECK-LABEL: func.func @static
// CHECK-NOT: cf.assert
func.func @static(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %y = rlx.relu %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
