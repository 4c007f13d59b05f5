// RUN: rlx-opt %s --split-input-file --verify-diagnostics

func.func @relu_backward_shape(%x: tensor<4x16xf32>, %dy: tensor<4x8xf32>) -> tensor<4x16xf32> {
  // expected-error@+1 {{'rlx.relu_backward' op expects dim 1 of 'operand #0' (16) to equal dim 1 of 'operand #1' (8)}}
  %dx = rlx.relu_backward %x, %dy : tensor<4x16xf32>, tensor<4x8xf32> -> tensor<4x16xf32>
  return %dx : tensor<4x16xf32>
}

// -----

func.func @relu_rank(%x: tensor<4x16xf32>) -> tensor<64xf32> {
  // expected-error@+1 {{'rlx.relu' op expects 'operand #0' and 'result #0' to have the same rank, got 2 and 1}}
  %y = rlx.relu %x : tensor<4x16xf32> -> tensor<64xf32>
  return %y : tensor<64xf32>
}

// -----

func.func @activation_element_type(%x: tensor<4xf32>, %dy: tensor<4xf64>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.activation_backward' op expects 'operand #0' and 'operand #1' to have the same element type, got 'f32' and 'f64'}}
  %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<tanh>} : tensor<4xf32>, tensor<4xf64> -> tensor<4xf32>
  return %dx : tensor<4xf32>
}

// -----

func.func @activation_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+2 {{expected ::mlir::rlx::ActivationKind to be one of: gelu, gelu_tanh}}
  // expected-error@+1 {{failed to parse Rlx_ActivationKindAttr parameter 'value'}}
  %y = rlx.activation %x {kind = #rlx.activation<swish>} : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @activation_integer(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'rlx.relu' op operand #0 must be ranked tensor of floating-point values}}
  %y = rlx.relu %x : tensor<4xi32> -> tensor<4xi32>
  return %y : tensor<4xi32>
}

// -----

// A dynamic first operand does not hide a clash between the others.
func.func @static_clash_behind_dynamic(%x: tensor<?xf32>, %d: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error@+1 {{'rlx.relu_backward' op expects dim 0 of 'operand #1' (4) to equal dim 0 of 'result #0' (5)}}
  %y = rlx.relu_backward %x, %d : tensor<?xf32>, tensor<4xf32> -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// -----

func.func @activation_param_not_of_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.activation' op 'alpha' is not a parameter of activation kind 'gelu'}}
  %y = rlx.activation %x {kind = #rlx.activation<gelu>, alpha = 1.0} : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @activation_param_other_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.activation_backward' op 'negative_slope' is not a parameter of activation kind 'elu'}}
  %y = rlx.activation_backward %x, %x {kind = #rlx.activation<elu>, negative_slope = 0.1} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @hardtanh_bounds(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.activation' op expects 'min_val' (2.000000e+00) <= 'max_val' (1.000000e+00)}}
  %y = rlx.activation %x {kind = #rlx.activation<hardtanh>, min_val = 2.0} : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @param_nan(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.activation_backward' op expects 'threshold' to be finite, got nan}}
  %y = rlx.activation_backward %x, %x {kind = #rlx.activation<softplus>, threshold = 0x7FF8000000000000 : f64} : tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @param_inf(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.activation' op expects 'alpha' to be finite, got INF}}
  %y = rlx.activation %x {kind = #rlx.activation<elu>, alpha = 0x7FF0000000000000 : f64} : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @softplus_beta_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.activation' op expects 'beta' to be non-zero}}
  %y = rlx.activation %x {kind = #rlx.activation<softplus>, beta = 0.0} : tensor<4xf32> -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

func.func @param_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'rlx.activation' op attribute 'negative_slope' failed to satisfy constraint: 64-bit float attribute}}
  %y = "rlx.activation"(%x) <{kind = #rlx.activation<leaky_relu>, negative_slope = 0.1 : f32}> : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// 2^62 f32 elements are 2^64 bytes: an allocation size would wrap.
func.func @relu_byte_size(%x: tensor<4611686018427387904xf32>) -> tensor<4611686018427387904xf32> {
  // expected-error@+1 {{'rlx.relu' op expects the byte size of operand #0 ('tensor<4611686018427387904xf32>') to fit in 64 bits}}
  %y = rlx.relu %x : tensor<4611686018427387904xf32> -> tensor<4611686018427387904xf32>
  return %y : tensor<4611686018427387904xf32>
}

// -----

func.func @relu_backward_byte_size(%x: tensor<?x1073741824x1073741824xf64>, %dy: tensor<?x1073741824x1073741824xf64>) -> tensor<?x1073741824x1073741824xf64> {
  // expected-error@+1 {{'rlx.relu_backward' op expects the byte size of operand #0 ('tensor<?x1073741824x1073741824xf64>') to fit in 64 bits}}
  %dx = rlx.relu_backward %x, %dy : tensor<?x1073741824x1073741824xf64>, tensor<?x1073741824x1073741824xf64> -> tensor<?x1073741824x1073741824xf64>
  return %dx : tensor<?x1073741824x1073741824xf64>
}
