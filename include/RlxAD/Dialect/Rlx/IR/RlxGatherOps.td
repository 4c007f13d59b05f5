//===- RlxGatherOps.td - Gather ops and their gradients -*- tablegen -*-===//

#ifndef RLX_GATHER_OPS_TD
#define RLX_GATHER_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

//===----------------------------------------------------------------------===//
// rlx.gather
//===----------------------------------------------------------------------===//

def Rlx_GatherOp : Rlx_ForwardOp<"gather"> {
  let summary = "take rows of a table along an axis (numpy take)";
  let description = [{
    With `a = axis` (negative counts from the end) and `V = dim(table, a)`:

    ```
    y[p..., n..., q...] = table[p..., indices[n...], q...]   if 0 <= indices[n...] < V
                        = 0                                   otherwise
    ```

    so `shape(y) = shape(table)[:a] + shape(indices) + shape(table)[a+1:]`.
    An out-of-range index (negative ones included) yields zeros and is never
    read. `indices` is i32 or i64 of any rank (rank 0 drops the axis);
    `table` and `y` have one element type.

    ```mlir
    %y = rlx.gather %table, %ids {axis = 0 : i64}
        : tensor<1000x64xf32>, tensor<?x16xi32> -> tensor<?x16x64xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$table, Rlx_IndexTensor:$indices,
                       I64Attr:$axis);
  let results = (outs Rlx_FloatTensor:$y);
  let assemblyFormat = [{
    $table `,` $indices attr-dict `:` type($table) `,` type($indices) `->`
    type(results)
  }];
}

//===----------------------------------------------------------------------===//
// rlx.gather_backward
//===----------------------------------------------------------------------===//

def Rlx_GatherBackwardOp : Rlx_BackwardOp<"gather_backward"> {
  let summary = "gradient of gather with respect to the table";
  let description = [{
    The table's gradient: a zero tensor of the result type into which every
    row of `dy` is added at its index (a scatter-add):

    ```
    dtable[p..., v, q...] = sum over n... with indices[n...] == v of
                            dy[p..., n..., q...] * scale(v)
    scale(v) = 1 / count(v)   with scale_grad_by_freq, count(v) the number
                              of indices equal to v
             = 1              otherwise
    ```

    Duplicate indices accumulate; indices outside `[0, V)` contribute
    nothing. Two optional attributes give PyTorch's `embedding_backward`:

    - `padding_idx` (i64): indices equal to it contribute nothing, so that
      row of the gradient is zero. A negative value counts from the end
      (`V + padding_idx`), as in `F.embedding`; it must lie in `[-V, V)`.
    - `scale_grad_by_freq` (unit): each index's contribution is divided by
      the number of times it occurs in `indices`.

    The result type is the table's shape: `shape(dy)` must equal
    `shape(result)[:a] + shape(indices) + shape(result)[a+1:]`. The
    decomposition needs `V = dim(result, a)` static (it is known from the
    result type only) and loops over the indices (twice with
    `scale_grad_by_freq`: counting, then adding), so its work is
    O(#indices x row size). Every other dim may be dynamic.

    ```mlir
    %dt = rlx.gather_backward %dy, %ids {axis = 0 : i64}
        : tensor<?x16x64xf32>, tensor<?x16xi32> -> tensor<1000x64xf32>
    %de = rlx.gather_backward %dy, %ids {axis = 0 : i64, padding_idx = 0 : i64,
                                         scale_grad_by_freq}
        : tensor<?x16x64xf32>, tensor<?x16xi32> -> tensor<1000x64xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$dy, Rlx_IndexTensor:$indices,
                       I64Attr:$axis, OptionalAttr<I64Attr>:$padding_idx,
                       UnitAttr:$scale_grad_by_freq);
  let results = (outs Rlx_FloatTensor:$dtable);
  let assemblyFormat = [{
    $dy `,` $indices attr-dict `:` type($dy) `,` type($indices) `->`
    type(results)
  }];
}

#endif // RLX_GATHER_OPS_TD
