//===- Npy.h - read and write NumPy .npy files ------------------*- C++ -*-===//
//
// Version 1.0/2.0/3.0 .npy files, little-endian f32/f64/i32/i64, C order.
// Anything else (big-endian, Fortran order, other dtypes, truncated data) is
// rejected with an error that names the file and the problem.
//
//===----------------------------------------------------------------------===//
#ifndef RLXAD_RUNTIME_NPY_H
#define RLXAD_RUNTIME_NPY_H

#include "RlxAD/Runtime/Runtime.h"

namespace rlx::runtime {

llvm::Expected<Tensor> readNpy(llvm::StringRef path);
llvm::Error writeNpy(llvm::StringRef path, const Tensor &tensor);

} // namespace rlx::runtime

#endif // RLXAD_RUNTIME_NPY_H
