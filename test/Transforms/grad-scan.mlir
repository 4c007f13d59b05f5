// RUN: rlx-opt %s --rlx-grad | FileCheck %s

// The scan is re-run with save_trajectory; upstream holds dy in row L-1;
// body_vjp is rlx-grad's own sweep over the body (tanh, then linalg.add).
// CHECK-LABEL: func.func @f_grad
// CHECK-SAME: (%[[H:.+]]: tensor<2x4xf32>, %[[X:.+]]: tensor<5x2x4xf32>, %[[DY:.+]]: tensor<2x4xf32>)
// CHECK: %{{.+}}, %[[TRAJ:.+]] = rlx.scan %[[H]] xs(%[[X]] : tensor<5x2x4xf32>) {length = 5 : i64, save_trajectory}
// CHECK: %[[UP:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[4, 0, 0] [1, 2, 4] [1, 1, 1]
// CHECK: rlx.scan_backward %[[H]], %[[TRAJ]], %[[UP]] xs(%[[X]] : tensor<5x2x4xf32>) {length = 5 : i64}
// CHECK: ^bb0(%[[C:.+]]: tensor<2x4xf32>, %[[XT:.+]]: tensor<2x4xf32>, %[[D:.+]]: tensor<2x4xf32>):
// CHECK: %[[S:.+]] = linalg.add ins(%[[C]], %[[XT]]
// CHECK: %[[DS:.+]] = rlx.activation_backward %[[S]], %[[D]] {kind = #rlx.activation<tanh>}
// CHECK: rlx.yield
// CHECK: rlx.scan_backward_xs %[[H]], %[[TRAJ]], %[[UP]] xs(%[[X]] : tensor<5x2x4xf32>) {length = 5 : i64, xs_idx = 0 : i64}
func.func @f(%h0: tensor<2x4xf32>, %x: tensor<5x2x4xf32>) -> tensor<2x4xf32> attributes {rlx.grad} {
  %c = rlx.scan %h0 xs(%x : tensor<5x2x4xf32>) {length = 5 : i64} : tensor<2x4xf32> -> tensor<2x4xf32> {
  ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>):
    %e = tensor.empty() : tensor<2x4xf32>
    %s = linalg.add ins(%h, %xt : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    %n = rlx.activation %s {kind = #rlx.activation<tanh>} : tensor<2x4xf32> -> tensor<2x4xf32>
    rlx.yield %n : tensor<2x4xf32>
  }
  return %c : tensor<2x4xf32>
}
