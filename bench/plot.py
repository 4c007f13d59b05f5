"""Draws bench.py's result table as a PNG (Debian's python3-matplotlib).

    /usr/bin/python3 bench/plot.py RESULTS.md OUT.png

RESULTS.md is what `bench.py` printed (or any Markdown holding its table;
the last table with a `case` column and `torch/rlx` columns is drawn).
`bench.py --plot OUT.png [filter]` runs the bench and calls this at the end.

Left panel: the speed ratio torch ms / rlx ms per row (log scale; right of
the 1.0 line rlx is faster), one bar per thread count. Right panel: the
fraction of the physical limit the row reached at each thread count, where
the bench measures one (`% peak` for contractions: FMA peak; `% copy BW` for
memory-bound rows: copy bandwidth; bench.py's column names).
"""
import re
import sys


def parse_tables(text):
    """Returns the Markdown tables in `text` as lists of {header: cell}."""
    tables, rows, header = [], [], None
    for line in text.splitlines() + [""]:
        line = line.strip()
        if line.startswith("|") and line.endswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if header is None:
                header = cells
            elif not all(re.fullmatch(r":?-+:?", c) for c in cells):
                rows.append(dict(zip(header, cells)))
            continue
        if header is not None:
            tables.append(rows)
        rows, header = [], None
    return tables


def number(cell):
    """The leading number of a cell ("110%", "1.88", ""), or None."""
    m = re.match(r"\s*([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)", cell or "")
    return float(m.group(1)) if m else None


def columns(rows, prefix):
    """{thread count: column name} of the columns named `prefix` + " <n>T"."""
    found = {}
    for name in rows[0]:
        m = re.fullmatch(re.escape(prefix) + r" (\d+)T", name)
        if m:
            found[int(m.group(1))] = name
    return dict(sorted(found.items()))


def bench_table(text):
    for rows in reversed(parse_tables(text)):
        if rows and "case" in rows[0] and columns(rows, "torch/rlx"):
            return rows
    raise SystemExit("plot.py: no bench table (columns 'case', "
                     "'torch/rlx <n>T') in the input")


def plot(text, out_path, title=None):
    import matplotlib
    matplotlib.use("Agg")  # no display on a build machine
    import matplotlib.pyplot as plt

    rows = bench_table(text)
    ratio_cols = columns(rows, "torch/rlx")
    limit_cols = [(t, c, "FMA peak") for t, c in columns(rows, "% peak").items()]
    limit_cols += [(t, c, "copy BW")
                   for t, c in columns(rows, "% copy").items()]
    names = [r["case"] for r in rows]
    n, width = len(rows), 0.8 / max(1, len(ratio_cols))
    fig, (left, right) = plt.subplots(
        1, 2, figsize=(14, 0.35 * n + 1.8), sharey=True,
        gridspec_kw={"width_ratios": [3, 2]})
    for i, (threads, col) in enumerate(ratio_cols.items()):
        ys = [k + i * width for k in range(n)]
        left.barh(ys, [number(r.get(col)) or 0 for r in rows], height=width,
                  label="%d thread%s" % (threads, "s" if threads > 1 else ""))
    left.axvline(1.0, color="black", linewidth=1)
    left.set_xscale("log")
    left.set_xlabel("torch ms / rlx ms  (> 1: rlx faster)")
    left.legend(loc="lower right")
    left.set_yticks([k + 0.4 - width / 2 for k in range(n)])
    left.set_yticklabels(names, fontsize=7)
    left.invert_yaxis()
    width = 0.8 / max(1, len(limit_cols))
    for i, (threads, col, what) in enumerate(limit_cols):
        ys = [k + i * width for k in range(n)]
        right.barh(ys, [number(r.get(col)) or 0 for r in rows], height=width,
                   label="%% of %s, %dT" % (what, threads))
    right.set_xlabel("% of the physical limit (rows that have one)")
    if limit_cols:
        right.legend(loc="lower right")
    fig.suptitle(title or "rlx vs PyTorch (bench/bench.py)")
    fig.tight_layout()
    fig.savefig(out_path, dpi=110)
    drawn = ["%s %dT" % (what, t) for t, _, what in limit_cols]
    print("plot.py: wrote %s (%d rows; limits: %s)"
          % (out_path, n, ", ".join(drawn) or "none"))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    with open(sys.argv[1]) as f:
        plot(f.read(), sys.argv[2])
