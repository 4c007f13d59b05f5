// bf16 and f16 through rlx-run: softmax computed in f32, rounded once.
func.func @soft_bf16(%x: tensor<?x5xbf16>) -> tensor<?x5xbf16> {
  %y = rlx.softmax %x {axis = -1 : i64} : tensor<?x5xbf16> -> tensor<?x5xbf16>
  return %y : tensor<?x5xbf16>
}
func.func @soft_f16(%x: tensor<?x5xf16>) -> tensor<?x5xf16> {
  %y = rlx.softmax %x {axis = -1 : i64} : tensor<?x5xf16> -> tensor<?x5xf16>
  return %y : tensor<?x5xf16>
}
