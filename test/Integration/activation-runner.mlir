// The rlx-to-llvm pipeline's output runs under upstream mlir-runner.
// RUN: rlx-opt %s --rlx-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so | FileCheck %s

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %x = arith.constant dense<[[-2.0, -0.5, 0.0], [0.5, 1.0, 3.0]]> : tensor<2x3xf32>
  %dy = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  // relu'(x) * dy: zero where x <= 0.
  %dx = rlx.relu_backward %x, %dy : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %u = tensor.cast %dx : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  // CHECK: rank = 2 offset = 0 sizes = [2, 3]
  // CHECK-NEXT: {{\[}}[0,   0,   0],
  // CHECK-NEXT: [4,   5,   6]]

  // sigmoid'(x) = s (1 - s), s = 1 / (1 + exp(-x)), times dy (numpy: see the
  // values below); at 0 it is 1/4, so dx = 3 * 0.25 = 0.75.
  %s = rlx.activation_backward %x, %dy {kind = #rlx.activation<sigmoid>} : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %su = tensor.cast %s : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%su) : (tensor<*xf32>) -> ()
  // CHECK: rank = 2 offset = 0 sizes = [2, 3]
  // CHECK-NEXT: {{\[}}[0.104994,   0.470007,   0.75],
  // CHECK-NEXT: [0.940015,   0.98306,   0.27106]]
  return
}
