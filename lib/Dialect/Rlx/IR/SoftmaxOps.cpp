//===- SoftmaxOps.cpp - softmax and cross-entropy verifiers ---------------===//
#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.h"

#include "FamilyRegistration.h"
#include "VerifyUtils.h"

using namespace mlir;
using namespace mlir::rlx;

LogicalResult SoftmaxOp::verify() {
  if (failed(verifyElementwise(*this)))
    return failure();
  return verifyAxis(*this, getAxis(), getX().getType().getRank());
}

LogicalResult LogSoftmaxOp::verify() {
  if (failed(verifyElementwise(*this)))
    return failure();
  return verifyAxis(*this, getAxis(), getX().getType().getRank());
}

LogicalResult SoftmaxBackwardOp::verify() {
  if (failed(verifyElementwise(*this)))
    return failure();
  return verifyAxis(*this, getAxis(), getX().getType().getRank());
}

LogicalResult LogSoftmaxBackwardOp::verify() {
  if (failed(verifyElementwise(*this)))
    return failure();
  return verifyAxis(*this, getAxis(), getX().getType().getRank());
}

/// logits [N, C], labels [N], and a float [N] tensor `perSample` (the loss or
/// d_loss) of the logits' element type.
static LogicalResult verifyCrossEntropy(Operation *op, Value logits,
                                        Value labels, Value perSample,
                                        StringRef perSampleName) {
  if (failed(verifyRank(op, logits, "logits", 2)) ||
      failed(verifyRank(op, labels, "labels", 1)) ||
      failed(verifyRank(op, perSample, perSampleName, 1)) ||
      failed(verifyDimsMatch(op, labels, "labels", 0, logits, "logits", 0)) ||
      failed(verifyDimsMatch(op, perSample, perSampleName, 0, logits, "logits",
                             0)) ||
      failed(verifyDimsMatch(op, perSample, perSampleName, 0, labels, "labels",
                             0)))
    return failure();
  return verifySameElementType(op, perSample, perSampleName, logits, "logits");
}

LogicalResult SoftmaxCrossEntropyOp::verify() {
  return verifyCrossEntropy(*this, getLogits(), getLabels(), getLoss(), "loss");
}

LogicalResult SoftmaxCrossEntropyBackwardOp::verify() {
  if (failed(verifyCrossEntropy(*this, getLogits(), getLabels(), getDLoss(),
                                "d_loss")) ||
      failed(verifyCompatibleShapes(*this, getDlogits(), "dlogits", getLogits(),
                                    "logits")) ||
      failed(verifyDimsMatch(*this, getDlogits(), "dlogits", 0, getLabels(),
                             "labels", 0)) ||
      failed(verifyDimsMatch(*this, getDlogits(), "dlogits", 0, getDLoss(),
                             "d_loss", 0)))
    return failure();
  return verifySameElementType(*this, getDlogits(), "dlogits", getLogits(),
                               "logits");
}

#define GET_OP_CLASSES
#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.cpp.inc"

void RlxDialect::registerSoftmaxOps() {
  addFamily<
#define GET_OP_LIST
#include "RlxAD/Dialect/Rlx/IR/RlxSoftmaxOps.cpp.inc"
      >();
}
