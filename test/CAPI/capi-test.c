/* Compiles a module through the C API, calls it, checks the numbers, and
 * checks that a bad call fails with a message instead of crashing. */
#include "rlx-c/Runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kModule =
    "func.func @grad(%x: tensor<?x3xf64>, %dy: tensor<?x3xf64>) -> "
    "tensor<?x3xf64> {\n"
    "  %dx = rlx.activation_backward %x, %dy {kind = #rlx.activation<tanh>}\n"
    "      : tensor<?x3xf64>, tensor<?x3xf64> -> tensor<?x3xf64>\n"
    "  return %dx : tensor<?x3xf64>\n"
    "}\n";

int main(void) {
  char *err = NULL;
  RlxModule *m = rlxModuleCompile(kModule, strlen(kModule), NULL, &err);
  if (!m) {
    fprintf(stderr, "compile failed: %s\n", err);
    return 1;
  }
  printf("functions: %zu %s\n", rlxModuleNumFunctions(m),
         rlxModuleFunctionName(m, 0));
  printf("type: %s\n", rlxModuleFunctionType(m, 0));
  if (rlxModuleFunctionType(m, 1) != NULL)
    return 1;

  double x[6] = {-1.5, -0.5, 0.0, 0.25, 1.0, 2.0};
  double dy[6] = {1, 2, 3, 4, 5, 6};
  int64_t shape[2] = {2, 3};
  RlxTensor in[2] = {{RLX_F64, 2, shape, x, NULL},
                     {RLX_F64, 2, shape, dy, NULL}};
  RlxTensor *out = NULL;
  size_t nOut = 0;
  if (rlxModuleCall(m, "grad", in, 2, &out, &nOut, &err) != 0) {
    fprintf(stderr, "call failed: %s\n", err);
    return 1;
  }
  double worst = 0;
  for (int i = 0; i < 6; ++i) {
    double t = tanh(x[i]);
    double want = (1 - t * t) * dy[i];
    double got = ((double *)out[0].data)[i];
    worst = fmax(worst, fabs(got - want));
  }
  printf("outputs: %zu rank %lld shape %lldx%lld max error %.3g\n", nOut,
         (long long)out[0].rank, (long long)out[0].shape[0],
         (long long)out[0].shape[1], worst);
  /* One result kept past the array: copy it out, destroy the array, release
   * the copy. */
  RlxTensor kept = out[0];
  out[0].shape = NULL;
  out[0].owner = NULL;
  rlxTensorsDestroy(out, nOut);
  double first = ((double *)kept.data)[0];
  rlxTensorRelease(&kept);
  printf("kept: %s released: %d\n",
         first == (1 - tanh(x[0]) * tanh(x[0])) * dy[0] ? "same" : "wrong",
         kept.data == NULL && kept.shape == NULL && kept.owner == NULL);
  if (worst > 1e-12)
    return 1;

  /* A dtype mismatch is rejected with a message. */
  RlxTensor bad[2] = {{RLX_F32, 2, shape, x, NULL},
                      {RLX_F64, 2, shape, dy, NULL}};
  if (rlxModuleCall(m, "grad", bad, 2, &out, &nOut, &err) == 0)
    return 1;
  printf("bad call: %s\n", err);
  rlxStringDestroy(err);

  /* f16 and bf16 tensors are 2-byte elements (bf16: the upper half of an
   * f32's bits). Negation flips exactly the sign bit in both. */
  static const char *kLow =
      "func.func @neg_bf16(%x: tensor<4xbf16>) -> tensor<4xbf16> {\n"
      "  %y = rlx.activation %x {kind = #rlx.activation<neg>}\n"
      "      : tensor<4xbf16> -> tensor<4xbf16>\n"
      "  return %y : tensor<4xbf16>\n"
      "}\n"
      "func.func @neg_f16(%x: tensor<4xf16>) -> tensor<4xf16> {\n"
      "  %y = rlx.activation %x {kind = #rlx.activation<neg>}\n"
      "      : tensor<4xf16> -> tensor<4xf16>\n"
      "  return %y : tensor<4xf16>\n"
      "}\n";
  RlxModule *low = rlxModuleCompile(kLow, strlen(kLow), NULL, &err);
  if (!low) {
    fprintf(stderr, "compile failed: %s\n", err);
    return 1;
  }
  /* 1.5, -2, 0.25, 3 */
  uint16_t bf16[4] = {0x3FC0, 0xC000, 0x3E80, 0x4040};
  uint16_t f16[4] = {0x3E00, 0xC000, 0x3400, 0x4200};
  int64_t four = 4;
  const struct {
    const char *name;
    RlxDType dtype;
    uint16_t *bits;
  } lowCases[2] = {{"neg_bf16", RLX_BF16, bf16}, {"neg_f16", RLX_F16, f16}};
  for (int c = 0; c < 2; ++c) {
    RlxTensor arg = {lowCases[c].dtype, 1, &four, lowCases[c].bits, NULL};
    if (rlxModuleCall(low, lowCases[c].name, &arg, 1, &out, &nOut, &err) != 0) {
      fprintf(stderr, "call failed: %s\n", err);
      return 1;
    }
    int exact = out[0].dtype == lowCases[c].dtype;
    for (int i = 0; i < 4; ++i)
      exact &= ((uint16_t *)out[0].data)[i] == (lowCases[c].bits[i] ^ 0x8000);
    printf("%s: %s\n", lowCases[c].name, exact ? "exact" : "WRONG");
    rlxTensorsDestroy(out, nOut);
    if (!exact)
      return 1;
  }
  rlxModuleDestroy(low);

  /* A syntax error fails to compile with a message. */
  if (rlxModuleCompile("func.func @f(", 13, NULL, &err))
    return 1;
  printf("bad module: %s\n", strchr(err, '\n') ? "multi-line message" : err);
  printf("bad module location: %s", strchr(err, '\n') + 1);
  rlxStringDestroy(err);

  /* Diagnostics name the source, with line and column. */
  const char *badSource = "func.func @f(%x: tensor<2xf32>) -> tensor<3xf32> {\n"
                          "  return %x : tensor<2xf32>\n}\n";
  if (rlxModuleCompileNamed(badSource, strlen(badSource), "model.mlir", NULL,
                            &err))
    return 1;
  printf("named: %s", strchr(err, '\n') + 1);
  rlxStringDestroy(err);
  rlxModuleDestroy(m);
  return 0;
}
