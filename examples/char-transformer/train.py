"""Trains the char-level transformer of model.mlir (forward-only MLIR;
rlx-grad makes the gradient) with Adam on GPL-3, reports the held-out loss
against the unigram entropy of the text, and samples a few lines:

    PYTHONPATH=python RLX_BUILD_DIR=build /usr/bin/python3 examples/char-transformer/train.py
"""
import argparse
import sys
import time

import numpy as np

import charlm
import gen_model as g
import rlx


def bar(done, total, width=24):
    filled = int(width * done / total)
    return "[" + "#" * filled + "-" * (width - filled) + "]"


def held_out_loss(m, p, ids, cos, sin, batches=8):
    gen = np.random.default_rng(123)
    return float(np.mean([m.loss(p, *charlm.batch(ids, gen), cos, sin)
                          for _ in range(batches)]))


def sample(m, p, chars, prompt_ids, cos, sin, n, gen, temperature=0.8):
    ctx = list(prompt_ids[-g.T:])
    out = []
    for _ in range(n):
        logits = m.predict(p, np.array([ctx[-g.T:]], dtype=np.int64), cos, sin)
        z = logits[-1].astype(np.float64) / temperature
        z = np.exp(z - z.max())
        nxt = int(gen.choice(len(z), p=z / z.sum()))
        ctx.append(nxt)
        out.append(chars[nxt] if nxt < len(chars) else "?")
    return "".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--sample", type=int, default=240, help="characters to sample")
    ap.add_argument("--max-ratio", type=float, default=0.0,
                    help="exit 1 unless held-out loss < ratio * unigram entropy")
    args = ap.parse_args()

    ids, chars = charlm.load_text()
    cut = int(len(ids) * 0.9)
    train, test = ids[:cut], ids[cut:]
    entropy = charlm.unigram_entropy(ids)
    t0 = time.time()
    m = rlx.compile(charlm.model_text())
    print("char transformer: %d chars of GPL-3 (%d held out), vocabulary %d, "
          "%d parameters, compiled in %.1f s; unigram entropy %.3f nats" % (
              len(ids), len(test), len(chars), g.P, time.time() - t0, entropy))
    cos, sin = charlm.rope_tables()
    p = charlm.init_params()
    mom, vel = np.zeros_like(p), np.zeros_like(p)
    gen = np.random.default_rng(1)
    tty = sys.stdout.isatty()
    t1 = time.time()
    avg = None
    report = max(args.steps // 6, 1)
    for step in range(1, args.steps + 1):
        tok, tgt = charlm.batch(train, gen)
        loss, p, mom, vel = m.train_step(
            p, mom, vel, tok, tgt, cos, sin, np.array(args.lr, np.float32),
            np.array(step, np.float32))
        avg = float(loss) if avg is None else 0.95 * avg + 0.05 * float(loss)
        if tty:
            print("\rstep %4d/%d %s loss %.3f" % (step, args.steps,
                  bar(step, args.steps), avg), end="", flush=True)
        if step % report == 0 or step == args.steps:
            print("%sstep %4d/%d %s loss %.3f held-out %.3f" % (
                "\r" if tty else "", step, args.steps, bar(step, args.steps),
                avg, held_out_loss(m, p, test, cos, sin)), flush=True)
    train_s = time.time() - t1
    final = held_out_loss(m, p, test, cos, sin, batches=16)
    print("held-out loss %.3f nats vs unigram entropy %.3f (ratio %.2f); "
          "%d steps in %.1f s (%.1f ms/step)" % (
              final, entropy, final / entropy, args.steps, train_s,
              1000 * train_s / args.steps))
    if args.sample:
        text = sample(m, p, chars, test[:g.T], cos, sin, args.sample,
                      np.random.default_rng(5))
        print("sample:\n" + text)
    if args.max_ratio and not final < args.max_ratio * entropy:
        print("FAIL: held-out loss not below %.2f x unigram entropy" % args.max_ratio)
        sys.exit(1)


if __name__ == "__main__":
    main()
