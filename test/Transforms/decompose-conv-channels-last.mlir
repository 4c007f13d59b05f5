// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward --rlx-lower-to-linalg | FileCheck %s
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=conv-channels-last=0 --rlx-lower-to-linalg=forward-conv-channels-last=0 | FileCheck %s --check-prefix=OFF
// RUN: rlx-opt %s --split-input-file --rlx-decompose-backward=conv-phase-shuffle=0 --rlx-lower-to-linalg | FileCheck %s --check-prefix=COPY

// conv2d with 16 output channels per group (groups 2, stride 2, dynamic
// batch), channels-last: the filter [32, 16, 3, 3] is transposed to
// [G, C, kH, kW, F] (one transpose of the last two dims of [G, F, C*kH*kW]),
// the contraction writes [N, G, Ho, Wo, F] reading the padded input at
// 2i + a, 2j + b directly (no stride phases), and one transpose of
// [N, G, Ho*Wo, F] gives NCHW back.
// CHECK-LABEL: func.func @forward
// CHECK: %[[PADDED:.+]] = tensor.pad
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x16x144xf32>) outs(%{{.*}} : tensor<2x144x16xf32>) permutation = [0, 2, 1]
// CHECK: %[[FT:.+]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2, 3], [4]] output_shape [2, 16, 3, 3, 16]
// CHECK: %[[N:.+]] = tensor.dim %[[PADDED]], %c0
// CHECK: tensor.empty(%[[N]]) : tensor<?x2x5x6x16xf32>
// CHECK: linalg.generic {{.*}} ins(%[[PADDED]], %[[FT]] : tensor<?x32x11x13xf32>, tensor<2x16x3x3x16xf32>) outs(%{{.*}} : tensor<?x2x5x6x16xf32>)
// CHECK: linalg.transpose ins(%{{.*}} : tensor<?x2x30x16xf32>) outs(%{{.*}} : tensor<?x2x16x30xf32>) permutation = [0, 1, 3, 2]
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] : tensor<?x2x16x5x6xf32> into tensor<?x32x5x6xf32>
// Off: the column form, with the input split into its 2 column phases.
// OFF-LABEL: func.func @forward
// OFF: tensor<?x32x11x2x7xf32>
// OFF: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x2x16x5x6xf32>)
// OFF-NOT: linalg.transpose
func.func @forward(%x: tensor<?x32x9x11xf32>, %w: tensor<32x16x3x3xf32>) -> tensor<?x32x5x6xf32> {
  %y = rlx.conv2d %x, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, groups = 2 : i64} : tensor<?x32x9x11xf32>, tensor<32x16x3x3xf32> -> tensor<?x32x5x6xf32>
  return %y : tensor<?x32x5x6xf32>
}

// -----

// conv2d_backward_input with 16 input channels, stride 2 dividing H and W:
// each of the 4 stride phases is a contraction into its slice [N, G, rows,
// cols, Cig] of one channels-last dx [N, G, rows, 2, cols, 2, Cig] (every
// second row and column, channel rows whole) over its own taps of the
// kernel transposed to [G, Cog, kH, kW, Cig] (phase (0, 0) has the one tap
// (1, 1)), and one transpose of [N, G, H*W, Cig] gives NCHW: no transpose
// and strided copy per phase.
// CHECK-LABEL: func.func @input
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x16x16x9xf32>) outs(%{{.*}} : tensor<1x16x9x16xf32>)
// CHECK: %[[P:.+]] = tensor.empty() : tensor<2x1x4x2x4x2x16xf32>
// CHECK: tensor.extract_slice %[[P]][0, 0, 0, 0, 0, 0, 0] [2, 1, 4, 1, 4, 1, 16] [1, 1, 1, 1, 1, 1, 1] : tensor<2x1x4x2x4x2x16xf32> to tensor<2x1x4x4x16xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 1, 1, 0] [1, 16, 1, 1, 16] [1, 1, 2, 2, 1]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x1x4x4x16xf32>)
// CHECK-NOT: linalg.transpose
// CHECK: tensor.insert_slice %{{.*}}[0, 0, 0, 1, 0, 1, 0] [2, 1, 4, 1, 4, 1, 16] [1, 1, 1, 1, 1, 1, 1] : tensor<2x1x4x4x16xf32> into tensor<2x1x4x2x4x2x16xf32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x1x64x16xf32>) outs(%{{.*}} : tensor<2x1x16x64xf32>) permutation = [0, 1, 3, 2]
// CHECK-NOT: linalg.transpose
// CHECK-NOT: tensor.insert_slice
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3, 4], [5, 6]] : tensor<2x1x16x4x2x4x2xf32> into tensor<2x16x8x8xf32>
// Without conv-phase-shuffle: each phase into its own [N, G, rows, cols,
// Cig], transposed back and copied into every second row and column of dx.
// COPY-LABEL: func.func @input
// COPY: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x1x4x4x16xf32>)
// COPY: linalg.transpose ins(%{{.*}} : tensor<2x1x16x16xf32>)
// COPY: tensor.insert_slice %{{.*}}[0, 0, 0, 0] [2, 16, 4, 4] [1, 1, 2, 2]
// COPY-COUNT-3: linalg.transpose ins(%{{.*}} : tensor<2x1x16x16xf32>)
// COPY: tensor.insert_slice %{{.*}}[0, 0, 1, 1] [2, 16, 4, 4] [1, 1, 2, 2]
// COPY-NOT: tensor<2x1x4x2x4x2x16xf32>
// Off: the phase-major buffer and one pixel-shuffle transpose.
// OFF-LABEL: func.func @input
// OFF: tensor.empty() : tensor<2x1x16x2x2x4x4xf32>
// OFF: linalg.transpose {{.*}} permutation = [0, 1, 2, 5, 3, 6, 4]
func.func @input(%dy: tensor<2x16x4x4xf32>, %w: tensor<16x16x3x3xf32>) -> tensor<2x16x8x8xf32> {
  %dx = rlx.conv2d_backward_input %dy, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<2x16x4x4xf32>, tensor<16x16x3x3xf32> -> tensor<2x16x8x8xf32>
  return %dx : tensor<2x16x8x8xf32>
}
