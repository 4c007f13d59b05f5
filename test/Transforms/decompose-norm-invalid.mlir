// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --verify-diagnostics
// RUN: rlx-opt %s --split-input-file --rlx-lower-to-linalg=allow-partial 2>&1 | FileCheck %s --check-prefix=PARTIAL

// Only f32 and f64 are supported.

func.func @layer_norm_bf16(%x: tensor<4x8xbf16>, %g: tensor<8xbf16>) -> tensor<4x8xbf16> {
  // expected-error@+1 {{could not decompose 'rlx.layer_norm_backward_input': element type 'bf16' is not supported (only f32 and f64)}}
  %dx = rlx.layer_norm_backward_input %x, %g, %x {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<4x8xbf16>, tensor<8xbf16>, tensor<4x8xbf16> -> tensor<4x8xbf16>
  return %dx : tensor<4x8xbf16>
}

// -----

func.func @rms_norm_f16(%x: tensor<4x8xf16>, %g: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error@+1 {{could not decompose 'rlx.rms_norm_backward_gamma': element type 'f16' is not supported (only f32 and f64)}}
  %dg = rlx.rms_norm_backward_gamma %x, %g, %g, %x {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<4x8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<4x8xf16> -> tensor<8xf16>
  return %dg : tensor<8xf16>
}

// -----

func.func @group_norm_f16(%x: tensor<2x4x3x3xf16>) -> tensor<4xf16> {
  // expected-error@+1 {{could not decompose 'rlx.group_norm_backward_beta': element type 'f16' is not supported (only f32 and f64)}}
  %db = rlx.group_norm_backward_beta %x, %x {num_groups = 2 : i64, eps = 1.0e-5 : f32} : tensor<2x4x3x3xf16>, tensor<2x4x3x3xf16> -> tensor<4xf16>
  return %db : tensor<4xf16>
}

// -----

// Forward ops are not touched by the decomposition pass; the lowering
// (allow-partial) warns and leaves a bf16 group_norm in place.
// PARTIAL: warning: could not lower 'rlx.group_norm': element type 'bf16' is not supported (only f32 and f64)
// PARTIAL: rlx.group_norm
func.func @group_norm_bf16(%x: tensor<2x4x3x3xbf16>, %g: tensor<4xbf16>) -> tensor<2x4x3x3xbf16> {
  %y = rlx.group_norm %x, %g, %g {num_groups = 2 : i64, eps = 1.0e-5 : f32} : tensor<2x4x3x3xbf16>, tensor<4xbf16>, tensor<4xbf16> -> tensor<2x4x3x3xbf16>
  return %y : tensor<2x4x3x3xbf16>
}
