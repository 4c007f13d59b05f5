// RUN: rlx-opt %s --rlx-to-llvm --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s

// The copy of a padding's interior (a memref.copy between strided views)
// becomes a loop over its rows that copies each row with vector loads and
// stores: chunks of 64 elements and one vector for the rest of the row.
// Without it, LLVM unrolled the scalar copy of a short row and left it
// scalar (it cannot prove that the two views do not overlap).
// CHECK: IR Dump After {{.*}}(rlx-strided-copy-to-loops)
// CHECK-NOT: memref.copy
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for {{.*}} step %c64
// CHECK: %[[V:.*]] = vector.load {{.*}} : memref<3x5x70xf32>, vector<64xf32>
// CHECK: vector.store %[[V]], {{.*}} : memref<3x5x70xf32, strided<[504, 72, 1], offset: 73>>, vector<64xf32>
// CHECK: %[[R:.*]] = vector.load {{.*}} : memref<3x5x70xf32>, vector<6xf32>
// CHECK: vector.store %[[R]], {{.*}}, vector<6xf32>
// CHECK-NOT: memref.copy
// CHECK: IR Dump After
func.func @pad(%x: tensor<3x5x70xf32>) -> tensor<3x7x72xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1] high[0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %z : f32
  } : tensor<3x5x70xf32> to tensor<3x7x72xf32>
  return %p : tensor<3x7x72xf32>
}
