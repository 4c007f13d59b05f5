//===- HostTarget.h - what the host CPU offers the code generators -------===//
//
// The passes of lib/Transforms/Optimize size their vector tiles from the
// host, which is also the JIT's target (an explicit `vector-bits` option
// overrides it).
//
//===----------------------------------------------------------------------===//
#ifndef RLXAD_TRANSFORMS_OPTIMIZE_HOSTTARGET_H
#define RLXAD_TRANSFORMS_OPTIMIZE_HOSTTARGET_H

#include "llvm/ADT/StringMap.h"
#include "llvm/TargetParser/Host.h"

#include <cstdint>

namespace mlir::rlx {

/// The vector register width of the host in bits (512 with AVX-512).
inline int64_t hostVectorBits() {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  if (features.lookup("avx512f"))
    return 512;
  if (features.lookup("avx") || features.lookup("avx2"))
    return 256;
  return 128;
}

} // namespace mlir::rlx

#endif // RLXAD_TRANSFORMS_OPTIMIZE_HOSTTARGET_H
