//===- RlxCumsumOps.td - Cumsum ops and their gradients -*- tablegen -*-===//

#ifndef RLX_CUMSUM_OPS_TD
#define RLX_CUMSUM_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

//===----------------------------------------------------------------------===//
// rlx.cumsum
//===----------------------------------------------------------------------===//

def Rlx_CumsumOp : Rlx_ForwardOp<"cumsum"> {
  let summary = "inclusive or exclusive prefix sum along an axis";
  let description = [{
    Prefix sum of `x` along `axis` (negative counts from the end). With
    `L = dim(x, axis)` and `i` the position along the axis:

    - inclusive (default): `y_i = sum_{j <= i} x_j` (PyTorch `cumsum`);
    - `exclusive`: `y_i = sum_{j < i} x_j`, so `y_0 = 0`.

    `x` and `y` have one element type and compatible shapes.

    ```mlir
    %y = rlx.cumsum %x {axis = 1 : i64, exclusive}
        : tensor<?x128xf32> -> tensor<?x128xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$x, I64Attr:$axis, UnitAttr:$exclusive);
  let results = (outs Rlx_FloatTensor:$y);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type(results)";
}

//===----------------------------------------------------------------------===//
// rlx.cumsum_backward
//===----------------------------------------------------------------------===//

def Rlx_CumsumBackwardOp : Rlx_BackwardOp<"cumsum_backward"> {
  let summary = "gradient of cumsum: reverse cumulative sum";
  let description = [{
    The gradient of `rlx.cumsum` with the same `axis` and `exclusive`:
    a reverse cumulative sum of the upstream gradient along `axis`:

    - inclusive: `dx_i = sum_{j >= i} dy_j`;
    - `exclusive`: `dx_i = sum_{j > i} dy_j`, so `dx_{L-1} = 0`.

    `dy` and `dx` have one element type and compatible shapes. The
    decomposition of a static axis longer than `cumsum-block-length` (32)
    multiplies zero-padded blocks of that length by a constant triangular
    ones-matrix and adds the reverse exclusive sum of the block totals; a
    shorter static axis of at most `cumsum-matrix-max-length` is one matmul
    with the L x L matrix; otherwise (a dynamic axis) it runs an O(L) reverse
    scan (`scf.for`).

    ```mlir
    %dx = rlx.cumsum_backward %dy {axis = -1 : i64}
        : tensor<?x128xf32> -> tensor<?x128xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$dy, I64Attr:$axis,
                       UnitAttr:$exclusive);
  let results = (outs Rlx_FloatTensor:$dx);
  let assemblyFormat = "$dy attr-dict `:` type($dy) `->` type(results)";
}

#endif // RLX_CUMSUM_OPS_TD
