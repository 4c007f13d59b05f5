//===- RlxScanOps.td - Scan ops and their gradients -*- tablegen -*-===//
//
// rlx.scan runs a region `body(carry, x_t...) -> carry` over the leading
// (time) dimension of its `xs`; rlx.scan_backward / rlx.scan_backward_xs walk
// the steps in reverse through a user-supplied vector-Jacobian region
// `body_vjp`, recomputing carries that were not checkpointed with
// `forward_body`.
//
// Checkpoint rows. With `num_checkpoints = K` and `length = L`, a trajectory
// holds `R = L` rows (the carry after every step) when K is 0 or L, else
// `R = K` rows whose row k is the carry after step t_k = ceil((k+1)L/K) - 1
// (so the last row is always the final carry).
//
// Regions are not isolated from above: they may use values defined outside
// the op (weights). Every region ends in an explicit `rlx.yield`.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_SCAN_OPS_TD
#define RLX_SCAN_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

//===----------------------------------------------------------------------===//
// rlx.yield
//===----------------------------------------------------------------------===//

def Rlx_YieldOp : Rlx_Op<"yield", [Pure, Terminator,
    ParentOneOf<["ScanOp", "ScanBackwardOp", "ScanBackwardXsOp"]>]> {
  let summary = "terminator of the scan regions";
  let description = [{
    Returns the values of one step from a scan region: the new carry from
    `body` and `forward_body`, `(dcarry, dx_t...)` from `body_vjp`. The
    enclosing op verifies the number and types of the values.

    ```mlir
    rlx.yield %next : tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===----------------------------------------------------------------------===//
// rlx.scan
//===----------------------------------------------------------------------===//

def Rlx_ScanOp : Rlx_ForwardOpBase<"scan", [RecursiveMemoryEffects]> {
  let summary = "loop a region over the leading dimension of its inputs";
  let description = [{
    With `L = length`, `c_{-1} = init` and `x_i[t]` the row t of `xs_i`
    (each `xs_i` is `[L, ...step_i]`):

    ```
    c_t = body(c_{t-1}, x_0[t], ..., x_{n-1}[t])    for t = 0 .. L-1
    ```

    The first result is the final carry `c_{L-1}`. With `save_trajectory`
    a second result holds the trajectory: `[L, *carry]` with row t = `c_t`
    when `num_checkpoints` (K) is 0 or L, else `[K, *carry]` whose row k is
    `c_{t_k}` with `t_k = ceil((k+1)L/K) - 1`. These are exactly the rows
    `rlx.scan_backward` expects as its `trajectory` operand.

    The body's arguments are the carry (the type of `init`) and one step
    slice per input (the type of `xs_i` without its leading dimension); it
    yields the new carry with `rlx.yield`. The body may use values defined
    outside the op.

    Verified: `length >= 1`; `0 <= num_checkpoints <= length`; each `xs_i`
    has rank >= 1 and leading dimension `length` (when static); the region's
    argument and yield types; the result types.

    ```mlir
    %c, %traj = rlx.scan %h0 xs(%x : tensor<5x2x4xf32>)
        {length = 5 : i64, num_checkpoints = 2 : i64, save_trajectory}
        : tensor<2x4xf32> -> tensor<2x4xf32>, tensor<2x2x4xf32> {
    ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>):
      %e = tensor.empty() : tensor<2x4xf32>
      %s = linalg.add ins(%h, %xt : tensor<2x4xf32>, tensor<2x4xf32>)
                      outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
      %n = rlx.activation %s {kind = #rlx.activation<tanh>}
          : tensor<2x4xf32> -> tensor<2x4xf32>
      rlx.yield %n : tensor<2x4xf32>
    }
    ```
  }];
  let arguments = (ins Rlx_FloatTensor:$init, Variadic<Rlx_FloatTensor>:$xs,
                       I64Attr:$length, UnitAttr:$save_trajectory,
                       DefaultValuedAttr<I64Attr, "0">:$num_checkpoints);
  let results = (outs Rlx_FloatTensor:$final_carry,
                      Optional<Rlx_FloatTensor>:$trajectory);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $init (`xs` `(` $xs^ `:` type($xs) `)`)? attr-dict `:` type($init) `->`
    type(results) $body
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// rlx.scan_backward / rlx.scan_backward_xs
//===----------------------------------------------------------------------===//

// Operands, attributes and regions shared by the two scan gradients.
class Rlx_ScanGradientOp<string mnemonic, dag extraArgs, string extraDoc>
    : Rlx_BackwardOpBase<mnemonic, [RecursiveMemoryEffects]> {
  let arguments = !con((ins Rlx_FloatTensor:$init, Rlx_FloatTensor:$trajectory,
                            Rlx_FloatTensor:$upstream,
                            Variadic<Rlx_FloatTensor>:$xs, I64Attr:$length,
                            DefaultValuedAttr<I64Attr, "0">:$num_checkpoints),
                       extraArgs);
  let regions = (region SizedRegion<1>:$body_vjp,
                        MaxSizedRegion<1>:$forward_body);
  let assemblyFormat = [{
    $init `,` $trajectory `,` $upstream (`xs` `(` $xs^ `:` type($xs) `)`)?
    attr-dict `:` type($init) `,` type($trajectory) `,` type($upstream) `->`
    type(results) `vjp` $body_vjp (`forward` $forward_body^)?
  }];
  let hasVerifier = 1;
  string scanGradientDoc = [{
    Reverse-mode gradient of `rlx.scan` (`L = length`, `K = num_checkpoints`,
    `c_t` the carry after step t, `c_{-1} = init`). `upstream` `[L, *carry]`
    holds the gradient of the loss with respect to every `c_t`. The op walks
    the steps backwards:

    ```
    dcarry = 0
    for t = L-1 .. 0:
      d_out = dcarry + upstream[t]
      (dcarry, dx_0[t], ..., dx_{n-1}[t]) = body_vjp(c_{t-1}, x_0[t], ..., d_out)
    ```

    The carry entering step L-1 has gradient zero, so `d_out` at `t = L-1`
    is `upstream[L-1]`: a gradient of the loss with respect to the final
    carry (the first result of `rlx.scan`) must be added into
    `upstream[L-1]` by the producer of this op.

    `body_vjp(carry, x_t..., d_out)` yields `(dcarry, dx_t...)`: the
    vector-Jacobian product of one forward step, one `dx` per input, in the
    order of `xs`. The carries `c_{t-1}` come from `trajectory`, laid out as
    `rlx.scan` saves it: `[L, *carry]` (row t = `c_t`) when K is 0 or L, else
    `[K, *carry]` (row k = `c_{t_k}`, `t_k = ceil((k+1)L/K) - 1`). With
    `0 < K < L` the carries that were not saved are recomputed from the
    nearest saved row before them (or from `init`) with `forward_body`, a copy
    of the forward body; `forward_body` must be present exactly when
    `0 < K < L`. Regions may use values defined outside the op.

    Verified: `length >= 1`; `0 <= num_checkpoints <= length`; `trajectory`
    is `[L or K, *carry]` and `upstream` `[L, *carry]`; each `xs_i` has
    leading dimension `length`; region argument and yield types; the result
    type.
  }];
  let description = scanGradientDoc # extraDoc;
}

def Rlx_ScanBackwardOp : Rlx_ScanGradientOp<"scan_backward", (ins), [{
    The result is `dinit = dcarry` after step 0 (the type of `init`).

    ```mlir
    %dinit = rlx.scan_backward %h0, %traj, %dy xs(%x : tensor<5x2x4xf32>)
        {length = 5 : i64}
        : tensor<2x4xf32>, tensor<5x2x4xf32>, tensor<5x2x4xf32>
        -> tensor<2x4xf32> vjp {
    ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>, %d: tensor<2x4xf32>):
      %e = tensor.empty() : tensor<2x4xf32>
      %s = linalg.add ins(%h, %xt : tensor<2x4xf32>, tensor<2x4xf32>)
                      outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
      %ds = rlx.activation_backward %s, %d {kind = #rlx.activation<tanh>}
          : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
      rlx.yield %ds, %ds : tensor<2x4xf32>, tensor<2x4xf32>
    }
    ```
  }]> {
  let summary = "gradient of rlx.scan with respect to init";
  let results = (outs Rlx_FloatTensor:$dinit);
}

def Rlx_ScanBackwardXsOp
    : Rlx_ScanGradientOp<"scan_backward_xs", (ins I64Attr:$xs_idx), [{
    The result is the gradient with respect to `xs[xs_idx]`, `[L, ...step]` in
    time order: row t is the `dx_{xs_idx}` that `body_vjp` yields at step t.
    `0 <= xs_idx < number of xs`.

    ```mlir
    %dx = rlx.scan_backward_xs %h0, %traj, %dy xs(%x : tensor<5x2x4xf32>)
        {length = 5 : i64, num_checkpoints = 2 : i64, xs_idx = 0 : i64}
        : tensor<2x4xf32>, tensor<2x2x4xf32>, tensor<5x2x4xf32>
        -> tensor<5x2x4xf32> vjp {
    ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>, %d: tensor<2x4xf32>):
      ...
      rlx.yield %ds, %ds : tensor<2x4xf32>, tensor<2x4xf32>
    } forward {
    ^bb0(%h: tensor<2x4xf32>, %xt: tensor<2x4xf32>):
      ...
      rlx.yield %n : tensor<2x4xf32>
    }
    ```
  }]> {
  let summary = "gradient of rlx.scan with respect to one of its xs";
  let results = (outs Rlx_FloatTensor:$dxs);
}

#endif // RLX_SCAN_OPS_TD
