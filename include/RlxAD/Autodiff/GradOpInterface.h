//===- GradOpInterface.h - reverse-mode rule of an op -----------*- C++ -*-===//
//
// rlx::GradOpInterface, the rule rlx-grad asks of each op it differentiates
// (GradOpInterface.td). The driver is RlxAD/Transforms/Autodiff.h.
//
//===----------------------------------------------------------------------===//
#ifndef RLXAD_AUTODIFF_GRADOPINTERFACE_H
#define RLXAD_AUTODIFF_GRADOPINTERFACE_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"

#include "RlxAD/Autodiff/GradOpInterface.h.inc"

#endif // RLXAD_AUTODIFF_GRADOPINTERFACE_H
