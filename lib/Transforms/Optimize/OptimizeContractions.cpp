//===- OptimizeContractions.cpp - the rlx-optimize-contractions pass ------===//
//
// Rewrites every linalg contraction on tensors, C[...] += A[...] * B[...]
// (matmul, batch_matmul, linalg.contract, contraction generics, and
// generics whose indices are sums of dims such as a direct convolution),
// into a register-blocked micro-kernel:
//
//   scf.forall (batch dims, m-block MC, n-block NC)   threads, whole C blocks
//     [scf.for reduction blocks]                       a small C, a large B:
//                                                      planOuterReduction
//     scf.for k-block KC                               (a single reduction dim)
//       [scf.for m-block of A]                         packed: B once per KC
//       scf.for n by NR                                peeled: static tiles
//         scf.for m by MR                              peeled: static tiles
//           acc[0..MR) = C rows (vector<NR>)           in vector registers
//           scf.for reduction dims
//             b = B[k, n:n+NR]                         one contiguous load
//             acc[i] = fma(broadcast(A[m+i, k]), b, acc[i])
//           C rows = acc
//
// n is the loop of C's last (unit-stride) dim; B is the operand whose last
// index advances with n with unit stride, A the other one (not indexed by
// n, or, when both operands have rows along n, the one indexed by more of
// C's dims: its rows are then loaded as vectors instead of broadcast, e.g.
// the per-column partial sums of a depthwise weight gradient). A row whose
// width is not a power of two is computed as overlapping one-register
// pieces (column-pieces). When B is indexed by n elsewhere than last (q k^T in
// attention), it is first copied into a layout with n last. The reduction is
// never split across threads, so a result is bitwise the same for any thread
// count.
//
// When C starts as a fill of a constant and the reduction is one KC block,
// C is never filled: the accumulators start as the constant; with several
// KC blocks, those of the first block do (an scf.if on the block index).
// Otherwise the blocks of C fill their own tile (the fill of C is fused
// in). When an input is a small zero padding (tensor.pad) of a convolution
// plane, the blocks are whole planes that pad their part in cache
// (planeDims: a depthwise convolution and its weight gradient). The large copies left
// outside any loop (a dense convolution's padded input, dy transposed with
// n last, a strided input split into stride phases) become scf.foralls.
//
// Tile sizes come from the shapes and the vector width: NR = two vectors,
// MR accumulator rows use half the vector registers, what a KC block of B
// occupies for one NR-wide column strip (a KC x NR panel of a matmul, with
// overlapping taps counted once for a convolution) fits in L1 and an MC x
// KC block of A in L2; block sizes that divide the
// static sizes are preferred (static edge tiles), and there are enough
// blocks for every thread. Tiles left dynamic (dynamic m or n) stay linalg
// ops and take the scalar loop path.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Transforms/Passes.h"

#include "Common/Builders.h"
#include "Optimize/HostTarget.h"
#include "Optimize/ParallelCopies.h"
#include "Optimize/Tiling.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringMap.h"

#include <thread>

namespace mlir::rlx {
#define GEN_PASS_DEF_RLXOPTIMIZECONTRACTIONS
#include "RlxAD/Transforms/Passes.h.inc"
} // namespace mlir::rlx

using namespace mlir;

/// Marks the contractions (and their tiles) this pass vectorizes.
static constexpr StringLiteral kMarker = "rlx.micro_kernel";
/// On a KC-block loop whose C starts as a fill of this constant: its
/// micro-kernels start the first block's accumulators from the constant.
static constexpr StringLiteral kFirstBlockInit = "rlx.first_block_init";

namespace {
/// How one contraction is tiled. Dims are loop positions; A is the input
/// not indexed by n (its elements are broadcast), B the one whose last index
/// advances with n (its rows are loaded as vectors).
struct ContractionPlan {
  unsigned aIndex, bIndex;
  unsigned mDim, nDim;
  SmallVector<unsigned> kDims;
  SmallVector<unsigned> batchDims; // the other parallel dims: tile 1
  int64_t mc, nc, kc, mr, nr;
  // Reduction dims blocked outside the register tiles, as (dim, block
  // size): a C small enough for L2 whose blocks would each stream a large
  // B. The blocks of C then span the batch dims, and each runs these
  // reduction blocks in turn.
  SmallVector<std::pair<unsigned, int64_t>> outerK;
  bool pack = false; // copy the KC blocks of A and B into padded buffers
  // With pack: the rows of A packed at a time, when fewer than mc (Goto's
  // loop order: a block of C packs each KC block of B once and runs its
  // mcInner-row blocks of A against it). 0: A is packed per KC block.
  int64_t mcInner = 0;
  int64_t pad = 0;
  // A's last index also advances with n (unit stride): its rows are loaded
  // as vectors like B's, not broadcast (elementwise products, such as the
  // per-column partial sums of a depthwise weight gradient).
  bool aVector = false;
};
} // namespace

/// A block size for a loop of `size` (kDynamic if unknown): the whole loop
/// when it fits in `target`, else a size in [target/2, target] that divides
/// `size` (a multiple of `micro` if one does) so that the blocks, and the
/// peeled register tiles in them, stay static; else a multiple of `micro`.
static int64_t pickBlock(int64_t size, int64_t micro, int64_t target) {
  target = std::max(micro, target);
  int64_t rounded = std::max(micro, target / micro * micro);
  if (ShapedType::isDynamic(size))
    return rounded;
  if (size <= target)
    return size;
  for (int64_t t = rounded; t >= std::max(micro, target / 2); t -= micro)
    if (size % t == 0)
      return t;
  for (int64_t t = target; t >= std::max<int64_t>(1, target / 2); --t)
    if (size % t == 0)
      return t;
  return rounded;
}

static int64_t numBlocks(int64_t size, int64_t block) {
  if (ShapedType::isDynamic(size))
    return 4;
  return block == 0 ? 1 : llvm::divideCeil(size, block);
}

/// Whether the body of `op` is `out + a * b` (either operand order).
static bool isMulAddBody(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (body->getNumArguments() != 3 || !llvm::hasNItems(*body, 3))
    return false;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  auto add = yield.getValues()[0].getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value acc = body->getArgument(2), prod;
  if (add.getLhs() == acc)
    prod = add.getRhs();
  else if (add.getRhs() == acc)
    prod = add.getLhs();
  else
    return false;
  auto mul = prod.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  Value a = body->getArgument(0), b = body->getArgument(1);
  return (mul.getLhs() == a && mul.getRhs() == b) ||
         (mul.getLhs() == b && mul.getRhs() == a);
}

/// The coefficient of `dim` in `expr` when `expr` is `dim` times a constant
/// plus terms without `dim` (0 when it has no `dim`), or nullopt.
static std::optional<int64_t> coefficientOf(AffineExpr expr, unsigned dim) {
  if (!expr.isFunctionOfDim(dim))
    return 0;
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return 1;
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return std::nullopt;
  if (bin.getKind() == AffineExprKind::Add) {
    std::optional<int64_t> l = coefficientOf(bin.getLHS(), dim),
                           r = coefficientOf(bin.getRHS(), dim);
    if (!l || !r)
      return std::nullopt;
    return *l + *r;
  }
  if (bin.getKind() == AffineExprKind::Mul) {
    auto c = dyn_cast<AffineConstantExpr>(bin.getRHS());
    std::optional<int64_t> l = coefficientOf(bin.getLHS(), dim);
    if (!c || !l)
      return std::nullopt;
    return *l * c.getValue();
  }
  return std::nullopt;
}

/// The elements of the operand indexed by `map` that loops of extents
/// `sizeOf(d)` read: the product over its indices of 1 + sum_d |c_d| *
/// (size_d - 1). Where an index sums dims (a convolution's i + a and j + b)
/// the rows that neighbouring loop values read overlap and count once.
/// nullopt when an index is not a sum of dims with constant coefficients, a
/// size is dynamic, or (without `negativeOk`) a coefficient is negative.
static std::optional<int64_t>
elementsRead(AffineMap map, function_ref<int64_t(unsigned)> sizeOf,
             bool negativeOk) {
  int64_t elements = 1;
  for (AffineExpr e : map.getResults()) {
    int64_t extent = 1;
    for (unsigned d = 0; d < map.getNumDims(); ++d) {
      std::optional<int64_t> c = coefficientOf(e, d);
      if (!c || (*c < 0 && !negativeOk))
        return std::nullopt;
      if (*c == 0)
        continue;
      int64_t size = sizeOf(d);
      if (ShapedType::isDynamic(size))
        return std::nullopt;
      extent += std::abs(*c) * (size - 1);
    }
    elements *= extent;
  }
  return elements;
}

/// The elements of B (indexed by `bMap`) that one NR-wide column strip of
/// C reads in a block of `kc` steps of the first reduction dim (the other
/// reduction dims whole): a 3x3 convolution's KC channels are KC x 3 rows
/// of NR + 2 elements, not KC x 9 rows of NR.
static std::optional<int64_t> footprintOfB(AffineMap bMap,
                                           const ContractionPlan &plan,
                                           ArrayRef<int64_t> ranges,
                                           int64_t kc) {
  return elementsRead(
      bMap,
      [&](unsigned d) -> int64_t {
        if (d == plan.nDim)
          return plan.nr;
        if (d == plan.kDims.front())
          return kc;
        return llvm::is_contained(plan.kDims, d) ? ranges[d] : 1;
      },
      /*negativeOk=*/true);
}

/// The KC block (at least 1) of the first reduction dim whose B footprint
/// (footprintOfB) fits in `budget` elements; when it cannot be computed,
/// KC x `inner` (the other reduction extents) rows of NR elements. 1 when
/// even one step overflows the budget.
static int64_t pickBlockOfK(AffineMap bMap, const ContractionPlan &plan,
                            ArrayRef<int64_t> ranges, int64_t budget,
                            int64_t inner) {
  std::optional<int64_t> f1 = footprintOfB(bMap, plan, ranges, 1),
                         f2 = footprintOfB(bMap, plan, ranges, 2);
  if (!f1 || !f2 || *f2 <= *f1) {
    int64_t steps = std::max<int64_t>(16, budget / plan.nr);
    return std::max<int64_t>(1, steps / inner);
  }
  if (*f1 > budget)
    return 1;
  int64_t perStep = *f2 - *f1;
  int64_t kc = std::max<int64_t>(1, (budget - (*f1 - perStep)) / perStep);
  // The estimate is linear in kc; shrink it should the footprint not be.
  while (kc > 1) {
    std::optional<int64_t> f = footprintOfB(bMap, plan, ranges, kc);
    if (f && *f <= budget)
      break;
    kc = kc * 3 / 4;
  }
  return kc;
}

/// Blocks the reduction outside the register tiles (plan.outerK) when C
/// fits in L2 (256 KiB) but B is large (over 1 MiB, a Zen 4 core's L2) and
/// read whole by each of several C blocks: a block of B then stays in L2
/// while every tile of C that reads it runs, instead of all of B streaming
/// from L3 or memory once per block of C. A dense convolution's weight
/// gradient (147 KiB of C, 72 blocks: 3 x 3 taps x 8 blocks of input
/// channels) read its 6.4 MB dy 72 times per call; with stride 2 (a 1.6 MB
/// dy, 18 blocks) it ran 1.69-1.91 ms on 2 threads, now 1.35-1.75. The
/// first reduction dim is blocked by 1 and the second so that a block of B
/// is about 256 KiB; the sums keep their order (the blocks run in order),
/// so results are bitwise the same.
///
/// The blocks of C are then coarse: every batch index (tap), all of n and
/// one thread's share of m, each running all the reduction blocks. One
/// scf.forall per call instead of one per reduction block (48 of them, each
/// ending in a join where the threads wait for the slowest): the 2-thread
/// weight gradient ran 5.41-5.46 ms, now 5.19-5.28; one thread, one block
/// of C, reads each block of B once as before.
/// `blocks`: the number of blocks of C the plan made before.
static void planOuterReduction(linalg::LinalgOp op, ContractionPlan &plan,
                               ArrayRef<int64_t> ranges, int64_t elemBytes,
                               int64_t blocks, int64_t threads) {
  // Not for row products (aVector: a depthwise weight gradient), whose
  // blocks pad their own planes of x in cache (planeDims).
  if (plan.aVector || plan.kDims.size() < 2 ||
      llvm::any_of(ranges, ShapedType::isDynamic))
    return;
  auto bytesOf = [&](Value v) -> int64_t {
    auto type = cast<RankedTensorType>(v.getType());
    return type.getNumElements() * elemBytes;
  };
  Value b = op.getDpsInputs()[plan.bIndex];
  if (bytesOf(op.getDpsInits()[0]) > (256 << 10) || bytesOf(b) < (1 << 20))
    return;
  if (blocks < 4)
    return;
  // Bytes of B per index of the second reduction dim: the n extent and
  // the reduction extents after it.
  int64_t rowBytes = elemBytes * ranges[plan.nDim];
  for (unsigned d : ArrayRef<unsigned>(plan.kDims).drop_front(2))
    rowBytes *= ranges[d];
  unsigned second = plan.kDims[1];
  int64_t rows = pickBlock(ranges[second], 1,
                           std::max<int64_t>(1, (256 << 10) / rowBytes));
  plan.outerK = {{plan.kDims[0], 1}, {second, rows}};
  int64_t m = ranges[plan.mDim];
  plan.mc = pickBlock(m, plan.mr, m / threads);
  plan.nc = ranges[plan.nDim];
}

/// Packed blocks of C copy their KC x NC block of B once per KC block, so a
/// matmul whose C has 8 blocks along m copies B 8 times (12% of a 1024^3
/// matmul's time, its source rows coming from L3). Grows the blocks along m
/// (doubling, while they divide m) so that each copies B once for several
/// mcInner-row blocks of A, the L2 block of A the plan chose. Stops where the
/// block of C, which each KC block reads and writes again, would leave a
/// 1 MiB part of L2, or where `balanced` (enough blocks for the threads)
/// would no longer hold.
static void growBlocksOverM(ContractionPlan &plan, int64_t m,
                            int64_t elemBytes,
                            llvm::function_ref<bool()> balanced) {
  if (ShapedType::isDynamic(m) || ShapedType::isDynamic(plan.nc))
    return;
  int64_t inner = plan.mc;
  for (int64_t mc = 2 * inner; mc <= m && m % mc == 0; mc *= 2) {
    if (mc * plan.nc * elemBytes > (int64_t(1) << 20))
      break;
    int64_t previous = plan.mc;
    plan.mc = mc;
    if (!balanced()) {
      plan.mc = previous;
      break;
    }
  }
  if (plan.mc > inner)
    plan.mcInner = inner;
}

/// Picks the roles, the dims and the tile sizes of `op`, or fails when it is
/// not a contraction this pass handles: C[...] += A[...] * B[...] with C
/// indexed by plain dims, the last one (n) advancing B's last index with
/// unit stride, and every reduction dim indexing both A and B.
static FailureOr<ContractionPlan>
planContraction(linalg::LinalgOp op, int64_t vectorBits, int64_t threads,
                bool reusePackedB) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op->getNumResults() != 1 || !isMulAddBody(op))
    return failure();
  auto outType = dyn_cast<RankedTensorType>(op.getDpsInits()[0].getType());
  if (!outType || outType.getRank() == 0)
    return failure();
  Type elementType = outType.getElementType();
  if (!elementType.isF32() && !elementType.isF64())
    return failure();
  for (Value input : op.getDpsInputs()) {
    auto type = dyn_cast<RankedTensorType>(input.getType());
    if (!type || type.getElementType() != elementType || type.getRank() == 0)
      return failure();
  }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap cMap = maps[2];
  if (!cMap.isProjectedPermutation() || cMap.getNumSymbols() != 0 ||
      maps[0].getNumSymbols() != 0 || maps[1].getNumSymbols() != 0)
    return failure();
  ContractionPlan plan;
  plan.nDim = cast<AffineDimExpr>(cMap.getResults().back()).getPosition();
  bool inA = maps[0].isFunctionOfDim(plan.nDim),
       inB = maps[1].isFunctionOfDim(plan.nDim);
  if (!inA && !inB)
    return failure();
  // Whether `map`'s last index advances with n, unit stride, and no other
  // index does.
  auto rowAlongN = [&](AffineMap map) {
    for (unsigned r = 0; r < map.getNumResults(); ++r) {
      std::optional<int64_t> c = coefficientOf(map.getResult(r), plan.nDim);
      bool last = r + 1 == map.getNumResults();
      if (!c || *c != (last ? 1 : 0))
        return false;
    }
    return true;
  };
  if (inA && inB) {
    // Both rows along n: B is the operand indexed by fewer of C's dims, A
    // (the rows of the register tile) the other one.
    if (!rowAlongN(maps[0]) || !rowAlongN(maps[1]))
      return failure();
    auto cDimsOf = [&](AffineMap map) {
      return llvm::count_if(cMap.getResults(), [&](AffineExpr e) {
        return map.isFunctionOfDim(cast<AffineDimExpr>(e).getPosition());
      });
    };
    int64_t c0 = cDimsOf(maps[0]), c1 = cDimsOf(maps[1]);
    if (c0 == c1)
      return failure();
    plan.bIndex = c0 < c1 ? 0 : 1;
    plan.aVector = true;
  } else {
    plan.bIndex = inA ? 0 : 1;
  }
  plan.aIndex = 1 - plan.bIndex;
  AffineMap aMap = maps[plan.aIndex], bMap = maps[plan.bIndex];
  if (!rowAlongN(bMap))
    return failure();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<unsigned> mDim;
  for (unsigned d = 0; d < op.getNumLoops(); ++d) {
    bool a = aMap.isFunctionOfDim(d), b = bMap.isFunctionOfDim(d),
         c = cMap.isFunctionOfDim(d);
    if (iterators[d] == utils::IteratorType::reduction) {
      if (c || !a || !b)
        return failure();
      plan.kDims.push_back(d);
      continue;
    }
    if (!c)
      return failure();
    if (d == plan.nDim)
      continue;
    plan.batchDims.push_back(d);
  }
  // m: the last dim of C that indexes A but not B.
  for (AffineExpr e : cMap.getResults()) {
    unsigned d = cast<AffineDimExpr>(e).getPosition();
    if (d != plan.nDim && aMap.isFunctionOfDim(d) && !bMap.isFunctionOfDim(d))
      mDim = d;
  }
  if (!mDim || plan.kDims.empty())
    return failure();
  plan.mDim = *mDim;
  llvm::erase(plan.batchDims, plan.mDim);

  // Register tile: NR = two vectors, MR rows of accumulators (half of the
  // 32 zmm registers with AVX-512, 12 of 16 ymm with AVX2).
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  // An empty contraction (a zero-sized dim, e.g. no input channels) has no
  // work to tile; the default lowering handles it.
  if (llvm::is_contained(ranges, 0))
    return failure();
  int64_t elemBytes = elementType.getIntOrFloatBitWidth() / 8;
  int64_t lanes = std::max<int64_t>(1, vectorBits / 8 / elemBytes);
  int64_t m = ranges[plan.mDim], n = ranges[plan.nDim];
  plan.nr = 2 * lanes;
  if (!ShapedType::isDynamic(n) && n <= lanes)
    plan.nr = lanes;
  plan.mr = vectorBits >= 512 ? 8 : 6;
  // KC blocks of the first reduction dim, so that the B elements one block
  // reads for an NR-wide column strip (a KC x NR panel of a matmul's B)
  // stay in L1 (32 KiB); an MC x KC block of A in L2 (128 KiB).
  int64_t inner = 1;
  for (unsigned d : ArrayRef<unsigned>(plan.kDims).drop_front())
    inner *= ShapedType::isDynamic(ranges[d]) ? 256 : ranges[d];
  int64_t first = ranges[plan.kDims.front()];
  plan.kc = pickBlockOfK(bMap, plan, ranges, 32768 / elemBytes, inner);
  if (!ShapedType::isDynamic(first) && first <= plan.kc * 3 / 2)
    plan.kc = 0; // one block
  else
    plan.kc = pickBlock(first, 1, plan.kc); // static blocks if one divides
  int64_t kBlock =
      inner *
      (plan.kc ? plan.kc : (ShapedType::isDynamic(first) ? 256 : first));
  kBlock = std::max<int64_t>(1, kBlock);
  int64_t mcTarget = std::max<int64_t>(plan.mr, 131072 / (kBlock * elemBytes));
  int64_t ncTarget = 8 * plan.nr;
  plan.mc = pickBlock(m, plan.mr, mcTarget);
  plan.nc = pickBlock(n, plan.nr, ncTarget);

  // Matmul-like operands (plain indices) with KC blocks: pack the blocks.
  plan.pack = plan.kc != 0 && aMap.isProjectedPermutation() &&
              bMap.isProjectedPermutation();
  plan.pad = lanes;

  // Enough blocks for the threads: a multiple of the thread count, or many.
  int64_t outer = 1;
  for (unsigned d : plan.batchDims)
    outer *= ShapedType::isDynamic(ranges[d]) ? 4 : ranges[d];
  auto blocksOfC = [&] {
    return outer * numBlocks(m, plan.mc) * numBlocks(n, plan.nc);
  };
  auto balanced = [&] {
    int64_t blocks = blocksOfC();
    return blocks >= 4 * threads ||
           (blocks >= threads && blocks % threads == 0);
  };
  while (!balanced()) {
    if (plan.nc > plan.nr && (plan.nc >= plan.mc || plan.mc <= plan.mr))
      plan.nc = pickBlock(n, plan.nr, plan.nc / 2);
    else if (plan.mc > plan.mr)
      plan.mc = pickBlock(m, plan.mr, plan.mc / 2);
    else
      break;
  }
  planOuterReduction(op, plan, ranges, elemBytes, blocksOfC(), threads);
  if (!plan.outerK.empty()) { // the blocks of B are small: one KC block
    plan.kc = 0;
    plan.pack = false;
  }
  if (plan.pack && reusePackedB)
    growBlocksOverM(plan, m, elemBytes, balanced);
  return plan;
}

/// `x` transposed by `perm` (linalg.transpose into a new tensor), built
/// before `before`.
static Value transposed(RewriterBase &rewriter, Location loc, Value x,
                        ArrayRef<int64_t> perm, Operation *before) {
  rewriter.setInsertionPoint(before);
  SmallVector<OpFoldResult> sizes;
  for (int64_t i : perm)
    sizes.push_back(tensor::getMixedSize(rewriter, loc, x, i));
  Value init = tensor::EmptyOp::create(
      rewriter, loc, sizes, cast<ShapedType>(x.getType()).getElementType());
  return linalg::TransposeOp::create(rewriter, loc, x, init, perm)
      .getResult()[0];
}

/// `b` transposed by `perm` for `op`. When `b` is a unit-stride slice of a
/// tensor defined outside the scf.for loops around `op` (attention's
/// per-block keys: the first n rows of one head's keys), the whole tensor is
/// transposed once before the outermost such loop and `op` reads a slice of
/// that: one copy per head instead of one per block of query rows (the
/// copies were a sixth of attention_backward's time).
static Value transposeHoisted(RewriterBase &rewriter, Location loc,
                              linalg::LinalgOp op, Value b,
                              ArrayRef<int64_t> perm) {
  auto slice = b.getDefiningOp<tensor::ExtractSliceOp>();
  Operation *outermost = nullptr;
  if (slice && slice.hasUnitStride() &&
      slice.getSourceType().getRank() == slice.getResultType().getRank()) {
    Value source = slice.getSource();
    for (auto loop = op->getParentOfType<scf::ForOp>();
         loop && !loop->isAncestor(source.getParentBlock()->getParentOp());
         loop = loop->getParentOfType<scf::ForOp>())
      outermost = loop;
  }
  if (!outermost)
    return transposed(rewriter, loc, b, perm, op);
  Value whole = transposed(rewriter, loc, slice.getSource(), perm, outermost);
  SmallVector<OpFoldResult> offsets, sizes, strides;
  for (int64_t i : perm) {
    offsets.push_back(slice.getMixedOffsets()[i]);
    sizes.push_back(slice.getMixedSizes()[i]);
    strides.push_back(rewriter.getIndexAttr(1));
  }
  rewriter.setInsertionPoint(op);
  return tensor::ExtractSliceOp::create(rewriter, loc, whole, offsets, sizes,
                                        strides)
      .getResult();
}

/// When B's last index is not n but n indexes B (q k^T): copies B into a
/// layout with n last and rewrites `op` as a generic on the copy. Returns
/// the op to plan (unchanged when no copy is needed or possible).
static linalg::LinalgOp makeBContiguous(RewriterBase &rewriter,
                                        linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || !isMulAddBody(op))
    return op;
  MLIRContext *ctx = op.getContext();
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!maps[2].isProjectedPermutation() || maps[2].getNumResults() == 0)
    return op;
  unsigned nDim =
      cast<AffineDimExpr>(maps[2].getResults().back()).getPosition();
  unsigned bIndex = 2;
  for (unsigned i = 0; i < 2; ++i)
    if (maps[i].isFunctionOfDim(nDim))
      bIndex = i;
  if (bIndex == 2 || maps[1 - bIndex].isFunctionOfDim(nDim))
    return op;
  AffineMap bMap = maps[bIndex];
  AffineExpr nExpr = getAffineDimExpr(nDim, ctx);
  if (bMap.getResults().back() == nExpr || !bMap.isProjectedPermutation())
    return op;
  std::optional<unsigned> nPos = bMap.getResultPosition(nExpr);
  Value b = op.getDpsInputs()[bIndex];
  auto bType = dyn_cast<RankedTensorType>(b.getType());
  if (!nPos || !bType)
    return op;
  // perm: the new layout's dims in terms of the old ones (n moved last).
  SmallVector<int64_t> perm;
  for (unsigned i = 0; i < bMap.getNumResults(); ++i)
    if (i != *nPos)
      perm.push_back(i);
  perm.push_back(*nPos);
  Location loc = op.getLoc();
  Value bt = transposeHoisted(rewriter, loc, op, b, perm);
  SmallVector<AffineExpr> results;
  for (int64_t i : perm)
    results.push_back(bMap.getResult(i));
  maps[bIndex] =
      AffineMap::get(bMap.getNumDims(), bMap.getNumSymbols(), results, ctx);
  SmallVector<Value> inputs = op.getDpsInputs();
  inputs[bIndex] = bt;
  auto generic = linalg::GenericOp::create(rewriter, loc, op->getResultTypes(),
                                           inputs, op.getDpsInits(), maps,
                                           op.getIteratorTypesArray());
  IRMapping mapping;
  op->getRegion(0).cloneInto(&generic.getRegion(), mapping);
  rewriter.replaceOp(op, generic->getResults());
  return generic;
}

/// Tiles `op` into blocks of C (`sizes`, no reduction dim tiled) with the
/// fill of C, and with `fusePad` the padding of B (tensor.pad), fused into
/// each block: each block zeroes its own C tile and pads the part of the
/// input it reads, in cache and on its own thread, instead of serial passes
/// over the whole of C and the padded copy before the loop. Returns the
/// tiled contraction.
static FailureOr<linalg::LinalgOp> tileBlocksFusingPadding(
    RewriterBase &rewriter, linalg::LinalgOp op, ArrayRef<int64_t> sizes,
    scf::SCFTilingOptions::LoopType loopType, bool fusePad) {
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  tiling.setLoopType(loopType);
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn(
      [&](tensor::ExtractSliceOp, OpResult producer,
          bool) -> std::optional<scf::SCFTileAndFuseOptions::ControlFnResult> {
        Operation *owner = producer.getOwner();
        if (!isa<linalg::FillOp>(owner) &&
            !(fusePad && isa<tensor::PadOp>(owner)))
          return std::nullopt;
        return scf::SCFTileAndFuseOptions::ControlFnResult{};
      });
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(
          rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(result))
    return failure();
  for (OpResult res : op->getResults())
    if (auto it = result->replacements.find(res);
        it != result->replacements.end())
      rewriter.replaceAllUsesWith(res, it->second);
  return cast<linalg::LinalgOp>(result->tiledAndFusedOps.front());
}

/// Copies the operand `index` of the KC-block op `op` (a static slice of a
/// plain-indexed operand) into a buffer whose rows are `pad` elements longer,
/// allocated once before `kLoop`: the micro-kernel then walks rows whose
/// stride is not a multiple of 4 KiB (no cache-set aliasing, as with a
/// 1024-wide matrix) and that the block keeps in cache.
static void packOperand(RewriterBase &rewriter, linalg::LinalgOp op,
                        unsigned index, Operation *kLoop, int64_t pad) {
  Value operand = op.getDpsInputs()[index];
  auto type = dyn_cast<RankedTensorType>(operand.getType());
  if (!type || !type.hasStaticShape() || type.getRank() == 0 ||
      !op.getMatchingIndexingMap(op.getDpsInputOperand(index))
           .isProjectedPermutation())
    return;
  Location loc = op.getLoc();
  SmallVector<int64_t> padded(type.getShape());
  padded.back() += pad;
  rewriter.setInsertionPoint(kLoop);
  Value buffer =
      tensor::EmptyOp::create(rewriter, loc, padded, type.getElementType());
  rewriter.setInsertionPoint(op);
  SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0)),
      strides(type.getRank(), rewriter.getIndexAttr(1)), sizes;
  for (int64_t d : type.getShape())
    sizes.push_back(rewriter.getIndexAttr(d));
  Value view = tensor::ExtractSliceOp::create(rewriter, loc, type, buffer,
                                              offsets, sizes, strides);
  Value copy =
      linalg::CopyOp::create(rewriter, loc, operand, view).getResult(0);
  rewriter.modifyOpInPlace(op,
                           [&] { op.getDpsInputOperand(index)->set(copy); });
}

/// The batch dims to widen from 1 to their whole extent in the blocks of C,
/// so that each block reads the padding of an input (a tensor.pad: B, or A
/// when B is not padded) as one static slice small enough to pad in cache:
/// a depthwise convolution's plane, whose padded rows the output rows of
/// the plane share, or, in its weight gradient, the planes of one channel,
/// which all taps read. Empty when no input is padded, a padded dim is read
/// through a tiled n or m, the slice would be large (a dense convolution's
/// padded input, all its channels, is not copied once per block of output
/// channels), or too few blocks are left for the threads.
static SmallVector<unsigned> planeDims(linalg::LinalgOp op,
                                       const ContractionPlan &plan,
                                       ArrayRef<int64_t> outer,
                                       int64_t threads) {
  unsigned index = plan.bIndex;
  auto pad = op.getDpsInputs()[index].getDefiningOp<tensor::PadOp>();
  if (!pad) {
    index = plan.aIndex;
    pad = op.getDpsInputs()[index].getDefiningOp<tensor::PadOp>();
  }
  if (!pad || !pad.getResultType().hasStaticShape() ||
      !pad.getConstantPaddingValue())
    return {};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return {};
  AffineMap paddedMap = op.getMatchingIndexingMap(op.getDpsInputOperand(index));
  std::optional<SmallVector<int64_t>> low = getConstantIntValues(
                                          pad.getMixedLowPad()),
                                      high = getConstantIntValues(
                                          pad.getMixedHighPad());
  if (!low || !high)
    return {};
  SmallVector<int64_t> block(outer);
  SmallVector<unsigned> widened;
  for (unsigned r = 0; r < paddedMap.getNumResults(); ++r) {
    if ((*low)[r] == 0 && (*high)[r] == 0)
      continue;
    for (unsigned d = 0; d < op.getNumLoops(); ++d) {
      if (!paddedMap.getResult(r).isFunctionOfDim(d) ||
          llvm::is_contained(plan.kDims, d))
        continue;
      if (!llvm::is_contained(plan.batchDims, d)) {
        if (outer[d] != ranges[d])
          return {};
        continue;
      }
      if (block[d] != ranges[d]) {
        block[d] = ranges[d];
        widened.push_back(d);
      }
    }
  }
  if (widened.empty())
    return {};
  // The elements of the padded input one block reads. A negative
  // coefficient (a transposed convolution's dy[u - t]) is left alone: the
  // padded slice a block reads was then misplaced.
  std::optional<int64_t> elements = elementsRead(
      paddedMap,
      [&](unsigned d) {
        return llvm::is_contained(plan.kDims, d) || block[d] == 0 ? ranges[d]
                                                                  : block[d];
      },
      /*negativeOk=*/false);
  if (!elements)
    return {};
  int64_t blocks = 1;
  for (unsigned d = 0; d < op.getNumLoops(); ++d)
    if (!llvm::is_contained(plan.kDims, d) && block[d] > 0)
      blocks *= llvm::divideCeil(ranges[d], block[d]);
  if (*elements > 32768 || blocks < 4 * threads)
    return {};
  return widened;
}

/// Marks the KC-block loop (`loops`: one scf.for) with kFirstBlockInit when
/// its C starts as a linalg.fill of a constant, so that its micro-kernels
/// need not read the filled C in the first block (dropFilledInits).
static void markFirstBlockInit(ArrayRef<LoopLikeOpInterface> loops) {
  auto kLoop = loops.size() == 1 ? dyn_cast<scf::ForOp>(*loops.front())
                                 : scf::ForOp();
  if (!kLoop || kLoop.getInitArgs().size() != 1)
    return;
  TypedAttr value;
  if (rlx::constantFill(kLoop.getInitArgs()[0], value))
    kLoop->setAttr(kFirstBlockInit, value);
}

/// Once the micro-kernels are emitted: a KC-block loop marked by
/// markFirstBlockInit whose contraction tiles all became micro-kernels (they
/// start the first block from the constant) no longer needs its C filled,
/// so it starts from the fill's destination (the fill, a pass over the
/// block of C, then folds away). A tile left a linalg op still reads the
/// fill.
static void dropFilledInits(Operation *root) {
  root->walk([](scf::ForOp kLoop) {
    if (!kLoop->hasAttr(kFirstBlockInit))
      return;
    kLoop->removeAttr(kFirstBlockInit);
    if (kLoop.getInitArgs().size() != 1)
      return;
    bool allKernels = true;
    kLoop.getBody()->walk([&](linalg::LinalgOp op) {
      if (!isa<linalg::CopyOp>(op))
        allKernels = false;
    });
    auto fill = kLoop.getInitArgs()[0].getDefiningOp<linalg::FillOp>();
    if (allKernels && fill)
      kLoop.getInitArgsMutable()[0].set(fill.getDpsInits()[0]);
  });
}

/// Tiles one contraction into the loop nest of the file comment, leaving
/// marked MR x NR tiles (static except at dynamic edges).
static LogicalResult tileContraction(RewriterBase &rewriter,
                                     linalg::LinalgOp op,
                                     const ContractionPlan &plan, bool parallel,
                                     int64_t threads) {
  unsigned numLoops = op.getNumLoops();
  op->setAttr(kMarker, rewriter.getUnitAttr());

  // Level 1: blocks of C (threads); coarse ones, spanning the batch dims,
  // around the reduction blocks of plan.outerK.
  bool wholeBatch = !plan.outerK.empty();
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<int64_t> outer(numLoops, 0);
  for (unsigned d : plan.batchDims)
    outer[d] = wholeBatch ? ranges[d] : 1;
  outer[plan.mDim] = plan.mc;
  outer[plan.nDim] = plan.nc;
  SmallVector<unsigned> planes = planeDims(op, plan, outer, threads);
  for (unsigned d : planes)
    outer[d] = ranges[d];
  FailureOr<linalg::LinalgOp> blocks = tileBlocksFusingPadding(
      rewriter, op, outer,
      parallel ? scf::SCFTilingOptions::LoopType::ForallOp
               : scf::SCFTilingOptions::LoopType::ForOp,
      !planes.empty());
  if (failed(blocks))
    return failure();
  linalg::LinalgOp tiled = *blocks;

  // Level 1b: the reduction blocks of plan.outerK, in order.
  if (!plan.outerK.empty()) {
    SmallVector<int64_t> kBlock(numLoops, 0);
    for (auto [d, size] : plan.outerK)
      kBlock[d] = size;
    FailureOr<scf::SCFTilingResult> kTiles = rlx::tileAndReplace(
        rewriter, tiled, kBlock, scf::SCFTilingOptions::LoopType::ForOp);
    if (failed(kTiles))
      return failure();
    tiled = cast<linalg::LinalgOp>(kTiles->tiledOps.back());
  }

  // Level 2: the reduction in KC blocks.
  if (plan.kc) {
    SmallVector<int64_t> kBlock(numLoops, 0);
    kBlock[plan.kDims.front()] = plan.kc;
    FailureOr<scf::SCFTilingResult> kTiles = rlx::tileAndReplace(
        rewriter, tiled, kBlock, scf::SCFTilingOptions::LoopType::ForOp);
    if (failed(kTiles))
      return failure();
    tiled = cast<linalg::LinalgOp>(kTiles->tiledOps.back());
    markFirstBlockInit(kTiles->loops);
    if (plan.pack && !kTiles->loops.empty()) {
      Operation *kLoop = kTiles->loops.front().getOperation();
      packOperand(rewriter, tiled, plan.bIndex, kLoop, plan.pad);
      // Level 2b: blocks of mcInner rows of A against the packed B.
      if (plan.mcInner) {
        SmallVector<int64_t> mBlock(numLoops, 0);
        mBlock[plan.mDim] = plan.mcInner;
        FailureOr<scf::SCFTilingResult> mTiles = rlx::tileAndReplace(
            rewriter, tiled, mBlock, scf::SCFTilingOptions::LoopType::ForOp);
        if (failed(mTiles))
          return failure();
        tiled = cast<linalg::LinalgOp>(mTiles->tiledOps.back());
      }
      packOperand(rewriter, tiled, plan.aIndex, kLoop, plan.pad);
    }
  }

  // Level 3: MR x NR register tiles, loops n then m.
  SmallVector<int64_t> micro(numLoops, 0);
  micro[plan.mDim] = plan.mr;
  micro[plan.nDim] = plan.nr;
  for (unsigned d : planes)
    micro[d] = 1;
  if (wholeBatch)
    for (unsigned d : plan.batchDims)
      micro[d] = 1;
  SmallVector<int64_t> interchange = {plan.nDim, plan.mDim};
  for (unsigned d = 0; d < numLoops; ++d)
    if (d != plan.nDim && d != plan.mDim)
      interchange.push_back(d);
  FailureOr<scf::SCFTilingResult> regs =
      rlx::tileAndReplace(rewriter, tiled, micro,
                          scf::SCFTilingOptions::LoopType::ForOp, interchange);
  if (failed(regs))
    return failure();

  // Peel the m loop, then the n loop, so that the main tiles are static.
  SmallVector<LoopLikeOpInterface> loops = regs->loops;
  for (int i = static_cast<int>(loops.size()) - 1; i >= 0; --i) {
    auto forOp = dyn_cast<scf::ForOp>(loops[i].getOperation());
    if (!forOp)
      continue;
    scf::ForOp partial;
    (void)scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial);
  }
  return success();
}

/// The column pieces of an `n`-wide register tile, as (offset, width): the
/// whole row when `n` is a power of two no wider than `nr` (LLVM splits it
/// into whole registers); else pieces of one register (`lanes`, or the
/// largest power of two <= n when narrower), the last one ending at `n` and
/// overlapping its neighbour. An overlapped column is computed twice from
/// the same C value and the same products in the same order, so both
/// writes store the same bits; odd widths (vector<24xf32>) would otherwise
/// be widened by LLVM into shuffles and spills. Without `split`
/// (column-pieces=0): the whole row.
static SmallVector<std::pair<int64_t, int64_t>>
columnPieces(int64_t n, int64_t nr, int64_t lanes, bool split) {
  if (!split || (n <= nr && llvm::isPowerOf2_64(n)))
    return {{0, n}};
  int64_t w = std::min<int64_t>(lanes, llvm::bit_floor(uint64_t(n)));
  SmallVector<std::pair<int64_t, int64_t>> pieces;
  for (int64_t off = 0; off < n; off += w)
    pieces.push_back({std::min(off, n - w), w});
  return pieces;
}

/// With the whole reduction in one block (no KC loop), a C that starts as a
/// linalg.fill of a constant need not be filled and read back: the
/// micro-kernels start their accumulators from the constant (the attention
/// scores' zeroed [rows, keys] tiles were a memset and a reload per block).
/// Makes `op` write into the fill's destination instead and returns the
/// constant (an attribute: the canonicalizations between here and the
/// micro-kernels merge and move constant ops), or null when C is not such a
/// fill. Each tile that does not become a micro-kernel gets its fill back
/// (refillTile).
static TypedAttr detachInitFill(RewriterBase &rewriter, linalg::LinalgOp op,
                                const ContractionPlan &plan) {
  if (plan.kc != 0 || !plan.outerK.empty())
    return {};
  OpOperand &init = op.getDpsInitsMutable()[0];
  TypedAttr value;
  linalg::FillOp fill = rlx::constantFill(init.get(), value);
  if (!fill)
    return {};
  rewriter.modifyOpInPlace(op, [&] { init.set(fill.getDpsInits()[0]); });
  return value;
}

/// Fills the C tile of `op` with `value` (see detachInitFill).
static void refillTile(RewriterBase &rewriter, linalg::LinalgOp op,
                       TypedAttr value) {
  OpOperand &init = op.getDpsInitsMutable()[0];
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  Value scalar = arith::ConstantOp::create(rewriter, loc, value);
  Value filled =
      linalg::FillOp::create(rewriter, loc, scalar, init.get()).getResult(0);
  rewriter.modifyOpInPlace(op, [&] { init.set(filled); });
}

/// Replaces a static MR x NR tile of a planned contraction by the
/// micro-kernel: the C rows are read into vector registers (or start as
/// `initValue` when C was a detached fill), a loop nest over the reduction
/// dims accumulates broadcast(A[m, k]) * B[k, n:n+NR] into them with
/// vector.fma, and the rows are written back.
static LogicalResult emitMicroKernel(RewriterBase &rewriter,
                                     linalg::LinalgOp op,
                                     const ContractionPlan &plan,
                                     int64_t vectorBits, bool split,
                                     TypedAttr initValue) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t mSize = ranges[plan.mDim], nSize = ranges[plan.nDim];
  if (ShapedType::isDynamic(mSize) || ShapedType::isDynamic(nSize) ||
      mSize == 0 || nSize == 0)
    return failure();
  for (unsigned d : plan.batchDims)
    if (ranges[d] != 1)
      return failure();
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  unsigned numLoops = op.getNumLoops();
  Value a = op.getDpsInputs()[plan.aIndex], b = op.getDpsInputs()[plan.bIndex];
  Value c = op.getDpsInits()[0];
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  AffineMap aMap = maps[plan.aIndex], bMap = maps[plan.bIndex], cMap = maps[2];
  Type elementType = getElementTypeOrSelf(c.getType());
  int64_t lanes =
      std::max<int64_t>(1, vectorBits / elementType.getIntOrFloatBitWidth());
  SmallVector<std::pair<int64_t, int64_t>> pieces =
      columnPieces(nSize, plan.nr, lanes, split);
  int64_t numPieces = pieces.size();
  auto vecType = [&](int64_t piece) {
    return VectorType::get({pieces[piece].second}, elementType);
  };
  Value zero = arith::ConstantOp::create(rewriter, loc, elementType,
                                         rewriter.getZeroAttr(elementType));
  Value init =
      initValue ? arith::ConstantOp::create(rewriter, loc, initValue) : Value();

  // The indices of `map` at the loop values `dims`.
  auto indices = [&](OpBuilder &bld, AffineMap map,
                     ArrayRef<OpFoldResult> dims) {
    SmallVector<Value> result;
    for (AffineExpr e : map.getResults()) {
      OpFoldResult v = affine::makeComposedFoldedAffineApply(
          bld, loc, AffineMap::get(numLoops, 0, e), dims);
      result.push_back(getValueOrCreateConstantIndexOp(bld, loc, v));
    }
    return result;
  };
  SmallVector<OpFoldResult> dims(numLoops, rewriter.getIndexAttr(0));
  auto rowDims = [&](int64_t i, int64_t piece) {
    SmallVector<OpFoldResult> rd = dims;
    rd[plan.mDim] = rewriter.getIndexAttr(i);
    rd[plan.nDim] = rewriter.getIndexAttr(pieces[piece].first);
    return rd;
  };
  // Accumulators row-major: acc[i * numPieces + p]; the C rows, or the
  // constant of a detached fill, or (in a KC-block loop marked by
  // markFirstBlockInit) the constant in the loop's first block and the C
  // rows after it.
  auto startRows = [&](OpBuilder &bld, Value constant) {
    SmallVector<Value> rows;
    for (int64_t i = 0; i < mSize; ++i)
      for (int64_t p = 0; p < numPieces; ++p)
        rows.push_back(
            constant
                ? vector::BroadcastOp::create(bld, loc, vecType(p), constant)
                      .getResult()
                : vector::TransferReadOp::create(
                      bld, loc, vecType(p), c,
                      indices(bld, cMap, rowDims(i, p)), zero,
                      ArrayRef<bool>{true})
                      .getResult());
    return rows;
  };
  auto kLoop = op->getParentOfType<scf::ForOp>();
  while (kLoop && !kLoop->hasAttr(kFirstBlockInit))
    kLoop = kLoop->getParentOfType<scf::ForOp>();
  SmallVector<Value> acc;
  if (init || !kLoop) {
    acc = startRows(rewriter, init);
  } else {
    Value first = arith::CmpIOp::create(rewriter, loc,
                                        arith::CmpIPredicate::eq,
                                        kLoop.getInductionVar(),
                                        kLoop.getLowerBound());
    auto value = cast<TypedAttr>(kLoop->getAttr(kFirstBlockInit));
    auto start = scf::IfOp::create(
        rewriter, loc, first,
        [&](OpBuilder &bld, Location) {
          Value constant = arith::ConstantOp::create(bld, loc, value);
          scf::YieldOp::create(bld, loc, startRows(bld, constant));
        },
        [&](OpBuilder &bld, Location) {
          scf::YieldOp::create(bld, loc, startRows(bld, Value()));
        });
    acc.assign(start.getResults().begin(), start.getResults().end());
  }

  // The reduction loops (extent-1 dims need none).
  SmallVector<unsigned> kLoops;
  SmallVector<Value> lbs, ubs, steps;
  SmallVector<Range> loopRanges = op.createLoopRanges(rewriter, loc);
  Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (unsigned d : plan.kDims) {
    if (ranges[d] == 1)
      continue;
    kLoops.push_back(d);
    lbs.push_back(c0);
    ubs.push_back(
        getValueOrCreateConstantIndexOp(rewriter, loc, loopRanges[d].size));
    steps.push_back(c1);
  }
  auto body = [&](OpBuilder &bld, Location, ValueRange ivs,
                  ValueRange iterArgs) -> scf::ValueVector {
    SmallVector<OpFoldResult> kDims = dims;
    for (auto [d, iv] : llvm::zip(kLoops, ivs))
      kDims[d] = iv;
    SmallVector<Value> bRows;
    for (int64_t p = 0; p < numPieces; ++p) {
      SmallVector<OpFoldResult> bd = kDims;
      bd[plan.nDim] = bld.getIndexAttr(pieces[p].first);
      bRows.push_back(vector::TransferReadOp::create(
          bld, loc, vecType(p), b, indices(bld, bMap, bd), zero,
          ArrayRef<bool>{true}));
    }
    scf::ValueVector next;
    for (int64_t i = 0; i < mSize; ++i) {
      SmallVector<OpFoldResult> ad = kDims;
      ad[plan.mDim] = bld.getIndexAttr(i);
      Value aElem;
      if (!plan.aVector)
        aElem = tensor::ExtractOp::create(bld, loc, a, indices(bld, aMap, ad));
      for (int64_t p = 0; p < numPieces; ++p) {
        Value aVec;
        if (plan.aVector) {
          ad[plan.nDim] = bld.getIndexAttr(pieces[p].first);
          aVec = vector::TransferReadOp::create(bld, loc, vecType(p), a,
                                                indices(bld, aMap, ad), zero,
                                                ArrayRef<bool>{true});
        } else {
          aVec = vector::BroadcastOp::create(bld, loc, vecType(p), aElem);
        }
        next.push_back(vector::FMAOp::create(bld, loc, aVec, bRows[p],
                                             iterArgs[i * numPieces + p]));
      }
    }
    return next;
  };
  SmallVector<Value> sums;
  if (kLoops.empty()) {
    sums = body(rewriter, loc, {}, acc);
  } else {
    scf::LoopNest nest =
        scf::buildLoopNest(rewriter, loc, lbs, ubs, steps, acc, body);
    sums = llvm::to_vector(nest.results);
  }
  Value result = c;
  for (int64_t i = 0; i < mSize; ++i)
    for (int64_t p = 0; p < numPieces; ++p)
      result = vector::TransferWriteOp::create(
                   rewriter, loc, sums[i * numPieces + p], result,
                   indices(rewriter, cMap, rowDims(i, p)), ArrayRef<bool>{true})
                   .getResult();
  rewriter.replaceOp(op, result);
  return success();
}

namespace {
struct RlxOptimizeContractionsPass
    : public rlx::impl::RlxOptimizeContractionsBase<
          RlxOptimizeContractionsPass> {
  using Base::Base;

  void runOnOperation() override {
    Operation *root = getOperation();
    MLIRContext *ctx = &getContext();
    int64_t bits = vectorBits > 0 ? static_cast<int64_t>(vectorBits)
                                  : rlx::hostVectorBits();
    int64_t threads =
        this->threads > 0
            ? static_cast<int64_t>(this->threads)
            : std::max<int64_t>(1, std::thread::hardware_concurrency());

    SmallVector<linalg::LinalgOp> candidates;
    root->walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<linalg::LinalgOp>())
        candidates.push_back(op);
    });
    IRRewriter rewriter(ctx);
    for (linalg::LinalgOp op : candidates) {
      // Convolutions are contractions whose indices are sums of dims.
      if (isa<linalg::Conv2DNchwFchwOp, linalg::Conv2DNgchwGfchwOp>(op)) {
        rewriter.setInsertionPoint(op);
        FailureOr<linalg::GenericOp> generic =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(generic))
          continue;
        op = *generic;
      }
      op = makeBContiguous(rewriter, op);
      FailureOr<ContractionPlan> plan =
          planContraction(op, bits, threads, reusePackedB);
      if (failed(plan))
        continue;
      // Threads only pay for themselves on large contractions
      // (kMinThreadedElements).
      int64_t work = 1;
      for (int64_t r : op.getStaticLoopRanges())
        work = ShapedType::isDynamic(r)
                   ? std::max<int64_t>(work, rlx::kMinThreadedElements)
                   : work * r;
      // Nor inside a loop that is already parallel (attention's heads).
      bool threaded = parallel && work >= rlx::kMinThreadedElements &&
                      !op->getParentOfType<scf::ForallOp>();
      TypedAttr initValue = detachInitFill(rewriter, op, *plan);
      if (failed(tileContraction(rewriter, op, *plan, threaded, threads))) {
        // Whatever was tiled (or `op` itself) computes C from its fill.
        for (linalg::LinalgOp tileOp : rlx::takeMarked(root, kMarker))
          if (initValue)
            refillTile(rewriter, tileOp, initValue);
        dropFilledInits(root);
        continue;
      }
      rlx::canonicalizeTiles(root);
      for (linalg::LinalgOp tileOp : rlx::takeMarked(root, kMarker))
        if (failed(emitMicroKernel(rewriter, tileOp, *plan, bits, columnPieces,
                                   initValue)) &&
            initValue)
          refillTile(rewriter, tileOp, initValue);
      dropFilledInits(root);
    }
    // The copies made for the contractions (padded inputs, B in a layout
    // with n last) outside any loop are large passes over memory: on
    // threads too.
    if (parallel)
      rlx::parallelizeLargeCopies(rewriter, root);
    rlx::vectorizeTransposes(rewriter, root, bits);
  }
};
} // namespace
