// Installs rlx into a fresh prefix, builds examples/embed against the
// installed RlxADConfig.cmake, and runs the consumer's tool.
// RUN: rm -rf %t && mkdir -p %t && %cmake --install %rlx_obj --prefix %t/prefix > %t/install.log
// RUN: test -f %t/prefix/lib/cmake/RlxAD/RlxADConfig.cmake
// RUN: test -f %t/prefix/include/RlxAD/Dialect/Rlx/IR/RlxActivationOps.h.inc
// RUN: %cmake -S %rlx_src/examples/embed -B %t/build -G Ninja -DCMAKE_PREFIX_PATH=%t/prefix -DCMAKE_CXX_COMPILER=%cxx -DCMAKE_BUILD_TYPE=Release > %t/configure.log
// RUN: %cmake --build %t/build > %t/build.log
// RUN: %t/build/embed-opt %s | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: %t/build/embed-opt %s --my-decompose-activations | FileCheck %s --check-prefix=POPULATE
// RUN: %t/build/embed-opt %s --my-decompose-aggregates | FileCheck %s --check-prefix=INTERFACE
// RUN: %t/build/embed-opt %s --rlx-to-linalg | FileCheck %s --check-prefix=PIPELINE
// The installed plugin in Debian's stock mlir-opt, and the C API's files.
// RUN: mlir-opt --load-dialect-plugin=%t/prefix/lib/librlx-plugin.so --load-pass-plugin=%t/prefix/lib/librlx-plugin.so --pass-pipeline="builtin.module(rlx-to-linalg)" %s | FileCheck %s --check-prefix=PIPELINE
// RUN: test -f %t/prefix/include/rlx-c/Dialect.h && test -f %t/prefix/lib/librlx-capi.so

// ROUNDTRIP: rlx.activation_backward %{{.*}}, %{{.*}} {kind = #rlx.activation<silu>}
// POPULATE-NOT: rlx.activation_backward
// POPULATE: linalg.generic
// INTERFACE-NOT: rlx.activation_backward
// INTERFACE: linalg.generic
// PIPELINE-NOT: rlx.
// PIPELINE: linalg.generic
func.func @grad(%x: tensor<?x4xf32>, %dy: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<silu>} : tensor<?x4xf32>, tensor<?x4xf32> -> tensor<?x4xf32>
  return %dx : tensor<?x4xf32>
}
