//===- Tiling.h - tile a linalg op and replace it
//--------------------------===//
#ifndef RLXAD_TRANSFORMS_OPTIMIZE_TILING_H
#define RLXAD_TRANSFORMS_OPTIMIZE_TILING_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir::rlx {

/// Tiles `op` by `sizes` (0: not tiled) into loops of `loopType`, in the
/// order `interchange` when given, and replaces it by the loops' results.
inline FailureOr<scf::SCFTilingResult>
tileAndReplace(RewriterBase &rewriter, linalg::LinalgOp op,
               ArrayRef<int64_t> sizes,
               scf::SCFTilingOptions::LoopType loopType,
               ArrayRef<int64_t> interchange = {}) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(op.getContext(), sizes));
  options.setLoopType(loopType);
  if (!interchange.empty())
    options.setInterchange(interchange);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFTilingResult> result = scf::tileUsingSCF(
      rewriter, cast<TilingInterface>(op.getOperation()), options);
  if (failed(result))
    return failure();
  rewriter.replaceOp(op, result->replacements);
  return result;
}

} // namespace mlir::rlx

#endif // RLXAD_TRANSFORMS_OPTIMIZE_TILING_H
