// RUN: rlx-opt %s --rlx-to-llvm | FileCheck %s
// RUN: rlx-opt %s --rlx-to-llvm='prefetch-slices=0' | FileCheck %s --check-prefix=OFF

// max_pool2d_backward's plane loop reads x[n, c] (112x112 f32, 49 KiB) in
// its phase split; on by default, the next plane is prefetched (read,
// locality 3) inside the plane loop. Off, nothing is prefetched.
// CHECK-LABEL: llvm.func @pool_dx
// CHECK: "llvm.intr.prefetch"(%{{.+}}) <{cache = 1 : i32, hint = 3 : i32, rw = 0 : i32}>
// OFF-LABEL: llvm.func @pool_dx
// OFF-NOT: prefetch
func.func @pool_dx(%x: tensor<2x4x112x112xf32>, %dy: tensor<2x4x56x56xf32>) -> tensor<2x4x112x112xf32> {
  %dx = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x4x112x112xf32>, tensor<2x4x56x56xf32> -> tensor<2x4x112x112xf32>
  return %dx : tensor<2x4x112x112xf32>
}
