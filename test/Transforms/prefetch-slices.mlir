// RUN: rlx-opt %s --split-input-file --rlx-prefetch-slices | FileCheck %s

// A loop over (n, c) planes of 64x64 f32 (16 KiB, 256 lines) that reads a
// plane and then runs a 64-trip output loop: each output trip prefetches 4
// lines (64 floats) of the next plane, from offset + 4096 + trip * 64,
// clamped to the argument's 2 * 3 * 4096 elements.
// CHECK-LABEL: func.func @planes
// CHECK-SAME: (%[[X:.+]]: memref<2x3x64x64xf32>
// CHECK: omp.loop_nest (%[[N:.+]], %[[C:.+]]) : index
// CHECK: %[[OFF:.+]] = arith.addi
// CHECK: %[[PLANE:.+]] = memref.reinterpret_cast %[[BASE:.+]] to offset: [%[[OFF]]], sizes: [64, 64]
// CHECK: vector.load %[[PLANE]]
// CHECK: scf.for %[[T:.+]] = %[[C0:.+]] to %{{.+}} step %[[C1:.+]] {
// CHECK-DAG: %[[LAST:.+]] = arith.constant 24575 : index
// CHECK-DAG: %[[FLAT:.+]] = memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [24576], strides: [1] : memref<f32> to memref<24576xf32>
// CHECK-DAG: %[[TRIP:.+]] = arith.divui
// CHECK-DAG: %[[NEXT:.+]] = arith.addi %[[OFF]], %{{.+}} : index
// CHECK: %[[FIRST:.+]] = arith.addi %[[NEXT]], %{{.+}} : index
// CHECK: scf.for %[[L:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK: %[[A:.+]] = arith.addi %[[FIRST]], %[[L]]
// CHECK: %[[MIN:.+]] = arith.minsi %[[A]], %[[LAST]]
// CHECK: %[[ADDR:.+]] = arith.maxsi %[[MIN]]
// CHECK: memref.prefetch %[[FLAT]][%[[ADDR]]], read, locality<3>, data : memref<24576xf32>
// CHECK: memref.store
func.func @planes(%x: memref<2x3x64x64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %c12288 = arith.constant 12288 : index
  %base, %offset, %sizes:4, %strides:4 = memref.extract_strided_metadata %x : memref<2x3x64x64xf32> -> memref<f32>, index, index, index, index, index, index, index, index, index
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%n, %c) : index = (%c0, %c0) to (%c2, %c3) step (%c1, %c1) {
        %nOff = arith.muli %n, %c12288 : index
        %cOff = arith.muli %c, %c4096 : index
        %off = arith.addi %nOff, %cOff : index
        %plane = memref.reinterpret_cast %base to offset: [%off], sizes: [64, 64], strides: [64, 1] : memref<f32> to memref<64x64xf32, strided<[64, 1], offset: ?>>
        %v = vector.load %plane[%c0, %c0] : memref<64x64xf32, strided<[64, 1], offset: ?>>, vector<16xf32>
        %s = vector.reduction <add>, %v : vector<16xf32> into f32
        scf.for %t = %c0 to %c64 step %c1 {
          memref.store %s, %out[%t] : memref<64xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// A sequential loop over rows of 8192 f64 (64 KiB, 1024 lines) of a
// dynamic argument, viewed directly: a 4-trip loop after the last read
// prefetches 256 lines per trip (256 * 8 elements), clamped to the
// argument's dim(0) * 8192 - 1.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: scf.for %[[I:.+]] =
// CHECK: %[[ROW:.+]] = memref.reinterpret_cast %[[X:.+]] to offset: [%[[OFF:.+]]], sizes: [1, 8192]
// CHECK: memref.load %[[ROW]]
// CHECK: scf.for
// CHECK: memref.dim %[[X]], %{{.+}} : memref<?x8192xf64>
// CHECK: memref.dim %[[X]], %{{.+}} : memref<?x8192xf64>
// CHECK: %[[FLAT:.+]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%{{.+}}], strides: [1] : memref<?x8192xf64> to memref<?xf64>
// CHECK: arith.constant 2048 : index
// CHECK: scf.for
// CHECK: memref.prefetch %[[FLAT]][%{{.+}}], read, locality<3>, data : memref<?xf64>
func.func @dynamic_rows(%x: memref<?x8192xf64>, %out: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8192 = arith.constant 8192 : index
  %rows = memref.dim %x, %c0 : memref<?x8192xf64>
  scf.for %i = %c0 to %rows step %c1 {
    %off = arith.muli %i, %c8192 : index
    %row = memref.reinterpret_cast %x to offset: [%off], sizes: [1, 8192], strides: [8192, 1] : memref<?x8192xf64> to memref<1x8192xf64, strided<[8192, 1], offset: ?>>
    %v = memref.load %row[%c0, %c0] : memref<1x8192xf64, strided<[8192, 1], offset: ?>>
    scf.for %t = %c0 to %c4 step %c1 {
      memref.store %v, %out[%t] : memref<4xf64>
    }
  }
  return
}

// -----

// Left alone: a strided slice (every other row), a next iteration that does
// not read the next slice (a step of 2 planes), a slice below min-bytes,
// a slice without a loop after its last reader, and a slice of a buffer
// that is not an argument.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @left_alone(%x: memref<8x64x64xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c4096 = arith.constant 4096 : index
  %tmp = memref.alloc() : memref<8x64x64xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %off = arith.muli %i, %c4096 : index
    %strided = memref.reinterpret_cast %x to offset: [%off], sizes: [32, 64], strides: [128, 1] : memref<8x64x64xf32> to memref<32x64xf32, strided<[128, 1], offset: ?>>
    %small = memref.reinterpret_cast %x to offset: [%off], sizes: [1, 64], strides: [64, 1] : memref<8x64x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
    %temp = memref.reinterpret_cast %tmp to offset: [%off], sizes: [64, 64], strides: [64, 1] : memref<8x64x64xf32> to memref<64x64xf32, strided<[64, 1], offset: ?>>
    %a = memref.load %strided[%c0, %c0] : memref<32x64xf32, strided<[128, 1], offset: ?>>
    %b = memref.load %small[%c0, %c0] : memref<1x64xf32, strided<[64, 1], offset: ?>>
    %c = memref.load %temp[%c0, %c0] : memref<64x64xf32, strided<[64, 1], offset: ?>>
    scf.for %t = %c0 to %c64 step %c1 {
      memref.store %a, %out[%t] : memref<64xf32>
      memref.store %b, %out[%t] : memref<64xf32>
      memref.store %c, %out[%t] : memref<64xf32>
    }
  }
  scf.for %i = %c0 to %c8 step %c2 {
    %off = arith.muli %i, %c4096 : index
    %skip = memref.reinterpret_cast %x to offset: [%off], sizes: [64, 64], strides: [64, 1] : memref<8x64x64xf32> to memref<64x64xf32, strided<[64, 1], offset: ?>>
    %d = memref.load %skip[%c0, %c0] : memref<64x64xf32, strided<[64, 1], offset: ?>>
    scf.for %t = %c0 to %c64 step %c1 {
      memref.store %d, %out[%t] : memref<64xf32>
    }
  }
  scf.for %i = %c0 to %c8 step %c1 {
    %off = arith.muli %i, %c4096 : index
    %plane = memref.reinterpret_cast %x to offset: [%off], sizes: [64, 64], strides: [64, 1] : memref<8x64x64xf32> to memref<64x64xf32, strided<[64, 1], offset: ?>>
    scf.for %t = %c0 to %c64 step %c1 {
      %e = memref.load %plane[%t, %c0] : memref<64x64xf32, strided<[64, 1], offset: ?>>
      memref.store %e, %out[%t] : memref<64xf32>
    }
  }
  return
}
