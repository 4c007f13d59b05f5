//===- InitRlx.cpp - registration entry points for embedders --------------===//
#include "RlxAD/InitRlx.h"

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"
#include "RlxAD/Transforms/Passes.h"
#include "RlxAD/Transforms/Pipelines.h"
#include "RlxAD/Transforms/Transforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

void mlir::rlx::registerRlxDialect(DialectRegistry &registry) {
  registry.insert<RlxDialect, arith::ArithDialect, func::FuncDialect,
                  linalg::LinalgDialect, math::MathDialect, scf::SCFDialect,
                  tensor::TensorDialect>();
  registerDecompositionInterfaceModels(registry);
}

void mlir::rlx::registerRlxPasses() {
  registerRlxTransformsPasses(); // generated: every pass in Passes.td
  registerRlxPipelines();
}
