// The emitted IR does not depend on tensor sizes: both splits decompose and
// lower to the same number of ops (counted in the generic form).
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --mlir-print-op-generic \
// RUN:   | awk '/^\/\/ -----/ { print "ops", n; n = 0; next } /"[a-z_]+[.][a-z_.]+"/ { n++ } END { print "ops", n }' \
// RUN:   | FileCheck %s

// CHECK: ops [[N:[0-9]+]]
// CHECK-NEXT: ops [[N]]
func.func @small(%x: tensor<2x3xf32>, %dy: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %a = rlx.relu_backward %x, %dy : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %b = rlx.activation_backward %x, %dy {kind = #rlx.activation<gelu_tanh>} : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %c = rlx.activation %x {kind = #rlx.activation<silu>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %a, %b, %c : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
// -----
func.func @large(%x: tensor<200x300xf32>, %dy: tensor<200x300xf32>) -> (tensor<200x300xf32>, tensor<200x300xf32>, tensor<200x300xf32>) {
  %a = rlx.relu_backward %x, %dy : tensor<200x300xf32>, tensor<200x300xf32> -> tensor<200x300xf32>
  %b = rlx.activation_backward %x, %dy {kind = #rlx.activation<gelu_tanh>} : tensor<200x300xf32>, tensor<200x300xf32> -> tensor<200x300xf32>
  %c = rlx.activation %x {kind = #rlx.activation<silu>} : tensor<200x300xf32> -> tensor<200x300xf32>
  return %a, %b, %c : tensor<200x300xf32>, tensor<200x300xf32>, tensor<200x300xf32>
}

// -----

// The parameterised and piecewise kinds: one generic each, whatever the size.
// CHECK-NEXT: ops [[P:[0-9]+]]
// CHECK-NEXT: ops [[P]]
func.func @param_small(%x: tensor<2x3xf64>, %dy: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) {
  %a = rlx.activation %x {kind = #rlx.activation<softplus>, beta = 2.0, threshold = 5.0} : tensor<2x3xf64> -> tensor<2x3xf64>
  %b = rlx.activation_backward %x, %dy {kind = #rlx.activation<mish>} : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %c = rlx.activation_backward %x, %dy {kind = #rlx.activation<hardswish>} : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %d = rlx.activation %x {kind = #rlx.activation<hardtanh>, min_val = -2.0} : tensor<2x3xf64> -> tensor<2x3xf64>
  return %a, %b, %c, %d : tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>
}
// -----
func.func @param_large(%x: tensor<200x300xf64>, %dy: tensor<200x300xf64>) -> (tensor<200x300xf64>, tensor<200x300xf64>, tensor<200x300xf64>, tensor<200x300xf64>) {
  %a = rlx.activation %x {kind = #rlx.activation<softplus>, beta = 2.0, threshold = 5.0} : tensor<200x300xf64> -> tensor<200x300xf64>
  %b = rlx.activation_backward %x, %dy {kind = #rlx.activation<mish>} : tensor<200x300xf64>, tensor<200x300xf64> -> tensor<200x300xf64>
  %c = rlx.activation_backward %x, %dy {kind = #rlx.activation<hardswish>} : tensor<200x300xf64>, tensor<200x300xf64> -> tensor<200x300xf64>
  %d = rlx.activation %x {kind = #rlx.activation<hardtanh>, min_val = -2.0} : tensor<200x300xf64> -> tensor<200x300xf64>
  return %a, %b, %c, %d : tensor<200x300xf64>, tensor<200x300xf64>, tensor<200x300xf64>, tensor<200x300xf64>
}
