// The emitted IR does not grow with tensor sizes: decomposing the four conv
// ops (the bias gradient included) at x 1x16x8x8 and at x 32x64x56x56 (3x3
// kernel, padding 1) gives the same number of ops per function (the awk
// exits 1 if the counts differ); channels-last (16 and 64 channels are
// multiples of 16), and with it off.
// RUN: rlx-opt %s --rlx-decompose-backward --rlx-lower-to-linalg --mlir-print-op-generic \
// RUN:   | awk '/sym_name = "small"/ {f = "s"} /sym_name = "large"/ {f = "l"} \
// RUN:          /^ *(%[^ ]+ = )?"[a-z_]+\.[a-z_0-9.]+"/ {c[f]++} \
// RUN:          END {print "small", c["s"]; print "large", c["l"]; exit !(c["s"] == c["l"] && c["s"] > 10)}' \
// RUN:   | FileCheck %s
// RUN: rlx-opt %s --rlx-decompose-backward=conv-channels-last=0 --rlx-lower-to-linalg=forward-conv-channels-last=0 --mlir-print-op-generic \
// RUN:   | awk '/sym_name = "small"/ {f = "s"} /sym_name = "large"/ {f = "l"} \
// RUN:          /^ *(%[^ ]+ = )?"[a-z_]+\.[a-z_0-9.]+"/ {c[f]++} \
// RUN:          END {print "small", c["s"]; print "large", c["l"]; exit !(c["s"] == c["l"] && c["s"] > 10)}' \
// RUN:   | FileCheck %s

// CHECK: small [[N:[0-9]+]]
// CHECK-NEXT: large [[N]]

func.func @small(%x: tensor<1x16x8x8xf32>, %w: tensor<16x16x3x3xf32>, %dy: tensor<1x16x8x8xf32>) -> (tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>, tensor<16xf32>) {
  %y = rlx.conv2d %x, %w {padding = array<i64: 1, 1>} : tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32> -> tensor<1x16x8x8xf32>
  %dx = rlx.conv2d_backward_input %dy, %w {padding = array<i64: 1, 1>} : tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32> -> tensor<1x16x8x8xf32>
  %dw = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 1, 1>} : tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32> -> tensor<16x16x3x3xf32>
  %db = rlx.conv2d_backward_bias %dy : tensor<1x16x8x8xf32> -> tensor<16xf32>
  return %y, %dx, %dw, %db : tensor<1x16x8x8xf32>, tensor<1x16x8x8xf32>, tensor<16x16x3x3xf32>, tensor<16xf32>
}

func.func @large(%x: tensor<32x64x56x56xf32>, %w: tensor<64x64x3x3xf32>, %dy: tensor<32x64x56x56xf32>) -> (tensor<32x64x56x56xf32>, tensor<32x64x56x56xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) {
  %y = rlx.conv2d %x, %w {padding = array<i64: 1, 1>} : tensor<32x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<32x64x56x56xf32>
  %dx = rlx.conv2d_backward_input %dy, %w {padding = array<i64: 1, 1>} : tensor<32x64x56x56xf32>, tensor<64x64x3x3xf32> -> tensor<32x64x56x56xf32>
  %dw = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 1, 1>} : tensor<32x64x56x56xf32>, tensor<32x64x56x56xf32> -> tensor<64x64x3x3xf32>
  %db = rlx.conv2d_backward_bias %dy : tensor<32x64x56x56xf32> -> tensor<64xf32>
  return %y, %dx, %dw, %db : tensor<32x64x56x56xf32>, tensor<32x64x56x56xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>
}
