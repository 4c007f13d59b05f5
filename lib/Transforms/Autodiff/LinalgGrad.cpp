//===- LinalgGrad.cpp - reverse rule of linalg structured ops -------------===//
//
// One rule for every linalg structured op on tensors (named ops through the
// scalar body they carry): with loops i, inputs x_k read through maps M_k and
// outputs y_j = f_j(x(i)) written through N_j,
//
//   dx_k[M_k(i)] += sum_j df_j/dx_k (i) * dy_j[N_j(i)]     for every i
//
// is one linalg.generic per needed operand over the same loops: it reads
// the forward operands and the dy_j, recomputes the body, runs the scalar
// reverse rules (ArithGrad.cpp) and writes through M_k, so loops that M_k
// omits become reductions (the adjoint of a broadcast is a sum over the
// broadcast dims; matmul's dA sums over n). Reductions must combine the
// output with a sum (dx gets dy, the init gets dy) or a max/min (dx gets dy
// where it equals the result, as PyTorch's amax for distinct values).
//
//===----------------------------------------------------------------------===//
#include "Autodiff/StructuredGrad.h"
#include "Common/Builders.h"
#include "Common/GradGlue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::rlx;

namespace {
enum class OutputKind { Map, Sum, Max, Min };
} // namespace

static Value addAdjoint(OpBuilder &b, Location loc, Value acc, Value value) {
  if (!acc)
    return value;
  return arith::AddFOp::create(b, loc, acc, value);
}

LogicalResult mlir::rlx::buildStructuredAdjoint(
    OpBuilder &b, Operation *op, const StructuredView &view,
    ArrayRef<Value> resultCotangents, ArrayRef<bool> needed,
    SmallVectorImpl<Value> &operandCotangents) {
  Location loc = op->getLoc();
  unsigned numOperands = view.operands.size();
  unsigned numInputs = view.numInputs;
  unsigned numOutputs = numOperands - numInputs;
  Block *body = view.body;
  Operation *yield = body->getTerminator();
  operandCotangents.assign(numOperands, Value());
  auto notDifferentiable = [&](const Twine &why) {
    return op->emitError() << "'" << op->getName()
                           << "' is not differentiable: " << why;
  };
  for (auto [i, map] : llvm::enumerate(view.maps))
    if (isa<ShapedType>(view.operands[i].getType()) &&
        !map.isProjectedPermutation())
      return notDifferentiable("indexing map #" + Twine(i) +
                               " is not a projected permutation");
  for (Value r : view.results)
    if (!isa<RankedTensorType>(r.getType()))
      return notDifferentiable("it does not work on tensors");

  // How each output combines: elementwise (Map), or a reduction of h into
  // the output by a sum, max or min.
  SmallVector<OutputKind> kinds(numOutputs, OutputKind::Map);
  SmallVector<Value> reduced(numOutputs);
  DenseSet<Operation *> combiners;
  for (unsigned j = 0; j < numOutputs; ++j) {
    if (!view.hasReduction)
      continue;
    BlockArgument out = body->getArgument(numInputs + j);
    Value yielded = yield->getOperand(j);
    Operation *comb = yielded.getDefiningOp();
    if (!comb || comb->getBlock() != body || comb->getNumOperands() != 2 ||
        !out.hasOneUse() || !yielded.hasOneUse() ||
        (comb->getOperand(0) == out) == (comb->getOperand(1) == out))
      return notDifferentiable("output #" + Twine(j) +
                               " is not a sum, max or min reduction");
    if (isa<arith::AddFOp>(comb))
      kinds[j] = OutputKind::Sum;
    else if (isa<arith::MaximumFOp, arith::MaxNumFOp>(comb))
      kinds[j] = OutputKind::Max;
    else if (isa<arith::MinimumFOp, arith::MinNumFOp>(comb))
      kinds[j] = OutputKind::Min;
    else
      return notDifferentiable("output #" + Twine(j) +
                               " is not a sum, max or min reduction");
    reduced[j] = comb->getOperand(comb->getOperand(0) == out ? 1 : 0);
    combiners.insert(comb);
  }

  // The inits of reductions.
  for (unsigned j = 0; j < numOutputs; ++j) {
    unsigned k = numInputs + j;
    Value dy = resultCotangents[j];
    if (!needed[k] || !dy || kinds[j] == OutputKind::Map)
      continue;
    if (kinds[j] == OutputKind::Sum) {
      operandCotangents[k] = dy;
      continue;
    }
    // max/min: the init wins where it equals the result.
    operandCotangents[k] = buildElementwise(
        b, loc, {view.operands[k], view.results[j], dy},
        [](OpBuilder &nb, Location nl, ValueRange a) -> Value {
          Value eq = arith::CmpFOp::create(nb, nl, arith::CmpFPredicate::OEQ,
                                           a[0], a[1]);
          return arith::SelectOp::create(nb, nl, eq, a[2],
                                         floatConst(nb, nl, a[2].getType(), 0));
        });
  }

  // One generic per operand read by the body.
  for (unsigned k = 0; k < numOperands; ++k) {
    if (!needed[k])
      continue;
    if (k >= numInputs && (kinds[k - numInputs] != OutputKind::Map ||
                           body->getArgument(k).use_empty()))
      continue;

    // Inputs of the adjoint: the forward inputs, the outputs the body reads,
    // the result cotangents, the results of max/min reductions.
    SmallVector<GenericOperand> ins;
    SmallVector<int> argOf(numOperands, -1);
    for (unsigned i = 0; i < numInputs; ++i) {
      argOf[i] = ins.size();
      ins.push_back({view.operands[i], view.maps[i]});
    }
    for (unsigned j = 0; j < numOutputs; ++j) {
      unsigned o = numInputs + j;
      if (kinds[j] == OutputKind::Map && !body->getArgument(o).use_empty()) {
        argOf[o] = ins.size();
        ins.push_back({view.operands[o], view.maps[o]});
      }
    }
    SmallVector<int> dyArg(numOutputs, -1), yArg(numOutputs, -1);
    for (unsigned j = 0; j < numOutputs; ++j) {
      if (!resultCotangents[j])
        continue;
      dyArg[j] = ins.size();
      ins.push_back({resultCotangents[j], view.maps[numInputs + j]});
      if (kinds[j] == OutputKind::Max || kinds[j] == OutputKind::Min) {
        yArg[j] = ins.size();
        ins.push_back({view.results[j], view.maps[numInputs + j]});
      }
    }

    // The output: operand k's shape through its map (a 0-d tensor for a
    // scalar operand); accumulated unless the map visits each element once.
    Value operand = view.operands[k];
    AffineMap map = view.maps[k];
    unsigned numLoops = map.getNumDims();
    bool scalar = !isa<ShapedType>(operand.getType());
    bool once = !scalar && map.getNumResults() == numLoops;
    Value init;
    if (scalar) {
      Value empty = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{},
                                            operand.getType());
      init = filled(b, loc, empty, 0.0);
      map = AffineMap::get(numLoops, 0, {}, b.getContext());
    } else {
      init = once ? emptyLike(b, loc, operand) : filledLike(b, loc, operand, 0);
    }

    Operation *failedOp = nullptr;
    bool flows = true;
    SmallVector<Value> adjoint = buildGeneric(
        b, loc, ins, {{init, map}},
        [&](OpBuilder &nb, Location nl, ValueRange args) {
          IRMapping mapping;
          for (unsigned o = 0; o < numOperands; ++o)
            if (argOf[o] >= 0)
              mapping.map(body->getArgument(o), args[argOf[o]]);
          SmallVector<Operation *> cloned;
          for (Operation &fwd : body->without_terminator())
            if (!combiners.contains(&fwd))
              cloned.push_back(nb.clone(fwd, mapping));

          DenseMap<Value, Value> adj;
          auto seed = [&](Value v, Value d) {
            v = mapping.lookupOrDefault(v);
            adj[v] = addAdjoint(nb, nl, adj.lookup(v), d);
          };
          for (unsigned j = 0; j < numOutputs; ++j) {
            if (dyArg[j] < 0)
              continue;
            Value dy = args[dyArg[j]];
            switch (kinds[j]) {
            case OutputKind::Map:
              seed(yield->getOperand(j), dy);
              break;
            case OutputKind::Sum:
              seed(reduced[j], dy);
              break;
            case OutputKind::Max:
            case OutputKind::Min: {
              Value h = mapping.lookupOrDefault(reduced[j]);
              Value eq = arith::CmpFOp::create(
                  nb, nl, arith::CmpFPredicate::OEQ, h, args[yArg[j]]);
              seed(reduced[j],
                   arith::SelectOp::create(
                       nb, nl, eq, dy, floatConst(nb, nl, dy.getType(), 0)));
              break;
            }
            }
          }
          for (Operation *c : llvm::reverse(cloned)) {
            SmallVector<Value> resultAdj;
            bool any = false;
            for (Value r : c->getResults()) {
              resultAdj.push_back(adj.lookup(r));
              any |= bool(resultAdj.back());
            }
            if (!any)
              continue;
            SmallVector<Value> operandAdj;
            if (failed(buildScalarAdjoint(nb, c, resultAdj, operandAdj))) {
              failedOp = c;
              break;
            }
            for (auto [v, a] : llvm::zip(c->getOperands(), operandAdj))
              if (a)
                adj[v] = addAdjoint(nb, nl, adj.lookup(v), a);
          }
          Value acc = args.back();
          Value partial = failedOp ? Value() : adj.lookup(args[argOf[k]]);
          if (!partial) {
            flows = false;
            return SmallVector<Value>{acc};
          }
          if (once)
            return SmallVector<Value>{partial};
          return SmallVector<Value>{
              arith::AddFOp::create(nb, nl, acc, partial).getResult()};
        });
    if (failedOp) {
      std::string name = failedOp->getName().getStringRef().str();
      adjoint[0].getDefiningOp()->erase();
      return notDifferentiable("its body op '" + name +
                               "' has no reverse rule");
    }
    if (!flows) { // operand k does not reach a differentiable output
      adjoint[0].getDefiningOp()->erase();
      continue;
    }
    // The recomputed forward values the adjoint does not use.
    Block &adjointBody = adjoint[0].getDefiningOp()->getRegion(0).front();
    for (Operation &o : llvm::make_early_inc_range(llvm::reverse(adjointBody)))
      if (isOpTriviallyDead(&o))
        o.erase();
    operandCotangents[k] =
        scalar ? tensor::ExtractOp::create(b, loc, adjoint[0], ValueRange{})
                     .getResult()
               : adjoint[0];
  }
  return success();
}

namespace {
/// Every linalg structured op, through its indexing maps and body.
template <typename OpTy>
struct LinalgGradModel
    : GradOpInterface::ExternalModel<LinalgGradModel<OpTy>, OpTy> {
  LogicalResult buildAdjoint(Operation *op, OpBuilder &b,
                             ArrayRef<Value> resultCotangents,
                             ArrayRef<bool> needed,
                             SmallVectorImpl<Value> &operandCotangents) const {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp || !linalgOp.hasPureTensorSemantics() ||
        op->getNumRegions() != 1 || op->getRegion(0).empty())
      return op->emitError() << "'" << op->getName()
                             << "' is not differentiable: only linalg ops on "
                                "tensors with a body are";
    StructuredView view;
    view.operands = llvm::to_vector(op->getOperands());
    view.numInputs = linalgOp.getNumDpsInputs();
    view.maps = linalgOp.getIndexingMapsArray();
    view.body = linalgOp.getBlock();
    view.results = SmallVector<Value>(op->getResults());
    view.hasReduction = linalgOp.getNumReductionLoops() > 0;
    if (view.operands.size() != view.maps.size())
      return op->emitError() << "'" << op->getName()
                             << "' is not differentiable: unexpected operands";
    return buildStructuredAdjoint(b, op, view, resultCotangents, needed,
                                  operandCotangents);
  }
};

template <typename... OpTys> void attachLinalg(MLIRContext *ctx) {
  (OpTys::template attachInterface<LinalgGradModel<OpTys>>(*ctx), ...);
}
} // namespace

void mlir::rlx::attachLinalgGradModels(MLIRContext *ctx) {
  attachLinalg<
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
      >(ctx);
}
