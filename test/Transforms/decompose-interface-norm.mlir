// The norm gradients through linalg::AggregatedOpInterface: upstream's
// transform.structured.decompose_interface builds the same IR as the pass.
// RUN: rlx-opt %s --transform-interpreter | FileCheck %s

// CHECK-LABEL: func.func @grads
// CHECK-NOT: rlx.
// CHECK: tensor.expand_shape
// CHECK: linalg.generic {{.*}} outs({{.*}} : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>)
// CHECK: tensor.collapse_shape
// CHECK: linalg.generic {{.*}} outs({{.*}} : tensor<?xf32>, tensor<?xf32>)
// CHECK-NOT: rlx.
// CHECK: return
func.func @grads(%x: tensor<?x6x5x3xf32>, %g: tensor<6xf32>, %dy: tensor<?x6x5x3xf32>,
                 %x2: tensor<?x7xf32>, %g2: tensor<7xf32>) -> (tensor<?x6x5x3xf32>, tensor<?x7xf32>) {
  %dx = rlx.group_norm_backward_input %x, %g, %g, %dy {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<?x6x5x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<?x6x5x3xf32> -> tensor<?x6x5x3xf32>
  %dx2 = rlx.rms_norm_backward_input %x2, %g2, %g2, %x2 {axis = -1 : i64, eps = 1.0e-6 : f32} : tensor<?x7xf32>, tensor<7xf32>, tensor<7xf32>, tensor<?x7xf32> -> tensor<?x7xf32>
  return %dx, %dx2 : tensor<?x6x5x3xf32>, tensor<?x7xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["rlx.group_norm_backward_input", "rlx.rms_norm_backward_input"]} in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.structured.decompose_interface %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
