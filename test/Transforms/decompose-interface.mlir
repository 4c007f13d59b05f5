// Backward ops implement linalg::AggregatedOpInterface: upstream's
// transform.structured.decompose_interface produces the same IR as the pass.
// RUN: rlx-opt %s --transform-interpreter | FileCheck %s

// CHECK-LABEL: func.func @grad
// CHECK-NOT: rlx.activation_backward
// CHECK: linalg.generic
// CHECK: math.tanh
func.func @grad(%x: tensor<?x4xf32>, %dy: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<tanh>} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %dx : tensor<?x4xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["rlx.activation_backward"]} in %root : (!transform.any_op) -> !transform.any_op
    %d = transform.structured.decompose_interface %op : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
