//===- RlxActivationOps.td - relu and activation ops -------*- tablegen -*-===//

#ifndef RLX_ACTIVATION_OPS_TD
#define RLX_ACTIVATION_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

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
    `x/2 * (1 + erf(x/sqrt(2)))`; `gelu_tanh` the tanh approximation
    `x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))`; `silu` is
    `x * sigmoid(x)`; the others are the functions their names say.

    ```mlir
    %y = rlx.activation %x {kind = #rlx.activation<gelu>}
        : tensor<4x8xf32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$x, Rlx_ActivationKindAttr:$kind);
  let results = (outs Rlx_FloatTensor:$y);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type(results)";
}

//===----------------------------------------------------------------------===//
// rlx.activation_backward
//===----------------------------------------------------------------------===//

def Rlx_ActivationBackwardOp : Rlx_BackwardOp<"activation_backward"> {
  let summary = "gradient of an elementwise activation";
  let description = [{
    `dx = act'(x) * dy`. Conventions at the non-differentiable points:
    `abs'(0) = 0`; `sqrt` and `rsqrt` give 0 where `x <= 0`; `relu'(0) = 0`.

    ```mlir
    %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<silu>}
        : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$dy,
                       Rlx_ActivationKindAttr:$kind);
  let results = (outs Rlx_FloatTensor:$dx);
  let assemblyFormat = [{
    $x `,` $dy attr-dict `:` type($x) `,` type($dy) `->` type(results)
  }];
}

#endif // RLX_ACTIVATION_OPS_TD
