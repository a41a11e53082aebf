"""A survey of the disagreements of one backend: the conformance checks of :mod:`tests.conformance.backends` run
on many generated examples without stopping at the first failure; the failures are grouped by what was said
(the backend, the world, "has no value" or a value) and the shortest statements of each group are printed, for a
person to minimise and report. The tests (tests/conformance/test_conformance_*.py) stop at the first failure and
shrink it; this finds the others behind it.

    cd tests && python -m conformance.survey z3 --examples 3000 --seed 1

>>> _group("Z3 int world: 'x' at x=0, y=0: the language has no value, the translation excludes it and no obligation fails there")
'Z3 int world: the language has no value'
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from collections import defaultdict

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from conformance.backends import check_fast, check_vector, check_walnut, check_z3
from conformance.grammar import claim, declared_game


def _group(message: str) -> str:
    """The kind of a failure: its first line without the statement, the point and the values."""
    first = message.splitlines()[0]
    first = re.sub(r"'[^']*'|\"[^\"]*\"", "", first)
    first = re.sub(r"at [a-z]=-?\d+(, [a-z]=-?\d+)*:?", "", first)
    first = re.sub(r"gives -?[\w.()/, ]+?(,|$)", r"gives a value\1", first)
    first = re.sub(r"\(width \d+\)", "", first)
    first = re.sub(r"\s+", " ", first).replace(" :", ":").strip(" :,")
    first = re.sub(r"the translation excludes it and no obligation fails there.*", "", first).strip(" ,")
    return first


COORD = st.one_of(st.integers(-12, 20), st.sampled_from([-2 ** 8, 2 ** 8 - 1, 2 ** 31, -2 ** 32, 2 ** 40, 2 ** 62 - 1]))


def _cases(backend: str):
    """The strategy of one example and the function that checks it."""
    if backend == "vector":
        points = st.lists(st.tuples(COORD, COORD), min_size=1, max_size=24)
        return st.tuples(claim(big=True), points), \
            lambda c, p: check_vector(*c, p)
    if backend == "vector-int":
        points = st.lists(st.tuples(COORD, COORD), min_size=1, max_size=24)
        return st.tuples(claim(big=True, boolean=False), points), lambda c, p: check_vector(*c, p)
    if backend in ("z3", "z3-int"):
        points = st.lists(st.fixed_dictionaries({"x": COORD, "y": COORD}), min_size=1, max_size=4)

        def run(c, p, w):
            check_z3(*c, p, "int")
            check_z3(*c, p, "bv", w)
        return st.tuples(claim(big=True, boolean=backend == "z3"), points, st.sampled_from((6, 8, 16, 32))), run
    if backend == "walnut":
        return st.tuples(st.lists(claim(linear=True), min_size=8, max_size=8)), check_walnut
    if backend == "fast":
        def fast(g, side):
            table, values = g
            check_fast(table, values, side if len(table["position"]) == 1 else max(3, side // 3))
        return st.tuples(declared_game(), st.integers(8, 40)), fast
    raise SystemExit(f"unknown backend {backend!r}")


def _found(found: dict, group: str, message: str) -> None:
    """Record a failure; the first of each kind is printed at once (a long survey shows its progress)."""
    if group not in found:
        print(f"[new kind] {group}\n{message}\n", file=sys.stderr, flush=True)
    found[group].append(message)


def survey(backend: str, examples: int, seed_value: int, keep: int = 6) -> dict:
    """Run `examples` examples of one backend's check; return {group: [shortest messages]}."""
    strategy, fn = _cases(backend)
    found: dict = defaultdict(list)

    @seed(seed_value)
    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def each(args):
        try:
            fn(*args)
        except AssertionError as exc:
            msg = str(exc)
            _found(found, _group(msg), msg)
        except Exception as exc:    # a crash of the backend (the language's own errors are caught by the checks)
            tb = exc.__traceback__
            while tb.tb_next is not None:
                tb = tb.tb_next
            where = f"{tb.tb_frame.f_code.co_filename.split('/work/main/')[-1]}:{tb.tb_lineno}"
            _found(found, f"crash: {type(exc).__name__} at {where}", f"{type(exc).__name__}: {str(exc)[:300]}\n{args!r}")
    each()
    return {g: sorted(set(ms), key=len)[:keep] for g, ms in found.items()}


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring); exit status 1 when a disagreement was found."""
    ap = argparse.ArgumentParser(prog="python -m conformance.survey")
    ap.add_argument("backend", choices=["vector", "vector-int", "z3", "z3-int", "walnut", "fast"])
    ap.add_argument("--examples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    found = survey(args.backend, args.examples, args.seed)
    print(f"# {args.backend}: {args.examples} examples, seed {args.seed}, {time.perf_counter() - t0:.0f} s, "
          f"{len(found)} kinds of disagreement")
    for g, ms in found.items():
        print(f"\n## {g}")
        for m in ms:
            print("---\n" + m)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
