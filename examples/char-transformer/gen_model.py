"""Writes model.mlir (run once; the output is committed): the forward model,
Adam step and sampler of the char-level transformer, with the shapes below
spelled out, since MLIR has no shape parameters."""
import os

V, T, B, D, H, HD, F = 80, 32, 16, 48, 4, 12, 192
N = B * T
PARAMS = [("emb", (V, D)), ("n1g", (D,)), ("n1b", (D,)), ("wq", (D, D)),
          ("wk", (D, D)), ("wv", (D, D)), ("wo", (D, D)), ("n2g", (D,)),
          ("n2b", (D,)), ("wup", (D, F)), ("wdown", (F, D)), ("nfg", (D,)),
          ("nfb", (D,)), ("wout", (D, V))]
TABLE = []
_off = 0
for _name, _shape in PARAMS:
    _n = 1
    for _s in _shape:
        _n *= _s
    TABLE.append((_name, _shape, _off, _n))
    _off += _n
P = _off


def t(shape, e="f32"):
    return "tensor<" + "".join("%sx" % s for s in shape) + e + ">"


def slices():
    lines = []
    for name, shape, o, n in TABLE:
        src = "tensor.extract_slice %%p[%d] [%d] [1] : %s to %s" % (o, n, t((P,)), t((n,)))
        if len(shape) == 1:
            lines.append("  %%%s = %s" % (name, src))
        else:
            lines.append("  %%%s_f = %s" % (name, src))
            lines.append("  %%%s = tensor.expand_shape %%%s_f [[0, 1]] output_shape [%d, %d] : %s into %s"
                         % (name, name, shape[0], shape[1], t((n,)), t(shape)))
    return lines


def matmul(res, a, b, m, k, n):
    return ["  %%%s_e = tensor.empty() : %s" % (res, t((m, n))),
            "  %%%s_z = linalg.fill ins(%%zero : f32) outs(%%%s_e : %s) -> %s"
            % (res, res, t((m, n)), t((m, n))),
            "  %%%s = linalg.matmul ins(%%%s, %%%s : %s, %s) outs(%%%s_z : %s) -> %s"
            % (res, a, b, t((m, k)), t((k, n)), res, t((m, n)), t((m, n)))]


def norm(res, x, g, b, shape):
    return ["  %%%s = rlx.rms_norm %%%s, %%%s, %%%s {axis = -1 : i64, eps = 1.0e-05 : f32} : %s, %s, %s -> %s"
            % (res, x, g, b, t(shape), t((D,)), t((D,)), t(shape))]


def block(bs):
    n = bs * T
    L = ["  %zero = arith.constant 0.0 : f32",
         "  %%x = rlx.gather %%emb, %%tok {axis = 0 : i64} : %s, %s -> %s"
         % (t((V, D)), t((bs, T), "i64"), t((bs, T, D)))]
    L += norm("h1", "x", "n1g", "n1b", (bs, T, D))
    L += ["  %%h1f = tensor.collapse_shape %%h1 [[0, 1], [2]] : %s into %s" % (t((bs, T, D)), t((n, D)))]
    for w in ("q", "k", "v"):
        L += matmul(w + "f", "h1f", "w" + w, n, D, D)
        L += ["  %%%s = tensor.expand_shape %%%sf [[0, 1], [2]] output_shape [%d, %d, %d] : %s into %s"
              % (w, w, bs, T, D, t((n, D)), t((bs, T, D)))]
    for w in ("q", "k"):
        L += ["  %%%sr = rlx.rope %%%s, %%cos, %%sin {head_dim = %d : i64, n_rot = %d : i64} : %s, %s, %s -> %s"
              % (w, w, HD, HD, t((bs, T, D)), t((T, HD // 2)), t((T, HD // 2)), t((bs, T, D)))]
    L += ["  %%att = rlx.attention %%qr, %%kr, %%v {num_heads = %d : i64, head_dim = %d : i64, mask_kind = #rlx.mask_kind<causal>} : %s, %s, %s -> %s"
          % (H, HD, t((bs, T, D)), t((bs, T, D)), t((bs, T, D)), t((bs, T, D)))]
    L += ["  %%attf = tensor.collapse_shape %%att [[0, 1], [2]] : %s into %s" % (t((bs, T, D)), t((n, D)))]
    L += matmul("o", "attf", "wo", n, D, D)
    L += ["  %%xf = tensor.collapse_shape %%x [[0, 1], [2]] : %s into %s" % (t((bs, T, D)), t((n, D)))]
    L += ["  %%x2 = arith.addf %%xf, %%o : %s" % t((n, D))]
    L += norm("h2", "x2", "n2g", "n2b", (n, D))
    L += matmul("up", "h2", "wup", n, D, F)
    L += ["  %%act = rlx.activation %%up {kind = #rlx.activation<gelu>} : %s -> %s" % (t((n, F)), t((n, F)))]
    L += matmul("down", "act", "wdown", n, F, D)
    L += ["  %%x3 = arith.addf %%x2, %%down : %s" % t((n, D))]
    L += norm("hf", "x3", "nfg", "nfb", (n, D))
    L += matmul("logits", "hf", "wout", n, D, V)
    return L


def main():
    pt = t((P,))
    tabs = (t((T, HD // 2)), t((T, HD // 2)))
    out = ["""// A one-block causal transformer language model over characters, written
// forward-only (by gen_model.py, which spells out the shapes). rlx-grad
// builds @loss_grad from @loss (marked rlx.grad: argument 0, the flat
// parameter vector); @train_step calls it and applies Adam.
//
// Vocabulary V = %d, context T = %d, batch B = %d, model dim D = %d, %d heads
// of %d, MLP hidden %d. Parameters, one flat f32 vector of %d:
""" % (V, T, B, D, H, HD, F, P)]
    for name, shape, o, n in TABLE:
        out.append("//   %-6s %-10s at %d\n" % (name, "x".join(map(str, shape)), o))
    out.append("""//
// tokens [B,T] -> gather(emb) -> x
//   x2 = x + Wo attention_causal(rope(Wq h), rope(Wk h), Wv h), h = rms_norm(x)
//   x3 = x2 + Wdown gelu(Wup rms_norm(x2))
//   logits = Wout rms_norm(x3); loss = mean cross-entropy(logits, next chars)

func.func @loss(%%p: %s, %%tok: %s, %%tgt: %s, %%cos: %s, %%sin: %s)
    -> tensor<f32> attributes {rlx.grad = array<i64: 0>} {
""" % ((pt, t((B, T), "i64"), t((N,), "i64")) + tabs))
    out.append("\n".join(slices() + block(B)) + "\n")
    out.append("""  %%ce = rlx.softmax_cross_entropy %%logits, %%tgt : %s, %s -> %s
  %%e0 = tensor.empty() : tensor<f32>
  %%z0 = linalg.fill ins(%%zero : f32) outs(%%e0 : tensor<f32>) -> tensor<f32>
  %%sum = linalg.reduce ins(%%ce : %s) outs(%%z0 : tensor<f32>) dimensions = [0]
    (%%in: f32, %%acc: f32) {
      %%a = arith.addf %%in, %%acc : f32
      linalg.yield %%a : f32
    }
  %%inv = arith.constant dense<%r> : tensor<f32>
  %%mean = arith.mulf %%sum, %%inv : tensor<f32>
  return %%mean : tensor<f32>
}
""" % (t((N, V)), t((N,), "i64"), t((N,)), t((N,)), 1.0 / N))
    gsig = ", ".join((pt, t((B, T), "i64"), t((N,), "i64")) + tabs)
    out.append("""
// Defined by rlx-grad: (loss, d loss / d p).
func.func private @loss_grad({g}) -> (tensor<f32>, {p})

// One Adam step (beta1 0.9, beta2 0.99, eps 1e-8) at step count %step >= 1.
func.func @train_step(%p: {p}, %m: {p}, %v: {p}, %tok: {tok}, %tgt: {tgt}, %cos: {tab}, %sin: {tab},
                      %lr: tensor<f32>, %step: tensor<f32>)
    -> (tensor<f32>, {p}, {p}, {p}) {{
  %l, %g = func.call @loss_grad(%p, %tok, %tgt, %cos, %sin) : ({g}) -> (tensor<f32>, {p})
  %e = tensor.empty() : {p}
  %np, %nm, %nv = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                                  iterator_types = ["parallel"]}}
      ins(%p, %g, %m, %v, %lr, %step : {p}, {p}, {p}, {p}, tensor<f32>, tensor<f32>) outs(%e, %e, %e : {p}, {p}, {p}) {{
    ^bb0(%pv: f32, %gv: f32, %mv: f32, %vv: f32, %lrv: f32, %t: f32, %o0: f32, %o1: f32, %o2: f32):
      %one = arith.constant 1.0 : f32
      %b1 = arith.constant 0.9 : f32
      %b2 = arith.constant 0.99 : f32
      %eps = arith.constant 1.0e-08 : f32
      %c1 = arith.subf %one, %b1 : f32
      %c2 = arith.subf %one, %b2 : f32
      %m0 = arith.mulf %b1, %mv : f32
      %m1a = arith.mulf %c1, %gv : f32
      %m1 = arith.addf %m0, %m1a : f32
      %g2 = arith.mulf %gv, %gv : f32
      %v0 = arith.mulf %b2, %vv : f32
      %v1a = arith.mulf %c2, %g2 : f32
      %v1 = arith.addf %v0, %v1a : f32
      %b1t = math.powf %b1, %t : f32
      %b2t = math.powf %b2, %t : f32
      %k1 = arith.subf %one, %b1t : f32
      %k2 = arith.subf %one, %b2t : f32
      %mh = arith.divf %m1, %k1 : f32
      %vh = arith.divf %v1, %k2 : f32
      %sq = math.sqrt %vh : f32
      %den = arith.addf %sq, %eps : f32
      %r = arith.divf %mh, %den : f32
      %st = arith.mulf %lrv, %r : f32
      %p1 = arith.subf %pv, %st : f32
      linalg.yield %p1, %m1, %v1 : f32, f32, f32
  }} -> ({p}, {p}, {p})
  return %l, %np, %nm, %nv : tensor<f32>, {p}, {p}, {p}
}}
""".format(g=gsig, p=pt, tok=t((B, T), "i64"), tgt=t((N,), "i64"), tab=tabs[0]))
    out.append("""
// Logits at every position of one sequence, for sampling.
func.func @predict(%%p: %s, %%tok: %s, %%cos: %s, %%sin: %s) -> %s {
""" % ((pt, t((1, T), "i64")) + tabs + (t((T, V)),)))
    out.append("\n".join(slices() + block(1)) + "\n  return %%logits : %s\n}\n" % t((T, V)))
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "model.mlir"), "w") as fh:
        fh.write("".join(out))


if __name__ == "__main__":
    main()
