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
# More data than the header says.
with open(os.path.join(out, "long.npy"), "wb") as f:
    f.write(data + b"\0" * 8)
# A header whose byte size does not fit in 64 bits.
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }"
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open(os.path.join(out, "huge.npy"), "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode())
