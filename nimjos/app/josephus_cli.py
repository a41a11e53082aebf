"""``nimjos josephus survivor|table|order --k K --n N [--out FILE.npy]``: the Josephus problem from the
command line (numbers 1..n in a circle, every k-th removed, counting from 1).

* ``survivor``: the number left; n may be huge (``--n 10**30``); n = 0 gives 0 (OEIS A006257's a(0));
* ``table``: the survivors of every n <= N as an int64 array (index n holds the survivor of n, index 0 holds 0);
* ``order``: the numbers in the order they are removed (the last is the survivor).

N and K are integers or integer expressions of the spec language (``10**8 + 1``).

>>> josephus_values("survivor", 3, 41)
31
>>> josephus_values("table", 2, 8).tolist(), josephus_values("order", 3, 7).tolist()
([0, 1, 1, 3, 1, 3, 5, 7, 1], [3, 6, 2, 7, 5, 1, 4])
"""
from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
from nimjos.lang.errors import SpecError
from nimjos.lang.compiler import Namespace
from nimjos.lang.expr import compile_expression
import nimjos.josephus.algorithms as josephus
from nimjos.lang.errors import ResourceError
from nimjos.app.cli import help_of

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


def josephus_values(what: str, k: int, n: int) -> Any:
    """The survivor (an int), the survivor table or the elimination order (int64 arrays).

    >>> josephus_values("survivor", 2, 10**30) == 2 * (10**30 - 2**99) + 1
    True
    """
    try:
        if what == "survivor":
            return josephus.survivor(n, k)
        if what == "table":
            return josephus.survivor_table(n, k)
        return josephus.elimination_order(n, k)
    except ValueError as exc:   # the size guard of nimjos.josephus.algorithms
        raise ResourceError(str(exc)) from None


def _describe(what: str, k: int, n: int, values: np.ndarray) -> str:
    head = {"table": f"survivors of n = 0..{n:,} (k = {k}; index 0 holds 0)",
            "order": f"elimination order of 1..{n:,} (k = {k}; the last is the survivor)"}[what]
    if len(values) <= MAX_PRINTED:
        return head + ":\n" + " ".join(map(str, values.tolist()))
    first = " ".join(map(str, values[:10].tolist()))
    last = " ".join(map(str, values[-5:].tolist()))
    return f"{head}: {first} ... {last}"


def cmd_josephus(args: argparse.Namespace) -> int:
    """Run ``nimjos josephus``.

    >>> cmd_josephus(argparse.Namespace(what="survivor", k="3", n="41", out=None, json=False))
    31
    0
    """
    k = _integer(args.k, "k", 1)
    n = _integer(args.n, "n", 1 if args.what == "order" else 0)
    t0 = time.perf_counter()
    values = josephus_values(args.what, k, n)
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
            out["length"] = len(values)
            if len(values) <= MAX_JSON_VALUES:
                out["values"] = values.tolist()
            else:
                out["values"] = None
                out["omitted"] = (f"{len(values):,} values are more than --json gives ({MAX_JSON_VALUES:,}): "
                                  "write them with --out FILE.npy")
        if args.out:
            out["out"] = args.out
        print(json.dumps(out))
    elif args.what == "survivor":
        print(values)
    else:
        print(_describe(args.what, k, n, values))
        if args.out:
            print(f"wrote {args.out} (int64, {len(values):,} values) in {seconds:.2f} s")
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
                   help=f"print one JSON object: what, k, n, seconds, and survivor (an integer of any size) or length "
                        f"and values (all of them up to {MAX_JSON_VALUES:,}; beyond, values is null and omitted says "
                        "why: use --out)")
    p.set_defaults(func=cmd_josephus)
