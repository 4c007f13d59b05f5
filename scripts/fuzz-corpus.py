#!/usr/bin/env python3
"""Writes the seed corpus of rlx-fuzz-compile into DIR: every rlx lit test
of test/Dialect and test/Transforms, split at `// -----`, without comment
lines (RUN/CHECK lines and prose).

  scripts/fuzz-corpus.py DIR
"""
import glob
import hashlib
import os
import sys


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test")
    files = sorted(glob.glob(os.path.join(root, "Dialect", "Rlx", "*.mlir")) +
                   glob.glob(os.path.join(root, "Transforms", "*.mlir")))
    count = 0
    for path in files:
        with open(path) as f:
            text = f.read()
        for chunk in text.split("// -----"):
            lines = [l for l in chunk.splitlines() if not l.lstrip().startswith("//")]
            seed = "\n".join(lines).strip() + "\n"
            if "rlx." not in seed:
                continue
            name = hashlib.sha1(seed.encode()).hexdigest()
            with open(os.path.join(out, name), "w") as f:
                f.write(seed)
            count += 1
    print("%d seeds from %d files in %s" % (count, len(files), out))


if __name__ == "__main__":
    main()
