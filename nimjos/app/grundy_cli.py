"""``nimjos grundy FILE::GAME --window "0 <= x <= 10**8" [--param k=3] [--out FILE.npy] [--png FILE.png]``: the
Grundy values of a game on a window, from its moves (a fast engine when the moves have a shape one recognises,
else the reference engine).

GAME is a game declared in FILE, or a game expression of the spec language over the built-in families and
FILE's games: ``octal("0.77")`` (Kayles), ``laskers_nim()``, ``grundys_game()``, ``moore_nim(2)``,
``subtraction({1, 2, 3})``; without ``FILE::`` the expression uses the built-in families only.

The window is any condition the language can bound: a box (``"0 <= x < 40 and 0 <= y < 40"``), a triangle
(``"0 <= a <= 20 and 0 <= b <= a"``), a filter (``"0 <= n <= 99 and n % 2 == 0"``). The table covers the window's bounding
box, its corner the lowest coordinates; a cell of the box outside the window holds -1. A declared game's window
bounds its coordinates; a built-in heap game's names one heap per name (``"0 <= a <= 9 and 0 <= b <= 9"``: the
value of the two heaps (a, b)). ``--out`` writes the values as a NumPy array: index i (1-D) or [i, j] (2-D) holds
G at (lo_x + i, lo_y + j); ``--png`` draws the table (a heatmap, or the sequence of a one-heap game).

The tables themselves are :mod:`nimjos.api.tables` (the same for notebooks); this module parses the arguments and
prints.

>>> main(["grundy", 'octal("0.77")', "--window", "0 <= n <= 9"])  # doctest: +ELLIPSIS
octal("0.77") on 0 <= n <= 9: 10 positions in ... s (...)
...
0
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from nimjos.api.tables import OUTSIDE, draw_table, grundy_table
from nimjos.app.cli import main

__all__ = ["cmd_grundy", "grid_lines", "main"]

#: windows up to this many positions are printed in full
MAX_PRINTED = 400
#: a 1-D table is printed this many values to a line
ROW_LENGTH = 20


def grid_lines(table: np.ndarray, origin: list[int], names: list[str]) -> list[str]:
    """A 1-D or 2-D table as text with its axes: indices above the values (1-D), or a header of column indices and
    each row led by its index (2-D); a cell outside the window is ".".

    >>> print("\\n".join(grid_lines(np.array([[0, -1], [3, 0]]), [1, 1], ["a", "b"])))
    rows a = 1.., columns b = 1..:
      a\\b   1   2
        1   0   .
        2   3   0
    >>> print("\\n".join(grid_lines(np.array([0, 1, 12]), [8], ["n"])))
    G(n = 8..):
      n   8   9  10
      G   0   1  12
    """
    cells = [["." if v == OUTSIDE else str(v) for v in row] for row in np.atleast_2d(table).tolist()]
    width = max(3, max(len(c) for row in cells for c in row) + 1,
                len(str(origin[-1] + np.shape(table)[-1] - 1)) + 1)
    if table.ndim == 1:
        label = max(len(names[0]), 1)
        lines = [f"G({names[0]} = {origin[0]}..):"]
        for start in range(0, len(table), ROW_LENGTH):   # a pair of lines (indices, values) per ROW_LENGTH values
            indices = range(origin[0] + start, origin[0] + min(start + ROW_LENGTH, len(table)))
            lines += [f"  {names[0]:>{label}}" + "".join(f"{i:>{width + 1}}" for i in indices),
                      f"  {'G':>{label}}" + "".join(f"{c:>{width + 1}}" for c in cells[0][start:start + ROW_LENGTH])]
        return lines
    rows_from, cols_from = origin[-2], origin[-1]
    corner = f"{names[-2]}\\{names[-1]}"
    label = max(len(corner), len(str(rows_from + table.shape[0] - 1)))
    lines = [f"rows {names[-2]} = {rows_from}.., columns {names[-1]} = {cols_from}..:",
             f"  {corner:>{label}}" + "".join(f"{j:>{width + 1}}" for j in range(cols_from, cols_from + table.shape[1]))]
    for i, row in enumerate(cells):
        lines.append(f"  {rows_from + i:>{label}}" + "".join(f"{c:>{width + 1}}" for c in row))
    return lines


def _summary(table: np.ndarray, how: dict) -> list[str]:
    lines = [f"{how['game']} on {how['window']}: {how['positions']:,} positions in {how['seconds']:.2f} s "
             f"({how['engine']})"]
    inside = table if not how["outside"] else table[table != OUTSIDE]   # a whole box: the table itself, no copy
    if inside.size:
        lines.append(f"values {int(inside.min())} .. {int(inside.max())}; "
                     f"{int(np.count_nonzero(inside == 0)):,} P-positions (value 0)"
                     + (f"; the table is the window's bounding box, {how['outside']:,} cells outside the window "
                        f"(-1, printed .)" if how["outside"] else ""))
    names, origin = how["coordinates"], how["origin"]
    if table.ndim == 1 and "periodicity" in how:
        lines.append(f"{how['periodicity']} (observed on the window, not proved)")
    if table.size <= MAX_PRINTED:
        if table.ndim <= 2:
            lines.extend(grid_lines(table, origin, names))
        else:
            # one grid (first of the last two coordinates as rows, the last as columns) per value of the others
            for index in np.ndindex(*table.shape[:-2]):
                fixed = ", ".join(f"{n} = {o + i}" for n, o, i in zip(names, origin, index))
                grid = grid_lines(table[index], origin, names)
                lines.append(f"{fixed}: {grid[0]}")
                lines.extend(grid[1:])
    else:
        head = table.ravel()[:20].tolist()
        lines.append(f"first values ({names[0]}-major): " + " ".join(map(str, head)) + " ...")
    return lines


def cmd_grundy(args: argparse.Namespace) -> int:
    """Run ``nimjos grundy``.

    >>> import pathlib
    >>> path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml"
    >>> cmd_grundy(argparse.Namespace(target=f"{path}::nim1", param=None, window="0 <= x <= 2", out=None,
    ...                               png=None, json=True, max_positions=0))  # doctest: +ELLIPSIS
    {"game": "nim1", ..., "values": [0, 1, 2]}
    0
    """
    table, how = grundy_table(args.target, args.param or [], args.window, args.max_positions)
    if args.png:
        how["png"] = str(draw_table(table, how, args.png))
    if args.out:
        np.save(args.out, table)
        how["out"] = args.out
        # the array holds values only: where it starts (its corner) and what its axes are go beside it
        how["out_meta"] = str(Path(args.out).with_suffix(".json"))
        Path(how["out_meta"]).write_text(json.dumps({k: v for k, v in how.items() if k != "out_meta"}, indent=1) + "\n")
    if args.json:
        out = dict(how)
        out["shape"] = list(table.shape)
        if table.size <= MAX_PRINTED:
            out["values"] = table.tolist()
        print(json.dumps(out))
    else:
        print("\n".join(_summary(table, how)))
        if args.out:
            print(f"wrote {args.out} ({table.dtype}, shape {table.shape}; axes {', '.join(how['coordinates'])} "
                  f"from {tuple(how['origin'])}, described in {how['out_meta']})")
        if args.png:
            print(f"wrote {how['png']}")
    sys.stdout.flush()
    return 0
