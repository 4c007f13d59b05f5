//===- RlxPoolOps.td - Pool ops and their gradients -*- tablegen -*-===//

#ifndef RLX_POOL_OPS_TD
#define RLX_POOL_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

// The window geometry shared by max_pool2d and its gradient: `kernel_size`
// (required), `stride` (default [1, 1]), symmetric `padding` (default
// [0, 0]) and `dilation` (default [1, 1]), each `array<i64: h, w>`, and
// `ceil_mode` (default false: floor).
defvar Rlx_PoolGeometry = (ins DenseI64ArrayAttr:$kernel_size,
                               Rlx_HwOnes:$stride, Rlx_HwZeros:$padding,
                               Rlx_HwOnes:$dilation,
                               DefaultValuedAttr<BoolAttr, "false">:$ceil_mode);

//===----------------------------------------------------------------------===//
// rlx.max_pool2d
//===----------------------------------------------------------------------===//

def Rlx_MaxPool2dOp : Rlx_ForwardOp<"max_pool2d"> {
  let summary = "2-D max pooling (NCHW)";
  let description = [{
    `x` is `[N, C, H, W]`; the result is `[N, C, Ho, Wo]`. PyTorch's
    output-size rule, per spatial dim (shown for H), with the dilated window
    `e = dilation[0] * (kernel_size[0] - 1) + 1`:

    ```
    Ho = floor((H + 2*pH - e + (ceil_mode ? sH - 1 : 0)) / sH) + 1
    if ceil_mode and (Ho - 1) * sH >= H + pH: Ho = Ho - 1
         (the last window must start inside the input or the left padding)
    y[n, c, i, j] = max over 0 <= a < kH, 0 <= b < kW of
                    x[n, c, i*sH - pH + a*dH, j*sW - pW + b*dW]
    ```

    Positions outside `x` (the padding, and in ceil mode the part of the
    last window past the end) never win: they count as -inf. A NaN in a
    window makes its maximum NaN, as in PyTorch. `padding` must be at most
    half of `kernel_size` in each dimension, `H`, `W` must be non-zero and
    `Ho`, `Wo` at least 1 (PyTorch's rules). `N`, `C`, `H` and `W` may be
    dynamic.

    ```mlir
    %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>,
                            stride = array<i64: 2, 2>, padding = array<i64: 1, 1>}
        : tensor<?x16x32x32xf32> -> tensor<?x16x16x16xf32>
    %z = rlx.max_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>,
                            dilation = array<i64: 2, 2>, ceil_mode = true}
        : tensor<?x16x32x32xf32> -> tensor<?x16x16x16xf32>
    ```
  }];
  let arguments = !con((ins Rlx_FloatTensor:$x), Rlx_PoolGeometry);
  let results = (outs Rlx_FloatTensor:$y);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type(results)";
}

//===----------------------------------------------------------------------===//
// rlx.max_pool2d_backward
//===----------------------------------------------------------------------===//

def Rlx_MaxPool2dBackwardOp : Rlx_BackwardOp<"max_pool2d_backward"> {
  let summary = "gradient of max_pool2d with respect to its input";
  let description = [{
    `x` is the forward input `[N, C, H, W]`, `dy` the gradient of the forward
    result `[N, C, Ho, Wo]`; the result `dx` has the shape of `x`. Each
    `dy[n, c, i, j]` is routed to the argmax of its window:

    ```
    dx[n, c, h, w] = sum over windows (i, j) containing (h, w) whose argmax
                     is (h, w) of dy[n, c, i, j]
    ```

    The argmax is the first maximum in row-major window order, except that a
    NaN counts as the maximum and a later NaN beats an earlier one; padded
    positions never win. This is PyTorch's rule: its CPU and CUDA kernels scan
    the window in row-major order and take `val > max || isnan(val)`.
    Overlapping windows (stride < kernel_size) accumulate, in increasing
    window order. Attributes (`dilation` and `ceil_mode` included) and shapes
    follow `rlx.max_pool2d`, with `dy` in the place of its result.

    ```mlir
    %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>,
                                           stride = array<i64: 2, 2>}
        : tensor<?x16x32x32xf32>, tensor<?x16x16x16xf32> -> tensor<?x16x32x32xf32>
    ```
  }];
  let arguments = !con((ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$dy),
                       Rlx_PoolGeometry);
  let results = (outs Rlx_FloatTensor:$dx);
  let assemblyFormat = [{
    $x `,` $dy attr-dict `:` type($x) `,` type($dy) `->` type(results)
  }];
}

#endif // RLX_POOL_OPS_TD
