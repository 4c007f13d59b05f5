"""Writes the .npy inputs of rlx-run.test into the directory argv[1]."""
import os
import sys

import numpy as np

out = sys.argv[1]
rng = np.random.default_rng(3)
np.save(os.path.join(out, "x.npy"), rng.standard_normal((5, 3)).astype(np.float32))
np.save(os.path.join(out, "dy.npy"), rng.standard_normal((5, 3)).astype(np.float32))
np.save(os.path.join(out, "x4.npy"), rng.standard_normal((4, 3)).astype(np.float32))
np.save(os.path.join(out, "x_f64.npy"), rng.standard_normal((5, 3)))
np.save(os.path.join(out, "wide.npy"), rng.standard_normal((5, 4)).astype(np.float32))
np.save(os.path.join(out, "v4.npy"), np.array([-1.0, 0.0, 0.5, 2.0]))
np.save(os.path.join(out, "fortran.npy"), np.asfortranarray(rng.standard_normal((5, 3)).astype(np.float32)))
with open(os.path.join(out, "garbage.npy"), "wb") as f:
    f.write(b"this is not numpy")
with open(os.path.join(out, "x.npy"), "rb") as f:
    data = f.read()
with open(os.path.join(out, "truncated.npy"), "wb") as f:
    f.write(data[:-7])
