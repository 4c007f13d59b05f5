// Bad pass options: an unknown function, a wrt= index out of range.
// RUN: not rlx-opt %s --rlx-grad=function=nope 2>&1 | FileCheck %s --check-prefix=FN
// RUN: not rlx-opt %s '--rlx-grad=function=f wrt=0,5' 2>&1 | FileCheck %s --check-prefix=WRT
// RUN: rlx-opt %s '--rlx-grad=function=f wrt=1' | FileCheck %s --check-prefix=OK

// FN: error: rlx-grad: no function named 'nope'
// WRT: error: wrt index 5 is out of range: 'f' has 2 arguments
// OK: func.func @f_grad(%{{.+}}: tensor<4xf32>, %{{.+}}: tensor<4xf32>, %{{.+}}: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
func.func @f(%x: tensor<4xf32>, %w: tensor<4xf32>) -> tensor<4xf32> {
  %y = arith.mulf %x, %w : tensor<4xf32>
  return %y : tensor<4xf32>
}
