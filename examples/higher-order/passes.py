"""Runs rlx-opt passes on MLIR text: the higher-order examples chain
rlx-grad, the inliner (rlx-grad differentiates one function body, so a call
to a gradient function is inlined first) and rlx-grad again, then compile the
result with rlx.compile (rlx-to-llvm)."""
import os
import subprocess


def rlx_opt(text, *flags):
    build = os.environ.get("RLX_BUILD_DIR") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "build")
    tool = os.path.join(build, "bin", "rlx-opt")
    run = subprocess.run([tool] + list(flags), input=text, text=True,
                         capture_output=True)
    if run.returncode != 0:
        raise RuntimeError("rlx-opt %s failed:\n%s" % (" ".join(flags), run.stderr))
    return run.stdout


def rel(got, want):
    import numpy as np
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    return float(np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-30))


def worst_error(loss, grads, want_loss, want_grads):
    """The worst relative error of a step's loss and gradients vs torch's."""
    return max([abs(loss - want_loss) / max(abs(want_loss), 1.0)] +
               [rel(g, w) for g, w in zip(grads, want_grads)])
