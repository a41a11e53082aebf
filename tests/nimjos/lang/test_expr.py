"""The expression language: every built-in, exact arithmetic, and every refusal."""
from __future__ import annotations

from fractions import Fraction

import pytest

from nimjos.spec.names import spec_namespace
from nimjos.lang.errors import EvalError, ResourceError, SpecError
from nimjos.lang.expr import compile_expression


def ev(text, **env):
    return compile_expression(text, spec_namespace(), set(env))(env)


@pytest.mark.parametrize("text,value", [
    ("7 / 2", Fraction(7, 2)), ("6 / 3", 2), ("-7 // 2", -4), ("-7 % 3", 2), ("2 ** 100", 2 ** 100),
    ("2 ** -1", Fraction(1, 2)), ("floor(7 / 2)", 3), ("ceil(7 / 2)", 4), ("floor(-7 / 2)", -4),
    ("isqrt(99)", 9), ("min(3, 1, 2)", 1), ("max(3, 1, 2)", 3), ("abs(-5)", 5), ("v2(40)", 3),
    ("xor(3, 5)", 6), ("xor(7, 8, 10)", 5), ("mex({0, 1, 2, 4, 5, 7})", 3), ("mex({1, 2, 4, 5, 7})", 0),
    ("mex(set())", 0), ("iterate(lambda r: r + floor(r / 2) + 1, 3, 0)", 4), ("ilog2(9)", 3),
    ("popcount(7)", 3), ("gcd(12, 18)", 6), ("3 | 5", 7), ("9 | 12", 13), ("6 & 3", 2), ("1 << 10", 1024),
    ("1024 >> 3", 128), ("~0", -1), ("(1, 2)[1]", 2), ("2 in {2, 3}", True), ("4 not in {2, 3}", True),
    ("1 < 2 <= 2 < 3", True), ("1 < 2 > 3", False), ("5 if 1 < 2 else 6", 5), ("not (1 < 2)", False),
    ("sum(i * i for i in range(1, 4))", 14), ("all(i > 0 for i in range(1, 10))", True),
    ("any(i > 8 for i in range(1, 9))", False), ("{i % 3 for i in range(10)}", frozenset({0, 1, 2})),
    ("len([i for i in range(5) if i % 2 == 0])", 3), ("sorted({3, 1, 2})", (1, 2, 3)),
    ("(lambda a, b: a * b)(6, 7)", 42), ("3 in (lambda s: s % 3 == 0)", True),
    ("survivor(7, 3)", 4), ("survivor(41, 3)", 31), ("removal_index(7, 3, 3)", 1), ("removal_index(7, 3, 4)", 7),
    ("removed(7, 3, 2)", 6), ("removed(7, 3, 7)", 4), ("JJ(3, 7, 3)", 6), ("JJ(3, 7, 4)", 0),
    ("F(0, 5)", 3), ("F(4, 5)", 2), ("survivor(1, 5)", 1), ("survivor(5, 1)", 5),
    ("len(functions(2, 1, 3))", 9), ("len(nondecreasing(3, 1, 3))", 10), ("len(subsets(1, 4))", 16),
    ("G(subtraction({2, 3}), 4)", 2), ("options(subtraction({2, 3}), 5)", frozenset({2, 3})),
    ("True and False", False), ("tuple({2, 1})", (1, 2)),
    ("G(gcn(3, (lambda s: True, lambda s: True)), (4, 2))", 3),
    ("tri_row(7)", 3), ("tri_col(7)", 1), ("antidiagonal(7)", (1, 2)), ("antidiagonal(0)", (0, 0)),
    ("{1, 2} | {2, 3}", frozenset({1, 2, 3})), ("{1, 2} & {2, 3}", frozenset({2})), ("{1, 2} - {2, 3}", frozenset({1})),
    ("(1, 2) + (3,)", (1, 2, 3)), ("sorted((3, 1, 2))", (1, 2, 3)), ("sorted((2, 1)) + (0,)", (1, 2, 0)),
])
def test_values(text, value):
    got = ev(text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("text", [
    'G(octal("0.77"), 70) == 6 and G(octal("0.77"), (1, 2)) == 3',
    'G(hexadecimal("0.77"), 70) == G(octal("0.77"), 70)', "G(grundys_game(), (5, 13)) == 1",
    "G(laskers_nim(), 7) == 8", "G(moore_nim(2), (1, 1, 1)) == 0", 'heaps_value(octal("0.07"), (2, 4)) == 3',
    "nimsum(1, 2, 3) == 0", "G(nim(), (3, 5, 6)) == 0", "G(heaps(subtraction({1, 2})), (4, 5, 2)) == 1",
    "len(multisets(3, 0, 7)) == 120",
])
def test_heap_game_builtins(text):
    """The heap games' built-ins (docs/spec-format.md, Heap games), as the docs' examples state them."""
    assert ev(text) is True


def test_variables_and_exactness():
    assert ev("x / 3 + y / 6", x=1, y=1) == Fraction(1, 2)
    assert ev("floor(x / k)", x=10**30 + 7, k=10**15) == (10**30 + 7) // 10**15


@pytest.mark.parametrize("text,message", [
    ("x ^ 1", "xor(a, b)"), ("__import__('os')", "names starting with '_'"), ("x.real", "attribute access"),
    ("1.5 + x", "fraction"), ("'a'", "strings"), ("{1: 2}", "dictionaries"), ("f(*x)", "starred"),
    ("max(x, key=x)", "keyword"), ("(y := 3)", "assignment"), ("(1, 2)[0:1]", "slices"),
    ("flor(x)", "did you mean 'floor'"), ("x +", "syntax error"), ("x @ x", "'@'"),
    ("lambda *a: a", "positional"), ("None", "not a value"),
])
def test_refusals(text, message):
    with pytest.raises(SpecError, match=None) as info:
        compile_expression(text, spec_namespace(), {"x"})
    assert message in str(info.value)


@pytest.mark.parametrize("text", ["1 / 0", "1 // 0", "1 % 0", "v2(0)", "isqrt(-1)", "mex(5)", "ilog2(0)",
                                  "(1, 2)[5]", "xor(-1, 2)", "iterate(lambda r: r, -1, 0)", "survivor(-1, 2)",
                                  "JJ(2, 3, 4)", "F(5, 5)", "functions(2, 1, 2)[0](3)", "min(set())",
                                  "{1} | 2", "{1} & (1,)", "(1, 2) - (1,)", "(1, 2) + 3", "{1} + {2}", "tri_row(-1)",
                                  "antidiagonal(1 / 2)"])
def test_ill_defined(text):
    with pytest.raises(EvalError):
        ev(text)


@pytest.mark.parametrize("text", ["10 ** 10 ** 10", "1 << 10 ** 9", "sum(i for i in range(10 ** 12))",
                                  "iterate(lambda r: r + 1, 10 ** 12, 0)",
                                  "(lambda f: f(f))(lambda f: f(f))", "len(subsets(1, 40))"])
def test_resource_guards(text):
    with pytest.raises(ResourceError):
        ev(text)


def test_every_builtin_is_documented_and_tested():
    from nimjos.spec.names import SPEC_BUILTINS as BUILTINS
    import inspect
    source = inspect.getsource(inspect.getmodule(test_values))
    for name, fn in BUILTINS.items():
        assert (fn.__doc__ or "").strip(), f"built-in {name} has no docstring"
        assert f"{name}(" in source, f"built-in {name} is not exercised by this test module"


def _zeckendorf_digits(n: int) -> str:
    """n's Zeckendorf representation by the greedy rule (digits for 1, 2, 3, 5, 8, ..., most significant first)."""
    fibs = [1, 2]
    while fibs[-1] <= n:
        fibs.append(fibs[-1] + fibs[-2])
    digits = ""
    for f in reversed([f for f in fibs if f <= n]):
        digits += "1" if f <= n else "0"
        n -= f if f <= n else 0
    return digits or "0"


def _floor_times_root(n: int, a: int, b: int, c: int) -> int:
    """floor(n * (a + sqrt(b)) / c) for n >= 0, by exact comparison (m <= n(a + sqrt b)/c iff cm - an <= n sqrt b)."""
    m = 0
    while True:
        d = c * (m + 1) - a * n
        if d > 0 and d * d > b * n * n:
            return m
        m += 1


@pytest.mark.parametrize("n", [*range(0, 40), 100, 1000, 4181, 6765])
def test_fibonacci_numeration_builtins_against_their_definitions(n):
    # floor_phi(n) = floor(n phi), floor_phi2(n) = floor(n phi^2) = floor_phi(n) + n, floor_sqrt2(n) = floor(n sqrt 2)
    assert ev(f"floor_phi({n})") == _floor_times_root(n, 1, 5, 2)
    assert ev(f"floor_phi2({n})") == _floor_times_root(n, 3, 5, 2)
    assert ev(f"floor_sqrt2({n})") == _floor_times_root(n, 0, 2, 1)
    a, b = 0, 1
    for _ in range(n % 60):
        a, b = b, a + b
    assert ev(f"fibonacci({n % 60})") == a
    digits = _zeckendorf_digits(n)
    if n >= 1:
        assert ev(f"zeck_tz({n})") == len(digits) - len(digits.rstrip("0"))
    shifted = digits + "0"      # the shift: every Zeckendorf digit one place up
    fibs = [1, 2]
    while len(fibs) < len(shifted):
        fibs.append(fibs[-1] + fibs[-2])
    assert ev(f"zeck_shift({n})") == (sum(f for f, d in zip(reversed(fibs[:len(shifted)]), shifted) if d == "1")
                                      if n else 0)


def test_misere_builtins_by_hand():
    # misère play: a terminal position has the value 1, any other the mex of its options' values. One token taken
    # at a time from n: 0 -> 1, 1 -> mex{1} = 0, 2 -> mex{0} = 1, ...; misère Nim (1, 1) -> N, (1, 1, 1) -> P
    assert [ev("misere_grundy(misere(subtraction({1})), n)", n=n) for n in range(6)] == [1, 0, 1, 0, 1, 0]
    assert ev("misere_grundy(misere(nim()), (1, 1))") != 0 and ev("misere_grundy(misere(nim()), (1, 1, 1))") == 0
    assert ev("misere_grundy(misere(nim()), (2, 2))") == 0 and ev("misere_grundy(misere(nim()), (0,))") == 1
    with pytest.raises(SpecError, match="misère"):
        ev("G(misere(nim()), (1, 1))")
