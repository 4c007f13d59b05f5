"""The training step through the Python package:
    PYTHONPATH=python RLX_BUILD_DIR=build /usr/bin/python3 examples/training-step/run.py
"""
import os

import numpy as np

import rlx

here = os.path.dirname(os.path.abspath(__file__))
step = rlx.compile(open(os.path.join(here, "step.mlir")).read())
inputs = [np.load(os.path.join(here, name)) for name in
          ("input0_x.npy", "input1_w1.npy", "input2_w2.npy", "input3_labels.npy")]
loss, dw1, dw2 = step.step(*inputs)
print("mean loss %.6f" % loss.mean())
print("|dW1| %.6f  |dW2| %.6f" % (np.linalg.norm(dw1), np.linalg.norm(dw2)))
