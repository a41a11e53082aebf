"""Fuzz the spec loader, the expression compiler and the exhaustive checker with generated input.

Hypothesis strategies generate expression strings (from a grammar of the language and of everything it
refuses, then mangled character by character) and whole TOML specs (games, definitions, claims of every
kind, wrong types, unknown fields, broken TOML). Every input must either work or fail with the project's
own error type (:class:`nimjos.lang.errors.NimjosError`); any other exception is a bug.

    python scripts/fuzz.py --inputs 100000          # the long run; prints what each input did
    python scripts/fuzz.py --inputs 2000 --seed 7

>>> from hypothesis import given, settings
>>> @settings(max_examples=20, database=None, derandomize=True, deadline=None)
... @given(expressions())
... def t(text):
...     run_expression(text)
>>> t()
"""
from __future__ import annotations

import argparse
import collections
import functools
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from nimjos.lang.errors import NimjosError  # noqa: E402

VARIABLES = ("x", "y", "n", "k")
FUNCTIONS = ("floor", "ceil", "isqrt", "min", "max", "abs", "v2", "ilog2", "popcount", "xor", "mex", "iterate",
             "gcd", "sum", "all", "any", "len", "range", "set", "tuple", "sorted", "functions", "nondecreasing",
             "subsets", "G", "options", "survivor", "removal_index", "removed", "JJ", "F", "subtraction", "gcn",
             "g", "h", "nim1", "maxnim", "flor", "__import__", "eval", "open", "print")
ODD_NAMES = ("_x", "__builtins__", "__class__", "True", "False", "None", "self", "lambda", "id")
BINARY = ("+", "-", "*", "/", "//", "%", "**", "|", "&", "<<", ">>", "^", "@", "and", "or")
COMPARE = ("<", "<=", ">", ">=", "==", "!=", "in", "not in", "is", "is not")
UNARY = ("-", "+", "~", "not ")
CONSTANTS = ("0", "1", "2", "3", "7", "-1", "10**12", "2**64", "7/2", "10**10**10", "0.5", "1j", "'s'", "b'x'",
             "None", "...", "f'{x}'", "1_000", "0x10", "(1, 2)", "{2, 3}", "[]", "()", "{}")
MANGLE = "()[]{},:.;+-*/%<>=!^&|~ 0123456789xyzkn_'\"\\#\n\t"


# ----------------------------------------------------------------------------- expressions

class Reader:
    """Decodes a byte string into choices (structure-aware fuzzing: hypothesis draws and shrinks the bytes,
    the grammar below turns them into text). Past the end, every choice is the first option and
    every chance fails.

    >>> r = Reader(bytes([3, 200]))
    >>> r.pick("abcd"), r.number(0, 9), r.pick("xy"), r.chance(2)
    ('d', 0, 'x', False)
    """

    def __init__(self, data: bytes):
        self.data = data
        self.i = 0

    def byte(self) -> int:
        self.i += 1
        return self.data[self.i - 1] if self.i <= len(self.data) else 0

    def pick(self, options: Any) -> Any:
        return options[self.byte() % len(options)]

    def number(self, lo: int, hi: int) -> int:
        return lo + self.byte() % (hi - lo + 1)

    def chance(self, one_in: int) -> bool:
        if self.done:
            return False
        return self.byte() % one_in == 0

    @property
    def done(self) -> bool:
        return self.i >= len(self.data)


def _atom(r: Reader) -> str:
    return r.pick((lambda: str(r.number(-3, 12)), lambda: r.pick(CONSTANTS), lambda: r.pick(VARIABLES),
                   lambda: r.pick(VARIABLES), lambda: r.pick(FUNCTIONS), lambda: r.pick(ODD_NAMES)))()


def _expr(r: Reader, depth: int = 0) -> str:
    """One expression of the language (or of what it refuses), from the bytes."""
    if depth > 4 or r.done or r.chance(3):
        return _atom(r)

    def sub() -> str:
        return _expr(r, depth + 1)

    def args(most: int = 3) -> str:
        return ", ".join(sub() for _ in range(r.number(0, most)))

    forms = (
        lambda: f"({sub()} {r.pick(BINARY)} {sub()})",
        lambda: f"({sub()} {r.pick(BINARY)} {sub()})",
        lambda: f"{r.pick(UNARY)}{sub()}",
        lambda: sub() + "".join(f" {r.pick(COMPARE)} {sub()}" for _ in range(r.number(1, 3))),
        lambda: f"{r.pick(FUNCTIONS)}({args()})",
        lambda: f"{r.pick(FUNCTIONS)}({args()})",
        lambda: f"{r.pick(FUNCTIONS)}({sub()}, key={sub()})",
        lambda: f"(lambda {r.pick(('r', 'f', 'x', 'min', '_p', 'r, s'))}: {sub()})",
        lambda: f"(lambda {r.pick(('r', 'r, s', 'f'))}: {sub()})({args(2)})",
        lambda: f"{r.pick(('all', 'any', 'sum', 'min', 'max', 'set', 'tuple', 'len', ''))}"
                f"({sub()} for {r.pick(('i', 'j', 'x', 'abs', '(i, j)'))} in range({sub()}) if {sub()})",
        lambda: f"{{{sub()} for i in range({sub()})}}",
        lambda: f"[{sub()} for i in {sub()}]",
        lambda: f"({args()},)",
        lambda: f"{{{args()}}}",
        lambda: f"[{args()}]",
        lambda: f"{{{sub()}: {sub()}}}",
        lambda: f"{sub()}[{sub()}]",
        lambda: f"{sub()}[{sub()}:{sub()}]",
        lambda: f"{sub()}.{r.pick(('real', '__class__', 'x', 'bit_length'))}",
        lambda: f"({sub()} if {sub()} else {sub()})",
        lambda: f"({r.pick(VARIABLES)} := {sub()})",
        lambda: f"max(*{sub()})",
    )
    return r.pick(forms)()


def _tame(r: Reader, names: tuple[str, ...], depth: int = 0) -> str:
    """An expression the language accepts (arithmetic, comparisons, built-ins with their arities) over
    `names`: most claims of a generated spec use these, so that whole specs load and get checked."""
    if depth > 3 or r.done or r.chance(3):
        return r.pick((lambda: str(r.number(0, 5)), lambda: r.pick(names), lambda: r.pick(names)))()

    def sub() -> str:
        return _tame(r, names, depth + 1)
    forms = (
        lambda: f"({sub()} {r.pick(('+', '-', '*', '//', '%', '/', '|', '&', '**'))} {sub()})",
        lambda: f"{sub()} {r.pick(('<', '<=', '==', '!=', '>=', '>'))} {sub()}",
        lambda: f"{r.pick(('floor', 'ceil', 'abs', 'v2', 'popcount', 'isqrt', 'ilog2'))}({sub()})",
        lambda: f"{r.pick(('min', 'max', 'xor', 'gcd'))}({sub()}, {sub()})",
        lambda: f"({sub()} if {sub()} else {sub()})",
        lambda: f"{r.pick(('all', 'any', 'sum'))}({sub()} for i in range({r.number(0, 4)}))",
        lambda: f"G(nim1, {sub()})",
        lambda: f"mex({{{sub()}, {sub()}}})",
        lambda: f"survivor({r.number(1, 6)}, {r.number(1, 3)})",
    )
    return r.pick(forms)()


def _mangle(text: str, r: Reader) -> str:
    """A few character edits (delete, insert, replace) chosen by the bytes."""
    for _ in range(r.number(1, 3)):
        kind, i, ch = r.number(0, 2), r.byte() * 7 % (len(text) + 1), r.pick(MANGLE)
        if kind == 0:
            text = text[:i] + text[i + 1:]
        elif kind == 1:
            text = text[:i] + ch + text[i:]
        else:
            text = text[:i] + ch + text[i + 1:]
    return text


def decode_expression(data: bytes) -> str:
    """An expression string from bytes: usually grammatical, sometimes mangled.

    >>> decode_expression(bytes([1, 5, 0, 2, 5, 0, 1, 3]))
    '(floor(-3) + -3)'
    """
    r = Reader(data)
    mangle = r.chance(5)
    text = _expr(r)
    return _mangle(text, r) if mangle else text


@functools.lru_cache(maxsize=None)
def expressions() -> st.SearchStrategy[str]:
    """Expression strings: decoded from bytes by the grammar (valid and refused constructs, sometimes
    mangled character by character), and raw text.

    >>> isinstance(expressions(), st.SearchStrategy)
    True
    """
    return st.one_of(st.binary(min_size=1, max_size=64).map(decode_expression),
                     st.binary(min_size=1, max_size=64).map(decode_expression),
                     st.text(alphabet=MANGLE + "abcfgGrsv", max_size=30))


def run_expression(text: str) -> str:
    """Compile `text` over the variables x, y, n, k and evaluate it at a few small values; return what
    happened ('ok' or the project error's class name). Any other exception propagates (a bug).

    >>> run_expression("floor(x / 2)"), run_expression("x ^ 1"), run_expression("1 / x")
    ('ok', 'SpecError', 'EvalError')
    """
    from nimjos.lang.expr import compile_expression
    try:
        compiled = compile_expression(text, _namespace(), set(VARIABLES))
    except NimjosError as exc:
        return type(exc).__name__
    outcome = "ok"
    for env in ({"x": 0, "y": 0, "n": 0, "k": 0}, {"x": 3, "y": 5, "n": 7, "k": 2}):
        try:
            compiled(dict(env))
        except NimjosError as exc:
            outcome = type(exc).__name__
    return outcome


_NS: list = []


def _namespace() -> Any:
    """A namespace with two definitions and two games, as a spec would give (built once)."""
    if not _NS:
        from nimjos.spec.loader import load_spec
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "ns.toml"
            p.write_text(_toml_spec(_BASE_GAMES, {"g(k, n)": "n + floor(n / (k - 1)) + 1", "h(a)": "a * a"}, []))
            _NS.append(load_spec(p).namespace)
    return _NS[0]


# ----------------------------------------------------------------------------- whole specs

_BASE_GAMES = {
    "nim1": {"position": ["x"], "moves": [{"to": "x - t", "where": "1 <= t <= x"}]},
    "maxnim": {"params": ["k"], "position": ["x"], "moves": [{"to": "x - t", "where": "1 <= t <= floor(x / k)"}]},
}


def _q(v: Any) -> str:
    """A value as TOML (strings through JSON escapes, which TOML basic strings accept)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_q(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_q(x)}" for k, x in v.items()) + " }"
    return json.dumps(str(v))


def _toml_spec(games: dict, defines: dict, claims: list[dict], source: Any = "fuzz") -> str:
    out = []
    if source is not None:
        out.append("[source]")
        out.append(f"id = {_q(source)}")
    for name, table in games.items():
        out.append(f"[game.{json.dumps(name)}]")
        out.extend(f"{json.dumps(k)} = {_q(v)}" for k, v in table.items())
    if defines:
        out.append("[define]")
        out.extend(f"{json.dumps(k)} = {_q(v)}" for k, v in defines.items())
    for c in claims:
        out.append("[[claim]]")
        out.extend(f"{json.dumps(k)} = {_q(v)}" for k, v in c.items())
    return "\n".join(out) + "\n"


def _window(r: Reader) -> str:
    lo, hi, top = r.number(-1, 6), r.number(-1, 6), r.number(-1, 6)
    return r.pick((f"{lo} <= x <= {hi}", f"{lo} <= x <= {hi} and 0 <= y <= {top}",
                   f"{lo} <= n <= {hi} and 1 <= k <= n", f"2 <= k <= 3 and 0 <= x <= {hi}",
                   f"{lo} <= x <= {hi} and {_expr(r)}", _expr(r)))


def _value(r: Reader) -> Any:
    """A value of some other type than the field wants, now and then."""
    return r.pick((lambda: r.number(-2, 3), lambda: r.chance(2), lambda: 1.5,
                   lambda: [r.number(0, 3) for _ in range(r.number(0, 3))], lambda: {"for_all": r.number(0, 2)}))()


def _claim(r: Reader, index: int = 0) -> dict:
    tame = not r.chance(4)

    def _expr(r: Reader) -> str:  # noqa: F811  (within a claim: tame expressions, mostly)
        return _tame(r, ("x", "y", "n", "k")) if tame else globals()["_expr"](r)
    claim: dict = {}
    if tame:
        claim["id"] = f"c{index}"
    elif not r.chance(20):
        claim["id"] = r.pick(("a", "b", "c", "a b", ""))
    kind = r.pick(("grundy", "p_positions", "holds", "values", "level_set", "holds", "grundy"))
    if kind != "holds" or r.chance(2):
        claim["game"] = r.pick(("nim1", "maxnim(k)", "maxnim(2)", "subtraction({1, 2})") if tame else
                               ("nim1", "maxnim(k)", "up", "g2", "nim1(1)", "floor", "3", "wythof"))
    if tame:
        claim["for_all"] = (f"0 <= x <= {r.number(0, 6)} and 0 <= y <= {r.number(0, 3)} "
                            f"and 1 <= n <= {r.number(1, 3)} and 2 <= k <= 3")
    else:
        claim["for_all"] = _window(r)
    if r.chance(4):
        claim["assume"] = _expr(r)
    if kind in ("grundy", "holds"):
        claim[kind] = _expr(r)
    elif kind in ("p_positions", "level_set"):
        if r.chance(2):
            claim[kind] = _expr(r)
        else:
            families = []
            for _ in range(r.number(0, 2)):
                fam = {"point": _expr(r)}
                if not r.chance(3):
                    fam["where"] = r.pick(("n >= 0", "0 <= n <= 4", _expr(r)))
                if r.chance(10):
                    fam["pont"] = "0"
                families.append(fam)
            claim[kind] = families
        if kind == "level_set" and not r.chance(6):
            claim["levels"] = r.pick(("0 <= s <= 3", _expr(r)))
    elif r.chance(2):
        start = r.pick((r.number(-1, 3), [0, 0]))
        claim["values"] = {"from": start, "grundy": [r.pick((r.number(0, 3), [r.number(0, 3), r.number(0, 3)]))
                                                     for _ in range(r.number(0, 4))]}
    else:
        claim["values"] = {"of": _expr(r), "var": r.pick(("n", "1", "x")), "from": r.number(-1, 3),
                           "equal": [r.number(0, 5) for _ in range(r.number(0, 4))]}
    if r.chance(4):
        claim["expect"] = r.pick(("holds", "refuted", "ill-defined", "hold", "true", "vacuous"))
    if r.chance(7):
        claim[r.pick(("for_al", "expect_counterexample", "deep", "note", "corrects"))] = _value(r)
    if r.chance(9):
        claim[r.pick(list(claim))] = _value(r)
    return claim


def decode_spec(data: bytes) -> str:
    """A whole spec file as TOML text, from bytes: mostly well-formed TOML with faults inside (games,
    definitions and claims of every kind, wrong types, unknown fields), sometimes broken TOML.

    >>> text = decode_spec(bytes([1, 1, 0, 0, 2, 3, 1, 2, 3, 4, 5]))
    >>> text.count("[[claim]]"), '"grundy" = "0"' in text
    (2, True)
    """
    r = Reader(data)
    n_claims = r.number(1, 3)
    games = dict(_BASE_GAMES)
    if r.chance(2):
        games["up"] = {"position": ["x"], "moves": [{"to": "x + t", "where": "1 <= t <= 2"}]}
    if r.chance(4):
        moves = []
        for _ in range(r.number(0, 2)):
            move = {"to": _expr(r)}
            if not r.chance(4):
                move["where"] = _expr(r)
            if r.chance(10):
                move["wher"] = "x"
            moves.append(move)
        games["g2"] = {"position": r.pick((["x"], ["x", "y"], ["x"], [], ["min"], ["1x"], ["x", "x"])), "moves": moves}
        if r.chance(4):
            games["g2"]["params"] = r.pick((["k"], ["x"], [1]))
    defines = {}
    for _ in range(r.number(0, 2) if r.chance(4) else 0):
        defines[r.pick(("g(k, n)", "h(a)", "f(", "floor(x)", "d", "r(r)"))] = _expr(r)
    claims = [_claim(r, i) for i in range(n_claims)]
    source = r.pick(("fuzz", "fuzz", "fuzz", "fuzz", None, 3))
    text = _toml_spec(games, defines, claims, source)
    return _mangle(text, r) if r.chance(10) else text


@functools.lru_cache(maxsize=None)
def specs() -> st.SearchStrategy[str]:
    """Whole spec files (see :func:`decode_spec`).

    >>> isinstance(specs(), st.SearchStrategy)
    True
    """
    return st.binary(min_size=1, max_size=400).map(decode_spec)


def run_spec(text: str, directory: Path, check: bool = True) -> str:
    """Load `text` as a spec and (when `check`) check each claim exhaustively; return what happened
    ('ok', a verdict word, or the project error's class name). Any other exception propagates (a bug).

    >>> d = Path(tempfile.mkdtemp())
    >>> run_spec('[source]\\nid = "s"\\n[[claim]]\\nid = "c"\\nfor_all = "0 <= n <= 3"\\nholds = "n < 3"\\n', d)
    'refuted'
    >>> run_spec('[source]\\nid = 3\\n', d)
    'SpecError'
    """
    from checkers.window.exhaustive import check_exhaustive
    from nimjos.spec.loader import load_spec
    path = directory / "fuzz.toml"
    path.write_text(text)
    try:
        spec = load_spec(path)
    except NimjosError as exc:
        return type(exc).__name__
    outcome = "ok"
    if check:
        for claim in spec.claims:
            try:
                outcome = check_exhaustive(claim, max_counterexamples=3).verdict
            except NimjosError as exc:
                outcome = type(exc).__name__
    return outcome


# ----------------------------------------------------------------------------- the long run

def fuzz(inputs: int, seed: int | None = None, spec_share: float = 0.3, check: bool = True) -> dict:
    """Run `inputs` generated inputs (a `spec_share` of them whole specs); return the outcome counts.
    Raises (after hypothesis shrinks it) on the first input that ends in an exception that is not the
    project's.

    >>> sum(fuzz(40, spec_share=0.25).values()) >= 40
    True
    """
    counts: collections.Counter = collections.Counter()
    n_specs = int(inputs * spec_share)
    common = dict(database=None, deadline=None, derandomize=seed is None,
                  suppress_health_check=list(HealthCheck))
    with tempfile.TemporaryDirectory() as d:
        directory = Path(d)

        @settings(max_examples=max(1, (inputs - n_specs) // 10), **common)
        @given(st.lists(expressions(), min_size=10, max_size=10))
        def exprs(texts: list[str]) -> None:  # ten per example: a third of the cost of one per example
            for text in texts:
                counts["expression: " + run_expression(text)] += 1

        @settings(max_examples=max(1, n_specs), **common)
        @given(specs())
        def whole(text: str) -> None:
            counts["spec: " + run_spec(text, directory, check)] += 1

        for test, n in ((exprs, inputs - n_specs), (whole, n_specs)):
            if n <= 0:
                continue
            if seed is not None:
                test = __import__("hypothesis").seed(seed)(test)
            test()
    return dict(sorted(counts.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: derandomized)")
    parser.add_argument("--spec-share", type=float, default=0.3, help="share of inputs that are whole specs")
    parser.add_argument("--no-check", action="store_true", help="load specs only; do not check their claims")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    counts = fuzz(args.inputs, args.seed, args.spec_share, not args.no_check)
    total = sum(counts.values())
    print(f"{total:,} inputs in {time.perf_counter() - start:.0f} s; every one ended in a result or a nimjos error")
    for outcome, n in counts.items():
        print(f"  {n:>8,}  {outcome}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
