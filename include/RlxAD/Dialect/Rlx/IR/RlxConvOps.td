//===- RlxConvOps.td - Conv ops and their gradients -*- tablegen -*-===//
//
// 2-D convolution (PyTorch conv2d: NCHW input, OIHW weight, cross-correlation)
// and its two gradients. All three share the geometry attributes
//   stride   : array<i64: h, w>  (default [1, 1], each >= 1)
//   padding  : array<i64: h, w>  (symmetric, default [0, 0], each >= 0)
//   dilation : array<i64: h, w>  (default [1, 1], each >= 1)
//   groups   : i64               (default 1, >= 1; divides Ci and Co)
// and the output-size rule Ho = floor((H + 2p - d(k-1) - 1) / s) + 1.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_CONV_OPS_TD
#define RLX_CONV_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

// The geometry attributes every conv op carries, after its tensor operands.
defvar Rlx_ConvGeometry = (ins Rlx_HwOnes:$stride, Rlx_HwZeros:$padding,
                               Rlx_HwOnes:$dilation,
                               DefaultValuedAttr<I64Attr, "1">:$groups);


//===----------------------------------------------------------------------===//
// rlx.conv2d
//===----------------------------------------------------------------------===//

def Rlx_Conv2dOp : Rlx_ForwardOp<"conv2d"> {
  let summary = "2-D convolution (NCHW input, OIHW weight)";
  let description = [{
    PyTorch's `conv2d` without bias: with `x : [N, Ci, H, W]`,
    `w : [Co, Ci/g, kH, kW]` and `g = groups`, output channel `co` of group
    `gi = co / (Co/g)` is

    ```
    y[n, co, i, j] = sum_{c < Ci/g, a < kH, b < kW}
        w[co, c, a, b] * xp[n, gi*(Ci/g) + c, i*sH + a*dH, j*sW + b*dW]
    ```

    where `xp` is `x` zero-padded by `padding` on each side. The result is
    `[N, Co, Ho, Wo]` with `Ho = floor((H + 2pH - dH(kH-1) - 1) / sH) + 1`
    (likewise `Wo`).

    ```mlir
    %y = rlx.conv2d %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>}
        : tensor<?x3x8x8xf32>, tensor<16x3x3x3xf32> -> tensor<?x16x4x4xf32>
    ```
  }];
  let arguments = !con((ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$w),
                       Rlx_ConvGeometry);
  let results = (outs Rlx_FloatTensor:$y);
  let assemblyFormat = [{
    $x `,` $w attr-dict `:` type($x) `,` type($w) `->` type(results)
  }];
}

//===----------------------------------------------------------------------===//
// rlx.conv2d_backward_input
//===----------------------------------------------------------------------===//

def Rlx_Conv2dBackwardInputOp : Rlx_BackwardOp<"conv2d_backward_input"> {
  let summary = "gradient of conv2d with respect to its input";
  let description = [{
    With `dy : [N, Co, Ho, Wo]` and `w : [Co, Ci/g, kH, kW]`, computes the
    input gradient `dx : [N, Ci, H, W]` (the transposed convolution):

    ```
    dx[n, gi*(Ci/g) + c, h, v] = sum_{co in group gi, a, b, i, j :
                                      i*sH - pH + a*dH = h, j*sW - pW + b*dW = v}
        dy[n, co, i, j] * w[co, c, a, b]
    ```

    With a stride > 1 several input sizes give the same `Ho`, so the result
    type fixes `H` and `W`; they must satisfy the output-size rule against
    `dy`'s `Ho` and `Wo`. Rows and columns no window covers get 0.

    ```mlir
    %dx = rlx.conv2d_backward_input %dy, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>}
        : tensor<?x16x4x4xf32>, tensor<16x3x3x3xf32> -> tensor<?x3x7x7xf32>
    ```
  }];
  let arguments = !con((ins Rlx_FloatTensor:$dy, Rlx_FloatTensor:$w),
                       Rlx_ConvGeometry);
  let results = (outs Rlx_FloatTensor:$dx);
  let assemblyFormat = [{
    $dy `,` $w attr-dict `:` type($dy) `,` type($w) `->` type(results)
  }];
}

//===----------------------------------------------------------------------===//
// rlx.conv2d_backward_weight
//===----------------------------------------------------------------------===//

def Rlx_Conv2dBackwardWeightOp : Rlx_BackwardOp<"conv2d_backward_weight"> {
  let summary = "gradient of conv2d with respect to its weight";
  let description = [{
    With `x : [N, Ci, H, W]` and `dy : [N, Co, Ho, Wo]`, computes the weight
    gradient `dw : [Co, Ci/g, kH, kW]`:

    ```
    dw[co, c, a, b] = sum_{n, i, j}
        dy[n, co, i, j] * xp[n, gi*(Ci/g) + c, i*sH + a*dH, j*sW + b*dW]
    ```

    (`gi = co / (Co/g)`, `xp` the zero-padded `x`). The result type gives the
    kernel size; `dy`'s `Ho`, `Wo` must follow the output-size rule.

    ```mlir
    %dw = rlx.conv2d_backward_weight %x, %dy {padding = array<i64: 1, 1>, groups = 2 : i64}
        : tensor<?x4x8x8xf32>, tensor<?x6x8x8xf32> -> tensor<6x2x3x3xf32>
    ```
  }];
  let arguments = !con((ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$dy),
                       Rlx_ConvGeometry);
  let results = (outs Rlx_FloatTensor:$dw);
  let assemblyFormat = [{
    $x `,` $dy attr-dict `:` type($x) `,` type($dy) `->` type(results)
  }];
}

//===----------------------------------------------------------------------===//
// rlx.conv2d_backward_bias
//===----------------------------------------------------------------------===//

def Rlx_Conv2dBackwardBiasOp : Rlx_BackwardOp<"conv2d_backward_bias"> {
  let summary = "gradient of a conv2d bias (sum of dy over N, H, W)";
  let description = [{
    `rlx.conv2d` has no bias; a model's `conv2d(x, w) + b[None, :, None,
    None]` takes the bias gradient from the gradient `dy : [N, Co, Ho, Wo]`
    of the convolution's result:

    ```
    db[co] = sum_{n, i, j} dy[n, co, i, j]
    ```

    This is PyTorch's `convolution_backward(..., output_mask[2])` and needs
    no geometry (stride, padding, dilation and groups do not enter). Any dim
    of `dy` may be dynamic; the result is `[Co]` with `dy`'s element type.
    For a 1-D convolution (`dy : [N, Co, L]`, see the H = 1 mapping in
    docs/README.md) expand `dy` to `[N, Co, 1, L]` first.

    ```mlir
    %db = rlx.conv2d_backward_bias %dy : tensor<?x16x4x4xf32> -> tensor<16xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$dy);
  let results = (outs Rlx_FloatTensor:$db);
  let assemblyFormat = "$dy attr-dict `:` type($dy) `->` type(results)";
}

#endif // RLX_CONV_OPS_TD
