//===- Tiling.h - tiling steps the Optimize passes share -------*- C++ -*-===//
//
// The passes of lib/Transforms/Optimize tile linalg ops, fold the sizes
// that peeling made constant, and vectorize the static tiles they marked.
//
//===----------------------------------------------------------------------===//
#ifndef RLXAD_TRANSFORMS_OPTIMIZE_TILING_H
#define RLXAD_TRANSFORMS_OPTIMIZE_TILING_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"

namespace mlir::rlx {

/// Tiles `op` by `sizes` (0: not tiled) into loops of `loopType`, in the
/// order `interchange` when given, and replaces it by the loops' results.
FailureOr<scf::SCFTilingResult>
tileAndReplace(RewriterBase &rewriter, linalg::LinalgOp op,
               ArrayRef<int64_t> sizes,
               scf::SCFTilingOptions::LoopType loopType,
               ArrayRef<int64_t> interchange = {});

/// Applies `patterns` and every loaded dialect's and op's canonicalization
/// patterns to `root`, greedily.
void applyWithCanonicalization(Operation *root, RewritePatternSet &&patterns);

/// Folds the tile sizes that peeling made constant into the tiles' types
/// (static main tiles), with the SCF loop canonicalizations.
void canonicalizeTiles(Operation *root);

/// The linalg ops under `root` that carry the unit attribute `marker`, in
/// walk order, with the marker removed.
SmallVector<linalg::LinalgOp> takeMarked(Operation *root, StringRef marker);

/// Vectorizes the linalg ops under `root` that carry the unit attribute
/// `marker` and have static shapes (linalg::vectorize), and removes the
/// marker from all of them.
void vectorizeMarked(RewriterBase &rewriter, Operation *root, StringRef marker);

/// The linalg.fill of a constant (of the element type) that defines `c`,
/// with the constant in `value`; null when `c` is not such a fill.
linalg::FillOp constantFill(Value c, TypedAttr &value);

/// The op of `op`'s body that combines the accumulator of its init `init`
/// with a new value (`acc + v`, `max(v, acc)`): the op yielded for `init`
/// when it reads the accumulator, else null.
Operation *combinerOf(linalg::LinalgOp op, OpOperand &init);

} // namespace mlir::rlx

#endif // RLXAD_TRANSFORMS_OPTIMIZE_TILING_H
