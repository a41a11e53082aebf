"""``nimjos josephus survivor|table|order --k K --n N [--out FILE.npy]``: the Josephus problem from the
command line (numbers 1..n in a circle, every k-th removed, counting from 1).

* ``survivor``: the number left; n may be huge (``--n 10**30``); n = 0 gives 0 (OEIS A006257's a(0));
* ``table``: the survivors of every n <= N as an int64 array (index n holds the survivor of n, index 0 holds 0);
  a table longer than the terminal shows is summed up (its first and last values and its checksum,
  :mod:`nimjos.josephus.checksum`) and, unless ``--out`` or ``--json`` needs every value, made a piece at a time
  rather than held (every value is still computed; memory stays bounded for any N);
* ``order``: the numbers in the order they are removed (the last is the survivor).

N and K are integers or integer expressions of the spec language (``10**8 + 1``).

>>> main(["josephus", "survivor", "--k", "3", "--n", "41"])
31
0
"""
from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np
from nimjos.lang.errors import SpecError
from nimjos.lang.compiler import Namespace
from nimjos.lang.expr import compile_expression
import nimjos.josephus.algorithms as algorithms
from nimjos.api.josephus import josephus_values
from nimjos.josephus.checksum import checksum_add, checksum_text
from nimjos.app.cli import help_of, main

#: arrays up to this length are printed in full as text
MAX_PRINTED = 200
#: arrays up to this length are given in full in --json; longer ones are written with --out (never dropped silently)
MAX_JSON_VALUES = 1_000_000


def _integer(text: str, name: str, least: int) -> int:
    """An integer argument, written as a number or an integer expression (``10**30``).

    >>> _integer("10**3 + 1", "n", 1)
    1001
    """
    value = compile_expression(text, Namespace())({})
    if type(value) is not int or value < least:
        raise SpecError(f"--{name} must be an integer >= {least}, got {text!r}")
    return value


@dataclass(frozen=True)
class Summary:
    """What the terminal shows of a long array: its length, first and last values and checksum."""
    length: int
    head: list[int]
    tail: list[int]
    checksum: str


def summarise(pieces: Iterable[tuple[int, np.ndarray]], head: int = 10, tail: int = 5) -> Summary:
    """The summary of an array given as consecutive pieces (first place, values), one piece at a time.

    >>> summarise([(0, np.array([0, 1, 1])), (3, np.array([3, 1]))], head=2, tail=3)
    Summary(length=5, head=[0, 1], tail=[1, 3, 1], checksum='11a25cd6ed909a2d')
    """
    length, total = 0, 0
    first: list[int] = []
    last: list[int] = []
    for start, values in pieces:
        if len(first) < head:
            first += values[:head - len(first)].tolist()
        last = (last + values[-tail:].tolist())[-tail:]
        total = checksum_add(total, start, values)
        length = start + len(values)
    return Summary(length, first, last, checksum_text(total))


def _describe(what: str, k: int, n: int, summary: Summary, values: np.ndarray | None) -> str:
    head = {"table": f"survivors of n = 0..{n:,} (k = {k}; index 0 holds 0)",
            "order": f"elimination order of 1..{n:,} (k = {k}; the last is the survivor)"}[what]
    if values is not None and len(values) <= MAX_PRINTED:
        return head + ":\n" + " ".join(map(str, values.tolist()))
    first = " ".join(map(str, summary.head))
    last = " ".join(map(str, summary.tail))
    return f"{head}: {first} ... {last} (checksum {summary.checksum})"


def cmd_josephus(args: argparse.Namespace) -> int:
    """Run ``nimjos josephus``.

    >>> cmd_josephus(argparse.Namespace(what="survivor", k="3", n="41", out=None, json=False))
    31
    0
    """
    k = _integer(args.k, "k", 1)
    n = _integer(args.n, "n", 1 if args.what == "order" else 0)
    t0 = time.perf_counter()
    length = n + 1 if args.what == "table" else n
    every_value = args.what != "table" or args.out or length <= MAX_PRINTED or (args.json and length <= MAX_JSON_VALUES)
    values: Any = josephus_values(args.what, k, n) if every_value else None
    summary = None
    if args.what != "survivor":
        summary = summarise([(0, values)] if values is not None else algorithms.survivor_pieces(n, k))
    seconds = time.perf_counter() - t0
    if args.out:
        if args.what == "survivor":
            raise SpecError("--out writes an array: use it with 'table' or 'order'")
        np.save(args.out, values)
    if args.json:
        out: dict[str, Any] = {"what": args.what, "k": k, "n": n, "seconds": round(seconds, 3)}
        if args.what == "survivor":
            out["survivor"] = int(values)   # a JSON integer of any size, never a string
        else:
            assert summary is not None
            out["length"] = summary.length
            out["checksum"] = summary.checksum
            if values is not None and len(values) <= MAX_JSON_VALUES:
                out["values"] = values.tolist()
            else:
                out["values"] = None
                out["omitted"] = (f"{summary.length:,} values are more than --json gives ({MAX_JSON_VALUES:,}): "
                                  "write them with --out FILE.npy")
        if args.out:
            out["out"] = args.out
        print(json.dumps(out))
    elif args.what == "survivor":
        print(values)
    else:
        assert summary is not None
        print(_describe(args.what, k, n, summary, values))
        if args.out:
            print(f"wrote {args.out} (int64, {summary.length:,} values) in {seconds:.2f} s")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``nimjos josephus``.

    >>> parser = argparse.ArgumentParser(); register(parser.add_subparsers())
    >>> parser.parse_args(["josephus", "table", "--k", "2", "--n", "10"]).what
    'table'
    """
    p = sub.add_parser("josephus", help=help_of("josephus"))
    p.add_argument("what", choices=["survivor", "table", "order"])
    p.add_argument("--k", required=True, help="every k-th number is removed (k >= 1)")
    p.add_argument("--n", required=True, help="numbers 1..n (table: every n <= N)")
    p.add_argument("--out", metavar="FILE.npy", help="write the table or the order as a NumPy array")
    p.add_argument("--json", action="store_true",
                   help=f"print one JSON object: what, k, n, seconds, and survivor (an integer of any size) or length, "
                        f"checksum and values (all of them up to {MAX_JSON_VALUES:,}; beyond, values is null and omitted says "
                        "why: use --out)")
    p.set_defaults(func=cmd_josephus)
