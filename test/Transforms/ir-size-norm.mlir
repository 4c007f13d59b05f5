// IR size must not depend on tensor sizes: every norm op (forward and
// backward) at a small shape and at a 100x larger one lowers to the same
// number of operations (counted in generic form, region bodies included).
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg --mlir-print-op-generic \
// RUN:   | awk '/^\/\/ -----/ { n++; next } /"[a-z_]+\.[a-z_.]+"\(/ { c[n + 0]++ } /"rlx\./ { r++ } END { print "small", c[0]; print "large", c[1]; print "rlx", r + 0 }' \
// RUN:   | FileCheck %s

// CHECK: small [[N:[1-9][0-9][0-9]+]]
// CHECK-NEXT: large [[N]]
// CHECK-NEXT: rlx 0

func.func @small(%x: tensor<2x8xf32>, %g: tensor<8xf32>, %x3: tensor<2x3x8xf32>,
                 %xg: tensor<2x6x5x3xf32>, %gg: tensor<6xf32>)
    -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>,
        tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>,
        tensor<2x6x5x3xf32>, tensor<2x6x5x3xf32>, tensor<6xf32>, tensor<6xf32>) {
  %0 = rlx.layer_norm %x, %g, %g {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x8xf32>
  %1 = rlx.layer_norm_backward_input %x, %g, %x {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<2x8xf32>, tensor<8xf32>, tensor<2x8xf32> -> tensor<2x8xf32>
  %2 = rlx.layer_norm_backward_gamma %x, %x {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<2x8xf32>, tensor<2x8xf32> -> tensor<8xf32>
  %3 = rlx.layer_norm_backward_beta %x {axis = -1 : i64} : tensor<2x8xf32> -> tensor<8xf32>
  %4 = rlx.rms_norm %x3, %g, %g {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x3x8xf32>
  %5 = rlx.rms_norm_backward_input %x3, %g, %g, %x3 {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x3x8xf32> -> tensor<2x3x8xf32>
  %6 = rlx.rms_norm_backward_gamma %x3, %g, %g, %x3 {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x3x8xf32> -> tensor<8xf32>
  %7 = rlx.rms_norm_backward_beta %x3, %g, %g, %x3 {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<2x3x8xf32> -> tensor<8xf32>
  %8 = rlx.group_norm %xg, %gg, %gg {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<2x6x5x3xf32>, tensor<6xf32>, tensor<6xf32> -> tensor<2x6x5x3xf32>
  %9 = rlx.group_norm_backward_input %xg, %gg, %gg, %xg {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<2x6x5x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<2x6x5x3xf32> -> tensor<2x6x5x3xf32>
  %10 = rlx.group_norm_backward_gamma %xg, %xg {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<2x6x5x3xf32>, tensor<2x6x5x3xf32> -> tensor<6xf32>
  %11 = rlx.group_norm_backward_beta %xg, %xg {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<2x6x5x3xf32>, tensor<2x6x5x3xf32> -> tensor<6xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11
      : tensor<2x8xf32>, tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>,
        tensor<2x3x8xf32>, tensor<2x3x8xf32>, tensor<8xf32>, tensor<8xf32>,
        tensor<2x6x5x3xf32>, tensor<2x6x5x3xf32>, tensor<6xf32>, tensor<6xf32>
}

// -----

func.func @large(%x: tensor<200x800xf32>, %g: tensor<800xf32>, %x3: tensor<200x300x800xf32>,
                 %xg: tensor<200x600x50x30xf32>, %gg: tensor<600xf32>)
    -> (tensor<200x800xf32>, tensor<200x800xf32>, tensor<800xf32>, tensor<800xf32>,
        tensor<200x300x800xf32>, tensor<200x300x800xf32>, tensor<800xf32>, tensor<800xf32>,
        tensor<200x600x50x30xf32>, tensor<200x600x50x30xf32>, tensor<600xf32>, tensor<600xf32>) {
  %0 = rlx.layer_norm %x, %g, %g {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<200x800xf32>, tensor<800xf32>, tensor<800xf32> -> tensor<200x800xf32>
  %1 = rlx.layer_norm_backward_input %x, %g, %x {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<200x800xf32>, tensor<800xf32>, tensor<200x800xf32> -> tensor<200x800xf32>
  %2 = rlx.layer_norm_backward_gamma %x, %x {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<200x800xf32>, tensor<200x800xf32> -> tensor<800xf32>
  %3 = rlx.layer_norm_backward_beta %x {axis = -1 : i64} : tensor<200x800xf32> -> tensor<800xf32>
  %4 = rlx.rms_norm %x3, %g, %g {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<200x300x800xf32>, tensor<800xf32>, tensor<800xf32> -> tensor<200x300x800xf32>
  %5 = rlx.rms_norm_backward_input %x3, %g, %g, %x3 {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<200x300x800xf32>, tensor<800xf32>, tensor<800xf32>, tensor<200x300x800xf32> -> tensor<200x300x800xf32>
  %6 = rlx.rms_norm_backward_gamma %x3, %g, %g, %x3 {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<200x300x800xf32>, tensor<800xf32>, tensor<800xf32>, tensor<200x300x800xf32> -> tensor<800xf32>
  %7 = rlx.rms_norm_backward_beta %x3, %g, %g, %x3 {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<200x300x800xf32>, tensor<800xf32>, tensor<800xf32>, tensor<200x300x800xf32> -> tensor<800xf32>
  %8 = rlx.group_norm %xg, %gg, %gg {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<200x600x50x30xf32>, tensor<600xf32>, tensor<600xf32> -> tensor<200x600x50x30xf32>
  %9 = rlx.group_norm_backward_input %xg, %gg, %gg, %xg {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<200x600x50x30xf32>, tensor<600xf32>, tensor<600xf32>, tensor<200x600x50x30xf32> -> tensor<200x600x50x30xf32>
  %10 = rlx.group_norm_backward_gamma %xg, %xg {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<200x600x50x30xf32>, tensor<200x600x50x30xf32> -> tensor<600xf32>
  %11 = rlx.group_norm_backward_beta %xg, %xg {num_groups = 3 : i64, eps = 1.0e-5 : f32} : tensor<200x600x50x30xf32>, tensor<200x600x50x30xf32> -> tensor<600xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11
      : tensor<200x800xf32>, tensor<200x800xf32>, tensor<800xf32>, tensor<800xf32>,
        tensor<200x300x800xf32>, tensor<200x300x800xf32>, tensor<800xf32>, tensor<800xf32>,
        tensor<200x600x50x30xf32>, tensor<200x600x50x30xf32>, tensor<600xf32>, tensor<600xf32>
}
