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
// CHECK: %[[LAST:.+]] = arith.constant 24575 : index
// CHECK: %[[FLAT:.+]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [24576], strides: [1] : memref<2x3x64x64xf32> to memref<24576xf32>
// CHECK: %[[C4096:.+]] = arith.constant 4096 : index
// CHECK: %[[NEXT:.+]] = arith.addi %[[OFF]], %[[C4096]] : index
// CHECK: scf.for %[[T:.+]] = %[[C0:.+]] to %{{.+}} step %[[C1:.+]] {
// CHECK: %[[TRIP:.+]] = arith.divui
// CHECK: %[[C64:.+]] = arith.constant 64 : index
// CHECK: %[[SKIP:.+]] = arith.muli %[[TRIP]], %[[C64]]
// CHECK: %[[FIRST:.+]] = arith.addi %[[NEXT]], %[[SKIP]] : index
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
// dynamic argument: a 4-trip loop after the last read prefetches 256 lines
// per trip (256 * 8 elements), clamped to the argument's dim(0) * 8192 - 1.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: scf.for %[[I:.+]] =
// CHECK: %[[ROW:.+]] = memref.reinterpret_cast %[[X:.+]] to offset: [%[[OFF:.+]]], sizes: [1, 8192]
// CHECK: memref.load %[[ROW]]
// CHECK: memref.dim %[[X]], %{{.+}} : memref<?x8192xf64>
// CHECK: memref.dim %[[X]], %{{.+}} : memref<?x8192xf64>
// CHECK: %[[FLAT:.+]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%{{.+}}], strides: [1] : memref<?x8192xf64> to memref<?xf64>
// CHECK: scf.for
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

// Blocks of 32 rows of 1000 floats (125 KiB, 2000 lines), read one vector
// at a time in nested loops (cross-entropy's row blocks): the next block
// starts at the views' offset with the inner induction variables at their
// lower bounds (i * 1000 + 0 * 1000 + 0) plus 32000, and its lines are
// shared between the two loops after the last read: elements [32000,
// 48000) over the first, [48000, 64000) over the second, 32 trips each.
// CHECK-LABEL: func.func @row_blocks
// CHECK: omp.loop_nest (%[[I:.+]]) : index
// CHECK: vector.reduction
// CHECK: memref.store
// CHECK: %[[ROW0:.+]] = arith.muli %[[I]], %{{.+}} : index
// CHECK: %[[ROWS:.+]] = arith.addi %[[ROW0]], %{{.+}} : index
// CHECK: %[[OFF0:.+]] = arith.addi %[[ROWS]], %{{.+}} : index
// CHECK: %[[C32000:.+]] = arith.constant 32000 : index
// CHECK: %[[FROM0:.+]] = arith.addi %[[OFF0]], %[[C32000]] : index
// CHECK: %[[C48000:.+]] = arith.constant 48000 : index
// CHECK: %[[FROM1:.+]] = arith.addi %[[OFF0]], %[[C48000]] : index
// CHECK: scf.for
// CHECK: arith.constant 512 : index
// CHECK: arith.addi %[[FROM0]], %{{.+}} : index
// CHECK: memref.prefetch
// CHECK: scf.for
// CHECK: arith.addi %[[FROM1]], %{{.+}} : index
// CHECK: memref.prefetch
func.func @row_blocks(%x: memref<4096x1000xf32>, %out: memref<32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c992 = arith.constant 992 : index
  %c1000 = arith.constant 1000 : index
  %c4096 = arith.constant 4096 : index
  %f0 = arith.constant 0.0 : f32
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%c4096) step (%c32) {
        scf.for %r = %c0 to %c32 step %c1 {
          scf.for %j = %c0 to %c992 step %c16 {
            %rowBlock = arith.muli %i, %c1000 : index
            %rowOff = arith.muli %r, %c1000 : index
            %row = arith.addi %rowBlock, %rowOff : index
            %off = arith.addi %row, %j : index
            %v = memref.reinterpret_cast %x to offset: [%off], sizes: [1, 16], strides: [1000, 1] : memref<4096x1000xf32> to memref<1x16xf32, strided<[1000, 1], offset: ?>>
            %e = vector.load %v[%c0, %c0] : memref<1x16xf32, strided<[1000, 1], offset: ?>>, vector<16xf32>
            %s = vector.reduction <add>, %e : vector<16xf32> into f32
            memref.store %s, %out[%r] : memref<32xf32>
          }
        }
        scf.for %t = %c0 to %c32 step %c1 {
          memref.store %f0, %out[%t] : memref<32xf32>
        }
        scf.for %t = %c0 to %c32 step %c1 {
          memref.store %f0, %out[%t] : memref<32xf32>
        }
        omp.yield
      }
    }
    omp.terminator
  }
  return
}

// -----

// Left alone: an argument walked by rows in one view and by columns in
// another (no common block), a block below min-bytes (4 KiB rows), a block
// without a loop after its last reader, a block of a buffer that is not an
// argument, and a block above max-bytes (1 MiB, the default is 256 KiB).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @left_alone(%x: memref<8x64x64xf32>, %y: memref<64x1024xf32>, %z: memref<4x512x512xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c1024 = arith.constant 1024 : index
  %c4096 = arith.constant 4096 : index
  %c262144 = arith.constant 262144 : index
  %tmp = memref.alloc() : memref<8x64x64xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %off = arith.muli %i, %c4096 : index
    %col = arith.muli %i, %c64 : index
    %plane = memref.reinterpret_cast %x to offset: [%off], sizes: [64, 64], strides: [64, 1] : memref<8x64x64xf32> to memref<64x64xf32, strided<[64, 1], offset: ?>>
    %column = memref.reinterpret_cast %x to offset: [%col], sizes: [64, 1], strides: [64, 1] : memref<8x64x64xf32> to memref<64x1xf32, strided<[64, 1], offset: ?>>
    %temp = memref.reinterpret_cast %tmp to offset: [%off], sizes: [64, 64], strides: [64, 1] : memref<8x64x64xf32> to memref<64x64xf32, strided<[64, 1], offset: ?>>
    %a = memref.load %plane[%c0, %c0] : memref<64x64xf32, strided<[64, 1], offset: ?>>
    %b = memref.load %column[%c0, %c0] : memref<64x1xf32, strided<[64, 1], offset: ?>>
    %c = memref.load %temp[%c0, %c0] : memref<64x64xf32, strided<[64, 1], offset: ?>>
    scf.for %t = %c0 to %c64 step %c1 {
      memref.store %a, %out[%t] : memref<64xf32>
      memref.store %b, %out[%t] : memref<64xf32>
      memref.store %c, %out[%t] : memref<64xf32>
    }
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %off = arith.muli %i, %c1024 : index
    %row = memref.reinterpret_cast %y to offset: [%off], sizes: [1, 1024], strides: [1024, 1] : memref<64x1024xf32> to memref<1x1024xf32, strided<[1024, 1], offset: ?>>
    %d = memref.load %row[%c0, %c0] : memref<1x1024xf32, strided<[1024, 1], offset: ?>>
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
  scf.for %i = %c0 to %c4 step %c1 {
    %off = arith.muli %i, %c262144 : index
    %big = memref.reinterpret_cast %z to offset: [%off], sizes: [512, 512], strides: [512, 1] : memref<4x512x512xf32> to memref<512x512xf32, strided<[512, 1], offset: ?>>
    %f = memref.load %big[%c0, %c0] : memref<512x512xf32, strided<[512, 1], offset: ?>>
    scf.for %t = %c0 to %c64 step %c1 {
      memref.store %f, %out[%t] : memref<64xf32>
    }
  }
  return
}
