// RUN: not rlx-opt %s --rlx-decompose-backward=ops=relu 2>&1 | FileCheck %s --check-prefix=NOTBWD
// RUN: not rlx-opt %s --rlx-lower-to-linalg=ops=rlx.nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: rlx-opt %s --rlx-decompose-backward=ops=rlx.activation_backward | FileCheck %s --check-prefix=ONLY
// RUN: rlx-opt %s --rlx-to-linalg='forward-cumsum-matrix-max-length=4' | FileCheck %s --check-prefix=FWD
// RUN: rlx-opt %s --rlx-to-linalg='cumsum-matrix-max-length=4' | FileCheck %s --check-prefix=BWD

// NOTBWD: ops= names 'relu', which is not an rlx backward op
// UNKNOWN: ops= names 'rlx.nope', which is not an rlx forward op

// ONLY-LABEL: func.func @two
// ONLY: rlx.relu_backward
// ONLY-NOT: rlx.activation_backward
func.func @two(%x: tensor<4xf32>, %dy: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = rlx.relu_backward %x, %dy : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %b = rlx.activation_backward %x, %dy {kind = #rlx.activation<sin>} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// The pipelines take each pass's rewrite options under the pass's names:
// forward-cumsum-matrix-max-length reaches rlx-lower-to-linalg (rlx.cumsum)
// and cumsum-matrix-max-length rlx-decompose-backward (rlx.cumsum_backward).
// FWD-LABEL: func.func @cumsums
// FWD: scf.for
// FWD: linalg.matmul
// FWD-NOT: scf.for
// BWD-LABEL: func.func @cumsums
// BWD: linalg.matmul
// BWD: scf.for
// BWD-NOT: linalg.matmul
func.func @cumsums(%x: tensor<2x8xf32>) -> (tensor<2x8xf32>, tensor<2x8xf32>) {
  %y = rlx.cumsum %x {axis = 1 : i64} : tensor<2x8xf32> -> tensor<2x8xf32>
  %dx = rlx.cumsum_backward %x {axis = 1 : i64} : tensor<2x8xf32> -> tensor<2x8xf32>
  return %y, %dx : tensor<2x8xf32>, tensor<2x8xf32>
}
