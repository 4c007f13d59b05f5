//===- RlxSoftmaxOps.td - softmax and cross-entropy ops ----*- tablegen -*-===//

#ifndef RLX_SOFTMAX_OPS_TD
#define RLX_SOFTMAX_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

//===----------------------------------------------------------------------===//
// rlx.softmax
//===----------------------------------------------------------------------===//

def Rlx_SoftmaxOp : Rlx_ForwardOp<"softmax"> {
  let summary = "max-subtracted softmax along one axis";
  let description = [{
    Along `axis` (any axis; negative values count from the end, default the
    last):

    ```
    m = max_axis(x),  y = exp(x - m) / sum_axis(exp(x - m))
    ```

    `x` and the result have one element type and compatible shapes.

    ```mlir
    %y = rlx.softmax %x {axis = 1 : i64} : tensor<?x10x7xf32> -> tensor<?x10x7xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$x,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Rlx_FloatTensor:$y);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type(results)";
}

//===----------------------------------------------------------------------===//
// rlx.log_softmax
//===----------------------------------------------------------------------===//

def Rlx_LogSoftmaxOp : Rlx_ForwardOp<"log_softmax"> {
  let summary = "max-subtracted log-softmax along one axis";
  let description = [{
    Along `axis` (any axis; negative values count from the end, default the
    last):

    ```
    m = max_axis(x),  y = x - m - log(sum_axis(exp(x - m)))
    ```

    `x` and the result have one element type and compatible shapes; any dim
    may be dynamic. This is PyTorch's `log_softmax(x, dim=axis)`.

    ```mlir
    %y = rlx.log_softmax %x {axis = -1 : i64} : tensor<?x10xf32> -> tensor<?x10xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$x,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Rlx_FloatTensor:$y);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type(results)";
}

//===----------------------------------------------------------------------===//
// rlx.softmax_backward
//===----------------------------------------------------------------------===//

def Rlx_SoftmaxBackwardOp : Rlx_BackwardOp<"softmax_backward"> {
  let summary = "gradient of softmax with respect to its input";
  let description = [{
    Takes the forward input `x` (not the softmax output: like every rlx
    backward op it recomputes `y = softmax(x)` along `axis`) and the gradient
    `dy` of the softmax result:

    ```
    y  = softmax_axis(x)
    dx = y * (dy - sum_axis(dy * y))
    ```

    `x`, `dy` and `dx` have one element type and compatible shapes; any dim
    may be dynamic. PyTorch's `_softmax_backward_data(dy, softmax(x, axis),
    axis, dtype)` is `rlx.softmax_backward %x, %dy {axis}`.

    ```mlir
    %dx = rlx.softmax_backward %x, %dy {axis = 1 : i64}
        : tensor<?x10x7xf32>, tensor<?x10x7xf32> -> tensor<?x10x7xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$dy,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Rlx_FloatTensor:$dx);
  let assemblyFormat = [{
    $x `,` $dy attr-dict `:` type($x) `,` type($dy) `->` type(results)
  }];
}

//===----------------------------------------------------------------------===//
// rlx.log_softmax_backward
//===----------------------------------------------------------------------===//

def Rlx_LogSoftmaxBackwardOp : Rlx_BackwardOp<"log_softmax_backward"> {
  let summary = "gradient of log_softmax with respect to its input";
  let description = [{
    Takes the forward input `x` (the softmax is recomputed along `axis`) and
    the gradient `dy` of the log-softmax result:

    ```
    dx = dy - softmax_axis(x) * sum_axis(dy)
    ```

    `x`, `dy` and `dx` have one element type and compatible shapes; any dim
    may be dynamic. PyTorch's `_log_softmax_backward_data(dy,
    log_softmax(x, axis), axis, dtype)` is
    `rlx.log_softmax_backward %x, %dy {axis}`.

    ```mlir
    %dx = rlx.log_softmax_backward %x, %dy {axis = -1 : i64}
        : tensor<?x10xf32>, tensor<?x10xf32> -> tensor<?x10xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$dy,
                       DefaultValuedAttr<I64Attr, "-1">:$axis);
  let results = (outs Rlx_FloatTensor:$dx);
  let assemblyFormat = [{
    $x `,` $dy attr-dict `:` type($x) `,` type($dy) `->` type(results)
  }];
}

//===----------------------------------------------------------------------===//
// rlx.softmax_cross_entropy
//===----------------------------------------------------------------------===//

def Rlx_SoftmaxCrossEntropyOp : Rlx_ForwardOp<"softmax_cross_entropy"> {
  let summary = "per-sample softmax cross-entropy with integer labels";
  let description = [{
    For logits `[N, C]` and labels `[N]` (i32 or i64), the loss `[N]`:

    ```
    loss[n] = logsumexp(logits[n, :]) - logits[n, labels[n]]
    ```

    A label outside `[0, C)` contributes no one-hot term: its loss is the
    plain `logsumexp(logits[n, :])`. This is PyTorch's
    `cross_entropy(logits, labels, reduction='none')` for in-range labels.

    ```mlir
    %loss = rlx.softmax_cross_entropy %logits, %labels
        : tensor<?x10xf32>, tensor<?xi64> -> tensor<?xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$logits, Rlx_IndexTensor:$labels);
  let results = (outs Rlx_FloatTensor:$loss);
  let assemblyFormat = [{
    $logits `,` $labels attr-dict `:` type($logits) `,` type($labels) `->`
    type(results)
  }];
}

//===----------------------------------------------------------------------===//
// rlx.softmax_cross_entropy_backward
//===----------------------------------------------------------------------===//

def Rlx_SoftmaxCrossEntropyBackwardOp
    : Rlx_BackwardOp<"softmax_cross_entropy_backward"> {
  let summary = "gradient of softmax_cross_entropy with respect to the logits";
  let description = [{
    For logits `[N, C]`, labels `[N]` and the upstream gradient `d_loss`
    `[N]`, the gradient `[N, C]`:

    ```
    dlogits[n, c] = (softmax(logits[n, :])[c] - (c == labels[n])) * d_loss[n]
    ```

    A label outside `[0, C)` has no one-hot term.

    ```mlir
    %dl = rlx.softmax_cross_entropy_backward %logits, %labels, %d_loss
        : tensor<?x10xf32>, tensor<?xi32>, tensor<?xf32> -> tensor<?x10xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$logits, Rlx_IndexTensor:$labels,
                       Rlx_FloatTensor:$d_loss);
  let results = (outs Rlx_FloatTensor:$dlogits);
  let assemblyFormat = [{
    $logits `,` $labels `,` $d_loss attr-dict `:` type($logits) `,`
    type($labels) `,` type($d_loss) `->` type(results)
  }];
}

#endif // RLX_SOFTMAX_OPS_TD
