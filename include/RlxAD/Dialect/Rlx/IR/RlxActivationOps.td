//===- RlxActivationOps.td - relu and activation ops -------*- tablegen -*-===//

#ifndef RLX_ACTIVATION_OPS_TD
#define RLX_ACTIVATION_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

// The parameters of the parameterised kinds, named as in PyTorch, shared by
// rlx.activation and rlx.activation_backward. Each is optional (absent means
// PyTorch's default) and allowed only on the kinds that use it:
//   hardtanh:   min_val (-1), max_val (1)
//   softplus:   beta (1), threshold (20)
//   elu:        alpha (1)
//   leaky_relu: negative_slope (0.01)
defvar Rlx_ActivationParams = (ins OptionalAttr<F64Attr>:$min_val,
                                   OptionalAttr<F64Attr>:$max_val,
                                   OptionalAttr<F64Attr>:$beta,
                                   OptionalAttr<F64Attr>:$threshold,
                                   OptionalAttr<F64Attr>:$alpha,
                                   OptionalAttr<F64Attr>:$negative_slope);

//===----------------------------------------------------------------------===//
// rlx.relu
//===----------------------------------------------------------------------===//

def Rlx_ReluOp : Rlx_ForwardOp<"relu"> {
  let summary = "rectified linear unit";
  let description = [{
    `y = max(x, 0)` elementwise.

    ```mlir
    %y = rlx.relu %x : tensor<?x16xf32> -> tensor<?x16xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$x);
  let results = (outs Rlx_FloatTensor:$y);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type(results)";
}

//===----------------------------------------------------------------------===//
// rlx.relu_backward
//===----------------------------------------------------------------------===//

def Rlx_ReluBackwardOp : Rlx_BackwardOp<"relu_backward"> {
  let summary = "gradient of relu";
  let description = [{
    `dx = dy where x > 0 else 0` (the subgradient at 0 is 0, as in PyTorch).
    `x`, `dy` and the result have one element type and compatible shapes.

    ```mlir
    %dx = rlx.relu_backward %x, %dy
        : tensor<?x16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$dy);
  let results = (outs Rlx_FloatTensor:$dx);
  let assemblyFormat = [{
    $x `,` $dy attr-dict `:` type($x) `,` type($dy) `->` type(results)
  }];
}

//===----------------------------------------------------------------------===//
// rlx.activation
//===----------------------------------------------------------------------===//

def Rlx_ActivationOp : Rlx_ForwardOp<"activation"> {
  let summary = "elementwise activation function";
  let description = [{
    Applies `kind` elementwise. `gelu` is the exact erf form
    `x/2 * (1 + erf(x/sqrt(2)))` (in f32 its erf is evaluated as PyTorch's
    vectorized f32 kernel does, Abramowitz and Stegun 7.1.26, absolute
    error at most 1.5e-7; in f64 by libm); `gelu_tanh` the tanh approximation
    `x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))`; `silu` is
    `x * sigmoid(x)`. The kinds with parameters (f64 attributes named as in
    PyTorch; absent means PyTorch's default) and the piecewise kinds:

    | kind | parameters | y |
    |---|---|---|
    | `hardtanh` | `min_val` (-1), `max_val` (1), min_val <= max_val | `clamp(x, min_val, max_val)` |
    | `softplus` | `beta` (1, non-zero), `threshold` (20) | `x` if `beta*x > threshold`, else `log(1 + exp(beta*x)) / beta` |
    | `elu` | `alpha` (1) | `x` if `x > 0`, else `alpha * (exp(x) - 1)` |
    | `leaky_relu` | `negative_slope` (0.01) | `x` if `x > 0`, else `negative_slope * x` |
    | `relu6` | | `clamp(x, 0, 6)` |
    | `hardswish` | | `x * clamp(x + 3, 0, 6) / 6` |
    | `hardsigmoid` | | `clamp(x + 3, 0, 6) / 6` |
    | `mish` | | `x * tanh(log(1 + exp(x)))` |

    The others are the functions their names say. A parameter on a kind
    that does not use it, or a NaN/Inf parameter, is rejected.

    ```mlir
    %y = rlx.activation %x {kind = #rlx.activation<gelu>}
        : tensor<4x8xf32> -> tensor<4x8xf32>
    %z = rlx.activation %x {kind = #rlx.activation<hardtanh>, min_val = -2.0, max_val = 2.0}
        : tensor<4x8xf32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = !con((ins Rlx_FloatTensor:$x, Rlx_ActivationKindAttr:$kind),
                       Rlx_ActivationParams);
  let results = (outs Rlx_FloatTensor:$y);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type(results)";
}

//===----------------------------------------------------------------------===//
// rlx.activation_backward
//===----------------------------------------------------------------------===//

def Rlx_ActivationBackwardOp : Rlx_BackwardOp<"activation_backward"> {
  let summary = "gradient of an elementwise activation";
  let description = [{
    `dx = act'(x) * dy`, with the kind and parameters of `rlx.activation`.
    Conventions at the non-differentiable points, those of PyTorch's
    backward kernels: `abs'(0) = 0`; `sqrt` and `rsqrt` give 0 where
    `x <= 0`; `relu'(0) = 0`; `hardtanh` and `relu6` give 0 at and beyond
    the clamp bounds (`x <= min_val` or `x >= max_val`); `elu'(0) = alpha`;
    `leaky_relu'(0) = negative_slope`; `softplus'(x) = 1` where
    `beta*x > threshold`, else `sigmoid(beta*x)`; `hardswish'(x)` is 0 for
    `x < -3`, `x/3 + 1/2` for `-3 <= x <= 3` (3/2 at 3, as PyTorch's scalar
    kernel), 1 above; `hardsigmoid'(x)` is `1/6` for `-3 < x < 3`, else 0.

    ```mlir
    %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<silu>}
        : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    %dz = rlx.activation_backward %x, %dy {kind = #rlx.activation<leaky_relu>, negative_slope = 0.2}
        : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = !con((ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$dy,
                            Rlx_ActivationKindAttr:$kind),
                       Rlx_ActivationParams);
  let results = (outs Rlx_FloatTensor:$dx);
  let assemblyFormat = [{
    $x `,` $dy attr-dict `:` type($x) `,` type($dy) `->` type(results)
  }];
}

#endif // RLX_ACTIVATION_OPS_TD
