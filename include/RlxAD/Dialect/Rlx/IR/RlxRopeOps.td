//===- RlxRopeOps.td - rotary position embedding ops -------*- tablegen -*-===//

#ifndef RLX_ROPE_OPS_TD
#define RLX_ROPE_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

//===----------------------------------------------------------------------===//
// rlx.rope
//===----------------------------------------------------------------------===//

def Rlx_RopeOp : Rlx_ForwardOp<"rope"> {
  let summary = "rotary position embedding (NeoX layout)";
  let description = [{
    `x` is `[B, S, H*D]` or `[S, H*D]` with `D = head_dim`; `cos` and `sin`
    are `[S, D/2]`. Per head, with `h = n_rot / 2` and for `i < h`:

    ```
    a = x[i], b = x[i + h], c = cos[s, i], t = sin[s, i]
    y[i]     = a*c - b*t
    y[i + h] = b*c + a*t
    ```

    Dims `i >= n_rot` are copied. `n_rot` is even and at most `D`; only the
    first `n_rot/2` columns of `cos` and `sin` are used.

    ```mlir
    %y = rlx.rope %x, %cos, %sin {head_dim = 64 : i64, n_rot = 32 : i64}
        : tensor<?x128x256xf32>, tensor<128x32xf32>, tensor<128x32xf32>
        -> tensor<?x128x256xf32>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$cos,
                       Rlx_FloatTensor:$sin, I64Attr:$head_dim, I64Attr:$n_rot);
  let results = (outs Rlx_FloatTensor:$y);
  let assemblyFormat = [{
    $x `,` $cos `,` $sin attr-dict `:` type($x) `,` type($cos) `,` type($sin)
    `->` type(results)
  }];
}

//===----------------------------------------------------------------------===//
// rlx.rope_backward
//===----------------------------------------------------------------------===//

def Rlx_RopeBackwardOp : Rlx_BackwardOp<"rope_backward"> {
  let summary = "gradient of rope: the transposed (inverse) rotation";
  let description = [{
    The rotation of `rlx.rope` applied to `dy` with `-sin`, i.e. its
    transpose: for `i < n_rot/2`,

    ```
    dx[i]     = dy[i]*c + dy[i + h]*t
    dx[i + h] = dy[i + h]*c - dy[i]*t
    ```

    and dims `i >= n_rot` are copied. Shapes and attributes as `rlx.rope`.

    ```mlir
    %dx = rlx.rope_backward %dy, %cos, %sin {head_dim = 8 : i64, n_rot = 8 : i64}
        : tensor<2x5x16xf64>, tensor<5x4xf64>, tensor<5x4xf64> -> tensor<2x5x16xf64>
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$dy, Rlx_FloatTensor:$cos,
                       Rlx_FloatTensor:$sin, I64Attr:$head_dim, I64Attr:$n_rot);
  let results = (outs Rlx_FloatTensor:$dx);
  let assemblyFormat = [{
    $dy `,` $cos `,` $sin attr-dict `:` type($dy) `,` type($cos) `,`
    type($sin) `->` type(results)
  }];
}

#endif // RLX_ROPE_OPS_TD
