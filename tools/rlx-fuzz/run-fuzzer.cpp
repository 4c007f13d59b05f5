//===- run-fuzzer.cpp - libFuzzer: run compiled modules on random shapes --===//
//
// A fixed set of small modules (one or more ops per family, dims dynamic
// wherever the lowering allows) is compiled once. Each input picks a
// function, sizes for every dynamic dim (0-7, so dims disagree often) and the
// data (float bytes, indices that may be out of range). A call either
// succeeds or fails with a message; a crash or a sanitizer report (the JIT-ed
// code is ASan-instrumented in an RLX_SANITIZE build) is a finding.
//
//===----------------------------------------------------------------------===//
#include "RlxAD/Runtime/Runtime.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace rlx::runtime;

static const char *kModule = R"mlir(
func.func @relu_backward(%x: tensor<?x?xf32>, %dy: tensor<?x?xf32>) -> tensor<3x?xf32> {
  %r = rlx.relu_backward %x, %dy : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<3x?xf32>
  return %r : tensor<3x?xf32>
}
func.func @group_norm(%x: tensor<?x?x?x?xf32>, %g: tensor<?xf32>, %dy: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %r = rlx.group_norm_backward_input %x, %g, %g, %dy {num_groups = 2 : i64, eps = 1.0e-5 : f32} : tensor<?x?x?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}
func.func @layer_norm(%x: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?x?xf32> {
  %r = rlx.layer_norm %x, %g, %b {axis = -1 : i64, eps = 1.0e-5 : f32} : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @conv_weight(%x: tensor<?x2x5x5xf32>, %dy: tensor<?x2x3x3xf32>) -> tensor<2x2x3x3xf32> {
  %r = rlx.conv2d_backward_weight %x, %dy : tensor<?x2x5x5xf32>, tensor<?x2x3x3xf32> -> tensor<2x2x3x3xf32>
  return %r : tensor<2x2x3x3xf32>
}
func.func @max_pool_backward(%x: tensor<?x?x?x?xf32>, %dy: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %r = rlx.max_pool2d_backward %x, %dy {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 1, 0>} : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}
func.func @cumsum_backward(%dy: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = rlx.cumsum_backward %dy {axis = 1 : i64, exclusive} : tensor<?x?xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @gather_backward(%dy: tensor<?x?x?xf32>, %ids: tensor<?x?xi64>) -> tensor<5x?xf32> {
  %r = rlx.gather_backward %dy, %ids {axis = 0 : i64} : tensor<?x?x?xf32>, tensor<?x?xi64> -> tensor<5x?xf32>
  return %r : tensor<5x?xf32>
}
func.func @gather(%t: tensor<?x?xf32>, %ids: tensor<?xi32>) -> tensor<?x?xf32> {
  %r = rlx.gather %t, %ids {axis = 0 : i64} : tensor<?x?xf32>, tensor<?xi32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @cross_entropy_backward(%l: tensor<?x?xf32>, %t: tensor<?xi32>, %d: tensor<?xf32>) -> tensor<?x?xf32> {
  %r = rlx.softmax_cross_entropy_backward %l, %t, %d : tensor<?x?xf32>, tensor<?xi32>, tensor<?xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @fake_quantize_backward(%x: tensor<?x?xf32>, %dy: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = rlx.fake_quantize_backward %x, %dy {axis = 1 : i64, bits = 4 : i64, ste = #rlx.ste<clipped_identity>} : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @rope_backward(%dy: tensor<?x?x?xf32>, %c: tensor<?x?xf32>, %s: tensor<?x?xf32>) -> tensor<?x?x?xf32> {
  %r = rlx.rope_backward %dy, %c, %s {head_dim = 4 : i64, n_rot = 4 : i64} : tensor<?x?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
func.func @attention(%q: tensor<?x?x?xf32>, %k: tensor<?x?x?xf32>, %v: tensor<?x?x?xf32>, %m: tensor<?x?xf32>) -> tensor<?x?x?xf32> {
  %r = rlx.attention %q, %k, %v, %m {num_heads = 2 : i64, head_dim = 2 : i64, mask_kind = #rlx.mask_kind<custom>} : tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?xf32> -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
func.func @attention_backward(%q: tensor<?x?x?x?xf32>, %k: tensor<?x?x?x?xf32>, %v: tensor<?x?x?x?xf32>, %dy: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %r = rlx.attention_backward %q, %k, %v, %dy {num_heads = 2 : i64, head_dim = 2 : i64, mask_kind = #rlx.mask_kind<causal>, wrt = #rlx.attention_wrt<key>} : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32> -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}
func.func @conv_forward(%x: tensor<?x2x5x4xf32>, %w: tensor<4x1x3x2xf32>) -> tensor<?x4x3x3xf32> {
  %r = rlx.conv2d %x, %w {stride = array<i64: 2, 1>, padding = array<i64: 1, 0>, groups = 2 : i64} : tensor<?x2x5x4xf32>, tensor<4x1x3x2xf32> -> tensor<?x4x3x3xf32>
  return %r : tensor<?x4x3x3xf32>
}
func.func @conv_input(%dy: tensor<?x4x3x3xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<3x2x5x5xf32> {
  %r = rlx.conv2d_backward_input %dy, %w {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<?x4x3x3xf32>, tensor<4x2x3x3xf32> -> tensor<3x2x5x5xf32>
  return %r : tensor<3x2x5x5xf32>
}
func.func @max_pool(%x: tensor<?x?x?x?xf64>) -> tensor<?x?x?x?xf64> {
  %r = rlx.max_pool2d %x {kernel_size = array<i64: 3, 2>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true} : tensor<?x?x?x?xf64> -> tensor<?x?x?x?xf64>
  return %r : tensor<?x?x?x?xf64>
}
func.func @rms_norm_backward(%x: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>, %dy: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = rlx.rms_norm_backward_input %x, %g, %b, %dy {axis = -1 : i64, eps = 1.0e-6 : f32} : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @softmax_backward(%x: tensor<?x?xf32>, %dy: tensor<?x?xf32>) -> tensor<4x?xf32> {
  %r = rlx.log_softmax_backward %x, %dy {axis = 0 : i64} : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<4x?xf32>
  return %r : tensor<4x?xf32>
}
func.func @cross_entropy(%l: tensor<?x?xf64>, %t: tensor<?xi64>) -> tensor<?xf64> {
  %r = rlx.softmax_cross_entropy %l, %t : tensor<?x?xf64>, tensor<?xi64> -> tensor<?xf64>
  return %r : tensor<?xf64>
}
func.func @cumsum(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %r = rlx.cumsum %x {axis = 1 : i64} : tensor<?x?x?xf32> -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
func.func @rope(%x: tensor<?x?xf32>, %c: tensor<?x?xf32>, %s: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = rlx.rope %x, %c, %s {head_dim = 4 : i64, n_rot = 2 : i64} : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @attention_query(%q: tensor<?x?x?xf32>, %k: tensor<?x?x?xf32>, %v: tensor<?x?x?xf32>, %dy: tensor<?x?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?x?xf32> {
  %r = rlx.attention_backward %q, %k, %v, %dy, %b {num_heads = 2 : i64, head_dim = 2 : i64, mask_kind = #rlx.mask_kind<bias>, wrt = #rlx.attention_wrt<query>} : tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<?x?xf32> -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
func.func @scan_backward(%h: tensor<?xf32>, %traj: tensor<?x?xf32>, %dy: tensor<?x?xf32>, %xs: tensor<?x?xf32>) -> tensor<?xf32> {
  %r = rlx.scan_backward %h, %traj, %dy xs(%xs : tensor<?x?xf32>) {length = 3 : i64, num_checkpoints = 2 : i64} : tensor<?xf32>, tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?xf32> vjp {
  ^bb0(%c: tensor<?xf32>, %x: tensor<?xf32>, %d: tensor<?xf32>):
    %g = rlx.relu_backward %c, %d : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
    rlx.yield %g, %d : tensor<?xf32>, tensor<?xf32>
  } forward {
  ^bb0(%c: tensor<?xf32>, %x: tensor<?xf32>):
    %n = rlx.relu_backward %c, %x : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
    rlx.yield %n : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
func.func @scan(%h: tensor<?xf32>, %xs: tensor<?x?xf32>) -> tensor<?xf32> {
  %c = rlx.scan %h xs(%xs : tensor<?x?xf32>) {length = 3 : i64} : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%carry: tensor<?xf32>, %x: tensor<?xf32>):
    %n = rlx.relu_backward %carry, %x : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
    rlx.yield %n : tensor<?xf32>
  }
  return %c : tensor<?xf32>
}
)mlir";

/// Reads bytes off the input; zeros once it is exhausted.
struct Bytes {
  const uint8_t *data;
  size_t size;
  uint8_t next() { return size ? (--size, *data++) : 0; }
};

static JitModule *module;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Bytes in{data, size};
  const auto &functions = module->functions();
  const FunctionSignature &f = functions[in.next() % functions.size()];

  std::vector<std::vector<int64_t>> shapes;
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<TensorView> views;
  for (const TensorType &t : f.inputs) {
    std::vector<int64_t> shape;
    int64_t n = 1;
    for (int64_t d : t.shape) {
      shape.push_back(d >= 0 ? d : in.next() % 8);
      n *= shape.back();
    }
    std::vector<uint8_t> buffer(n * dtypeSize(t.dtype));
    for (size_t i = 0; i < buffer.size(); i += dtypeSize(t.dtype)) {
      // Small floats (an exponent byte near 1.0) and small, sometimes
      // negative or out-of-range, indices.
      int8_t v = static_cast<int8_t>(in.next());
      if (t.dtype == DType::F32) {
        float x = v / 16.0f;
        std::memcpy(&buffer[i], &x, sizeof x);
      } else if (t.dtype == DType::F64) {
        double x = v / 16.0;
        std::memcpy(&buffer[i], &x, sizeof x);
      } else if (t.dtype == DType::I32) {
        int32_t x = v % 9;
        std::memcpy(&buffer[i], &x, sizeof x);
      } else if (t.dtype == DType::I64) {
        int64_t x = v % 9;
        std::memcpy(&buffer[i], &x, sizeof x);
      }
    }
    shapes.push_back(std::move(shape));
    buffers.push_back(std::move(buffer));
  }
  for (size_t i = 0; i < shapes.size(); ++i)
    views.push_back({f.inputs[i].dtype, shapes[i], buffers[i].data()});
  auto results = module->call(f.name, views);
  if (!results)
    llvm::consumeError(results.takeError());
  return 0;
}

// Compiling the module (JIT, ASan-instrumented; LLVM runs at the first
// lookup) takes seconds: here, before the first input, outside the per-input
// -timeout. One call of each function (every dynamic dim 0) materializes it.
extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  auto m = JitModule::compile(kModule);
  if (!m) {
    fprintf(stderr, "rlx-fuzz-run: %s\n",
            llvm::toString(m.takeError()).c_str());
    std::abort();
  }
  (*m)->setMemoryLimit(64 << 20);
  module = m->release();
  for (size_t i = 0; i < module->functions().size(); ++i) {
    uint8_t pick = static_cast<uint8_t>(i);
    LLVMFuzzerTestOneInput(&pick, 1);
  }
  return 0;
}
