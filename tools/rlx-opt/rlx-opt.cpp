//===- rlx-opt.cpp - mlir-opt with the rlx dialect and passes -------------===//
//
// Registers rlx plus the upstream dialects and passes an rlx user needs on the
// way to LLVM (func, arith, math, tensor, linalg, scf, cf, bufferization,
// memref, vector, affine, llvm, index, ub, transform) and their passes.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/InitRlx.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Linalg/TransformOps/DialectExtension.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/Transforms/Passes.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/Passes.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::rlx::registerRlxDialect(registry);
  mlir::rlx::registerRlxPipelineDependencies(registry);
  registry.insert<mlir::transform::TransformDialect>();
  mlir::linalg::registerTransformDialectExtension(registry);

  mlir::rlx::registerRlxPasses();
  mlir::registerTransformsPasses();
  mlir::registerConversionPasses();
  mlir::affine::registerAffinePasses();
  mlir::arith::registerArithPasses();
  mlir::bufferization::registerBufferizationPasses();
  mlir::bufferization::registerBufferizationPipelines();
  mlir::registerLinalgPasses();
  mlir::math::registerMathPasses();
  mlir::memref::registerMemRefPasses();
  mlir::registerSCFPasses();
  mlir::tensor::registerTensorPasses();
  mlir::transform::registerTransformPasses();

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "rlx optimizer driver\n", registry));
}
