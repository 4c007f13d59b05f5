// REQUIRES: x86
// RUN: rlx-opt %s --rlx-to-llvm | FileCheck %s
// RUN: rlx-opt %s --rlx-to-llvm='streaming-stores=0' | FileCheck %s --check-prefix=OFF
// RUN: rlx-opt %s --rlx-to-llvm='streaming-store-min-bytes=4194305' | FileCheck %s --check-prefix=OFF
// RUN: rlx-opt %s --rlx-to-llvm='streaming-store-min-bytes=65536' | FileCheck %s --check-prefix=POOL

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

// max_pool2d_backward's dx (k3 s2 p1, 64x64 planes: the gather form) is
// written by rlx-vectorize-rows as 32 floats per store, the two column
// phases of 16 columns interleaved: whole lines at 64-byte aligned
// addresses, so with a threshold below its 256 KiB they stream too.
// POOL-LABEL: llvm.func @pool_dx
// POOL: llvm.store {{.+}} {alignment = 64 : i64, nontemporal} : vector<32xf32>, !llvm.ptr
// POOL: llvm.call_intrinsic "llvm.x86.sse.sfence"
func.func @pool_dx(%x: tensor<2x8x64x64xf32>, %dy: tensor<2x8x32x32xf32>) -> tensor<2x8x64x64xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x8x64x64xf32>, tensor<2x8x32x32xf32> -> tensor<2x8x64x64xf32>
  return %dx : tensor<2x8x64x64xf32>
}
