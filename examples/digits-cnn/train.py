"""Trains the digits CNN of model.mlir (forward-only MLIR; rlx-grad makes the
gradient) with SGD + momentum (cosine learning-rate decay), and reports the held-out accuracy:

    PYTHONPATH=python RLX_BUILD_DIR=build /usr/bin/python3 examples/digits-cnn/train.py [--bf16]

--bf16 trains in bf16 mixed precision: bf16 activations, f32 master weights
and SGD (digits.mixed_bf16_text).
"""
import argparse
import sys
import time

import numpy as np

import digits
import rlx


def bar(done, total, width=24):
    filled = int(width * done / total)
    return "[" + "#" * filled + "-" * (width - filled) + "]"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--bf16", action="store_true",
                    help="bf16 mixed precision (bf16 activations, f32 master weights)")
    ap.add_argument("--min-accuracy", type=float, default=0.0,
                    help="exit 1 if the held-out accuracy (%%) is below this")
    args = ap.parse_args()

    t0 = time.time()
    m = rlx.compile(digits.model_text(mixed_bf16=args.bf16))
    compile_s = time.time() - t0
    xtr, ytr, xte, yte = digits.split(*digits.load_digits())
    xtr, xte = xtr.astype(np.float32), xte.astype(np.float32)
    p = digits.init_params()
    mom = np.zeros_like(p)
    gen = np.random.default_rng(1)
    steps = len(ytr) // digits.BATCH
    tty = sys.stdout.isatty()
    print("digits CNN%s: %d train / %d held-out images, %d parameters, "
          "compiled in %.1f s" % (" (bf16 mixed precision)" if args.bf16 else "",
                                  len(ytr), len(yte), p.size, compile_s))
    t1 = time.time()
    acc = 0.0
    for epoch in range(args.epochs):
        # cosine learning-rate decay over the epochs
        lr = np.array(args.lr * 0.5 * (1 + np.cos(np.pi * epoch / args.epochs)),
                      dtype=np.float32)
        order = gen.permutation(len(ytr))
        total = 0.0
        for s in range(steps):
            idx = order[s * digits.BATCH:(s + 1) * digits.BATCH]
            loss, p, mom = m.train_step(p, mom, xtr[idx], ytr[idx], lr)
            total += float(loss)
            if tty:
                print("\repoch %2d/%d %s loss %.4f" % (
                    epoch + 1, args.epochs, bar(s + 1, steps), total / (s + 1)),
                    end="", flush=True)
        acc = 100.0 * np.mean(np.argmax(m.logits(p, xte), 1) == yte)
        print("%sepoch %2d/%d %s loss %.4f held-out acc %.1f%%" % (
            "\r" if tty else "", epoch + 1, args.epochs, bar(steps, steps),
            total / steps, acc), flush=True)
    train_s = time.time() - t1
    correct = int(np.sum(np.argmax(m.logits(p, xte), 1) == yte))
    print("held-out accuracy: %.2f%% (%d/%d), final train loss %.4f, "
          "%d steps in %.1f s (%.1f ms/step)" % (
              100.0 * correct / len(yte), correct, len(yte), total / steps,
              args.epochs * steps, train_s, 1000 * train_s / (args.epochs * steps)))
    if 100.0 * correct / len(yte) < args.min_accuracy:
        print("FAIL: accuracy below %.1f%%" % args.min_accuracy)
        sys.exit(1)


if __name__ == "__main__":
    main()
