# RUN: %python %s
"""The README's example (examples/training-step): loss and both weight
gradients match PyTorch autograd on the shipped inputs."""
import os

import numpy as np
import torch

import rlxtest as rt

here = os.path.dirname(os.path.abspath(__file__))
example = os.path.join(here, "..", "..", "examples", "training-step")
m = rt.compile(open(os.path.join(example, "step.mlir")).read())
x, w1, w2, labels = (np.load(os.path.join(example, f)) for f in
                     ("input0_x.npy", "input1_w1.npy", "input2_w2.npy", "input3_labels.npy"))
loss, dw1, dw2 = m.step(x, w1, w2, labels)

tw1 = torch.tensor(w1, requires_grad=True)
tw2 = torch.tensor(w2, requires_grad=True)
logits = torch.nn.functional.gelu(torch.tensor(x) @ tw1) @ tw2
tloss = torch.nn.functional.cross_entropy(logits, torch.tensor(labels), reduction="none")
gw1, gw2 = torch.autograd.grad(tloss.mean(), (tw1, tw2))
rt.check("example: loss", loss, tloss.detach().numpy())
rt.check("example: dW1", dw1, gw1.numpy())
rt.check("example: dW2", dw2, gw2.numpy())
rt.finish()
