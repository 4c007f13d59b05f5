"""make DIR: writes x_f16.npy ('<f2') and x_bf16.npy ('<u2', bf16 bits).
check DIR: compares y_f16.npy / y_bf16.npy with softmax in f32 rounded once."""
import sys

import numpy as np
import torch

mode, d = sys.argv[1], sys.argv[2]
x = np.arange(15, dtype=np.float32).reshape(3, 5) / 4 - 1
if mode == "make":
    np.save(d + "/x_f16.npy", x.astype(np.float16))
    bits = torch.tensor(x).to(torch.bfloat16).view(torch.int16).numpy()
    np.save(d + "/x_bf16.npy", bits.view(np.uint16))
    sys.exit(0)
for name, dt in (("f16", torch.float16), ("bf16", torch.bfloat16)):
    y = np.load(d + "/y_%s.npy" % name)
    xr = torch.tensor(x).to(dt).float()
    want = torch.softmax(xr, -1).to(dt)
    if name == "bf16":
        want = want.view(torch.int16).numpy().view(np.uint16)
    else:
        want = want.numpy()
    print("%s: dtype %s shape %s equal %s" % (name, y.dtype.str, y.shape,
                                             bool(np.array_equal(y, want))))
