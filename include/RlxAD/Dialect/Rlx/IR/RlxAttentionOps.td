//===- RlxAttentionOps.td - Attention ops and their gradients -*- tablegen -*-===//
//
// Multi-head scaled dot-product attention and its three gradients. Both ops
// share the attribute set and the verifier (AttentionOps.cpp), and the
// lowering/decomposition share the score, mask and softmax code
// (lib/Transforms/AttentionUtils.h).
//
//===----------------------------------------------------------------------===//

#ifndef RLX_ATTENTION_OPS_TD
#define RLX_ATTENTION_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

// The attributes of rlx.attention, shared with rlx.attention_backward.
defvar Rlx_AttentionAttrs = (ins
  I64Attr:$num_heads,
  I64Attr:$head_dim,
  DefaultValuedAttr<Rlx_MaskKindAttr, "::mlir::rlx::MaskKind::none">:$mask_kind,
  OptionalAttr<I64Attr>:$window,
  OptionalAttr<F32Attr>:$scale,
  OptionalAttr<F32Attr>:$softcap,
  OptionalAttr<I64Attr>:$num_kv_heads,
  OptionalAttr<I64Attr>:$value_head_dim
);

// The defaults of the optional head attributes, for both ops.
defvar Rlx_AttentionClassDecl = [{
    /// `num_kv_heads`, or `num_heads` when absent (one k/v head per head).
    int64_t getKvHeads() {
      auto attr = getNumKvHeadsAttr();
      return attr ? attr.getInt() : getNumHeadsAttr().getInt();
    }
    /// `value_head_dim`, or `head_dim` when absent.
    int64_t getValueDim() {
      auto attr = getValueHeadDimAttr();
      return attr ? attr.getInt() : getHeadDimAttr().getInt();
    }
}];

// Text shared by both descriptions.
defvar Rlx_AttentionSemantics = [{
    Heads: `q` has `H = num_heads` heads of `D = head_dim` columns; `k` and
    `v` have `Hkv = num_kv_heads` heads (default `H`), which must divide `H`:
    query head `h` reads key/value head `h / (H / Hkv)` (grouped-query
    attention; `Hkv = 1` is multi-query). `k` has head dim `D`, `v` and the
    output have `Dv = value_head_dim` (default `D`).

    Layouts: every sequence operand (and `dy`, and the result) is either
    head-major (rank 4) or sequence-major (rank 3), all alike:

    | operand     | rank 4           | rank 3             |
    |-------------|------------------|--------------------|
    | `q`         | `[B, H, Sq, D]`  | `[B, Sq, H*D]`     |
    | `k`         | `[B, Hkv, Sk, D]`| `[B, Sk, Hkv*D]`   |
    | `v`         | `[B, Hkv, Sk, Dv]`| `[B, Sk, Hkv*Dv]` |
    | output, `dy`| `[B, H, Sq, Dv]` | `[B, Sq, H*Dv]`    |

    In the rank-3 layout head `h` owns columns `[h*D, (h+1)*D)` (`Dv` for
    `v` and the output). `Sq` may differ from `Sk`.

    Per batch `b` and head `h` (`k`, `v` of head `h / (H / Hkv)`), with
    `i < Sq` and `j < Sk`:

    ```
    raw[i,j]  = scale * sum_d q[i,d] * k[j,d]     scale defaults to 1/sqrt(D)
    cap[i,j]  = softcap * tanh(raw / softcap)     only when softcap is set
    z[i,j]    = mask(cap[i,j])
    P[i,:]    = softmax(z[i,:])                   max-subtracted, over keys
    out[i,d]  = sum_j P[i,j] * v[j,d]
    ```

    Masks, with `off = Sk - Sq` (aligned to the bottom-right corner, so the
    last query sees the last key); a removed score becomes `-1e9` (not
    `-inf`), so a fully masked row has a uniform softmax and never NaN:
    - `none`: no mask operand.
    - `causal`: keeps key `j` iff `j <= i + off`.
    - `sliding_window`: keeps `i + off - window <= j <= i + off`; requires
      the `window` attribute (`>= 0`), which no other kind accepts.
    - `custom`: a float mask operand `[B, Sk]` (per batch and key) or
      `[B, H, Sq, Sk]`; keeps `j` iff `mask >= 0.5`.
    - `bias`: a float mask operand added to `z`: rank 2 `[Sq, Sk]`, or rank 4
      broadcastable to `[B, H, Sq, Sk]` (each dim 1 or the full size). A
      dim that broadcasts must be a static 1; a dynamic dim is taken to be
      the full size.

    `mask` is present iff `mask_kind` is `custom` or `bias`. The mask is
    always head-major (`[.., H, Sq, Sk]`), whatever the layout of `q`.
    `scale` and `softcap`, when present, must be positive.
}];

//===----------------------------------------------------------------------===//
// rlx.attention
//===----------------------------------------------------------------------===//

def Rlx_AttentionOp : Rlx_ForwardOp<"attention"> {
  let summary = "multi-head scaled dot-product attention";
  let description = !strconcat([{
    `out = softmax(mask(softcap(scale * q k^T))) v` per batch and head.
  }], Rlx_AttentionSemantics, [{

    ```mlir
    %o = rlx.attention %q, %k, %v {num_heads = 2 : i64, head_dim = 4 : i64,
                                   mask_kind = #rlx.mask_kind<causal>}
        : tensor<?x3x8xf32>, tensor<?x5x8xf32>, tensor<?x5x8xf32>
        -> tensor<?x3x8xf32>
    %b = rlx.attention %q4, %k4, %v4, %bias {num_heads = 2 : i64,
            head_dim = 4 : i64, mask_kind = #rlx.mask_kind<bias>,
            softcap = 30.0 : f32}
        : tensor<2x2x3x4xf64>, tensor<2x2x5x4xf64>, tensor<2x2x5x4xf64>,
          tensor<3x5xf64> -> tensor<2x2x3x4xf64>
    ```
  }]);
  let arguments = !con((ins Rlx_FloatTensor:$q, Rlx_FloatTensor:$k,
                            Rlx_FloatTensor:$v,
                            Optional<Rlx_FloatTensor>:$mask),
                       Rlx_AttentionAttrs);
  let results = (outs Rlx_FloatTensor:$out);
  let extraClassDeclaration = Rlx_AttentionClassDecl;
  let assemblyFormat = [{
    $q `,` $k `,` $v (`,` $mask^)? attr-dict `:` type(operands) `->`
    type(results)
  }];
}

//===----------------------------------------------------------------------===//
// rlx.attention_backward
//===----------------------------------------------------------------------===//

def Rlx_AttentionBackwardOp : Rlx_BackwardOp<"attention_backward"> {
  let summary = "gradient of rlx.attention w.r.t. q, k or v";
  let description = !strconcat([{
    One gradient of `rlx.attention` (same operands and attributes, plus the
    upstream gradient `dy` of the output's shape), selected by `wrt`; the
    result has the shape of that input. With `P` the masked softmax and
    `dy`, `v` per batch and head:

    ```
    dv = P^T dy                                   (needs no dS)
    dP = dy v^T
    dS = P * (dP - rowsum(dP * P))
    dS *= 1 - (cap / softcap)^2                   only when softcap is set
    dS = 0 where a causal/sliding_window/custom mask removed the score
    dq = scale * dS k
    dk = scale * dS^T q
    ```

    The mask is applied after the softcap; a removed score is the constant
    `-1e9`, so its derivative is 0 (even in a fully masked row), while a
    `bias` mask adds and lets the gradient through. With grouped-query
    heads, `dk` and `dv` of a key/value head are the sums of the above over
    the `H / Hkv` query heads that read it.
  }], Rlx_AttentionSemantics, [{

    ```mlir
    %dk = rlx.attention_backward %q, %k, %v, %dy {num_heads = 8 : i64,
            head_dim = 64 : i64, mask_kind = #rlx.mask_kind<sliding_window>,
            window = 16 : i64, wrt = #rlx.attention_wrt<key>}
        : tensor<?x8x128x64xf32>, tensor<?x8x128x64xf32>,
          tensor<?x8x128x64xf32>, tensor<?x8x128x64xf32>
        -> tensor<?x8x128x64xf32>
    ```
  }]);
  let arguments = !con((ins Rlx_FloatTensor:$q, Rlx_FloatTensor:$k,
                            Rlx_FloatTensor:$v, Rlx_FloatTensor:$dy,
                            Optional<Rlx_FloatTensor>:$mask),
                       Rlx_AttentionAttrs,
                       (ins Rlx_AttentionWrtAttr:$wrt));
  let results = (outs Rlx_FloatTensor:$grad);
  let extraClassDeclaration = Rlx_AttentionClassDecl;
  let assemblyFormat = [{
    $q `,` $k `,` $v `,` $dy (`,` $mask^)? attr-dict `:` type(operands) `->`
    type(results)
  }];
}

#endif // RLX_ATTENTION_OPS_TD
