// Debian's unmodified mlir-opt-22 loads librlx-plugin.so as a dialect and a
// pass plugin, parses rlx and runs rlx's passes and pipelines.
// Plugin passes are named in --pass-pipeline: mlir-opt builds its --<pass>
// flags from the registry before it loads the plugin.
// RUN: mlir-opt --load-dialect-plugin=%rlx_obj/lib/librlx-plugin.so \
// RUN:   --load-pass-plugin=%rlx_obj/lib/librlx-plugin.so \
// RUN:   --pass-pipeline="builtin.module(rlx-decompose-backward)" %s | FileCheck %s --check-prefix=DECOMPOSE
// RUN: mlir-opt --load-dialect-plugin=%rlx_obj/lib/librlx-plugin.so \
// RUN:   --load-pass-plugin=%rlx_obj/lib/librlx-plugin.so \
// RUN:   --pass-pipeline="builtin.module(rlx-to-linalg)" %s | FileCheck %s --check-prefix=LINALG
// RUN: mlir-opt --load-dialect-plugin=%rlx_obj/lib/librlx-plugin.so \
// RUN:   --load-pass-plugin=%rlx_obj/lib/librlx-plugin.so \
// RUN:   --pass-pipeline="builtin.module(rlx-to-llvm{check-shapes=1})" %s | FileCheck %s --check-prefix=LLVM
// The verifier runs inside the stock tool too.
// RUN: not mlir-opt --load-dialect-plugin=%rlx_obj/lib/librlx-plugin.so \
// RUN:   %S/Inputs/invalid-for-plugin.mlir 2>&1 | FileCheck %s --check-prefix=INVALID

// DECOMPOSE-LABEL: func.func @grad
// DECOMPOSE-NOT: rlx.
// DECOMPOSE: linalg.generic
// DECOMPOSE: math.tanh
// LINALG-LABEL: func.func @grad
// LINALG-NOT: rlx.
// LLVM: llvm.func @grad
// LLVM-NOT: rlx.
// INVALID: error: 'rlx.layer_norm_backward_input' op expects 'axis' to be the last axis
func.func @grad(%x: tensor<?x3xf32>, %dy: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<tanh>}
      : tensor<?x3xf32>, tensor<?x3xf32> -> tensor<?x3xf32>
  return %dx : tensor<?x3xf32>
}
