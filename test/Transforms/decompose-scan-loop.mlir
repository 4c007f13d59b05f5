// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward='ops=rlx.scan_backward,rlx.scan_backward_xs scan-unroll-max-length=2' | FileCheck %s

// Above scan-unroll-max-length the walk is an scf.for over i, t = L-1-i,
// with (dcarry, dxs) as iter_args; the carry entering t is init at t = 0
// and trajectory[t-1] otherwise; body_vjp is cloned once.
// CHECK-LABEL: func.func @scan_backward_xs_loop
// CHECK-SAME: (%[[H0:[^:]+]]: tensor<?x4xf32>, %[[TRAJ:[^:]+]]: tensor<3x?x4xf32>, %[[DY:[^:]+]]: tensor<3x?x4xf32>, %[[X:[^:]+]]: tensor<3x?x4xf32>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[DXS0:.+]] = tensor.empty(%{{.*}}) : tensor<3x?x4xf32>
// CHECK-DAG: %[[ZERO:.+]] = linalg.fill
// CHECK: %[[LOOP:.+]]:2 = scf.for %[[I:.+]] = %[[C0]] to %[[C3]] step %[[C1]] iter_args(%[[DC:.+]] = %[[ZERO]], %[[DXS:.+]] = %[[DXS0]])
// CHECK: %[[T:.+]] = arith.subi %[[C2]], %[[I]] : index
// CHECK: %[[FIRST:.+]] = arith.cmpi eq, %[[T]], %[[C0]] : index
// CHECK: %[[CARRY:.+]] = scf.if %[[FIRST]] -> (tensor<?x4xf32>) {
// CHECK: scf.yield %[[H0]]
// CHECK: } else {
// CHECK: %[[TM1:.+]] = arith.subi %[[T]], %[[C1]] : index
// CHECK: %[[ROW:.+]] = tensor.extract_slice %[[TRAJ]][%[[TM1]], 0, 0]
// CHECK: scf.yield %[[ROW]]
// CHECK: %[[U:.+]] = tensor.extract_slice %[[DY]][%[[T]], 0, 0]
// d_out = dcarry + upstream[t]
// CHECK: %[[DOUT:.+]] = linalg.generic {{.*}} ins(%[[DC]], %[[U]] :
// CHECK: arith.addf
// CHECK: %[[XT:.+]] = tensor.extract_slice %[[X]][%[[T]], 0, 0]
// CHECK: %[[S:.+]] = linalg.add ins(%[[CARRY]], %[[XT]] :
// CHECK: %[[D:.+]] = rlx.activation_backward %[[S]], %[[DOUT]]
// CHECK: %[[W:.+]] = tensor.insert_slice %[[D]] into %[[DXS]][%[[T]], 0, 0]
// CHECK: %[[NDC:.+]] = linalg.copy ins(%[[D]] : tensor<?x4xf32>) outs(%[[DC]] : tensor<?x4xf32>)
// CHECK: scf.yield %[[NDC]], %[[W]]
// CHECK-NOT: rlx.activation_backward
// CHECK: return %[[LOOP]]#1
func.func @scan_backward_xs_loop(%h0: tensor<?x4xf32>, %traj: tensor<3x?x4xf32>, %dy: tensor<3x?x4xf32>, %x: tensor<3x?x4xf32>) -> tensor<3x?x4xf32> {
  %dx = rlx.scan_backward_xs %h0, %traj, %dy xs(%x : tensor<3x?x4xf32>) {length = 3 : i64, xs_idx = 0 : i64} : tensor<?x4xf32>, tensor<3x?x4xf32>, tensor<3x?x4xf32> -> tensor<3x?x4xf32> vjp {
  ^bb0(%h: tensor<?x4xf32>, %xt: tensor<?x4xf32>, %d: tensor<?x4xf32>):
    %c0 = arith.constant 0 : index
    %b = tensor.dim %h, %c0 : tensor<?x4xf32>
    %e = tensor.empty(%b) : tensor<?x4xf32>
    %s = linalg.add ins(%h, %xt : tensor<?x4xf32>, tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) -> tensor<?x4xf32>
    %ds = rlx.activation_backward %s, %d {kind = #rlx.activation<tanh>} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
    rlx.yield %ds, %ds : tensor<?x4xf32>, tensor<?x4xf32>
  }
  return %dx : tensor<3x?x4xf32>
}

// -----

// Checkpoints in loop form (L = 5, K = 2): an scf.for over segments
// j = 1, 0 spanning steps [ceil(jL/K), ceil((j+1)L/K)); the segment's entry
// carry (init or trajectory[j-1]) goes to row 0 of a [ceil(L/K) = 3, *carry]
// cache, an inner loop recomputes the other carries with forward_body, and
// a reverse inner loop runs body_vjp reading cache[t - begin].
// CHECK-LABEL: func.func @scan_backward_loop_checkpoints
// CHECK-SAME: (%[[H0:[^:]+]]: tensor<3xf64>, %[[TRAJ:[^:]+]]: tensor<2x3xf64>, %[[DY:[^:]+]]: tensor<5x3xf64>, %[[X:[^:]+]]: tensor<5x3xf64>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C5:.+]] = arith.constant 5 : index
// CHECK-DAG: %[[ZERO:.+]] = linalg.fill
// CHECK-DAG: %[[CACHE0:.+]] = tensor.empty() : tensor<3x3xf64>
// CHECK: %[[OUTER:.+]]:2 = scf.for %[[I:.+]] = %[[C0]] to %[[C2]] step %[[C1]] iter_args(%[[DC:.+]] = %[[ZERO]], %[[CACHE:.+]] = %[[CACHE0]])
// CHECK: %[[J:.+]] = arith.subi %[[C1]], %[[I]] : index
// begin = (j * 5 + 1) / 2, end = ((j + 1) * 5 + 1) / 2
// CHECK: %[[JL:.+]] = arith.muli %[[J]], %[[C5]]
// CHECK: %[[JL1:.+]] = arith.addi %[[JL]], %[[C1]]
// CHECK: %[[LO:.+]] = arith.divui %[[JL1]], %[[C2]]
// CHECK: %[[HI:.+]] = arith.divui %{{.*}}, %[[C2]]
// CHECK: %[[ENTRY:.+]] = scf.if
// CHECK: scf.yield %[[H0]]
// CHECK: tensor.extract_slice %[[TRAJ]]
// CHECK: %[[FILLED:.+]] = tensor.insert_slice %[[ENTRY]] into %[[CACHE]][0, 0] [1, 3] [1, 1]
// CHECK: %[[LAST:.+]] = arith.subi %[[HI]], %[[C1]]
// CHECK: %[[RE:.+]]:2 = scf.for %[[S:.+]] = %[[LO]] to %[[LAST]] step %[[C1]] iter_args(%[[RC:.+]] = %[[ENTRY]], %[[RCACHE:.+]] = %[[FILLED]])
// CHECK: %[[XS:.+]] = tensor.extract_slice %[[X]][%[[S]], 0] [1, 3] [1, 1]
// CHECK: %[[NEXT:.+]] = rlx.activation
// CHECK: %[[NEXTC:.+]] = linalg.copy ins(%[[NEXT]] : tensor<3xf64>) outs(%[[RC]] : tensor<3xf64>)
// CHECK: %[[OFF:.+]] = arith.subi %[[S]], %[[LO]]
// CHECK: %[[ROW:.+]] = arith.addi %[[OFF]], %[[C1]]
// CHECK: %[[STORED:.+]] = tensor.insert_slice %[[NEXTC]] into %[[RCACHE]][%[[ROW]], 0] [1, 3] [1, 1]
// CHECK: scf.yield %[[NEXTC]], %[[STORED]]
// CHECK: %[[N:.+]] = arith.subi %[[HI]], %[[LO]]
// CHECK: %[[REV:.+]] = scf.for %[[K:.+]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[DC2:.+]] = %[[DC]])
// CHECK: %[[T:.+]] = arith.subi %{{.*}}, %[[K]]
// CHECK: %[[CROW:.+]] = arith.subi %[[T]], %[[LO]]
// CHECK: %[[CARRY:.+]] = tensor.extract_slice %[[RE]]#1[%[[CROW]], 0] [1, 3] [1, 1]
// CHECK: tensor.extract_slice %[[DY]][%[[T]], 0]
// CHECK: %[[D:.+]] = rlx.activation_backward %[[CARRY]], %{{.*}}
// CHECK: %[[NDC:.+]] = linalg.copy ins(%[[D]] : tensor<3xf64>) outs(%[[DC2]] : tensor<3xf64>)
// CHECK: scf.yield %[[NDC]]
// CHECK: scf.yield %[[REV]], %[[RE]]#1
// CHECK: return %[[OUTER]]#0
func.func @scan_backward_loop_checkpoints(%h0: tensor<3xf64>, %traj: tensor<2x3xf64>, %dy: tensor<5x3xf64>, %x: tensor<5x3xf64>) -> tensor<3xf64> {
  %dh0 = rlx.scan_backward %h0, %traj, %dy xs(%x : tensor<5x3xf64>) {length = 5 : i64, num_checkpoints = 2 : i64} : tensor<3xf64>, tensor<2x3xf64>, tensor<5x3xf64> -> tensor<3xf64> vjp {
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
  return %dh0 : tensor<3xf64>
}

// -----

// At the threshold (L = 2) the walk is still unrolled.
// CHECK-LABEL: func.func @at_threshold
// CHECK-NOT: scf.for
// CHECK-COUNT-2: rlx.activation_backward
// CHECK-NOT: scf.for
// CHECK: return
func.func @at_threshold(%h0: tensor<3xf64>, %traj: tensor<2x3xf64>, %dy: tensor<2x3xf64>) -> tensor<3xf64> {
  %dh0 = rlx.scan_backward %h0, %traj, %dy {length = 2 : i64} : tensor<3xf64>, tensor<2x3xf64>, tensor<2x3xf64> -> tensor<3xf64> vjp {
  ^bb0(%h: tensor<3xf64>, %d: tensor<3xf64>):
    %dh = rlx.activation_backward %h, %d {kind = #rlx.activation<sin>} : tensor<3xf64>, tensor<3xf64> -> tensor<3xf64>
    rlx.yield %dh : tensor<3xf64>
  }
  return %dh0 : tensor<3xf64>
}
