//===- FamilyRegistration.h - RlxDialect::addFamily -------------*- C++ -*-===//
//
// Included by each lib/Dialect/Rlx/IR/<Family>Ops.cpp, whose
// RlxDialect::register<Family>Ops() adds the family's ops with
//
//   addFamily<
//   #define GET_OP_LIST
//   #include "RlxAD/Dialect/Rlx/IR/Rlx<Family>Ops.cpp.inc"
//       >();
//
//===----------------------------------------------------------------------===//
#ifndef RLX_LIB_DIALECT_FAMILYREGISTRATION_H
#define RLX_LIB_DIALECT_FAMILYREGISTRATION_H

#include "RlxAD/Dialect/Rlx/IR/RlxDialect.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"

namespace mlir::rlx {

template <typename... OpTys> void RlxDialect::addFamily() {
  addOperations<OpTys...>();
  // Backward ops implement linalg::AggregatedOpInterface through external
  // models in the transforms library; promising it here turns a use without
  // those models into a clear error instead of a silent "not implemented".
  auto promise = [&](auto op) {
    using OpTy = decltype(op);
    if constexpr (OpTy::template hasTrait<OpTrait::Backward>())
      declarePromisedInterface<linalg::AggregatedOpInterface, OpTy>();
  };
  (promise(OpTys()), ...);
}

} // namespace mlir::rlx

#endif // RLX_LIB_DIALECT_FAMILYREGISTRATION_H
