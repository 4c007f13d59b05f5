//===- AttentionOps.cpp - Attention op verifiers ------------------===//
//
// rlx.attention and rlx.attention_backward share one verifier: layouts
// `[B,H,S,D]` (rank 4) or `[B,S,H*D]` (rank 3) for every sequence operand,
// the attribute rules, and the mask operand's shape per mask kind.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxAttentionOps.h"

#include "FamilyRegistration.h"
#include "VerifyUtils.h"

#include "llvm/Support/CheckedArithmetic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::rlx;

static int64_t dimOf(Value v, int64_t d) {
  return cast<ShapedType>(v.getType()).getDimSize(d);
}

static bool isStaticNotEqual(int64_t a, int64_t b) {
  return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
}

/// Which of B, H, Sq, Sk (0-3) each dim of a rank-`rank` mask stands for.
static SmallVector<int64_t> maskTargets(MaskKind kind, int64_t rank) {
  if (rank == 4)
    return {0, 1, 2, 3};
  if (kind == MaskKind::custom)
    return {0, 3};
  return {2, 3};
}

/// The mask's dims against the operands' B, H, Sq, Sk when some are dynamic
/// (the static ones are checked by verifyMaskShape): the run-time contract.
static LogicalResult recordMaskShape(Operation *op, MaskKind kind, Value mask,
                                     ArrayRef<NamedDim> sources /*B,Sq,Sk*/,
                                     int64_t heads) {
  int64_t rank = cast<ShapedType>(mask.getType()).getRank();
  auto relation = kind == MaskKind::bias && rank == 4
                      ? ShapeRelation::Kind::EqualOrOne
                      : ShapeRelation::Kind::Equal;
  MLIRContext *ctx = op->getContext();
  for (auto [d, t] : llvm::enumerate(maskTargets(kind, rank))) {
    NamedDim maskDim{mask, "mask", int64_t(d)};
    std::string what =
        "expects dim " + std::to_string(d) + " of 'mask' to " +
        (relation == ShapeRelation::Kind::EqualOrOne ? "be 1 or equal "
                                                     : "equal ");
    LogicalResult ok =
        t == 1
            ? verifyDimRelation(
                  op, relation, {maskDim}, getAffineSymbolExpr(0, ctx),
                  getAffineConstantExpr(heads, ctx),
                  what + "'num_heads' (" + std::to_string(heads) + ")")
            : verifyDimRelation(
                  op, relation, {maskDim, sources[t == 0 ? 0 : t - 1]},
                  getAffineSymbolExpr(0, ctx), getAffineSymbolExpr(1, ctx),
                  what + "dim " +
                      std::to_string(sources[t == 0 ? 0 : t - 1].dim) +
                      " of '" + sources[t == 0 ? 0 : t - 1].name.str() + "'");
    if (failed(ok))
      return failure();
  }
  return success();
}

/// The mask operand: `custom` takes `[B, Sk]` or `[B, H, Sq, Sk]`; `bias`
/// takes `[Sq, Sk]` or a rank-4 shape broadcastable to `[B, H, Sq, Sk]`.
static LogicalResult verifyMaskShape(Operation *op, MaskKind kind, Value mask,
                                     ArrayRef<int64_t> full /*B,H,Sq,Sk*/) {
  auto type = cast<ShapedType>(mask.getType());
  bool custom = kind == MaskKind::custom;
  int64_t rank = type.getRank();
  if (rank != 2 && rank != 4)
    return op->emitOpError()
           << "expects a '" << stringifyMaskKind(kind) << "' 'mask' of rank "
           << (custom ? "2 ([B, Sk])" : "2 ([Sq, Sk])") << " or 4 "
           << (custom ? "([B, H, Sq, Sk])"
                      : "(broadcastable to [B, H, Sq, Sk])")
           << ", got rank " << rank;
  static const char *names[] = {"B", "H", "Sq", "Sk"};
  for (auto [d, t] : llvm::enumerate(maskTargets(kind, rank))) {
    int64_t got = type.getDimSize(d);
    bool broadcast = !custom && rank == 4 && got == 1;
    if (!broadcast && isStaticNotEqual(got, full[t]))
      return op->emitOpError()
             << "expects dim " << d << " of the '" << stringifyMaskKind(kind)
             << "' 'mask' (" << got << ") to equal " << names[t] << " ("
             << full[t] << ")" << (!custom && rank == 4 ? " or 1" : "");
  }
  return success();
}

/// The rules shared by rlx.attention and rlx.attention_backward. `dy` is null
/// for the forward op; `expected` is the input whose shape the result has.
template <typename OpTy>
static LogicalResult verifyAttention(OpTy op, Value dy, Value expected,
                                     StringRef expectedName) {
  Operation *o = op.getOperation();
  Value q = op.getQ(), k = op.getK(), v = op.getV(), mask = op.getMask();
  Value result = o->getResult(0);

  // Attributes.
  int64_t heads = op.getNumHeadsAttr().getInt();
  int64_t headDim = op.getHeadDimAttr().getInt();
  int64_t kvHeads = op.getKvHeads();
  int64_t valueDim = op.getValueDim();
  // Diagnostics name the attribute a number came from (its default too).
  StringRef kvName = op.getNumKvHeadsAttr() ? "num_kv_heads" : "num_heads";
  StringRef valueName =
      op.getValueHeadDimAttr() ? "value_head_dim" : "head_dim";
  for (auto [value, name] :
       {std::pair(heads, "num_heads"), std::pair(headDim, "head_dim"),
        std::pair(kvHeads, "num_kv_heads"),
        std::pair(valueDim, "value_head_dim")})
    if (value < 1)
      return op.emitOpError()
             << "expects '" << name << "' to be positive, got " << value;
  // Grouped query: each key/value head serves num_heads / num_kv_heads query
  // heads, so the groups must be whole.
  if (heads % kvHeads != 0)
    return op.emitOpError() << "expects 'num_kv_heads' (" << kvHeads
                            << ") to divide 'num_heads' (" << heads << ")";
  // The [B, S, H*D] layout computes H*D (and H*Dv; Hkv <= H); it must not
  // wrap.
  for (auto [dim, name] :
       {std::pair(headDim, "head_dim"), std::pair(valueDim, "value_head_dim")})
    if (!llvm::checkedMul(heads, dim))
      return op.emitOpError() << "expects 'num_heads' * '" << name << "' ("
                              << heads << " * " << dim << ") to fit in 64 bits";
  MaskKind kind = op.getMaskKind();
  IntegerAttr window = op.getWindowAttr();
  if (kind == MaskKind::sliding_window && !window)
    return op.emitOpError()
           << "expects a 'window' attribute with mask_kind sliding_window";
  if (kind != MaskKind::sliding_window && window)
    return op.emitOpError()
           << "expects no 'window' attribute with mask_kind "
           << stringifyMaskKind(kind) << " (only sliding_window takes one)";
  if (window && window.getInt() < 0)
    return op.emitOpError()
           << "expects 'window' to be non-negative, got " << window.getInt();
  for (auto [attr, name] : {std::pair(op.getScaleAttr(), "scale"),
                            std::pair(op.getSoftcapAttr(), "softcap")}) {
    if (!attr)
      continue;
    double value = attr.getValueAsDouble();
    if (!(value > 0) || !std::isfinite(value))
      return op.emitOpError() << "expects '" << name
                              << "' to be positive and finite, got " << value;
  }
  bool needsMask = kind == MaskKind::custom || kind == MaskKind::bias;
  if (needsMask && !mask)
    return op.emitOpError() << "expects a 'mask' operand with mask_kind "
                            << stringifyMaskKind(kind);
  if (!needsMask && mask)
    return op.emitOpError()
           << "expects no 'mask' operand with mask_kind "
           << stringifyMaskKind(kind) << " (only custom and bias take one)";

  // Layout: every sequence operand (and the result) has q's rank, 3 or 4.
  if (failed(verifyRankIn(o, q, "q", {3, 4})))
    return failure();
  int64_t rank = cast<ShapedType>(q.getType()).getRank();
  // Each sequence operand with its heads and head dim: q and k have D, v and
  // the output (dy) Dv; k and v have the key/value heads. `queryRows` marks
  // the operands with Sq rows (the others have Sk).
  struct SeqOperand {
    Value value;
    StringRef name;
    bool queryRows;
    int64_t heads;
    StringRef headsName;
    int64_t dim;
    StringRef dimName;
  };
  SmallVector<SeqOperand> seqs = {
      {q, "q", true, heads, "num_heads", headDim, "head_dim"},
      {k, "k", false, kvHeads, kvName, headDim, "head_dim"},
      {v, "v", false, kvHeads, kvName, valueDim, valueName}};
  if (dy)
    seqs.push_back({dy, "dy", true, heads, "num_heads", valueDim, valueName});
  // The result has the shape of `expected` (checked below); of the forward
  // op that is the output's [.., H, Sq, Dv].
  if (!dy)
    seqs.push_back(
        {result, "result", true, heads, "num_heads", valueDim, valueName});
  for (const SeqOperand &s : seqs) {
    if (failed(verifyRank(o, s.value, s.name, rank)) ||
        failed(verifySameElementType(o, q, "q", s.value, s.name)))
      return failure();
  }
  if (dy && (failed(verifyRank(o, result, "result", rank)) ||
             failed(verifySameElementType(o, q, "q", result, "result"))))
    return failure();
  if (mask && failed(verifySameElementType(o, q, "q", mask, "mask")))
    return failure();

  // Heads and head dim; batch; Sq shared by q, dy and the output, Sk by k and
  // v.
  int64_t seqDim = rank == 4 ? 2 : 1;
  for (const SeqOperand &s : seqs) {
    if (rank == 4) {
      if (failed(
              verifyDimEquals(o, s.value, s.name, 1, s.heads, s.headsName)) ||
          failed(verifyDimEquals(o, s.value, s.name, 3, s.dim, s.dimName)))
        return failure();
    } else if (failed(
                   verifyDimEquals(o, s.value, s.name, 2, s.heads * s.dim,
                                   (s.headsName + " * " + s.dimName).str()))) {
      return failure();
    }
    if (failed(verifyDimsMatch(o, s.value, s.name, 0, q, "q", 0)))
      return failure();
  }
  // B agrees among k, v, dy and the result even when q's is dynamic.
  for (size_t i = 1; i < seqs.size(); ++i)
    for (size_t j = i + 1; j < seqs.size(); ++j)
      if (failed(verifyDimsMatch(o, seqs[j].value, seqs[j].name, 0,
                                 seqs[i].value, seqs[i].name, 0)))
        return failure();
  for (const SeqOperand &s : seqs)
    if (s.value != q && s.value != k &&
        failed(verifyDimsMatch(o, s.value, s.name, seqDim, s.queryRows ? q : k,
                               s.queryRows ? "q" : "k", seqDim)))
      return failure();
  // A gradient has the shape of its input.
  if (dy && failed(verifyCompatibleShapes(o, result, "result", expected,
                                          expectedName)))
    return failure();

  if (mask) {
    int64_t sk = dimOf(k, seqDim);
    if (ShapedType::isDynamic(sk))
      sk = dimOf(v, seqDim);
    // B and Sq from whichever operand has them static (they agree).
    int64_t batch = ShapedType::kDynamic;
    for (const SeqOperand &s : seqs)
      if (ShapedType::isDynamic(batch))
        batch = dimOf(s.value, 0);
    int64_t sq = dimOf(q, seqDim);
    if (ShapedType::isDynamic(sq) && dy)
      sq = dimOf(dy, seqDim);
    int64_t full[] = {batch, heads, sq, sk};
    NamedDim sources[] = {{q, "q", 0}, {q, "q", seqDim}, {k, "k", seqDim}};
    if (failed(verifyMaskShape(o, kind, mask, full)) ||
        failed(recordMaskShape(o, kind, mask, sources, heads)))
      return failure();
  }
  return success();
}

LogicalResult AttentionOp::verify() {
  return verifyAttention(*this, Value(), getQ(), "q");
}

LogicalResult AttentionBackwardOp::verify() {
  switch (getWrt()) {
  case AttentionWrt::query:
    return verifyAttention(*this, getDy(), getQ(), "q");
  case AttentionWrt::key:
    return verifyAttention(*this, getDy(), getK(), "k");
  case AttentionWrt::value:
    return verifyAttention(*this, getDy(), getV(), "v");
  }
  return emitOpError() << "has an unknown 'wrt'";
}

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxAttentionOps.cpp.inc"

void RlxDialect::registerAttentionOps() {
  addFamily<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxAttentionOps.cpp.inc"
      >();
}
