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
for path in sorted(glob.glob(os.path.join(build, "numerics", "*.json"))):
    data = json.load(open(path))
    for op, e in data["ops"].items():
        total += e["cases"]
        rows.append((op, e["cases"], e.get("float32"), e.get("float64"), e.get("fd")))
fmt = lambda v: "-" if v is None else "%.1e" % v
print("| op | cases | worst rel err f32 | f64 | f64 finite differences |")
print("|---|---|---|---|---|")
for op, n, a, b, c in sorted(rows):
    print("| %s | %d | %s | %s | %s |" % (op, n, fmt(a), fmt(b), fmt(c)))
print("\n%d cases" % total)
