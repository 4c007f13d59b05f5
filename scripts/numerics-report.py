#!/usr/bin/python3
"""Prints the numerics suite's per-op case counts and worst relative errors
(from build/numerics/*.json, written by the last lit run)."""
import glob
import json
import os
import sys

build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "build")
rows, total = [], 0
lowprec = []
for path in sorted(glob.glob(os.path.join(build, "numerics", "*.json"))):
    data = json.load(open(path))
    for op, e in data["ops"].items():
        total += e["cases"]
        if os.path.basename(path) == "test_lowprec.json":
            lowprec.append((op, e))
            continue
        rows.append((op, e["cases"], e.get("float32"), e.get("float64"), e.get("fd")))
fmt = lambda v: "-" if v is None else "%.1e" % v
print("| op | cases | worst rel err f32 | f64 | f64 finite differences |")
print("|---|---|---|---|---|")
for op, n, a, b, c in sorted(rows):
    print("| %s | %d | %s | %s | %s |" % (op, n, fmt(a), fmt(b), fmt(c)))
if lowprec:
    # test_lowprec.py: vs torch in f32 rounded once ("f32", the contract) and
    # vs torch computing in the dtype ("torch", where it has a CPU kernel).
    keys = ("bf16 f32", "bf16 torch", "f16 f32", "f16 torch")
    print("\n| op (bf16/f16) | cases | " + " | ".join(keys) + " |")
    print("|---|---|" + "---|" * len(keys))
    for op, e in lowprec:
        print("| %s | %d | %s |" % (op, e["cases"],
                                   " | ".join(fmt(e.get(k)) for k in keys)))
print("\n%d cases" % total)
