// RUN: rlx-opt %s --split-input-file --rlx-hoist-loop-buffers | FileCheck %s

// A row temporary whose size is defined outside the loops and that never
// leaves an iteration is allocated once, in front of both loops.
// CHECK-LABEL: func.func @row_temporary
// CHECK: %[[T:.+]] = memref.alloc(%arg1) : memref<?xf32>
// CHECK-NEXT: scf.for
// CHECK-NEXT: scf.for
// CHECK-NOT: memref.alloc
// CHECK: linalg.copy ins(%{{.+}} : memref<?xf32, strided<[1], offset: ?>>) outs(%[[T]] : memref<?xf32>)
func.func @row_temporary(%a: memref<8x8x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %t = memref.alloc(%n) : memref<?xf32>
      %row = memref.subview %a[%i, %j, 0] [1, 1, %n] [1, 1, 1] : memref<8x8x?xf32> to memref<?xf32, strided<[1], offset: ?>>
      linalg.copy ins(%row : memref<?xf32, strided<[1], offset: ?>>) outs(%t : memref<?xf32>)
      linalg.copy ins(%t : memref<?xf32>) outs(%row : memref<?xf32, strided<[1], offset: ?>>)
    }
  }
  return
}

// -----

// A size computed in the loop keeps the allocation there.
// CHECK-LABEL: func.func @size_from_loop
// CHECK: scf.for %[[I:.+]] =
// CHECK-NEXT: memref.alloc(%[[I]])
func.func @size_from_loop(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc(%i) : memref<?xf32>
    linalg.fill ins(%f : f32) outs(%t : memref<?xf32>)
  }
  return
}

// -----

// A buffer carried to the next iteration (yielded through an inner loop and
// a view) or passed to a call is one buffer per iteration: left in place.
// CHECK-LABEL: func.func @carried
// CHECK: scf.for
// CHECK-NEXT: memref.alloc()
// CHECK-LABEL: func.func @called
// CHECK: scf.for
// CHECK-NEXT: memref.alloc()
func.func @carried(%init: memref<4xf32>) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init) -> memref<4xf32> {
    %t = memref.alloc() : memref<4xf32>
    linalg.copy ins(%acc : memref<4xf32>) outs(%t : memref<4xf32>)
    %inner = scf.for %j = %c0 to %c8 step %c1 iter_args(%x = %t) -> memref<4xf32> {
      %v = memref.cast %x : memref<4xf32> to memref<4xf32>
      scf.yield %v : memref<4xf32>
    }
    scf.yield %inner : memref<4xf32>
  }
  return %r : memref<4xf32>
}
func.func private @keep(memref<4xf32>)
func.func @called() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %t = memref.alloc() : memref<4xf32>
    func.call @keep(%t) : (memref<4xf32>) -> ()
  }
  return
}

// -----

// Never out of a parallel loop: each thread needs its own buffer.
// CHECK-LABEL: func.func @parallel
// CHECK: scf.forall
// CHECK-NEXT: memref.alloc()
func.func @parallel(%a: memref<8x4xf32>) {
  scf.forall (%i) in (8) {
    %t = memref.alloc() : memref<4xf32>
    %row = memref.subview %a[%i, 0] [1, 4] [1, 1] : memref<8x4xf32> to memref<4xf32, strided<[1], offset: ?>>
    linalg.copy ins(%row : memref<4xf32, strided<[1], offset: ?>>) outs(%t : memref<4xf32>)
  }
  return
}
