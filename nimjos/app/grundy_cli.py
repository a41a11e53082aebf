"""``nimjos grundy FILE::GAME --param k=3 --window "0 <= x <= 10**8" [--out FILE.npy]``: the Grundy values
of a declared game on a window, from its moves (a fast engine when the moves have a shape one recognises,
else the reference engine).

The window is a box: one range per coordinate (``"0 <= x < 4000 and 0 <= y < 4000"``). ``--out`` writes
the values as a NumPy array: index i (1-D) or [i, j] (2-D) holds G at (lo_x + i, lo_y + j).

>>> import pathlib
>>> path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml"
>>> values, how = grundy_table(f"{path}::nim1", [], "0 <= x <= 5")
>>> values.tolist()
[0, 1, 2, 3, 4, 5]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from nimjos.lang.errors import SpecError
from nimjos.lang.syntax import suggest
from nimjos.spec.loader import load_spec
from nimjos.lang.expr import compile_expression
from nimjos.lang.binders import Binder
from nimjos.games.engine import MAX_POSITIONS, ReferenceEngine
from nimjos.games.periodicity import Periodicity, detect
from nimjos.lang.errors import ResourceError
from nimjos.app.cli import help_of

#: a window the reference engine must fill position by position may hold at most this many positions
MAX_REFERENCE_WINDOW = 2_000_000
#: windows up to this many positions are printed in full
MAX_PRINTED = 400


def _spec_game(target: str) -> tuple[Any, Any]:
    """(spec, game declaration) named by ``FILE::GAME``."""
    if "::" not in target:
        raise SpecError(f"expected FILE::GAME, got {target!r}")
    path, name = target.rsplit("::", 1)
    spec = load_spec(path)
    if name not in spec.games:
        raise SpecError(f"no game {name!r} in {path}", hint=suggest(name, list(spec.games)))
    return spec, spec.games[name]


def _params(spec: Any, decl: Any, assignments: list[str]) -> tuple:
    """The param values from ``name=EXPR`` assignments (expressions of the spec language, lambdas too)."""
    values: dict[str, Any] = {}
    for text in assignments:
        name, sep, expr = text.partition("=")
        name = name.strip()
        if not sep or name not in decl.params:
            raise SpecError(f"--param expects NAME=VALUE with NAME one of {', '.join(decl.params) or '(none)'}, "
                            f"got {text!r}")
        values[name] = compile_expression(expr, spec.namespace)({})
    missing = [p for p in decl.params if p not in values]
    if missing:
        raise SpecError(f"game {decl.name} needs --param {missing[0]}=VALUE")
    return tuple(values[p] for p in decl.params)


def _box(spec: Any, decl: Any, window: str, params: dict[str, Any]) -> list[tuple[int, int]]:
    """The range [lo, hi] of each coordinate of a box window, in the game's coordinate order."""
    binder = Binder.from_text(window, spec.namespace, outer=set(params))
    if sorted(binder.names) != sorted(decl.position):
        raise SpecError(f"--window must bound exactly the coordinates {', '.join(decl.position)}, "
                        f"got {', '.join(binder.names) or 'none'}")
    if binder.pre_filters or any(level.filters or level.members is not None for level in binder.levels):
        raise SpecError("--window must be a box: one range 'lo <= name <= hi' per coordinate")
    ranges: dict[str, tuple[int, int]] = {}
    for level in binder.levels:
        try:
            lo, hi = Binder.range_of(level, dict(params))
        except SpecError:
            raise SpecError("--window must be a box: a bound may not use another coordinate") from None
        if lo < 0 or hi < lo:
            raise SpecError(f"--window: {level.describe()} is empty or has negative positions")
        ranges[level.name] = (lo, hi)
    return [ranges[c] for c in decl.position]


def grundy_table(target: str, assignments: list[str], window: str, max_positions: int = 0) -> tuple[np.ndarray, dict]:
    """The Grundy values of the window as an array, and how they were computed (game, engine, seconds).

    >>> import pathlib
    >>> path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml"
    >>> grundy_table(f"{path}::nim1", [], "3 <= x <= 4")[1]["origin"]
    [3]
    """
    spec, decl = _spec_game(target)
    values = _params(spec, decl, assignments)
    game = decl(*values)
    box = _box(spec, decl, window, dict(zip(decl.params, values)))
    corner = tuple(hi for _, hi in box)
    count = 1
    for lo, hi in box:
        count *= hi - lo + 1
    cover = 1
    for _, hi in box:
        cover *= hi + 1
    engine = ReferenceEngine(max_positions=max_positions or max(MAX_POSITIONS, cover))
    t0 = time.perf_counter()
    engine.solve(game, [corner[0] if game.dim == 1 else corner])
    dense = game.dense
    slices = tuple(slice(lo, hi + 1) for lo, hi in box)
    covered = dense is not None and all(hi < n for (_, hi), n in zip(box, np.shape(dense)))
    if covered and np.all(dense[slices] >= 0):
        table = np.array(dense[slices])
    else:
        if count > MAX_REFERENCE_WINDOW:
            raise ResourceError(f"{game.label}: no fast engine applies and the window has {count:,} positions "
                                f"(the reference engine fills at most {MAX_REFERENCE_WINDOW:,} here)")
        grids = np.meshgrid(*[np.arange(lo, hi + 1) for lo, hi in box], indexing="ij")
        positions = [int(p[0]) if game.dim == 1 else tuple(int(c) for c in p)
                     for p in zip(*(g.ravel() for g in grids))]
        engine.solve(game, positions)
        table = np.array([game.lookup(p) for p in positions], dtype=np.int64).reshape([hi - lo + 1 for lo, hi in box])
    how = {"game": game.label, "window": window, "coordinates": list(decl.position), "positions": count,
           "engine": engine.describe_last(), "seconds": round(time.perf_counter() - t0, 3),
           "origin": [lo for lo, _ in box]}
    if table.ndim == 1:
        how["periodicity"] = _periodicity(table.tolist(), how["origin"][0])
    return table, how


def _periodicity(values: list[int], start: int) -> str:
    """What the 1-D table shows of (arithmetic) periodicity: an observation through the window's end, not a proof.

    >>> _periodicity([0, 1, 2] * 5, 0)
    'periodic with period 3 from 0 (exact through 14)'
    >>> _periodicity([0, 1, 2, 3, 5, 8], 10)
    'no period within the window (10..15)'
    """
    found = detect(values)
    if found is None:
        return f"no period within the window ({start}..{start + len(values) - 1})"
    return Periodicity(found.period, found.preperiod + start, found.saltus, found.through + start).describe()


def _summary(table: np.ndarray, how: dict) -> list[str]:
    lines = [f"{how['game']} on {how['window']}: {how['positions']:,} positions in {how['seconds']:.2f} s "
             f"({how['engine']})"]
    if table.size:
        lines.append(f"values {int(table.min())} .. {int(table.max())}; "
                     f"{int(np.count_nonzero(table == 0)):,} P-positions (value 0)")
    names, origin = how["coordinates"], how["origin"]
    if table.ndim == 1 and "periodicity" in how:
        lines.append(f"{how['periodicity']} (observed on the window, not proved)")
    if table.size <= MAX_PRINTED:
        if table.ndim == 1:
            lines.append(f"G({names[0]} = {origin[0]}..): " + " ".join(map(str, table.tolist())))
        else:
            # one block of rows (first of the last two coordinates) and columns (the last) per value of the others
            outer = table.shape[:-2]
            for index in np.ndindex(*outer):
                fixed = ", ".join(f"{n} = {o + i}" for n, o, i in zip(names, origin, index))
                lines.append((fixed + ": " if fixed else "") + f"rows {names[-2]} = {origin[-2]}.., "
                             f"columns {names[-1]} = {origin[-1]}..:")
                lines.extend("  " + " ".join(f"{v:3d}" for v in row) for row in table[index].tolist())
    else:
        head = table.ravel()[:20].tolist()
        lines.append(f"first values ({names[0]}-major): " + " ".join(map(str, head)) + " ...")
    return lines


def cmd_grundy(args: argparse.Namespace) -> int:
    """Run ``nimjos grundy``.

    >>> import pathlib
    >>> path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml"
    >>> cmd_grundy(argparse.Namespace(target=f"{path}::nim1", param=None, window="0 <= x <= 2", out=None,
    ...                               json=True, max_positions=0))  # doctest: +ELLIPSIS
    {"game": "nim1", ..., "values": [0, 1, 2]}
    0
    """
    table, how = grundy_table(args.target, args.param or [], args.window, args.max_positions)
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
    sys.stdout.flush()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``nimjos grundy``.

    >>> parser = argparse.ArgumentParser(); register(parser.add_subparsers())
    >>> parser.parse_args(["grundy", "f.toml::g", "--window", "0 <= x <= 9"]).window
    '0 <= x <= 9'
    """
    p = sub.add_parser("grundy", help=help_of("grundy"))
    p.add_argument("target", metavar="FILE::GAME", help="a spec file and one of its games")
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="a param of the game (an expression of the spec language; repeatable)")
    p.add_argument("--window", required=True, help='a box, e.g. "0 <= x <= 10**8" or "0 <= x < 40 and 0 <= y < 40"')
    p.add_argument("--out", metavar="FILE.npy", help="write the values as a NumPy array")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--max-positions", type=int, default=0,
                   help="resource guard (default: enough for the box from 0 up to the window)")
    p.set_defaults(func=cmd_grundy)
