// RUN: rlx-opt %s --split-input-file --rlx-approximate-math | FileCheck %s

// f32 exp: clamp x from below, round n into t's mantissa with one FMA and
// cap it at 127, reduce with two FMAs, a degree-7 polynomial (7 FMAs), and
// scale by 2^n made from t's bits; no floor, no fptosi, no libm call.
// CHECK-LABEL: func.func @exp_f32
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-DAG: %[[LO:.+]] = arith.constant -8.780000e+01 : f32
// CHECK-DAG: %[[ROUND:.+]] = arith.constant 0x4B40007F : f32
// CHECK-DAG: %[[CAP:.+]] = arith.constant 0x4B4000FE : f32
// CHECK-DAG: %[[C23:.+]] = arith.constant 23 : i32
// CHECK: %[[KEEP:.+]] = arith.cmpf uge, %[[X]], %[[LO]]
// CHECK: %[[XC:.+]] = arith.select %[[KEEP]], %[[X]], %[[LO]]
// CHECK: %[[T0:.+]] = math.fma %[[XC]], %{{.+}}, %[[ROUND]]
// CHECK: arith.cmpf ule, %[[T0]], %[[CAP]]
// CHECK: %[[T:.+]] = arith.select
// CHECK: %[[N:.+]] = arith.subf %[[T]], %[[ROUND]]
// CHECK: %[[R0:.+]] = math.fma %[[N]], %{{.+}}, %[[XC]]
// CHECK: %[[R:.+]] = math.fma %[[N]], %{{.+}}, %[[R0]]
// CHECK-COUNT-7: math.fma %{{.+}}, %[[R]]
// CHECK: %[[BITS:.+]] = arith.bitcast %[[T]] : f32 to i32
// CHECK: %[[SHIFTED:.+]] = arith.shli %[[BITS]], %[[C23]]
// CHECK: %[[POW:.+]] = arith.bitcast %[[SHIFTED]] : i32 to f32
// CHECK: %[[E:.+]] = arith.mulf %{{.+}}, %[[POW]]
// CHECK: return %[[E]]
// CHECK-NOT: math.floor
// CHECK-NOT: math.exp
func.func @exp_f32(%x: f32) -> f32 {
  %e = math.exp %x : f32
  return %e : f32
}

// -----

// On vectors the constants are splats.
// CHECK-LABEL: func.func @exp_vector
// CHECK-DAG: arith.constant dense<23> : vector<16xi32>
// CHECK-DAG: arith.constant dense<-8.780000e+01> : vector<16xf32>
// CHECK: arith.shli %{{.+}} : vector<16xi32>
// CHECK: arith.mulf %{{.+}} : vector<16xf32>
// CHECK-NOT: math.exp
func.func @exp_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %e = math.exp %x : vector<16xf32>
  return %e : vector<16xf32>
}

// -----

// Only f32 is rewritten: f16 and f64 exp are left to their LLVM lowering.
// CHECK-LABEL: func.func @exp_f16_f64
// CHECK: math.exp %{{.+}} : f16
// CHECK: math.exp %{{.+}} : f64
func.func @exp_f16_f64(%x: f16, %y: f64) -> (f16, f64) {
  %e = math.exp %x : f16
  %f = math.exp %y : f64
  return %e, %f : f16, f64
}

// -----

// expm1 is upstream's approximation, which builds on an f32 exp: that exp
// is rlx's too (upstream's exp pattern is not selected), so no math.exp,
// floor or fptosi is left for libm or the slower sequence.
// CHECK-LABEL: func.func @expm1_vector
// CHECK: arith.shli %{{.+}} : vector<16xi32>
// CHECK-NOT: math.exp
// CHECK-NOT: math.floor
// CHECK-NOT: arith.fptosi
// CHECK: return
func.func @expm1_vector(%x: vector<16xf32>) -> vector<16xf32> {
  %e = math.expm1 %x : vector<16xf32>
  return %e : vector<16xf32>
}
