// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg=ops=rlx.scan | FileCheck %s

// Final carry only: c = body(c, x[t]) for t in [0, L), the body cloned once
// into an scf.for; the new carry is copied into the loop-carried tensor.
// CHECK-LABEL: func.func @scan_final
// CHECK-SAME: (%[[H0:[^:]+]]: tensor<2x4xf32>, %[[X:[^:]+]]: tensor<7x2x4xf32>, %[[W:[^:]+]]: tensor<4x4xf32>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C7:.+]] = arith.constant 7 : index
// CHECK: %[[LOOP:.+]] = scf.for %[[T:.+]] = %[[C0]] to %[[C7]] step %[[C1]] iter_args(%[[C:.+]] = %[[H0]]) -> (tensor<2x4xf32>)
// CHECK: %[[XT:.+]] = tensor.extract_slice %[[X]][%[[T]], 0, 0] [1, 2, 4] [1, 1, 1] : tensor<7x2x4xf32> to tensor<2x4xf32>
// CHECK: %[[M:.+]] = linalg.matmul ins(%[[C]], %[[W]] : {{.*}}) outs(%[[XT]] :
// CHECK: %[[N:.+]] = rlx.activation %[[M]] {kind = #rlx.activation<tanh>}
// CHECK: %[[NC:.+]] = linalg.copy ins(%[[N]] : tensor<2x4xf32>) outs(%[[C]] : tensor<2x4xf32>)
// CHECK: scf.yield %[[NC]]
// CHECK-NOT: rlx.scan
// CHECK: return %[[LOOP]]
func.func @scan_final(%h0: tensor<2x4xf32>, %x: tensor<7x2x4xf32>, %w: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %c = rlx.scan %h0 xs(%x : tensor<7x2x4xf32>) {length = 7 : i64} : tensor<2x4xf32> -> tensor<2x4xf32> {
  ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>):
    %m = linalg.matmul ins(%h, %w : tensor<2x4xf32>, tensor<4x4xf32>) outs(%xt : tensor<2x4xf32>) -> tensor<2x4xf32>
    %n = rlx.activation %m {kind = #rlx.activation<tanh>} : tensor<2x4xf32> -> tensor<2x4xf32>
    rlx.yield %n : tensor<2x4xf32>
  }
  return %c : tensor<2x4xf32>
}

// -----

// Every carry saved (K = 0): traj[t] = c_t with tensor.insert_slice; dynamic
// batch read with tensor.dim.
// CHECK-LABEL: func.func @scan_all_dynamic
// CHECK-SAME: (%[[H0:[^:]+]]: tensor<?x3xf64>, %[[X:[^:]+]]: tensor<4x?x3xf64>)
// CHECK: %[[B:.+]] = tensor.dim %[[H0]], %{{.*}} : tensor<?x3xf64>
// CHECK: %[[E:.+]] = tensor.empty(%[[B]]) : tensor<4x?x3xf64>
// CHECK: %[[LOOP:.+]]:2 = scf.for %[[T:.+]] = %{{.*}} iter_args(%[[C:.+]] = %[[H0]], %[[TR:.+]] = %[[E]]) -> (tensor<?x3xf64>, tensor<4x?x3xf64>)
// CHECK: tensor.extract_slice %[[X]][%[[T]], 0, 0]
// CHECK: %[[N:.+]] = rlx.activation
// CHECK: %[[NC:.+]] = linalg.copy ins(%[[N]] : tensor<?x3xf64>) outs(%[[C]] : tensor<?x3xf64>)
// CHECK: %[[W:.+]] = tensor.insert_slice %[[NC]] into %[[TR]][%[[T]], 0, 0] [1, %{{.*}}, 3] [1, 1, 1]
// CHECK: scf.yield %[[NC]], %[[W]]
// CHECK: return %[[LOOP]]#0, %[[LOOP]]#1
func.func @scan_all_dynamic(%h0: tensor<?x3xf64>, %x: tensor<4x?x3xf64>) -> (tensor<?x3xf64>, tensor<4x?x3xf64>) {
  %c, %traj = rlx.scan %h0 xs(%x : tensor<4x?x3xf64>) {length = 4 : i64, save_trajectory} : tensor<?x3xf64> -> tensor<?x3xf64>, tensor<4x?x3xf64> {
  ^bb0(%h: tensor<?x3xf64>, %xt: tensor<?x3xf64>):
    %n = rlx.activation %xt {kind = #rlx.activation<sin>} : tensor<?x3xf64> -> tensor<?x3xf64>
    rlx.yield %n : tensor<?x3xf64>
  }
  return %c, %traj : tensor<?x3xf64>, tensor<4x?x3xf64>
}

// -----

// Checkpoints (L = 5, K = 2): for k in [0, 2): steps
// [ceil(5k/2), ceil(5(k+1)/2)) in an inner loop, then traj[k] = c.
// CHECK-LABEL: func.func @scan_checkpoints
// CHECK-SAME: (%[[H0:[^:]+]]: tensor<3xf32>, %[[X:[^:]+]]: tensor<5x3xf32>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C5:.+]] = arith.constant 5 : index
// CHECK-DAG: %[[E:.+]] = tensor.empty() : tensor<2x3xf32>
// CHECK: %[[LOOP:.+]]:2 = scf.for %[[K:.+]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[C:.+]] = %[[H0]], %[[TR:.+]] = %[[E]])
// CHECK: %[[KL:.+]] = arith.muli %[[K]], %[[C5]]
// CHECK: %[[KL1:.+]] = arith.addi %[[KL]], %[[C1]]
// CHECK: %[[LO:.+]] = arith.divui %[[KL1]], %[[C2]]
// CHECK: %[[K1:.+]] = arith.addi %[[K]], %[[C1]]
// CHECK: %[[K1L:.+]] = arith.muli %[[K1]], %[[C5]]
// CHECK: %[[K1L1:.+]] = arith.addi %[[K1L]], %[[C1]]
// CHECK: %[[HI:.+]] = arith.divui %[[K1L1]], %[[C2]]
// CHECK: %[[SEG:.+]] = scf.for %[[T:.+]] = %[[LO]] to %[[HI]] step %[[C1]] iter_args(%[[CC:.+]] = %[[C]])
// CHECK: rlx.activation
// CHECK: linalg.copy
// CHECK: scf.yield
// CHECK: %[[W:.+]] = tensor.insert_slice %[[SEG]] into %[[TR]][%[[K]], 0] [1, 3] [1, 1]
// CHECK: scf.yield %[[SEG]], %[[W]]
// CHECK: return %[[LOOP]]#1
func.func @scan_checkpoints(%h0: tensor<3xf32>, %x: tensor<5x3xf32>) -> tensor<2x3xf32> {
  %c, %traj = rlx.scan %h0 xs(%x : tensor<5x3xf32>) {length = 5 : i64, num_checkpoints = 2 : i64, save_trajectory} : tensor<3xf32> -> tensor<3xf32>, tensor<2x3xf32> {
  ^bb0(%h: tensor<3xf32>, %xt: tensor<3xf32>):
    %e = tensor.empty() : tensor<3xf32>
    %s = linalg.add ins(%h, %xt : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
    %n = rlx.activation %s {kind = #rlx.activation<tanh>} : tensor<3xf32> -> tensor<3xf32>
    rlx.yield %n : tensor<3xf32>
  }
  return %traj : tensor<2x3xf32>
}
