// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics
// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg=allow-partial 2>&1 | FileCheck %s --check-prefix=PARTIAL

// Only f32, f64, bf16 and f16 are supported.

func.func @layer_norm_f8E5M2(%x: tensor<4x8xf8E5M2>, %g: tensor<8xf8E5M2>) -> tensor<4x8xf8E5M2> {
  // expected-error@+1 {{could not decompose 'rlx.layer_norm_backward_input': element type 'f8E5M2' is not supported (only f32, f64, bf16 and f16)}}
  %dx = rlx.layer_norm_backward_input %x, %g, %x {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<4x8xf8E5M2>, tensor<8xf8E5M2>, tensor<4x8xf8E5M2> -> tensor<4x8xf8E5M2>
  return %dx : tensor<4x8xf8E5M2>
}

// -----

func.func @rms_norm_f8E4M3FN(%x: tensor<4x8xf8E4M3FN>, %g: tensor<8xf8E4M3FN>) -> tensor<8xf8E4M3FN> {
  // expected-error@+1 {{could not decompose 'rlx.rms_norm_backward_gamma': element type 'f8E4M3FN' is not supported (only f32, f64, bf16 and f16)}}
  %dg = rlx.rms_norm_backward_gamma %x, %g, %g, %x {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<4x8xf8E4M3FN>, tensor<8xf8E4M3FN>, tensor<8xf8E4M3FN>, tensor<4x8xf8E4M3FN> -> tensor<8xf8E4M3FN>
  return %dg : tensor<8xf8E4M3FN>
}

// -----

func.func @group_norm_f8E4M3FN(%x: tensor<2x4x3x3xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error@+1 {{could not decompose 'rlx.group_norm_backward_beta': element type 'f8E4M3FN' is not supported (only f32, f64, bf16 and f16)}}
  %db = rlx.group_norm_backward_beta %x, %x {num_groups = 2 : i64, eps = 1.0e-5 : f32} : tensor<2x4x3x3xf8E4M3FN>, tensor<2x4x3x3xf8E4M3FN> -> tensor<4xf8E4M3FN>
  return %db : tensor<4xf8E4M3FN>
}

// -----

// Forward ops are not touched by the decomposition pass; the lowering
// (allow-partial) warns and leaves a f8E5M2 group_norm in place.
// PARTIAL: warning: could not lower 'rlx.group_norm': element type 'f8E5M2' is not supported (only f32, f64, bf16 and f16)
// PARTIAL: rlx.group_norm
func.func @group_norm_f8E5M2(%x: tensor<2x4x3x3xf8E5M2>, %g: tensor<4xf8E5M2>) -> tensor<2x4x3x3xf8E5M2> {
  %y = rlx.group_norm %x, %g, %g {num_groups = 2 : i64, eps = 1.0e-5 : f32} : tensor<2x4x3x3xf8E5M2>, tensor<4xf8E5M2>, tensor<4xf8E5M2> -> tensor<2x4x3x3xf8E5M2>
  return %y : tensor<2x4x3x3xf8E5M2>
}
