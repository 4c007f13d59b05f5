//===- RlxBase.td - rlx dialect, enums and base op classes -*- tablegen -*-===//
//
// The rlx dialect: forward ops of a deep-learning compiler and their
// `*_backward` (gradient) ops. Every op family lives in its own
// Rlx<Family>Ops.td; this file holds what they share.
//
//===----------------------------------------------------------------------===//

#ifndef RLX_BASE_TD
#define RLX_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

def Rlx_Dialect : Dialect {
  let name = "rlx";
  let cppNamespace = "::mlir::rlx";
  let summary = "Forward and backward (training) ops of a deep-learning compiler";
  let description = [{
    The `rlx` dialect carries the ops of the rlx-autodiff compiler: forward
    ops (normalisations, convolution, pooling, attention, scan, ...) and one
    `*_backward` op per gradient they need. Backward ops are pure tensor
    functions of the forward inputs and the upstream gradient `dy`; the
    `rlx-decompose-backward` pass expands each into linalg, tensor, arith and
    math (scf where a loop is the honest answer), and `rlx-lower-to-linalg`
    does the same for forward ops.

    Conventions shared by every op:
    - Tensors are ranked; any dimension may be dynamic (`?`). Verifiers check
      every relation whose dimensions are static and accept the rest.
    - Float tensors may have any float element type, one per op (every
      float operand and result of an op has the same one); the lowering
      passes support f32, f64, bf16 and f16 and reject others with a
      diagnostic. A bf16/f16 op computes in f32 (statistics, reductions and
      accumulations included) and rounds each result once.
    - Index tensors are i32 or i64.
    - `axis` attributes are i64 and may be negative (counted from the end).
    - 2-D geometry attributes (`kernel_size`, `stride`, `padding`,
      `dilation`) are `array<i64: h, w>`; layouts are NCHW and OIHW.
  }];
  // The dialects the decompositions and lowerings produce: loading rlx loads
  // them, so that decomposeOperation works from any pass or transform script.
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect", "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Adds the ops `OpTys` of one family and promises
    /// linalg::AggregatedOpInterface for those with the Backward trait (the
    /// transforms library attaches the models; see RlxAD/InitRlx.h).
    template <typename... OpTys>
    void addFamily();

    // register<Family>Ops(), one per family, defined next to the family's
    // verifiers (lib/Dialect/Rlx/IR/<Family>Ops.cpp).
#define RLX_FAMILY(Family) void register##Family##Ops();
#include "RlxAD/Dialect/Rlx/IR/RlxFamilies.inc"
  }];
}

//===----------------------------------------------------------------------===//
// Enumerations, printed as #rlx.<mnemonic><value>
//===----------------------------------------------------------------------===//

def Rlx_ActivationKind : I32EnumAttr<"ActivationKind",
    "elementwise activation function", [
      I32EnumAttrCase<"gelu", 0>, I32EnumAttrCase<"gelu_tanh", 1>,
      I32EnumAttrCase<"silu", 2>, I32EnumAttrCase<"sigmoid", 3>,
      I32EnumAttrCase<"tanh", 4>, I32EnumAttrCase<"exp", 5>,
      I32EnumAttrCase<"log", 6>, I32EnumAttrCase<"sqrt", 7>,
      I32EnumAttrCase<"rsqrt", 8>, I32EnumAttrCase<"neg", 9>,
      I32EnumAttrCase<"abs", 10>, I32EnumAttrCase<"sin", 11>,
      I32EnumAttrCase<"cos", 12>, I32EnumAttrCase<"tan", 13>,
      I32EnumAttrCase<"atan", 14>, I32EnumAttrCase<"relu", 15>,
      I32EnumAttrCase<"hardtanh", 16>, I32EnumAttrCase<"softplus", 17>,
      I32EnumAttrCase<"elu", 18>, I32EnumAttrCase<"leaky_relu", 19>,
      I32EnumAttrCase<"relu6", 20>, I32EnumAttrCase<"hardswish", 21>,
      I32EnumAttrCase<"hardsigmoid", 22>, I32EnumAttrCase<"mish", 23>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::rlx";
}
def Rlx_ActivationKindAttr
    : EnumAttr<Rlx_Dialect, Rlx_ActivationKind, "activation"> {
  let assemblyFormat = "`<` $value `>`";
}

def Rlx_MaskKind : I32EnumAttr<"MaskKind", "attention mask kind", [
      I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"causal", 1>,
      I32EnumAttrCase<"sliding_window", 2>, I32EnumAttrCase<"custom", 3>,
      I32EnumAttrCase<"bias", 4>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::rlx";
}
def Rlx_MaskKindAttr : EnumAttr<Rlx_Dialect, Rlx_MaskKind, "mask_kind"> {
  let assemblyFormat = "`<` $value `>`";
}

def Rlx_AttentionWrt : I32EnumAttr<"AttentionWrt",
    "which attention input a gradient is taken with respect to", [
      I32EnumAttrCase<"query", 0>, I32EnumAttrCase<"key", 1>,
      I32EnumAttrCase<"value", 2>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::rlx";
}
def Rlx_AttentionWrtAttr
    : EnumAttr<Rlx_Dialect, Rlx_AttentionWrt, "attention_wrt"> {
  let assemblyFormat = "`<` $value `>`";
}

def Rlx_Ste : I32EnumAttr<"Ste",
    "straight-through estimator of fake quantisation", [
      I32EnumAttrCase<"identity", 0>, I32EnumAttrCase<"clipped_identity", 1>,
      I32EnumAttrCase<"tanh", 2>, I32EnumAttrCase<"hard_tanh", 3>]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::rlx";
}
def Rlx_SteAttr : EnumAttr<Rlx_Dialect, Rlx_Ste, "ste"> {
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Type and attribute constraints
//===----------------------------------------------------------------------===//

def Rlx_FloatTensor : RankedTensorOf<[AnyFloat]>;
def Rlx_IndexTensor : RankedTensorOf<[I32, I64]>;

// `array<i64: h, w>`; the length (2) and signs are checked by the verifiers
// so that the diagnostic names the attribute and the problem.
def Rlx_HwOnes : DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">;
def Rlx_HwZeros : DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0}">;

//===----------------------------------------------------------------------===//
// Op kinds
//===----------------------------------------------------------------------===//

// Whether an op is a forward op or a gradient is a typed fact, queried by the
// passes (op->hasTrait<rlx::OpTrait::Backward>()) instead of by op names.

// A forward op: rlx-lower-to-linalg lowers it.
def Rlx_Forward : NativeOpTrait<"Forward"> {
  let cppNamespace = "::mlir::rlx::OpTrait";
}

// A gradient op: rlx-decompose-backward decomposes it, and it implements
// linalg::AggregatedOpInterface (promised by the dialect, attached by the
// transforms library; see RlxAD/InitRlx.h), which the pass and
// transform.structured.decompose_interface both use.
def Rlx_Backward : NativeOpTrait<"Backward"> {
  let cppNamespace = "::mlir::rlx::OpTrait";
}

//===----------------------------------------------------------------------===//
// Base op classes
//===----------------------------------------------------------------------===//

class Rlx_Op<string mnemonic, list<Trait> traits = []>
    : Op<Rlx_Dialect, mnemonic, traits>;

// Every forward op. Rlx_ForwardOp adds Pure; an op with regions (rlx.scan)
// derives from this class with RecursiveMemoryEffects instead.
class Rlx_ForwardOpBase<string mnemonic, list<Trait> traits = []>
    : Rlx_Op<mnemonic, !listconcat([Rlx_Forward], traits)> {
  let hasVerifier = 1;
}

// Forward ops are pure tensor functions.
class Rlx_ForwardOp<string mnemonic, list<Trait> traits = []>
    : Rlx_ForwardOpBase<mnemonic, !listconcat([Pure], traits)>;

// Every backward op: it computes one gradient from the forward inputs and the
// gradient of the forward result. Rlx_BackwardOp adds Pure; the scan
// gradients, which have regions, derive from this class directly.
class Rlx_BackwardOpBase<string mnemonic, list<Trait> traits = []>
    : Rlx_Op<mnemonic, !listconcat([Rlx_Backward], traits)> {
  let hasVerifier = 1;
}

// Backward ops are pure tensor functions.
class Rlx_BackwardOp<string mnemonic, list<Trait> traits = []>
    : Rlx_BackwardOpBase<mnemonic, !listconcat([Pure], traits)>;

#endif // RLX_BASE_TD
