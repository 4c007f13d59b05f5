// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward='ops=rlx.scan_backward,rlx.scan_backward_xs scan-unroll-max-length=8' | FileCheck %s

// Unrolled walk t = 2, 1, 0 (L = 3 <= scan-unroll-max-length): one clone of
// body_vjp per step, carry c_{t-1} = trajectory[t-1] (init at t = 0),
// d_out = upstream[2] at t = 2 and dcarry + upstream[t] below.
// CHECK-LABEL: func.func @scan_backward_l3
// CHECK-SAME: (%[[H0:[^:]+]]: tensor<2x4xf32>, %[[TRAJ:[^:]+]]: tensor<3x2x4xf32>, %[[DY:[^:]+]]: tensor<3x2x4xf32>, %[[X:[^:]+]]: tensor<3x2x4xf32>)
// t = 2
// CHECK: %[[C1:.+]] = tensor.extract_slice %[[TRAJ]][1, 0, 0] [1, 2, 4] [1, 1, 1]
// CHECK: %[[U2:.+]] = tensor.extract_slice %[[DY]][2, 0, 0] [1, 2, 4] [1, 1, 1]
// CHECK: %[[X2:.+]] = tensor.extract_slice %[[X]][2, 0, 0] [1, 2, 4] [1, 1, 1]
// CHECK: %[[S2:.+]] = linalg.add ins(%[[C1]], %[[X2]] :
// CHECK: %[[D2:.+]] = rlx.activation_backward %[[S2]], %[[U2]]
// t = 1
// CHECK: %[[C0:.+]] = tensor.extract_slice %[[TRAJ]][0, 0, 0] [1, 2, 4] [1, 1, 1]
// CHECK: %[[U1:.+]] = tensor.extract_slice %[[DY]][1, 0, 0] [1, 2, 4] [1, 1, 1]
// CHECK: %[[O1:.+]] = linalg.generic {{.*}} ins(%[[D2]], %[[U1]] :
// CHECK: arith.addf
// CHECK: %[[X1:.+]] = tensor.extract_slice %[[X]][1, 0, 0] [1, 2, 4] [1, 1, 1]
// CHECK: %[[S1:.+]] = linalg.add ins(%[[C0]], %[[X1]] :
// CHECK: %[[D1:.+]] = rlx.activation_backward %[[S1]], %[[O1]]
// t = 0
// CHECK: %[[U0:.+]] = tensor.extract_slice %[[DY]][0, 0, 0] [1, 2, 4] [1, 1, 1]
// CHECK: %[[O0:.+]] = linalg.generic {{.*}} ins(%[[D1]], %[[U0]] :
// CHECK: %[[X0:.+]] = tensor.extract_slice %[[X]][0, 0, 0] [1, 2, 4] [1, 1, 1]
// CHECK: %[[S0:.+]] = linalg.add ins(%[[H0]], %[[X0]] :
// CHECK: %[[D0:.+]] = rlx.activation_backward %[[S0]], %[[O0]]
// CHECK-NOT: rlx.activation_backward
// CHECK-NOT: rlx.scan_backward
// CHECK: return %[[D0]]
func.func @scan_backward_l3(%h0: tensor<2x4xf32>, %traj: tensor<3x2x4xf32>, %dy: tensor<3x2x4xf32>, %x: tensor<3x2x4xf32>) -> tensor<2x4xf32> {
  %dh0 = rlx.scan_backward %h0, %traj, %dy xs(%x : tensor<3x2x4xf32>) {length = 3 : i64} : tensor<2x4xf32>, tensor<3x2x4xf32>, tensor<3x2x4xf32> -> tensor<2x4xf32> vjp {
  ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>, %d: tensor<2x4xf32>):
    %e = tensor.empty() : tensor<2x4xf32>
    %s = linalg.add ins(%h, %xt : tensor<2x4xf32>, tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
    %ds = rlx.activation_backward %s, %d {kind = #rlx.activation<tanh>} : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
    rlx.yield %ds, %ds : tensor<2x4xf32>, tensor<2x4xf32>
  }
  return %dh0 : tensor<2x4xf32>
}

// -----

// Checkpoints L = 5, K = 2: rows hold c_2 and c_4, segments are steps
// [3, 5) from trajectory[0] and [0, 3) from init. Segment 1 recomputes
// c_3 = forward_body(trajectory[0], x[3]) and walks t = 4, 3; segment 0
// recomputes c_0, c_1 from init and walks t = 2, 1, 0. Row t of the
// result is the dx of step t (here d_out itself).
// CHECK-LABEL: func.func @scan_backward_xs_checkpoints
// CHECK-SAME: (%[[H0:[^:]+]]: tensor<3xf64>, %[[TRAJ:[^:]+]]: tensor<2x3xf64>, %[[DY:[^:]+]]: tensor<5x3xf64>, %[[X:[^:]+]]: tensor<5x3xf64>)
// CHECK: %[[DXS:.+]] = tensor.empty() : tensor<5x3xf64>
// segment 1: recompute c_3 from trajectory[0]
// CHECK: %[[R0:.+]] = tensor.extract_slice %[[TRAJ]][0, 0] [1, 3] [1, 1]
// CHECK: %[[X3:.+]] = tensor.extract_slice %[[X]][3, 0] [1, 3] [1, 1]
// CHECK: %[[C3:.+]] = rlx.activation %{{.*}} {kind = #rlx.activation<sin>}
// t = 4 from c_3, t = 3 from trajectory[0]
// CHECK: %[[U4:.+]] = tensor.extract_slice %[[DY]][4, 0] [1, 3] [1, 1]
// CHECK: %[[D4:.+]] = rlx.activation_backward %[[C3]], %[[U4]] {kind = #rlx.activation<sin>}
// CHECK: %[[W4:.+]] = tensor.insert_slice %[[D4]] into %[[DXS]][4, 0] [1, 3] [1, 1]
// CHECK: %[[D3:.+]] = rlx.activation_backward %[[R0]], %{{.*}} {kind = #rlx.activation<sin>}
// CHECK: %[[W3:.+]] = tensor.insert_slice %[[D3]] into %[[W4]][3, 0] [1, 3] [1, 1]
// segment 0: recompute c_0, c_1 from init
// CHECK: %[[C0:.+]] = rlx.activation %{{.*}} {kind = #rlx.activation<sin>}
// CHECK: %[[C1:.+]] = rlx.activation %{{.*}} {kind = #rlx.activation<sin>}
// CHECK: %[[D2:.+]] = rlx.activation_backward %[[C1]], %{{.*}} {kind = #rlx.activation<sin>}
// CHECK: %[[W2:.+]] = tensor.insert_slice %[[D2]] into %[[W3]][2, 0] [1, 3] [1, 1]
// CHECK: %[[D1:.+]] = rlx.activation_backward %[[C0]], %{{.*}} {kind = #rlx.activation<sin>}
// CHECK: %[[W1:.+]] = tensor.insert_slice %[[D1]] into %[[W2]][1, 0] [1, 3] [1, 1]
// CHECK: %[[D0:.+]] = rlx.activation_backward %[[H0]], %{{.*}} {kind = #rlx.activation<sin>}
// CHECK: %[[W0:.+]] = tensor.insert_slice %[[D0]] into %[[W1]][0, 0] [1, 3] [1, 1]
// CHECK-NOT: rlx.activation
// CHECK: return %[[W0]]
func.func @scan_backward_xs_checkpoints(%h0: tensor<3xf64>, %traj: tensor<2x3xf64>, %dy: tensor<5x3xf64>, %x: tensor<5x3xf64>) -> tensor<5x3xf64> {
  %dx = rlx.scan_backward_xs %h0, %traj, %dy xs(%x : tensor<5x3xf64>) {length = 5 : i64, num_checkpoints = 2 : i64, xs_idx = 0 : i64} : tensor<3xf64>, tensor<2x3xf64>, tensor<5x3xf64> -> tensor<5x3xf64> vjp {
  ^bb0(%h: tensor<3xf64>, %xt: tensor<3xf64>, %d: tensor<3xf64>):
    %dh = rlx.activation_backward %h, %d {kind = #rlx.activation<sin>} : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
    rlx.yield %dh, %dh : tensor<3xf64>, tensor<3xf64>
  } forward {
  ^bb0(%h: tensor<3xf64>, %xt: tensor<3xf64>):
    %e = tensor.empty() : tensor<3xf64>
    %s = linalg.add ins(%h, %xt : tensor<3xf64>, tensor<3xf64>) outs(%e : tensor<3xf64>) -> tensor<3xf64>
    %n = rlx.activation %s {kind = #rlx.activation<sin>} : tensor<3xf64> -> tensor<3xf64>
    rlx.yield %n : tensor<3xf64>
  }
  return %dx : tensor<5x3xf64>
}

// -----

// Dynamic batch: slices read the batch size with tensor.dim; a weight from
// outside the region is used by every clone; the result is cast to the
// op's (more dynamic) result type.
// CHECK-LABEL: func.func @scan_backward_dynamic_batch
// CHECK-SAME: (%[[H0:[^:]+]]: tensor<?x4xf32>, %[[TRAJ:[^:]+]]: tensor<2x?x4xf32>, %[[DY:[^:]+]]: tensor<2x?x4xf32>, %[[W:[^:]+]]: tensor<4x4xf32>)
// CHECK: %[[B:.+]] = tensor.dim %[[TRAJ]], %{{.*}} : tensor<2x?x4xf32>
// CHECK: tensor.extract_slice %[[TRAJ]][0, 0, 0] [1, %[[B]], 4] [1, 1, 1] : tensor<2x?x4xf32> to tensor<?x4xf32>
// CHECK: linalg.matmul ins(%{{.*}}, %[[W]] :
// CHECK: linalg.matmul ins(%{{.*}}, %[[W]] :
// CHECK-NOT: linalg.matmul
// CHECK: %[[R:.+]] = tensor.cast %{{.*}} : tensor<?x4xf32> to tensor<?x?xf32>
// CHECK: return %[[R]]
func.func @scan_backward_dynamic_batch(%h0: tensor<?x4xf32>, %traj: tensor<2x?x4xf32>, %dy: tensor<2x?x4xf32>, %w: tensor<4x4xf32>) -> tensor<?x?xf32> {
  %dh0 = rlx.scan_backward %h0, %traj, %dy {length = 2 : i64} : tensor<?x4xf32>, tensor<2x?x4xf32>, tensor<2x?x4xf32> -> tensor<?x?xf32> vjp {
  ^bb0(%h: tensor<?x4xf32>, %d: tensor<?x4xf32>):
    %m = linalg.matmul ins(%d, %w : tensor<?x4xf32>, tensor<4x4xf32>) outs(%h : tensor<?x4xf32>) -> tensor<?x4xf32>
    rlx.yield %m : tensor<?x4xf32>
  }
  return %dh0 : tensor<?x?xf32>
}
