// RUN: not rlx-opt %s --rlx-decompose-backward=ops=relu 2>&1 | FileCheck %s --check-prefix=NOTBWD
// RUN: not rlx-opt %s --rlx-lower-to-linalg=ops=rlx.nope 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: rlx-opt %s --rlx-decompose-backward=ops=rlx.activation_backward | FileCheck %s --check-prefix=ONLY

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
