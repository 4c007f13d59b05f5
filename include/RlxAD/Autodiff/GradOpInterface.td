//===- GradOpInterface.td - reverse-mode rule of an op -----*- tablegen -*-===//
//
// The interface rlx-grad asks of every op on the path from a differentiated
// argument to a differentiated result. The rlx dialect promises it for its
// forward ops; the transforms library attaches the models (rlx ops in
// lib/Transforms/<Family>/<Family>Grad.cpp, upstream ops in
// lib/Transforms/Autodiff/). An embedder makes its own op differentiable by
// attaching a model, without touching rlx.
//
//===----------------------------------------------------------------------===//
#ifndef RLX_AUTODIFF_GRADOPINTERFACE_TD
#define RLX_AUTODIFF_GRADOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def Rlx_GradOpInterface : OpInterface<"GradOpInterface"> {
  let cppNamespace = "::mlir::rlx";
  let description = [{
    The reverse-mode (vector-Jacobian product) rule of an op. Given the
    cotangents of the op's results, `buildAdjoint` builds, at the builder's
    insertion point (after the whole forward computation, so every forward
    value may be reused as an SSA value), the cotangents of its operands.
  }];
  let methods = [
    InterfaceMethod<[{
        Builds the cotangents of the operands.

        `resultCotangents` has one entry per result: the cotangent of that
        result, with the result's type, or a null value where no cotangent
        reaches the result (it is zero); at least one is non-null.
        `needed` has one entry per operand: whether its cotangent is wanted
        (the operand depends on a differentiated argument). On success
        `operandCotangents` has one entry per operand: the cotangent (a value
        of the operand's type, or a compatible tensor type) or null for zero,
        for operands that are not needed or not differentiable (integer
        indices). On failure the rule has emitted an error on the op.
      }],
      "::llvm::LogicalResult", "buildAdjoint",
      (ins "::mlir::OpBuilder &":$b,
           "::llvm::ArrayRef<::mlir::Value>":$resultCotangents,
           "::llvm::ArrayRef<bool>":$needed,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandCotangents)>,
  ];
}

#endif // RLX_AUTODIFF_GRADOPINTERFACE_TD
