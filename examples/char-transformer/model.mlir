// A one-block causal transformer language model over characters, written
// forward-only (by gen_model.py, which spells out the shapes). rlx-grad
// builds @loss_grad from @loss (marked rlx.grad: argument 0, the flat
// parameter vector); @train_step calls it and applies Adam.
//
// Vocabulary V = 80, context T = 32, batch B = 16, model dim D = 48, 4 heads
// of 12, MLP hidden 192. Parameters, one flat f32 vector of 35616:
//   emb    80x48      at 0
//   n1g    48         at 3840
//   n1b    48         at 3888
//   wq     48x48      at 3936
//   wk     48x48      at 6240
//   wv     48x48      at 8544
//   wo     48x48      at 10848
//   n2g    48         at 13152
//   n2b    48         at 13200
//   wup    48x192     at 13248
//   wdown  192x48     at 22464
//   nfg    48         at 31680
//   nfb    48         at 31728
//   wout   48x80      at 31776
//
// tokens [B,T] -> gather(emb) -> x
//   x2 = x + Wo attention_causal(rope(Wq h), rope(Wk h), Wv h), h = rms_norm(x)
//   x3 = x2 + Wdown gelu(Wup rms_norm(x2))
//   logits = Wout rms_norm(x3); loss = mean cross-entropy(logits, next chars)

func.func @loss(%p: tensor<35616xf32>, %tok: tensor<16x32xi64>, %tgt: tensor<512xi64>, %cos: tensor<32x6xf32>, %sin: tensor<32x6xf32>)
    -> tensor<f32> attributes {rlx.grad = array<i64: 0>} {
  %emb_f = tensor.extract_slice %p[0] [3840] [1] : tensor<35616xf32> to tensor<3840xf32>
  %emb = tensor.expand_shape %emb_f [[0, 1]] output_shape [80, 48] : tensor<3840xf32> into tensor<80x48xf32>
  %n1g = tensor.extract_slice %p[3840] [48] [1] : tensor<35616xf32> to tensor<48xf32>
  %n1b = tensor.extract_slice %p[3888] [48] [1] : tensor<35616xf32> to tensor<48xf32>
  %wq_f = tensor.extract_slice %p[3936] [2304] [1] : tensor<35616xf32> to tensor<2304xf32>
  %wq = tensor.expand_shape %wq_f [[0, 1]] output_shape [48, 48] : tensor<2304xf32> into tensor<48x48xf32>
  %wk_f = tensor.extract_slice %p[6240] [2304] [1] : tensor<35616xf32> to tensor<2304xf32>
  %wk = tensor.expand_shape %wk_f [[0, 1]] output_shape [48, 48] : tensor<2304xf32> into tensor<48x48xf32>
  %wv_f = tensor.extract_slice %p[8544] [2304] [1] : tensor<35616xf32> to tensor<2304xf32>
  %wv = tensor.expand_shape %wv_f [[0, 1]] output_shape [48, 48] : tensor<2304xf32> into tensor<48x48xf32>
  %wo_f = tensor.extract_slice %p[10848] [2304] [1] : tensor<35616xf32> to tensor<2304xf32>
  %wo = tensor.expand_shape %wo_f [[0, 1]] output_shape [48, 48] : tensor<2304xf32> into tensor<48x48xf32>
  %n2g = tensor.extract_slice %p[13152] [48] [1] : tensor<35616xf32> to tensor<48xf32>
  %n2b = tensor.extract_slice %p[13200] [48] [1] : tensor<35616xf32> to tensor<48xf32>
  %wup_f = tensor.extract_slice %p[13248] [9216] [1] : tensor<35616xf32> to tensor<9216xf32>
  %wup = tensor.expand_shape %wup_f [[0, 1]] output_shape [48, 192] : tensor<9216xf32> into tensor<48x192xf32>
  %wdown_f = tensor.extract_slice %p[22464] [9216] [1] : tensor<35616xf32> to tensor<9216xf32>
  %wdown = tensor.expand_shape %wdown_f [[0, 1]] output_shape [192, 48] : tensor<9216xf32> into tensor<192x48xf32>
  %nfg = tensor.extract_slice %p[31680] [48] [1] : tensor<35616xf32> to tensor<48xf32>
  %nfb = tensor.extract_slice %p[31728] [48] [1] : tensor<35616xf32> to tensor<48xf32>
  %wout_f = tensor.extract_slice %p[31776] [3840] [1] : tensor<35616xf32> to tensor<3840xf32>
  %wout = tensor.expand_shape %wout_f [[0, 1]] output_shape [48, 80] : tensor<3840xf32> into tensor<48x80xf32>
  %zero = arith.constant 0.0 : f32
  %x = rlx.gather %emb, %tok {axis = 0 : i64} : tensor<80x48xf32>, tensor<16x32xi64> -> tensor<16x32x48xf32>
  %h1 = rlx.rms_norm %x, %n1g, %n1b {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<16x32x48xf32>, tensor<48xf32>, tensor<48xf32> -> tensor<16x32x48xf32>
  %h1f = tensor.collapse_shape %h1 [[0, 1], [2]] : tensor<16x32x48xf32> into tensor<512x48xf32>
  %qf_e = tensor.empty() : tensor<512x48xf32>
  %qf_z = linalg.fill ins(%zero : f32) outs(%qf_e : tensor<512x48xf32>) -> tensor<512x48xf32>
  %qf = linalg.matmul ins(%h1f, %wq : tensor<512x48xf32>, tensor<48x48xf32>) outs(%qf_z : tensor<512x48xf32>) -> tensor<512x48xf32>
  %q = tensor.expand_shape %qf [[0, 1], [2]] output_shape [16, 32, 48] : tensor<512x48xf32> into tensor<16x32x48xf32>
  %kf_e = tensor.empty() : tensor<512x48xf32>
  %kf_z = linalg.fill ins(%zero : f32) outs(%kf_e : tensor<512x48xf32>) -> tensor<512x48xf32>
  %kf = linalg.matmul ins(%h1f, %wk : tensor<512x48xf32>, tensor<48x48xf32>) outs(%kf_z : tensor<512x48xf32>) -> tensor<512x48xf32>
  %k = tensor.expand_shape %kf [[0, 1], [2]] output_shape [16, 32, 48] : tensor<512x48xf32> into tensor<16x32x48xf32>
  %vf_e = tensor.empty() : tensor<512x48xf32>
  %vf_z = linalg.fill ins(%zero : f32) outs(%vf_e : tensor<512x48xf32>) -> tensor<512x48xf32>
  %vf = linalg.matmul ins(%h1f, %wv : tensor<512x48xf32>, tensor<48x48xf32>) outs(%vf_z : tensor<512x48xf32>) -> tensor<512x48xf32>
  %v = tensor.expand_shape %vf [[0, 1], [2]] output_shape [16, 32, 48] : tensor<512x48xf32> into tensor<16x32x48xf32>
  %qr = rlx.rope %q, %cos, %sin {head_dim = 12 : i64, n_rot = 12 : i64} : tensor<16x32x48xf32>, tensor<32x6xf32>, tensor<32x6xf32> -> tensor<16x32x48xf32>
  %kr = rlx.rope %k, %cos, %sin {head_dim = 12 : i64, n_rot = 12 : i64} : tensor<16x32x48xf32>, tensor<32x6xf32>, tensor<32x6xf32> -> tensor<16x32x48xf32>
  %att = rlx.attention %qr, %kr, %v {num_heads = 4 : i64, head_dim = 12 : i64, mask_kind = #rlx.mask_kind<causal>} : tensor<16x32x48xf32>, tensor<16x32x48xf32>, tensor<16x32x48xf32> -> tensor<16x32x48xf32>
  %attf = tensor.collapse_shape %att [[0, 1], [2]] : tensor<16x32x48xf32> into tensor<512x48xf32>
  %o_e = tensor.empty() : tensor<512x48xf32>
  %o_z = linalg.fill ins(%zero : f32) outs(%o_e : tensor<512x48xf32>) -> tensor<512x48xf32>
  %o = linalg.matmul ins(%attf, %wo : tensor<512x48xf32>, tensor<48x48xf32>) outs(%o_z : tensor<512x48xf32>) -> tensor<512x48xf32>
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<16x32x48xf32> into tensor<512x48xf32>
  %x2 = arith.addf %xf, %o : tensor<512x48xf32>
  %h2 = rlx.rms_norm %x2, %n2g, %n2b {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<512x48xf32>, tensor<48xf32>, tensor<48xf32> -> tensor<512x48xf32>
  %up_e = tensor.empty() : tensor<512x192xf32>
  %up_z = linalg.fill ins(%zero : f32) outs(%up_e : tensor<512x192xf32>) -> tensor<512x192xf32>
  %up = linalg.matmul ins(%h2, %wup : tensor<512x48xf32>, tensor<48x192xf32>) outs(%up_z : tensor<512x192xf32>) -> tensor<512x192xf32>
  %act = rlx.activation %up {kind = #rlx.activation<gelu>} : tensor<512x192xf32> -> tensor<512x192xf32>
  %down_e = tensor.empty() : tensor<512x48xf32>
  %down_z = linalg.fill ins(%zero : f32) outs(%down_e : tensor<512x48xf32>) -> tensor<512x48xf32>
  %down = linalg.matmul ins(%act, %wdown : tensor<512x192xf32>, tensor<192x48xf32>) outs(%down_z : tensor<512x48xf32>) -> tensor<512x48xf32>
  %x3 = arith.addf %x2, %down : tensor<512x48xf32>
  %hf = rlx.rms_norm %x3, %nfg, %nfb {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<512x48xf32>, tensor<48xf32>, tensor<48xf32> -> tensor<512x48xf32>
  %logits_e = tensor.empty() : tensor<512x80xf32>
  %logits_z = linalg.fill ins(%zero : f32) outs(%logits_e : tensor<512x80xf32>) -> tensor<512x80xf32>
  %logits = linalg.matmul ins(%hf, %wout : tensor<512x48xf32>, tensor<48x80xf32>) outs(%logits_z : tensor<512x80xf32>) -> tensor<512x80xf32>
  %ce = rlx.softmax_cross_entropy %logits, %tgt : tensor<512x80xf32>, tensor<512xi64> -> tensor<512xf32>
  %e0 = tensor.empty() : tensor<f32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%ce : tensor<512xf32>) outs(%z0 : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %inv = arith.constant dense<0.001953125> : tensor<f32>
  %mean = arith.mulf %sum, %inv : tensor<f32>
  return %mean : tensor<f32>
}

// Defined by rlx-grad: (loss, d loss / d p).
func.func private @loss_grad(tensor<35616xf32>, tensor<16x32xi64>, tensor<512xi64>, tensor<32x6xf32>, tensor<32x6xf32>) -> (tensor<f32>, tensor<35616xf32>)

// One Adam step (beta1 0.9, beta2 0.99, eps 1e-8) at step count %step >= 1.
func.func @train_step(%p: tensor<35616xf32>, %m: tensor<35616xf32>, %v: tensor<35616xf32>, %tok: tensor<16x32xi64>, %tgt: tensor<512xi64>, %cos: tensor<32x6xf32>, %sin: tensor<32x6xf32>,
                      %lr: tensor<f32>, %step: tensor<f32>)
    -> (tensor<f32>, tensor<35616xf32>, tensor<35616xf32>, tensor<35616xf32>) {
  %l, %g = func.call @loss_grad(%p, %tok, %tgt, %cos, %sin) : (tensor<35616xf32>, tensor<16x32xi64>, tensor<512xi64>, tensor<32x6xf32>, tensor<32x6xf32>) -> (tensor<f32>, tensor<35616xf32>)
  %e = tensor.empty() : tensor<35616xf32>
  %np, %nm, %nv = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                                  iterator_types = ["parallel"]}
      ins(%p, %g, %m, %v, %lr, %step : tensor<35616xf32>, tensor<35616xf32>, tensor<35616xf32>, tensor<35616xf32>, tensor<f32>, tensor<f32>) outs(%e, %e, %e : tensor<35616xf32>, tensor<35616xf32>, tensor<35616xf32>) {
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
  } -> (tensor<35616xf32>, tensor<35616xf32>, tensor<35616xf32>)
  return %l, %np, %nm, %nv : tensor<f32>, tensor<35616xf32>, tensor<35616xf32>, tensor<35616xf32>
}

// Logits at every position of one sequence, for sampling.
func.func @predict(%p: tensor<35616xf32>, %tok: tensor<1x32xi64>, %cos: tensor<32x6xf32>, %sin: tensor<32x6xf32>) -> tensor<32x80xf32> {
  %emb_f = tensor.extract_slice %p[0] [3840] [1] : tensor<35616xf32> to tensor<3840xf32>
  %emb = tensor.expand_shape %emb_f [[0, 1]] output_shape [80, 48] : tensor<3840xf32> into tensor<80x48xf32>
  %n1g = tensor.extract_slice %p[3840] [48] [1] : tensor<35616xf32> to tensor<48xf32>
  %n1b = tensor.extract_slice %p[3888] [48] [1] : tensor<35616xf32> to tensor<48xf32>
  %wq_f = tensor.extract_slice %p[3936] [2304] [1] : tensor<35616xf32> to tensor<2304xf32>
  %wq = tensor.expand_shape %wq_f [[0, 1]] output_shape [48, 48] : tensor<2304xf32> into tensor<48x48xf32>
  %wk_f = tensor.extract_slice %p[6240] [2304] [1] : tensor<35616xf32> to tensor<2304xf32>
  %wk = tensor.expand_shape %wk_f [[0, 1]] output_shape [48, 48] : tensor<2304xf32> into tensor<48x48xf32>
  %wv_f = tensor.extract_slice %p[8544] [2304] [1] : tensor<35616xf32> to tensor<2304xf32>
  %wv = tensor.expand_shape %wv_f [[0, 1]] output_shape [48, 48] : tensor<2304xf32> into tensor<48x48xf32>
  %wo_f = tensor.extract_slice %p[10848] [2304] [1] : tensor<35616xf32> to tensor<2304xf32>
  %wo = tensor.expand_shape %wo_f [[0, 1]] output_shape [48, 48] : tensor<2304xf32> into tensor<48x48xf32>
  %n2g = tensor.extract_slice %p[13152] [48] [1] : tensor<35616xf32> to tensor<48xf32>
  %n2b = tensor.extract_slice %p[13200] [48] [1] : tensor<35616xf32> to tensor<48xf32>
  %wup_f = tensor.extract_slice %p[13248] [9216] [1] : tensor<35616xf32> to tensor<9216xf32>
  %wup = tensor.expand_shape %wup_f [[0, 1]] output_shape [48, 192] : tensor<9216xf32> into tensor<48x192xf32>
  %wdown_f = tensor.extract_slice %p[22464] [9216] [1] : tensor<35616xf32> to tensor<9216xf32>
  %wdown = tensor.expand_shape %wdown_f [[0, 1]] output_shape [192, 48] : tensor<9216xf32> into tensor<192x48xf32>
  %nfg = tensor.extract_slice %p[31680] [48] [1] : tensor<35616xf32> to tensor<48xf32>
  %nfb = tensor.extract_slice %p[31728] [48] [1] : tensor<35616xf32> to tensor<48xf32>
  %wout_f = tensor.extract_slice %p[31776] [3840] [1] : tensor<35616xf32> to tensor<3840xf32>
  %wout = tensor.expand_shape %wout_f [[0, 1]] output_shape [48, 80] : tensor<3840xf32> into tensor<48x80xf32>
  %zero = arith.constant 0.0 : f32
  %x = rlx.gather %emb, %tok {axis = 0 : i64} : tensor<80x48xf32>, tensor<1x32xi64> -> tensor<1x32x48xf32>
  %h1 = rlx.rms_norm %x, %n1g, %n1b {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<1x32x48xf32>, tensor<48xf32>, tensor<48xf32> -> tensor<1x32x48xf32>
  %h1f = tensor.collapse_shape %h1 [[0, 1], [2]] : tensor<1x32x48xf32> into tensor<32x48xf32>
  %qf_e = tensor.empty() : tensor<32x48xf32>
  %qf_z = linalg.fill ins(%zero : f32) outs(%qf_e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %qf = linalg.matmul ins(%h1f, %wq : tensor<32x48xf32>, tensor<48x48xf32>) outs(%qf_z : tensor<32x48xf32>) -> tensor<32x48xf32>
  %q = tensor.expand_shape %qf [[0, 1], [2]] output_shape [1, 32, 48] : tensor<32x48xf32> into tensor<1x32x48xf32>
  %kf_e = tensor.empty() : tensor<32x48xf32>
  %kf_z = linalg.fill ins(%zero : f32) outs(%kf_e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %kf = linalg.matmul ins(%h1f, %wk : tensor<32x48xf32>, tensor<48x48xf32>) outs(%kf_z : tensor<32x48xf32>) -> tensor<32x48xf32>
  %k = tensor.expand_shape %kf [[0, 1], [2]] output_shape [1, 32, 48] : tensor<32x48xf32> into tensor<1x32x48xf32>
  %vf_e = tensor.empty() : tensor<32x48xf32>
  %vf_z = linalg.fill ins(%zero : f32) outs(%vf_e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %vf = linalg.matmul ins(%h1f, %wv : tensor<32x48xf32>, tensor<48x48xf32>) outs(%vf_z : tensor<32x48xf32>) -> tensor<32x48xf32>
  %v = tensor.expand_shape %vf [[0, 1], [2]] output_shape [1, 32, 48] : tensor<32x48xf32> into tensor<1x32x48xf32>
  %qr = rlx.rope %q, %cos, %sin {head_dim = 12 : i64, n_rot = 12 : i64} : tensor<1x32x48xf32>, tensor<32x6xf32>, tensor<32x6xf32> -> tensor<1x32x48xf32>
  %kr = rlx.rope %k, %cos, %sin {head_dim = 12 : i64, n_rot = 12 : i64} : tensor<1x32x48xf32>, tensor<32x6xf32>, tensor<32x6xf32> -> tensor<1x32x48xf32>
  %att = rlx.attention %qr, %kr, %v {num_heads = 4 : i64, head_dim = 12 : i64, mask_kind = #rlx.mask_kind<causal>} : tensor<1x32x48xf32>, tensor<1x32x48xf32>, tensor<1x32x48xf32> -> tensor<1x32x48xf32>
  %attf = tensor.collapse_shape %att [[0, 1], [2]] : tensor<1x32x48xf32> into tensor<32x48xf32>
  %o_e = tensor.empty() : tensor<32x48xf32>
  %o_z = linalg.fill ins(%zero : f32) outs(%o_e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %o = linalg.matmul ins(%attf, %wo : tensor<32x48xf32>, tensor<48x48xf32>) outs(%o_z : tensor<32x48xf32>) -> tensor<32x48xf32>
  %xf = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x32x48xf32> into tensor<32x48xf32>
  %x2 = arith.addf %xf, %o : tensor<32x48xf32>
  %h2 = rlx.rms_norm %x2, %n2g, %n2b {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<32x48xf32>, tensor<48xf32>, tensor<48xf32> -> tensor<32x48xf32>
  %up_e = tensor.empty() : tensor<32x192xf32>
  %up_z = linalg.fill ins(%zero : f32) outs(%up_e : tensor<32x192xf32>) -> tensor<32x192xf32>
  %up = linalg.matmul ins(%h2, %wup : tensor<32x48xf32>, tensor<48x192xf32>) outs(%up_z : tensor<32x192xf32>) -> tensor<32x192xf32>
  %act = rlx.activation %up {kind = #rlx.activation<gelu>} : tensor<32x192xf32> -> tensor<32x192xf32>
  %down_e = tensor.empty() : tensor<32x48xf32>
  %down_z = linalg.fill ins(%zero : f32) outs(%down_e : tensor<32x48xf32>) -> tensor<32x48xf32>
  %down = linalg.matmul ins(%act, %wdown : tensor<32x192xf32>, tensor<192x48xf32>) outs(%down_z : tensor<32x48xf32>) -> tensor<32x48xf32>
  %x3 = arith.addf %x2, %down : tensor<32x48xf32>
  %hf = rlx.rms_norm %x3, %nfg, %nfb {axis = -1 : i64, eps = 1.0e-05 : f32} : tensor<32x48xf32>, tensor<48xf32>, tensor<48xf32> -> tensor<32x48xf32>
  %logits_e = tensor.empty() : tensor<32x80xf32>
  %logits_z = linalg.fill ins(%zero : f32) outs(%logits_e : tensor<32x80xf32>) -> tensor<32x80xf32>
  %logits = linalg.matmul ins(%hf, %wout : tensor<32x48xf32>, tensor<48x80xf32>) outs(%logits_z : tensor<32x80xf32>) -> tensor<32x80xf32>
  return %logits : tensor<32x80xf32>
}
