//===- RlxNormOps.td - Norm ops and their gradients -*- tablegen -*-===//
//
// layer_norm, rms_norm and group_norm and one backward op per gradient
// (input, gamma, beta). Three family classes keep the definitions short:
// Rlx_RowNormOp (layer/rms forward: x, gamma, beta; axis, eps),
// Rlx_GroupNormOp (group forward: num_groups, eps) and Rlx_NormBackwardOp
// (operands and attributes given per op, result named per op). Shape rules
// are checked by the shared verifiers in lib/Dialect/Rlx/IR/NormOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_NORM_OPS_TD
#define RLX_NORM_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

//===----------------------------------------------------------------------===//
// Attributes and family classes
//===----------------------------------------------------------------------===//

// The normalised axis of layer/rms norm: must be the last one (-1 or rank-1).
def Rlx_NormAxisAttr : DefaultValuedAttr<I64Attr, "-1">;
// The epsilon added to the variance (mean square for rms norm): any finite
// value (negative too, as in PyTorch); NaN and Inf are rejected.
def Rlx_NormEpsAttr : DefaultValuedAttr<F32Attr, "1.0e-5">;

defvar Rlx_RowNormAttrs = (ins Rlx_NormAxisAttr:$axis, Rlx_NormEpsAttr:$eps);
defvar Rlx_GroupNormAttrs = (ins I64Attr:$num_groups, Rlx_NormEpsAttr:$eps);

// layer_norm / rms_norm: y has x's shape; gamma, beta are [D], D = x's last dim.
class Rlx_RowNormOp<string mnemonic> : Rlx_ForwardOp<mnemonic> {
  let arguments = !con((ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$gamma,
                            Rlx_FloatTensor:$beta), Rlx_RowNormAttrs);
  let results = (outs Rlx_FloatTensor:$y);
  let assemblyFormat = [{
    $x `,` $gamma `,` $beta attr-dict `:` type($x) `,` type($gamma) `,`
    type($beta) `->` type(results)
  }];
}

// A norm gradient: `operands` then `attrs`, one result `result`.
class Rlx_NormBackwardOp<string mnemonic, dag operands, dag attrs,
                         dag result>
    : Rlx_BackwardOp<mnemonic> {
  let arguments = !con(operands, attrs);
  let results = result;
  let assemblyFormat = [{
    operands attr-dict `:` type(operands) `->` type(results)
  }];
}

//===----------------------------------------------------------------------===//
// rlx.layer_norm
//===----------------------------------------------------------------------===//

def Rlx_LayerNormOp : Rlx_RowNormOp<"layer_norm"> {
  let summary = "layer normalisation over the last axis";
  let description = [{
    Normalises each row of `x` along its last axis (`axis` must name it,
    e.g. `-1`; the leading dims are any number of batch dims, possibly
    dynamic):

    ```
    mean = sum(x) / D,  var = sum((x - mean)^2) / D   (biased)
    y    = (x - mean) / sqrt(var + eps) * gamma + beta
    ```

    `gamma` and `beta` are `[D]`.

    ```mlir
    %y = rlx.layer_norm %x, %gamma, %beta {axis = -1 : i64, eps = 1.0e-05 : f32}
        : tensor<?x128xf32>, tensor<128xf32>, tensor<128xf32> -> tensor<?x128xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// rlx.rms_norm
//===----------------------------------------------------------------------===//

def Rlx_RmsNormOp : Rlx_RowNormOp<"rms_norm"> {
  let summary = "root-mean-square normalisation over the last axis";
  let description = [{
    ```
    r = rsqrt(sum(x^2) / D + eps)
    y = x * r * gamma + beta
    ```

    over the last axis of `x` (`axis` must name it); `gamma`, `beta` are `[D]`.

    ```mlir
    %y = rlx.rms_norm %x, %gamma, %beta {axis = -1 : i64, eps = 1.0e-06 : f32}
        : tensor<2x?x64xf32>, tensor<64xf32>, tensor<64xf32> -> tensor<2x?x64xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// rlx.group_norm
//===----------------------------------------------------------------------===//

def Rlx_GroupNormOp : Rlx_ForwardOp<"group_norm"> {
  let summary = "group normalisation of an NCHW tensor";
  let description = [{
    `x` is `[N, C, H, W]` with `C` divisible by `num_groups` (G). The
    statistics of each (sample n, group g) are taken over the group's
    `(C/G)*H*W` elements (channels `g*C/G .. (g+1)*C/G - 1`):

    ```
    y[n,c,h,w] = (x[n,c,h,w] - mean[n,g]) / sqrt(var[n,g] + eps)
                 * gamma[c] + beta[c]          (biased variance)
    ```

    `gamma` and `beta` are `[C]`.

    ```mlir
    %y = rlx.group_norm %x, %gamma, %beta {num_groups = 4 : i64, eps = 1.0e-05 : f32}
        : tensor<?x32x8x8xf32>, tensor<32xf32>, tensor<32xf32> -> tensor<?x32x8x8xf32>
    ```
  }];
  let arguments = !con((ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$gamma,
                            Rlx_FloatTensor:$beta), Rlx_GroupNormAttrs);
  let results = (outs Rlx_FloatTensor:$y);
  let assemblyFormat = [{
    $x `,` $gamma `,` $beta attr-dict `:` type($x) `,` type($gamma) `,`
    type($beta) `->` type(results)
  }];
}

//===----------------------------------------------------------------------===//
// rlx.layer_norm_backward_input
//===----------------------------------------------------------------------===//

def Rlx_LayerNormBackwardInputOp : Rlx_NormBackwardOp<
    "layer_norm_backward_input",
    (ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$gamma, Rlx_FloatTensor:$dy),
    Rlx_RowNormAttrs, (outs Rlx_FloatTensor:$dx)> {
  let summary = "gradient of layer_norm with respect to x";
  let description = [{
    With the row statistics recomputed from `x` (mean, biased var,
    `r = 1/sqrt(var + eps)`), `xh = (x - mean) * r` and `g = dy * gamma`:

    ```
    dx = r * (g - mean(g) - xh * mean(g * xh))     (means over the last axis)
    ```

    ```mlir
    %dx = rlx.layer_norm_backward_input %x, %gamma, %dy {axis = -1 : i64, eps = 1.0e-05 : f32}
        : tensor<?x16xf32>, tensor<16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// rlx.layer_norm_backward_gamma
//===----------------------------------------------------------------------===//

def Rlx_LayerNormBackwardGammaOp : Rlx_NormBackwardOp<
    "layer_norm_backward_gamma", (ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$dy),
    Rlx_RowNormAttrs, (outs Rlx_FloatTensor:$dgamma)> {
  let summary = "gradient of layer_norm with respect to gamma";
  let description = [{
    `dgamma[d] = sum over the leading dims of dy * xh`, with
    `xh = (x - mean) / sqrt(var + eps)` recomputed from `x`. The result is `[D]`.

    ```mlir
    %dg = rlx.layer_norm_backward_gamma %x, %dy {axis = -1 : i64, eps = 1.0e-05 : f32}
        : tensor<4x?x16xf32>, tensor<4x?x16xf32> -> tensor<16xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// rlx.layer_norm_backward_beta
//===----------------------------------------------------------------------===//

def Rlx_LayerNormBackwardBetaOp : Rlx_NormBackwardOp<
    "layer_norm_backward_beta", (ins Rlx_FloatTensor:$dy),
    (ins Rlx_NormAxisAttr:$axis), (outs Rlx_FloatTensor:$dbeta)> {
  let summary = "gradient of layer_norm with respect to beta";
  let description = [{
    `dbeta[d] = sum over the leading dims of dy`. The result is `[D]`.

    ```mlir
    %db = rlx.layer_norm_backward_beta %dy {axis = -1 : i64}
        : tensor<?x16xf32> -> tensor<16xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// rlx.rms_norm_backward_input
//===----------------------------------------------------------------------===//

def Rlx_RmsNormBackwardInputOp : Rlx_NormBackwardOp<
    "rms_norm_backward_input",
    (ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$gamma, Rlx_FloatTensor:$beta,
         Rlx_FloatTensor:$dy),
    Rlx_RowNormAttrs, (outs Rlx_FloatTensor:$dx)> {
  let summary = "gradient of rms_norm with respect to x";
  let description = [{
    With `r = rsqrt(mean(x^2) + eps)` recomputed from `x` and `g = dy * gamma`:

    ```
    dx = r * (g - x * r^2 * mean(g * x))     (means over the last axis)
    ```

    `beta` does not enter the gradient; it is an operand so that every rms
    gradient has the forward op's operands.

    ```mlir
    %dx = rlx.rms_norm_backward_input %x, %gamma, %beta, %dy {axis = -1 : i64, eps = 1.0e-06 : f32}
        : tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<?x16xf32> -> tensor<?x16xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// rlx.rms_norm_backward_gamma
//===----------------------------------------------------------------------===//

def Rlx_RmsNormBackwardGammaOp : Rlx_NormBackwardOp<
    "rms_norm_backward_gamma",
    (ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$gamma, Rlx_FloatTensor:$beta,
         Rlx_FloatTensor:$dy),
    Rlx_RowNormAttrs, (outs Rlx_FloatTensor:$dgamma)> {
  let summary = "gradient of rms_norm with respect to gamma";
  let description = [{
    `dgamma[d] = sum over the leading dims of dy * x * r`, with
    `r = rsqrt(mean(x^2) + eps)` recomputed from `x`. The result is `[D]`.

    ```mlir
    %dg = rlx.rms_norm_backward_gamma %x, %gamma, %beta, %dy {axis = -1 : i64, eps = 1.0e-06 : f32}
        : tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<?x16xf32> -> tensor<16xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// rlx.rms_norm_backward_beta
//===----------------------------------------------------------------------===//

def Rlx_RmsNormBackwardBetaOp : Rlx_NormBackwardOp<
    "rms_norm_backward_beta",
    (ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$gamma, Rlx_FloatTensor:$beta,
         Rlx_FloatTensor:$dy),
    Rlx_RowNormAttrs, (outs Rlx_FloatTensor:$dbeta)> {
  let summary = "gradient of rms_norm with respect to beta";
  let description = [{
    `dbeta[d] = sum over the leading dims of dy`. The result is `[D]`.

    ```mlir
    %db = rlx.rms_norm_backward_beta %x, %gamma, %beta, %dy {axis = -1 : i64, eps = 1.0e-06 : f32}
        : tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<?x16xf32> -> tensor<16xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// rlx.group_norm_backward_input
//===----------------------------------------------------------------------===//

def Rlx_GroupNormBackwardInputOp : Rlx_NormBackwardOp<
    "group_norm_backward_input",
    (ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$gamma, Rlx_FloatTensor:$beta,
         Rlx_FloatTensor:$dy),
    Rlx_GroupNormAttrs, (outs Rlx_FloatTensor:$dx)> {
  let summary = "gradient of group_norm with respect to x";
  let description = [{
    The layer-norm gradient over each (sample, group), with gamma per channel:
    with the group statistics recomputed from `x`, `xh = (x - mean) * r` and
    `g[n,c,h,w] = dy[n,c,h,w] * gamma[c]`,

    ```
    dx = r * (g - mean(g) - xh * mean(g * xh))
    ```

    where the means run over the group's `(C/G)*H*W` elements.

    ```mlir
    %dx = rlx.group_norm_backward_input %x, %gamma, %beta, %dy {num_groups = 2 : i64, eps = 1.0e-05 : f32}
        : tensor<?x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<?x4x3x3xf32> -> tensor<?x4x3x3xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// rlx.group_norm_backward_gamma
//===----------------------------------------------------------------------===//

def Rlx_GroupNormBackwardGammaOp : Rlx_NormBackwardOp<
    "group_norm_backward_gamma", (ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$dy),
    Rlx_GroupNormAttrs, (outs Rlx_FloatTensor:$dgamma)> {
  let summary = "gradient of group_norm with respect to gamma";
  let description = [{
    `dgamma[c] = sum over n, h, w of dy * xh`, `xh` normalised with the
    statistics of channel c's group. The result is `[C]`.

    ```mlir
    %dg = rlx.group_norm_backward_gamma %x, %dy {num_groups = 2 : i64, eps = 1.0e-05 : f32}
        : tensor<?x4x3x3xf32>, tensor<?x4x3x3xf32> -> tensor<4xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// rlx.group_norm_backward_beta
//===----------------------------------------------------------------------===//

def Rlx_GroupNormBackwardBetaOp : Rlx_NormBackwardOp<
    "group_norm_backward_beta", (ins Rlx_FloatTensor:$x, Rlx_FloatTensor:$dy),
    Rlx_GroupNormAttrs, (outs Rlx_FloatTensor:$dbeta)> {
  let summary = "gradient of group_norm with respect to beta";
  let description = [{
    `dbeta[c] = sum over n, h, w of dy`. The result is `[C]`.

    ```mlir
    %db = rlx.group_norm_backward_beta %x, %dy {num_groups = 2 : i64, eps = 1.0e-05 : f32}
        : tensor<?x4x3x3xf32>, tensor<?x4x3x3xf32> -> tensor<4xf32>
    ```
  }];
}

#endif // RLX_NORM_OPS_TD
