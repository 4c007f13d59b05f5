// RUN: rlx-opt %s --split-input-file --rlx-streaming-stores=min-bytes=4096 | FileCheck %s

// A result that the function only writes, in whole 64-byte lines at
// offsets that are multiples of 16 floats (row * 64 + a loop step of 16),
// is written with aligned non-temporal stores; an sfence precedes the
// return.
// CHECK-LABEL: func.func @row_blocks
// CHECK: vector.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] {alignment = 64 : i64, nontemporal = true} : memref<1x16xf32, strided<[64, 1], offset: ?>>, vector<16xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
// CHECK-NEXT: return
func.func @row_blocks(%v: vector<16xf32>) -> memref<64x64xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %out = memref.alloc() {alignment = 64 : i64} : memref<64x64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c16 {
      %row = arith.muli %i, %c64 : index
      %off = arith.addi %row, %j : index
      %view = memref.reinterpret_cast %out to offset: [%off], sizes: [1, 16], strides: [64, 1] : memref<64x64xf32> to memref<1x16xf32, strided<[64, 1], offset: ?>>
      vector.transfer_write %v, %view[%c0, %c0] {in_bounds = [true]} : vector<16xf32>, memref<1x16xf32, strided<[64, 1], offset: ?>>
    }
  }
  return %out : memref<64x64xf32>
}

// -----

// Each thread drains its streaming stores at the end of the parallel
// region, before the join.
// CHECK-LABEL: func.func @threads
// CHECK: omp.parallel
// CHECK: vector.store {{.+}}nontemporal = true
// CHECK: omp.yield
// CHECK: llvm.call_intrinsic "llvm.x86.sse.sfence"
// CHECK-NEXT: omp.terminator
// CHECK-NOT: llvm.call_intrinsic
// CHECK: return
func.func @threads(%v: vector<16xf32>) -> memref<4096xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c4096 = arith.constant 4096 : index
  %out = memref.alloc() {alignment = 64 : i64} : memref<4096xf32>
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c4096) step (%c16) {
        vector.transfer_write %v, %out[%i] {in_bounds = [true]} : vector<16xf32>, memref<4096xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return %out : memref<4096xf32>
}

// -----

// Left alone: a buffer below min-bytes, a buffer the function reads back
// (an accumulator), a write at an offset not known to be a multiple of 16
// floats (a step of 8), a vector narrower than a line, and a buffer
// without a 64-byte alignment.
// CHECK-LABEL: func.func @not_streamed
// CHECK-NOT: nontemporal
// CHECK-NOT: llvm.call_intrinsic
// CHECK: return
func.func @not_streamed(%v: vector<16xf32>, %w: vector<8xf32>)
    -> (memref<512xf32>, memref<4096xf32>, memref<4096xf32>, memref<4096xf32>, memref<4096xf32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c512 = arith.constant 512 : index
  %c4080 = arith.constant 4080 : index
  %c4096 = arith.constant 4096 : index
  %f0 = arith.constant 0.0 : f32
  %small = memref.alloc() {alignment = 64 : i64} : memref<512xf32>
  %acc = memref.alloc() {alignment = 64 : i64} : memref<4096xf32>
  %odd = memref.alloc() {alignment = 64 : i64} : memref<4096xf32>
  %narrow = memref.alloc() {alignment = 64 : i64} : memref<4096xf32>
  %unaligned = memref.alloc() : memref<4096xf32>
  scf.for %i = %c0 to %c512 step %c16 {
    vector.transfer_write %v, %small[%i] {in_bounds = [true]} : vector<16xf32>, memref<512xf32>
  }
  scf.for %i = %c0 to %c4096 step %c16 {
    %old = vector.transfer_read %acc[%i], %f0 {in_bounds = [true]} : memref<4096xf32>, vector<16xf32>
    %new = arith.addf %old, %v : vector<16xf32>
    vector.transfer_write %new, %acc[%i] {in_bounds = [true]} : vector<16xf32>, memref<4096xf32>
    vector.transfer_write %v, %unaligned[%i] {in_bounds = [true]} : vector<16xf32>, memref<4096xf32>
  }
  scf.for %i = %c0 to %c4080 step %c8 {
    vector.transfer_write %v, %odd[%i] {in_bounds = [true]} : vector<16xf32>, memref<4096xf32>
    vector.transfer_write %w, %narrow[%i] {in_bounds = [true]} : vector<8xf32>, memref<4096xf32>
  }
  return %small, %acc, %odd, %narrow, %unaligned : memref<512xf32>, memref<4096xf32>, memref<4096xf32>, memref<4096xf32>, memref<4096xf32>
}
