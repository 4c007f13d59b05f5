//===- RlxPoolOps.td - Pool ops and their gradients -*- tablegen -*-===//

#ifndef RLX_POOL_OPS_TD
#define RLX_POOL_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

// The window geometry shared by max_pool2d and its gradient: `kernel_size`
// (required), `stride` (default [1, 1]) and symmetric `padding` (default
// [0, 0]), each `array<i64: h, w>`.
defvar Rlx_PoolGeometry = (ins DenseI64ArrayAttr:$kernel_size,
                               Rlx_HwOnes:$stride, Rlx_HwZeros:$padding);

//===----------------------------------------------------------------------===//
// rlx.max_pool2d
//===----------------------------------------------------------------------===//

def Rlx_MaxPool2dOp : Rlx_ForwardOp<"max_pool2d"> {
  let summary = "2-D max pooling (NCHW)";
  let description = [{
    `x` is `[N, C, H, W]`; the result is `[N, C, Ho, Wo]` with

    ```
    Ho = floor((H + 2*padding[0] - kernel_size[0]) / stride[0]) + 1
    Wo = floor((W + 2*padding[1] - kernel_size[1]) / stride[1]) + 1
    y[n, c, i, j] = max over 0 <= a < kH, 0 <= b < kW of
                    x[n, c, i*sH - pH + a, j*sW - pW + b]
    ```

    Padded positions never win (they count as -inf). A NaN in a window makes
    its maximum NaN, as in PyTorch. `padding` must be at most half of
    `kernel_size` in each dimension and `H`, `W` must be non-zero (PyTorch's
    rules), so every window holds at least one element of `x`.

    ```mlir
    %y = rlx.max_pool2d %x {kernel_size = array<i64: 3, 3>,
                            stride = array<i64: 2, 2>, padding = array<i64: 1, 1>}
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
    Overlapping windows (stride < kernel_size) accumulate. Attributes and
    shapes follow `rlx.max_pool2d`, with `dy` in the place of its result.

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
