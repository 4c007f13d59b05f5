"""Writes the example's inputs (run with /usr/bin/python3; already committed)."""
import os
import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(7)
np.save(os.path.join(here, "input0_x.npy"), rng.standard_normal((6, 8)).astype(np.float32))
np.save(os.path.join(here, "input1_w1.npy"), (rng.standard_normal((8, 16)) * 0.3).astype(np.float32))
np.save(os.path.join(here, "input2_w2.npy"), (rng.standard_normal((16, 4)) * 0.3).astype(np.float32))
np.save(os.path.join(here, "input3_labels.npy"), rng.integers(0, 4, size=6).astype(np.int64))
