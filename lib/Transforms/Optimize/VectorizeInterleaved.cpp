//===- VectorizeInterleaved.cpp - generics with interleaved outputs -------===//
//
// max_pool2d_backward's gather form writes dx viewed as [H/s, s, W/s, s]:
// each position (j, pw) of a phase row from the windows around column j.
// Its innermost loop, the column phase pw, is a few elements that only the
// output walks; the inputs (argmaxes and dy of the windows) walk the column
// loop j, unit stride. rlx-vectorize-rows' row tiles need a long innermost
// loop, and lowered to scalar loops LLVM vectorized the phases with
// interleave groups: plain stores that read each line of dx for ownership
// before writing it.
//
// Here the column loop is the vector dimension, V columns at a time:
//
//   scf.for (each index of the outer loops)
//     scf.for j by V
//       the inputs at columns [j, j + V): one vector<V> each, shared by
//         the phases
//       the body once per phase pw = 0 .. S-1 on vector<V> operands
//       one vector.shuffle interleaving the S results into vector<S*V>
//       one contiguous transfer_write at column j*S of the output with its
//         last two dims merged
//     the remainder columns (< V): the same once, at their width
//
// The stores are whole vectors, so rlx-streaming-stores can make them
// non-temporal when the output is a large write-only buffer.
//
//===----------------------------------------------------------------------===//
#include "Optimize/VectorizeInterleaved.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

/// Phases (the innermost range) at most: the body is cloned once per phase.
static constexpr int64_t kMaxPhases = 8;

/// Lanes per vector at most (i1 or i8 outputs would otherwise make shuffles
/// of thousands of elements).
static constexpr int64_t kMaxLanes = 64;

/// The lanes per vector for `op`, or 0 when it is not of this form: pure
/// tensors, all loops parallel, one output with the identity map whose
/// value the body does not read, inputs with projected-permutation maps that
/// do not use the innermost loop and use the column loop (the one before)
/// last or not at all, a static innermost range of 2 to kMaxPhases and a
/// static column range, and a body of scalar arith/math ops and
/// linalg.index.
static int64_t planLanes(linalg::GenericOp op, int64_t vectorBits) {
  unsigned loops = op.getNumLoops();
  if (!op.hasPureTensorSemantics() || loops < 2 || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != loops ||
      op->getParentOfType<linalg::LinalgOp>())
    return 0;
  unsigned phaseDim = loops - 1, columnDim = loops - 2;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!op.getMatchingIndexingMap(init).isIdentity() ||
      op.payloadUsesValueFromOperand(init))
    return 0;
  // The ranges from the output's shape (the loops are its dims), which the
  // tiles are built from: an input's static size along a dynamic output
  // dim would make getStaticLoopRanges static where the output is not.
  auto initType = cast<RankedTensorType>(init->get().getType());
  int64_t phases = initType.getDimSize(phaseDim);
  if (ShapedType::isDynamic(phases) || phases < 2 || phases > kMaxPhases ||
      initType.isDynamicDim(columnDim))
    return 0;
  int64_t bits = 0;
  auto account = [&](Type type) {
    Type element = getElementTypeOrSelf(type);
    if (element.isIntOrFloat())
      bits = std::max<int64_t>(bits, element.getIntOrFloatBitWidth());
  };
  account(init->get().getType());
  for (OpOperand *input : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isProjectedPermutation() || map.isFunctionOfDim(phaseDim))
      return 0;
    for (auto [i, expr] : llvm::enumerate(map.getResults()))
      if (cast<AffineDimExpr>(expr).getPosition() == columnDim &&
          i + 1 != map.getNumResults())
        return 0;
    account(input->get().getType());
  }
  for (Operation &inner : op.getBody()->without_terminator()) {
    if (isa<linalg::IndexOp>(inner))
      continue;
    if (!isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()) ||
        inner.getNumRegions() != 0)
      return 0;
    for (Type type : inner.getResultTypes()) {
      if (!type.isIntOrIndexOrFloat())
        return 0;
      account(type);
    }
  }
  if (bits == 0)
    return 0;
  int64_t lanes = std::min(vectorBits / bits, kMaxLanes);
  return lanes >= 2 ? lanes : 0;
}

namespace {
/// Builds the vectorized tiles of one generic.
class InterleavedTile {
public:
  InterleavedTile(linalg::GenericOp op) : op(op) {
    auto initType = cast<RankedTensorType>(op.getDpsInits()[0].getType());
    columnDim = initType.getRank() - 2;
    phases = initType.getShape().back();
  }

  /// Columns [column, column + width) of every phase at outer indices
  /// `outer`, written into the merged output `acc`; returns the new `acc`.
  Value build(OpBuilder &b, Location loc, int64_t width, Value column,
              ValueRange outer, Value acc) {
    IRMapping shared;
    for (OpOperand *input : op.getDpsInputOperands())
      shared.map(op.getMatchingBlockArgument(input),
                 readInput(b, loc, *input, width, column, outer));
    SmallVector<Value> results;
    for (int64_t phase = 0; phase < phases; ++phase) {
      IRMapping map = shared;
      results.push_back(cloneBody(b, loc, map, width, phase, column, outer));
    }
    Value interleaved = interleave(b, loc, results, width);
    Value phaseCount = arith::ConstantIndexOp::create(b, loc, phases);
    SmallVector<Value> indices(outer);
    indices.push_back(arith::MulIOp::create(b, loc, column, phaseCount));
    return vector::TransferWriteOp::create(b, loc, interleaved, acc, indices,
                                           ArrayRef<bool>{true})
        .getResult();
  }

private:
  linalg::GenericOp op;
  unsigned columnDim;
  int64_t phases;

  static Value broadcast(OpBuilder &b, Location loc, Value scalar,
                         int64_t width) {
    return vector::BroadcastOp::create(
        b, loc, VectorType::get({width}, scalar.getType()), scalar);
  }

  /// An input's vector<width> at the tile: read along the column loop, or
  /// its one element broadcast when it does not walk it.
  Value readInput(OpBuilder &b, Location loc, OpOperand &input, int64_t width,
                  Value column, ValueRange outer) {
    Value source = input.get();
    auto type = dyn_cast<RankedTensorType>(source.getType());
    if (!type)
      return broadcast(b, loc, source, width);
    SmallVector<Value> indices;
    bool walks = false;
    for (AffineExpr expr : op.getMatchingIndexingMap(&input).getResults()) {
      unsigned dim = cast<AffineDimExpr>(expr).getPosition();
      walks |= dim == columnDim;
      indices.push_back(dim == columnDim ? column : outer[dim]);
    }
    if (!walks)
      return broadcast(
          b, loc, tensor::ExtractOp::create(b, loc, source, indices), width);
    return vector::TransferReadOp::create(
        b, loc, VectorType::get({width}, type.getElementType()), source,
        indices, /*padding=*/std::nullopt, ArrayRef<bool>{true});
  }

  /// linalg.index of `dim` in the tile of phase `phase`.
  Value index(OpBuilder &b, Location loc, unsigned dim, int64_t width,
              int64_t phase, Value column, ValueRange outer) {
    if (dim < columnDim)
      return broadcast(b, loc, outer[dim], width);
    if (dim > columnDim)
      return broadcast(b, loc, arith::ConstantIndexOp::create(b, loc, phase),
                       width);
    auto type = VectorType::get({width}, b.getIndexType());
    Value step = vector::StepOp::create(b, loc, type);
    return arith::AddIOp::create(b, loc, step,
                                 broadcast(b, loc, column, width));
  }

  /// The body on vector<width> operands for one phase; returns the yielded
  /// vector. An op none of whose operands is a vector (a constant, or
  /// arith on values from outside) stays scalar and is broadcast.
  Value cloneBody(OpBuilder &b, Location loc, IRMapping &map, int64_t width,
                  int64_t phase, Value column, ValueRange outer) {
    auto vectorOf = [&](Value v) -> Value {
      if (Value mapped = map.lookupOrNull(v))
        return mapped;
      Value wide = broadcast(b, loc, v, width);
      map.map(v, wide);
      return wide;
    };
    for (Operation &inner : op.getBody()->without_terminator()) {
      if (auto idx = dyn_cast<linalg::IndexOp>(inner)) {
        map.map(idx.getResult(),
                index(b, loc, idx.getDim(), width, phase, column, outer));
        continue;
      }
      bool onVectors = llvm::any_of(inner.getOperands(), [&](Value v) {
        return map.contains(v) && isa<VectorType>(map.lookup(v).getType());
      });
      if (!onVectors) {
        Operation *scalar = b.clone(inner);
        for (auto [from, to] :
             llvm::zip(inner.getResults(), scalar->getResults()))
          map.map(from, broadcast(b, loc, to, width));
        continue;
      }
      OperationState state(loc, inner.getName());
      for (Value operand : inner.getOperands())
        state.addOperands(vectorOf(operand));
      for (Type type : inner.getResultTypes())
        state.addTypes(VectorType::get({width}, type));
      state.addAttributes(inner.getAttrs());
      Operation *wide = b.create(state);
      map.map(inner.getResults(), wide->getResults());
    }
    return vectorOf(op.getBody()->getTerminator()->getOperand(0));
  }

  /// The phases' vectors v_0 .. v_{S-1} (width lanes each) as one vector
  /// with element j*S + s = v_s[j]: concatenated, then one permutation.
  Value interleave(OpBuilder &b, Location loc, ArrayRef<Value> parts,
                   int64_t width) {
    Value all = parts.front();
    for (Value part : parts.drop_front()) {
      int64_t length = cast<VectorType>(all.getType()).getNumElements();
      SmallVector<int64_t> concat(length + width);
      std::iota(concat.begin(), concat.end(), 0);
      all = vector::ShuffleOp::create(b, loc, all, part, concat);
    }
    SmallVector<int64_t> mask;
    for (int64_t j = 0; j < width; ++j)
      for (int64_t s = 0; s < phases; ++s)
        mask.push_back(s * width + j);
    return vector::ShuffleOp::create(b, loc, all, all, mask);
  }
};
} // namespace

/// Replaces `op` by its vectorized loops (the file header).
static void vectorizeInterleaved(RewriterBase &rewriter, linalg::GenericOp op,
                                 int64_t lanes) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value init = op.getDpsInits()[0];
  auto initType = cast<RankedTensorType>(init.getType());
  unsigned loops = op.getNumLoops();
  SmallVector<ReassociationIndices> merge;
  for (unsigned d = 0; d + 2 < loops; ++d)
    merge.push_back({static_cast<int64_t>(d)});
  merge.push_back(
      {static_cast<int64_t>(loops) - 2, static_cast<int64_t>(loops) - 1});
  Value merged = tensor::CollapseShapeOp::create(rewriter, loc, init, merge);

  SmallVector<Value> lbs, ubs, steps;
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (unsigned d = 0; d + 2 < loops; ++d) {
    lbs.push_back(zero);
    ubs.push_back(getValueOrCreateConstantIndexOp(
        rewriter, loc, linalg::createFoldedDimOp(rewriter, loc, init, d)));
    steps.push_back(one);
  }
  int64_t columns = initType.getDimSize(loops - 2);
  int64_t mainColumns = columns / lanes * lanes;
  InterleavedTile tile(op);
  scf::LoopNest nest = scf::buildLoopNest(
      rewriter, loc, lbs, ubs, steps, ValueRange{merged},
      [&](OpBuilder &b, Location l, ValueRange outer,
          ValueRange args) -> scf::ValueVector {
        Value acc = args[0];
        if (mainColumns > 0) {
          auto loop = scf::ForOp::create(
              b, l, arith::ConstantIndexOp::create(b, l, 0),
              arith::ConstantIndexOp::create(b, l, mainColumns),
              arith::ConstantIndexOp::create(b, l, lanes), ValueRange{acc},
              [&](OpBuilder &b, Location l, Value column, ValueRange iter) {
                scf::YieldOp::create(
                    b, l, tile.build(b, l, lanes, column, outer, iter[0]));
              });
          acc = loop.getResult(0);
        }
        if (columns > mainColumns)
          acc = tile.build(b, l, columns - mainColumns,
                           arith::ConstantIndexOp::create(b, l, mainColumns),
                           outer, acc);
        return {acc};
      });
  Value result = nest.results.front();
  rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, initType, result,
                                                     merge);
}

int64_t mlir::rlx::vectorizeInterleavedGenerics(RewriterBase &rewriter,
                                                Operation *root,
                                                int64_t vectorBits) {
  SmallVector<std::pair<linalg::GenericOp, int64_t>> candidates;
  root->walk([&](linalg::GenericOp op) {
    if (int64_t lanes = planLanes(op, vectorBits))
      candidates.push_back({op, lanes});
  });
  for (auto [op, lanes] : candidates)
    vectorizeInterleaved(rewriter, op, lanes);
  return candidates.size();
}
