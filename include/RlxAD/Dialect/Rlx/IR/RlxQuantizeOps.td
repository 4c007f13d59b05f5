//===- RlxQuantizeOps.td - fake quantisation ops -----------*- tablegen -*-===//

#ifndef RLX_QUANTIZE_OPS_TD
#define RLX_QUANTIZE_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

// The attributes fake_quantize and its gradient share.
defvar Rlx_QuantizeAttrs = (ins I64Attr:$bits, OptionalAttr<I64Attr>:$axis,
    DefaultValuedAttr<Rlx_SteAttr, "::mlir::rlx::Ste::identity">:$ste);

//===----------------------------------------------------------------------===//
// rlx.fake_quantize
//===----------------------------------------------------------------------===//

def Rlx_FakeQuantizeOp : Rlx_ForwardOp<"fake_quantize"> {
  let summary = "symmetric fake quantisation (quantise, then dequantise)";
  let description = [{
    With `qmax` = 127, 7 or 1 for `bits` = 8, 4 or 2, the scale is

    ```
    s = max|x| / qmax
    ```

    over the whole tensor, or, when `axis` is given, per channel `c` over all
    elements whose index along `axis` is `c`. Then

    ```
    y = clamp(roundeven(x / s), -qmax, qmax) * s,   y = x where s == 0
    ```

    `ste` (default `identity`) only selects the gradient
    (see `rlx.fake_quantize_backward`).

    ```mlir
    %y = rlx.fake_quantize %x {axis = 1 : i64, bits = 4 : i64, ste = #rlx.ste<tanh>}
        : tensor<?x16xf32> -> tensor<?x16xf32>
    ```
  }];
  let arguments = !con((ins Rlx_FloatTensor:$x), Rlx_QuantizeAttrs);
  let results = (outs Rlx_FloatTensor:$y);
  let assemblyFormat = "$x attr-dict `:` type($x) `->` type(results)";
}

//===----------------------------------------------------------------------===//
// rlx.fake_quantize_backward
//===----------------------------------------------------------------------===//

def Rlx_FakeQuantizeBackwardOp : Rlx_BackwardOp<"fake_quantize_backward"> {
  let summary = "straight-through-estimator gradient of fake_quantize";
  let description = [{
    `dx = factor * dy`, with the scale `s` of `rlx.fake_quantize` recomputed
    from `x` (per tensor, or per channel along `axis`) and the factor chosen
    by `ste`:

    ```
    identity:          1
    clipped_identity:  |x| <= qmax*s ? 1 : 0
    tanh:              1 - tanh(x/s)^2
    hard_tanh:         max(0, 1 - |x| / (qmax*s))
    ```

    Where `s == 0` the factor is 1. The clip bound `qmax*s` equals `max|x|`
    (per tensor or per channel) exactly, and that value is what the
    decomposition uses: computing `qmax * (max|x| / qmax)` in floating point
    can round below `max|x|` and would wrongly zero the gradient of the
    largest element.

    ```mlir
    %dx = rlx.fake_quantize_backward %x, %dy {bits = 8 : i64, ste = #rlx.ste<hard_tanh>}
        : tensor<?x16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
    ```
  }];
  let arguments = !con((ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$dy),
                       Rlx_QuantizeAttrs);
  let results = (outs Rlx_FloatTensor:$dx);
  let assemblyFormat = [{
    $x `,` $dy attr-dict `:` type($x) `,` type($dy) `->` type(results)
  }];
}

#endif // RLX_QUANTIZE_OPS_TD
