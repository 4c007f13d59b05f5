// RUN: rlx-opt %s --rlx-grad --rlx-grad='function=f_grad' --rlx-to-linalg | FileCheck %s

// Second order of causal attention: attention_backward through its decomposition (all heads at once).
// CHECK-LABEL: func.func @f_grad_grad(
// CHECK-NOT: rlx.
// CHECK: math.exp
// CHECK-NOT: rlx.
// CHECK: return
func.func @f(%q: tensor<2x3x8xf64>, %k: tensor<2x5x8xf64>, %v: tensor<2x5x8xf64>) -> tensor<2x3x8xf64> attributes {rlx.grad} {
  %y = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64, mask_kind = #rlx.mask_kind<causal>} : tensor<2x3x8xf64>, tensor<2x5x8xf64>, tensor<2x5x8xf64> -> tensor<2x3x8xf64>
  return %y : tensor<2x3x8xf64>
}
