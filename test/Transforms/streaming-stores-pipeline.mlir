// REQUIRES: x86
// RUN: rlx-opt %s --rlx-to-llvm | FileCheck %s
// RUN: rlx-opt %s --rlx-to-llvm='streaming-stores=0' | FileCheck %s --check-prefix=OFF
// RUN: rlx-opt %s --rlx-to-llvm='streaming-store-min-bytes=4194305' | FileCheck %s --check-prefix=OFF

// The 4 MiB dx of an rms_norm input gradient (fused row blocks on threads)
// is written with 64-byte aligned non-temporal stores, and each thread
// drains them (sfence) before the parallel region ends. Off, or with a
// threshold above its size, no store is non-temporal.
// CHECK-LABEL: llvm.func @rms_dx
// CHECK: llvm.store {{.+}} {alignment = 64 : i64, nontemporal} : vector<16xf32>, !llvm.ptr
// CHECK: llvm.call_intrinsic "llvm.x86.sse.sfence"
// OFF-LABEL: llvm.func @rms_dx
// OFF-NOT: nontemporal
// OFF-NOT: sfence
func.func @rms_dx(%x: tensor<1024x1024xf32>, %g: tensor<1024xf32>, %b: tensor<1024xf32>, %dy: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %dx = rlx.rms_norm_backward_input %x, %g, %b, %dy {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<1024x1024xf32>, tensor<1024xf32>, tensor<1024xf32>, tensor<1024x1024xf32> -> tensor<1024x1024xf32>
  return %dx : tensor<1024x1024xf32>
}
