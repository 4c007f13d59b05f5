# RUN: %python %s | FileCheck %s
# Every op's shape contract is checked at run time. For each op, from one
# valid all-static signature:
#  - each operand in turn fully dynamic (the others static), called with each
#    of its dims off by one;
#  - every operand dynamic and the results static (a result type more static
#    than its operands), called with each dim of each operand off by one.
# Every such call must fail with the run-time check naming the op, and the
# call with the right shapes must succeed.
import re
import string
import sys

import numpy as np

import rlx

F, D, I32, I64 = "f32", "f64", "i32", "i64"
NP = {F: np.float32, D: np.float64, I32: np.int32, I64: np.int64}

# Dims on which nothing else depends: any size is valid. (The scan bodies
# below ignore their xs steps, so only dim 0 of xs, the length, is related.)
FREE = {("rlx.gather", 0, 0), ("rlx.layer_norm_backward_beta", 0, 0),
        ("rlx.softmax_cross_entropy", 0, 1), ("rlx.scan", 1, 1),
        ("rlx.scan_backward", 3, 1)}

# Every dim of the conv operands may be dynamic (channels, spatial, kernel).
CONV = {}
CONV_WEIGHT = {}

# (op and attributes with operands %a0.., operand (dtype, shape)s, result
# (dtype, shape)s). Sliding-window geometries are chosen so that one more row
# of input gives one more row of output (stride 1, or an odd span). An op with
# regions is a template of its whole text (after `%r0.. = `): $t<i> is the
# type of operand i, $s<i> that of a step of it (dim 0 dropped), $r<i> the
# type of result i.
CASES = [
    ("rlx.relu %a0", [(F, [4, 3])], [(F, [4, 3])]),
    ("rlx.relu_backward %a0, %a1", [(F, [4, 3]), (F, [4, 3])], [(F, [4, 3])]),
    ("rlx.activation %a0 {kind = #rlx.activation<tanh>}", [(D, [2, 3])], [(D, [2, 3])]),
    ("rlx.activation_backward %a0, %a1 {kind = #rlx.activation<silu>}",
     [(D, [2, 3]), (D, [2, 3])], [(D, [2, 3])]),
    ("rlx.layer_norm %a0, %a1, %a2 {axis = -1 : i64, eps = 1.0e-5 : f32}",
     [(F, [3, 8]), (F, [8]), (F, [8])], [(F, [3, 8])]),
    ("rlx.layer_norm_backward_input %a0, %a1, %a2 {axis = -1 : i64, eps = 1.0e-5 : f32}",
     [(F, [3, 8]), (F, [8]), (F, [3, 8])], [(F, [3, 8])]),
    ("rlx.layer_norm_backward_gamma %a0, %a1 {axis = -1 : i64, eps = 1.0e-5 : f32}",
     [(F, [3, 8]), (F, [3, 8])], [(F, [8])]),
    ("rlx.layer_norm_backward_beta %a0 {axis = -1 : i64}", [(F, [3, 8])], [(F, [8])]),
    ("rlx.rms_norm %a0, %a1, %a2 {axis = -1 : i64, eps = 1.0e-6 : f32}",
     [(F, [3, 8]), (F, [8]), (F, [8])], [(F, [3, 8])]),
    ("rlx.rms_norm_backward_input %a0, %a1, %a2, %a3 {axis = -1 : i64, eps = 1.0e-6 : f32}",
     [(F, [3, 8]), (F, [8]), (F, [8]), (F, [3, 8])], [(F, [3, 8])]),
    ("rlx.rms_norm_backward_gamma %a0, %a1, %a2, %a3 {axis = -1 : i64, eps = 1.0e-6 : f32}",
     [(F, [3, 8]), (F, [8]), (F, [8]), (F, [3, 8])], [(F, [8])]),
    ("rlx.rms_norm_backward_beta %a0, %a1, %a2, %a3 {axis = -1 : i64, eps = 1.0e-6 : f32}",
     [(F, [3, 8]), (F, [8]), (F, [8]), (F, [3, 8])], [(F, [8])]),
    ("rlx.group_norm %a0, %a1, %a2 {num_groups = 3 : i64, eps = 1.0e-5 : f32}",
     [(F, [2, 6, 2, 3]), (F, [6]), (F, [6])], [(F, [2, 6, 2, 3])]),
    ("rlx.group_norm_backward_input %a0, %a1, %a2, %a3 {num_groups = 3 : i64, eps = 1.0e-5 : f32}",
     [(F, [2, 6, 2, 3]), (F, [6]), (F, [6]), (F, [2, 6, 2, 3])], [(F, [2, 6, 2, 3])]),
    ("rlx.group_norm_backward_gamma %a0, %a1 {num_groups = 3 : i64, eps = 1.0e-5 : f32}",
     [(F, [2, 6, 2, 3]), (F, [2, 6, 2, 3])], [(F, [6])]),
    ("rlx.group_norm_backward_beta %a0, %a1 {num_groups = 3 : i64, eps = 1.0e-5 : f32}",
     [(F, [2, 6, 2, 3]), (F, [2, 6, 2, 3])], [(F, [6])]),
    ("rlx.conv2d %a0, %a1 {padding = array<i64: 1, 0>, dilation = array<i64: 2, 1>}",
     [(F, [2, 3, 8, 5]), (F, [4, 3, 3, 2])], [(F, [2, 4, 6, 4])], CONV),
    ("rlx.conv2d_backward_input %a0, %a1 {padding = array<i64: 1, 0>, dilation = array<i64: 2, 1>}",
     [(F, [2, 4, 6, 4]), (F, [4, 3, 3, 2])], [(F, [2, 3, 8, 5])], CONV),
    ("rlx.conv2d_backward_weight %a0, %a1 {padding = array<i64: 1, 0>, dilation = array<i64: 2, 1>}",
     [(F, [2, 3, 8, 5]), (F, [2, 4, 6, 4])], [(F, [4, 3, 3, 2])], CONV_WEIGHT),
    ("rlx.conv2d %a0, %a1 {groups = 2 : i64}",
     [(F, [1, 4, 5, 6]), (F, [2, 2, 2, 3])], [(F, [1, 2, 4, 4])], CONV),
    ("rlx.max_pool2d %a0 {kernel_size = array<i64: 3, 2>, stride = array<i64: 2, 1>, padding = array<i64: 1, 0>}",
     [(F, [2, 3, 8, 5])], [(F, [2, 3, 4, 4])]),
    ("rlx.max_pool2d_backward %a0, %a1 {kernel_size = array<i64: 3, 2>, stride = array<i64: 2, 1>, padding = array<i64: 1, 0>}",
     [(F, [2, 3, 8, 5]), (F, [2, 3, 4, 4])], [(F, [2, 3, 8, 5])]),
    ("rlx.max_pool2d_backward %a0, %a1 {kernel_size = array<i64: 2, 3>, stride = array<i64: 2, 2>, ceil_mode = true}",
     [(F, [1, 2, 8, 5]), (F, [1, 2, 4, 2])], [(F, [1, 2, 8, 5])]),
    ("rlx.max_pool2d %a0 {kernel_size = array<i64: 2, 2>, dilation = array<i64: 2, 1>}",
     [(F, [1, 2, 6, 5])], [(F, [1, 2, 4, 4])]),
    ("rlx.cumsum %a0 {axis = 1 : i64}", [(F, [3, 5])], [(F, [3, 5])]),
    ("rlx.cumsum_backward %a0 {axis = 0 : i64, exclusive}", [(D, [3, 5])], [(D, [3, 5])]),
    ("rlx.gather %a0, %a1 {axis = 0 : i64}", [(F, [7, 4]), (I32, [2, 3])], [(F, [2, 3, 4])]),
    ("rlx.gather_backward %a0, %a1 {axis = 0 : i64}", [(F, [2, 3, 4]), (I64, [2, 3])], [(F, [7, 4])]),
    ("rlx.softmax %a0 {axis = 1 : i64}", [(F, [3, 5])], [(F, [3, 5])]),
    ("rlx.softmax_cross_entropy %a0, %a1", [(F, [3, 5]), (I64, [3])], [(F, [3])]),
    ("rlx.softmax_cross_entropy_backward %a0, %a1, %a2",
     [(F, [3, 5]), (I32, [3]), (F, [3])], [(F, [3, 5])]),
    ("rlx.fake_quantize %a0 {axis = 1 : i64, bits = 4 : i64, ste = #rlx.ste<tanh>}",
     [(F, [3, 5])], [(F, [3, 5])]),
    ("rlx.fake_quantize_backward %a0, %a1 {bits = 8 : i64, ste = #rlx.ste<clipped_identity>}",
     [(F, [3, 5]), (F, [3, 5])], [(F, [3, 5])]),
    ("rlx.rope %a0, %a1, %a2 {head_dim = 4 : i64, n_rot = 4 : i64}",
     [(F, [2, 3, 8]), (F, [3, 2]), (F, [3, 2])], [(F, [2, 3, 8])]),
    ("rlx.rope_backward %a0, %a1, %a2 {head_dim = 4 : i64, n_rot = 2 : i64}",
     [(F, [3, 8]), (F, [3, 2]), (F, [3, 2])], [(F, [3, 8])]),
    ("rlx.attention %a0, %a1, %a2 {num_heads = 2 : i64, head_dim = 2 : i64, mask_kind = #rlx.mask_kind<causal>}",
     [(F, [2, 3, 4]), (F, [2, 5, 4]), (F, [2, 5, 4])], [(F, [2, 3, 4])]),
    ("rlx.attention %a0, %a1, %a2, %a3 {num_heads = 2 : i64, head_dim = 2 : i64, mask_kind = #rlx.mask_kind<custom>}",
     [(F, [2, 2, 3, 2]), (F, [2, 2, 5, 2]), (F, [2, 2, 5, 2]), (F, [2, 5])], [(F, [2, 2, 3, 2])]),
    ("rlx.attention_backward %a0, %a1, %a2, %a3, %a4 {num_heads = 2 : i64, head_dim = 2 : i64, mask_kind = #rlx.mask_kind<bias>, wrt = #rlx.attention_wrt<query>}",
     [(D, [2, 3, 4]), (D, [2, 5, 4]), (D, [2, 5, 4]), (D, [2, 3, 4]), (D, [3, 5])], [(D, [2, 3, 4])]),
    ("rlx.attention_backward %a0, %a1, %a2, %a3 {num_heads = 2 : i64, head_dim = 2 : i64, wrt = #rlx.attention_wrt<key>}",
     [(F, [2, 3, 4]), (F, [2, 5, 4]), (F, [2, 5, 4]), (F, [2, 3, 4])], [(F, [2, 5, 4])]),
    ("rlx.attention_backward %a0, %a1, %a2, %a3 {num_heads = 2 : i64, head_dim = 2 : i64, wrt = #rlx.attention_wrt<value>}",
     [(F, [2, 2, 3, 2]), (F, [2, 2, 5, 2]), (F, [2, 2, 5, 2]), (F, [2, 2, 3, 2])], [(F, [2, 2, 5, 2])]),
    # Grouped-query heads (4 over 2) and a value head dim of 3: k has
    # Hkv*D columns, v Hkv*Dv, the output and dy H*Dv.
    ("rlx.attention %a0, %a1, %a2 {num_heads = 4 : i64, head_dim = 2 : i64, num_kv_heads = 2 : i64, value_head_dim = 3 : i64, mask_kind = #rlx.mask_kind<causal>}",
     [(F, [2, 3, 8]), (F, [2, 5, 4]), (F, [2, 5, 6])], [(F, [2, 3, 12])]),
    ("rlx.attention_backward %a0, %a1, %a2, %a3 {num_heads = 4 : i64, head_dim = 2 : i64, num_kv_heads = 2 : i64, value_head_dim = 3 : i64, wrt = #rlx.attention_wrt<key>}",
     [(F, [2, 4, 3, 2]), (F, [2, 2, 5, 2]), (F, [2, 2, 5, 3]), (F, [2, 4, 3, 3])], [(F, [2, 2, 5, 2])]),
    ("rlx.attention_backward %a0, %a1, %a2, %a3, %a4 {num_heads = 4 : i64, head_dim = 2 : i64, num_kv_heads = 1 : i64, value_head_dim = 3 : i64, mask_kind = #rlx.mask_kind<custom>, wrt = #rlx.attention_wrt<value>}",
     [(D, [2, 3, 8]), (D, [2, 5, 2]), (D, [2, 5, 3]), (D, [2, 3, 12]), (D, [2, 4, 3, 5])], [(D, [2, 5, 3])]),
    # Scan: xs are [length, ...], a trajectory [rows, *carry] (rows: length,
    # or num_checkpoints when 0 < K < length), upstream [length, *carry].
    ("""rlx.scan %a0 xs(%a1 : $t1) {length = 4 : i64, save_trajectory} : $t0 -> $r0, $r1 {
  ^bb0(%h: $t0, %x: $s1):
    rlx.yield %h : $t0
  }""", [(F, [2, 3]), (F, [4, 5])], [(F, [2, 3]), (F, [4, 2, 3])]),
    ("""rlx.scan %a0 {length = 5 : i64, num_checkpoints = 2 : i64, save_trajectory} : $t0 -> $r0, $r1 {
  ^bb0(%h: $t0):
    rlx.yield %h : $t0
  }""", [(D, [3, 2])], [(D, [3, 2]), (D, [2, 3, 2])]),
    ("""rlx.scan_backward %a0, %a1, %a2 xs(%a3 : $t3) {length = 4 : i64} : $t0, $t1, $t2 -> $r0 vjp {
  ^bb0(%h: $t0, %x: $s3, %d: $t0):
    rlx.yield %d, %x : $t0, $s3
  }""", [(F, [2, 3]), (F, [4, 2, 3]), (F, [4, 2, 3]), (F, [4, 5])], [(F, [2, 3])]),
    ("""rlx.scan_backward_xs %a0, %a1, %a2 xs(%a3 : $t3) {length = 4 : i64, num_checkpoints = 2 : i64, xs_idx = 0 : i64} : $t0, $t1, $t2 -> $r0 vjp {
  ^bb0(%h: $t0, %x: $s3, %d: $t0):
    rlx.yield %d, %x : $t0, $s3
  } forward {
  ^bb0(%h: $t0, %x: $s3):
    rlx.yield %h : $t0
  }""", [(F, [2, 3]), (F, [2, 2, 3]), (F, [4, 2, 3]), (F, [4, 5])], [(F, [4, 5])]),
]


def tensor_type(dtype, shape, dynamic_dims):
    dims = "".join(("?" if d in dynamic_dims else str(n)) + "x"
                   for d, n in enumerate(shape))
    return "tensor<%s%s>" % (dims, dtype)


def dynamic_dims(case, k):
    """The dims of operand k that may be dynamic (all, unless the case
    limits them)."""
    limits = case[3] if len(case) > 3 else {}
    return limits.get(k, range(len(case[1][k][1])))


def function(name, case, dynamic_operands):
    op, operands, results = case[:3]
    args = [tensor_type(t, s, dynamic_dims(case, i) if i in dynamic_operands else ())
            for i, (t, s) in enumerate(operands)]
    res = [tensor_type(t, s, ()) for t, s in results]
    sig = ", ".join("%%a%d: %s" % (i, t) for i, t in enumerate(args))
    names = ", ".join("%%r%d" % i for i in range(len(res)))
    if "$" in op:
        fields = {}
        for i, t in enumerate(args):
            fields["t%d" % i] = t
            fields["s%d" % i] = "tensor<" + t[t.index("x") + 1:]
        fields.update(("r%d" % i, t) for i, t in enumerate(res))
        body = string.Template(op).substitute(fields)
    else:
        body = "%s : %s -> %s" % (op, ", ".join(args), ", ".join(res))
    return ("func.func @%s(%s) -> (%s) {\n  %s = %s\n  return %s : %s\n}\n"
            % (name, sig, ", ".join(res), names, body, names, ", ".join(res)))


def inputs(operands, shapes):
    rng = np.random.default_rng(0)
    out = []
    for (dtype, _), shape in zip(operands, shapes):
        if dtype in (I32, I64):
            out.append(np.zeros(shape, dtype=NP[dtype]))  # valid indices/labels
        else:
            out.append(rng.uniform(0.5, 1.5, shape).astype(NP[dtype]))
    return out


failures = 0
checks = 0
for case in CASES:
    op, operands, results = case[:3]
    opname = op.split()[0]
    # Variant k < len(operands): operand k dynamic; the last: all dynamic.
    # Results are static throughout.
    variants = [{k} for k in range(len(operands))]
    variants.append(set(range(len(operands))))
    text = "".join(function("f%d" % v, case, dyn) for v, dyn in enumerate(variants))
    m = rlx.compile(text)
    for v, dyn in enumerate(variants):
        good = [list(s) for _, s in operands]
        got = m["f%d" % v](*inputs(operands, good))
        got = got if isinstance(got, tuple) else (got,)
        if [list(g.shape) for g in got] != [s for _, s in results]:
            print("FAIL %s f%d: valid call gave shapes %s" % (opname, v, [g.shape for g in got]))
            failures += 1
        for k in sorted(dyn):
            for d in dynamic_dims(case, k):
                bad = [list(s) for s in good]
                bad[k][d] += 1
                if (opname, k, d) in FREE:
                    m["f%d" % v](*inputs(operands, bad))
                    continue
                checks += 1
                try:
                    m["f%d" % v](*inputs(operands, bad))
                    print("FAIL %s f%d: operand %d dim %d off by one was accepted" % (opname, v, k, d))
                    failures += 1
                except rlx.RlxError as e:
                    msg = str(e)
                    if ("run-time shape check failed in '%s'" % opname) not in msg:
                        print("FAIL %s f%d operand %d dim %d: %s" % (opname, v, k, d, msg))
                        failures += 1
    print("ok", opname)

print("checked %d bad calls, %d failures" % (checks, failures))
# CHECK-NOT: FAIL
# CHECK: checked {{[0-9]+}} bad calls, 0 failures
sys.exit(1 if failures else 0)
