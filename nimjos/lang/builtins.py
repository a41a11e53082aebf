"""The built-in functions of the expression language. Each docstring states the exact definition.

>>> BUILTINS["v2"](12), BUILTINS["xor"](3, 5), BUILTINS["mex"](frozenset({0, 1, 2, 4}))
(2, 6, 3)
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, Iterable

from nimjos.lang.errors import EvalError, ResourceError, StepLimitError
from nimjos.lang.registry import LANG, builtins_of
from nimjos.lang.runtime import MAX_STEPS, active_budget, Definition, Lambda, _Stream, norm

#: most elements a finite family (functions(), subsets()) may have
MAX_FAMILY = 200_000


def int_arg(name: str, v: Any) -> int:
    """An argument that must be an integer; a truth value is 0 or 1, as everywhere in the language
    (``True == 1``), so that every backend reads ``xor(False, x)`` alike.

    >>> int_arg("xor", True), int_arg("xor", 7)
    (1, 7)
    """
    v = norm(v)
    if type(v) is bool:
        return int(v)
    if type(v) is not int:
        raise EvalError(f"{name} needs an integer, got {v!r}")
    return v


def _items(name: str, v: Any) -> list:
    if isinstance(v, _Stream):
        return list(v)
    if isinstance(v, (tuple, frozenset, set, range, list)):
        if isinstance(v, range) and len(v) > MAX_STEPS:
            raise ResourceError(f"{name} over {len(v):,} values exceeds the limit of {MAX_STEPS:,}")
        return list(v)
    raise EvalError(f"{name} needs a finite collection, got {v!r}")


def floor(x: Any) -> int:
    """The greatest integer <= x (x an integer or exact fraction).

    >>> floor(Fraction(-7, 2))
    -4
    """
    if isinstance(x, (int, Fraction)):
        return math.floor(x)
    raise EvalError(f"floor needs a number, got {x!r}")


def ceil(x: Any) -> int:
    """The least integer >= x.

    >>> ceil(Fraction(7, 2))
    4
    """
    if isinstance(x, (int, Fraction)):
        return math.ceil(x)
    raise EvalError(f"ceil needs a number, got {x!r}")


def isqrt(n: Any) -> int:
    """The largest integer r with r * r <= n, for n >= 0.

    >>> isqrt(24), isqrt(25)
    (4, 5)
    """
    n = int_arg("isqrt", n)
    if n < 0:
        raise EvalError(f"isqrt of a negative number ({n})")
    return math.isqrt(n)


def v2(n: Any) -> int:
    """The 2-adic valuation: the largest e with 2**e dividing n; ill-defined (infinite) for n = 0.

    >>> v2(1), v2(8), v2(-12)
    (0, 3, 2)
    """
    n = int_arg("v2", n)
    if n == 0:
        raise EvalError("v2(0) is infinite (undefined)")
    return (n & -n).bit_length() - 1


def ilog2(n: Any) -> int:
    """floor(log2(n)) for n >= 1: the position of the highest 1 bit.

    >>> ilog2(1), ilog2(8), ilog2(9)
    (0, 3, 3)
    """
    n = int_arg("ilog2", n)
    if n < 1:
        raise EvalError(f"ilog2 needs n >= 1, got {n}")
    return n.bit_length() - 1


def popcount(n: Any) -> int:
    """The number of 1 bits of n >= 0.

    >>> popcount(7)
    3
    """
    n = int_arg("popcount", n)
    if n < 0:
        raise EvalError("popcount of a negative number")
    return bin(n).count("1")


def xor(*args: Any) -> int:
    """The nim-sum (bitwise exclusive or) of non-negative integers; xor() = 0; a single collection
    argument is folded.

    >>> xor(3, 5), xor(7, 8, 10), xor((1, 2, 3))
    (6, 5, 0)
    """
    if len(args) == 1 and not isinstance(norm(args[0]), int):
        args = tuple(_items("xor", args[0]))
    out = 0
    for a in args:
        a = int_arg("xor", a)
        if a < 0:
            raise EvalError(f"the nim-sum is defined for non-negative integers, got {a}")
        out ^= a
    return out


def mex(s: Any) -> int:
    """The least non-negative integer not in the finite collection s.

    >>> mex(frozenset({1, 2})), mex(())
    (0, 0)
    """
    values = set(_items("mex", s))
    m = 0
    while m in values:
        m += 1
    return m


#: how many iterates of one function and start :func:`iterate` keeps (the memo); later ones are recomputed
ITERATE_MEMO_LENGTH = 10_000


def iterate(f: Any, p: Any, x: Any) -> Any:
    """f applied p times to x: f^p(x), with f^0(x) = x; p must be a non-negative integer.

    Results for the same lambda (same source and captured values) and start are memoised in the claim's budget
    (a memo spares steps: one claim's must not spare another's), so iterate(g, p, 0) for p = 0, 1, 2, ... costs
    one application each.

    >>> iterate(lambda r: 2 * r + 1, 3, 0)
    7
    """
    p = int_arg("iterate", p)
    if p < 0:
        raise EvalError(f"iterate needs p >= 0, got {p}")
    if not callable(f):
        raise EvalError("iterate needs a function as its first argument")
    if p > MAX_STEPS:
        raise StepLimitError(f"iterate with p = {p:,} exceeds the limit of {MAX_STEPS:,} steps")
    key = None
    if isinstance(f, (Lambda, Definition)):
        try:
            key = (f.key if isinstance(f, Lambda) else f, x)   # the objects themselves: an id can be reused
            hash(key)
        except TypeError:
            key = None
    budget = active_budget()
    memo = budget.memo(iterate)
    seq = memo.get(key) if key is not None else None
    if seq is None:
        seq = [x]
        if key is not None:
            if len(memo) > 100_000:
                memo.clear()
            memo[key] = seq
    while len(seq) <= min(p, ITERATE_MEMO_LENGTH):
        budget.spend()
        seq.append(f(seq[-1]))
    if p < len(seq):
        return seq[p]
    # past the memoised prefix the iterates are computed and dropped: the memo's memory stays bounded (iterates
    # may grow, 2 * r + 1 doubles), and each call pays its own steps
    value = seq[-1]
    for _ in range(len(seq) - 1, p):
        budget.spend()
        value = f(value)
    return value


def _min(*args: Any) -> Any:
    """The least of the arguments, or of one finite collection."""
    items = _items("min", args[0]) if len(args) == 1 else list(args)
    if not items:
        raise EvalError("min of an empty collection")
    return min(items)


def _max(*args: Any) -> Any:
    """The greatest of the arguments, or of one finite collection."""
    items = _items("max", args[0]) if len(args) == 1 else list(args)
    if not items:
        raise EvalError("max of an empty collection")
    return max(items)


def _sum(s: Any) -> Any:
    """The sum of a finite collection (0 when empty)."""
    return norm(sum(_items("sum", s)))


def _all(s: Any) -> bool:
    """True when every element is true (an empty collection: True)."""
    if isinstance(s, _Stream):
        return all(s)
    return all(_items("all", s))


def _any(s: Any) -> bool:
    """True when some element is true (an empty collection: False)."""
    if isinstance(s, _Stream):
        return any(s)
    return any(_items("any", s))


def _len(s: Any) -> int:
    """The number of elements of a finite collection."""
    if isinstance(s, range):
        return len(s)
    return len(_items("len", s))


def _range(*args: Any) -> range:
    """range(b) or range(a, b) or range(a, b, step): the integers a <= i < b (as in Python)."""
    return range(*[int_arg("range", a) for a in args])


def _set(s: Any = ()) -> frozenset:
    """The finite set of the elements of a collection."""
    return frozenset(_items("set", s))


def _tuple(s: Any = ()) -> tuple:
    """The elements of a collection as a tuple (sets in increasing order)."""
    items = _items("tuple", s)
    if isinstance(s, (frozenset, set)):
        items.sort()
    return tuple(items)


def _sorted(s: Any) -> tuple:
    """The elements of a finite collection in increasing order, as a tuple."""
    return tuple(sorted(_items("sorted", s)))


def _abs(x: Any) -> Any:
    """The absolute value."""
    return abs(x)


def gcd(a: Any, b: Any) -> int:
    """The greatest common divisor of two integers (gcd(0, 0) = 0).

    >>> gcd(12, 18)
    6
    """
    return math.gcd(int_arg("gcd", a), int_arg("gcd", b))


# ----------------------------------------------------------------------------- Fibonacci numeration

#: the largest index fibonacci(i) computes (F_i has about 0.7 i bits)
MAX_FIB_INDEX = 100_000


def floor_root_times(n: int, d: int) -> int:
    """floor(n sqrt d) exactly, for an integer n and a natural d that is no perfect square: isqrt(d n^2) for n >= 0,
    and -isqrt(d n^2) - 1 for n < 0 (d n^2 is no square unless n = 0).

    >>> floor_root_times(3, 2), floor_root_times(-3, 2), floor_root_times(0, 5)
    (4, -5, 0)
    """
    root = math.isqrt(d * n * n)
    return root if n >= 0 else -root - 1


def floor_phi(n: Any) -> int:
    """floor(n * phi), phi = (1 + sqrt 5) / 2, exactly (no float): (n + floor(n sqrt 5)) // 2.

    >>> [floor_phi(n) for n in range(7)], floor_phi(-1), floor_phi(-2)
    ([0, 1, 3, 4, 6, 8, 9], -2, -4)
    """
    n = int_arg("floor_phi", n)
    return (n + floor_root_times(n, 5)) // 2


def floor_sqrt2(n: Any) -> int:
    """floor(n * sqrt 2) exactly (no float): the lower Beatty sequence of Fraenkel's a-Wythoff game for a = 2.

    >>> [floor_sqrt2(n) for n in range(6)], floor_sqrt2(-1)
    ([0, 1, 2, 4, 5, 7], -2)
    """
    return floor_root_times(int_arg("floor_sqrt2", n), 2)


def floor_phi2(n: Any) -> int:
    """floor(n * phi^2) = floor(n * phi) + n (phi^2 = phi + 1), exactly.

    >>> [floor_phi2(n) for n in range(6)], floor_phi2(-1)
    ([0, 2, 5, 7, 10, 13], -3)
    """
    n = int_arg("floor_phi2", n)
    return floor_phi(n) + n


def fibonacci(i: Any) -> int:
    """The Fibonacci number F_i: F_0 = 0, F_1 = 1, F_{i+2} = F_{i+1} + F_i, for 0 <= i <= MAX_FIB_INDEX (named in
    full: ``fib`` is a spec's own definition in examples and docs).

    >>> [fibonacci(i) for i in range(10)]
    [0, 1, 1, 2, 3, 5, 8, 13, 21, 34]
    """
    i = int_arg("fibonacci", i)
    if i < 0:
        raise EvalError(f"fibonacci needs an index >= 0, got {i}")
    if i > MAX_FIB_INDEX:
        raise ResourceError(f"fibonacci({i}) exceeds the largest index {MAX_FIB_INDEX:,}")
    a, b = 0, 1
    for _ in range(i):
        a, b = b, a + b
    return a


def zeckendorf_digits(n: Any) -> tuple[int, ...]:
    """The digits of n >= 0 in Zeckendorf's representation, most significant first: n as a sum of non-consecutive
    Fibonacci numbers F_2 = 1, F_3 = 2, F_4 = 3, 5, 8, ... (digit j from the right is the coefficient of F_{j+2});
    () for 0.

    >>> zeckendorf_digits(0), zeckendorf_digits(4), zeckendorf_digits(12)
    ((), (1, 0, 1), (1, 0, 1, 0, 1))
    """
    n = int_arg("zeckendorf", n)
    if n < 0:
        raise EvalError(f"Zeckendorf's representation needs n >= 0, got {n}")
    places = [1, 2]
    while places[-1] <= n:
        places.append(places[-1] + places[-2])
    digits = []
    for p in reversed(places):
        if p <= n:
            digits.append(1)
            n -= p
        elif digits:
            digits.append(0)
    return tuple(digits)


def zeck_tz(n: Any) -> int:
    """The number of trailing zeros of n's Zeckendorf representation (n >= 1): the least j with F_{j+2} in it;
    ill-defined (infinite) for n = 0, as v2(0) is.

    >>> [zeck_tz(n) for n in range(1, 9)]
    [0, 1, 2, 0, 3, 0, 1, 4]
    """
    n = int_arg("zeck_tz", n)
    if n == 0:
        raise EvalError("zeck_tz(0) is infinite (undefined)")
    digits = zeckendorf_digits(n)
    return len(digits) - 1 - max(j for j, d in enumerate(digits) if d)


def zeck_shift(n: Any) -> int:
    """The number whose Zeckendorf representation is n's followed by a 0 (each F_{j+2} in n becomes F_{j+3}), n >= 0.

    >>> [zeck_shift(n) for n in range(6)]
    [0, 2, 3, 5, 7, 8]
    """
    digits = zeckendorf_digits(n) + (0,)
    value, places = 0, [1, 2]
    while len(places) < len(digits):
        places.append(places[-1] + places[-2])
    for d, p in zip(reversed(digits), places):
        value += d * p
    return value


# ----------------------------------------------------------------------------- OEIS layouts of tables

def _triangle(i: Any) -> tuple[int, int]:
    i = int_arg("a triangle index", i)
    if i < 0:
        raise EvalError(f"a linear index of a table is >= 0, got {i}")
    n = (math.isqrt(8 * i + 1) - 1) // 2
    return n, i - n * (n + 1) // 2


def tri_row(i: Any) -> int:
    """The row n of entry i (i >= 0) of a triangle T(n, k), 0 <= k <= n, read by rows as in the OEIS:
    T(0, 0), T(1, 0), T(1, 1), T(2, 0), ...; entry i is T(n, k) with i = n (n + 1) / 2 + k.

    >>> [tri_row(i) for i in range(7)]
    [0, 1, 1, 2, 2, 2, 3]
    """
    return _triangle(i)[0]


def tri_col(i: Any) -> int:
    """The column k of entry i (i >= 0) of a triangle read by rows (see tri_row).

    >>> [tri_col(i) for i in range(7)]
    [0, 0, 1, 0, 1, 2, 0]
    """
    return _triangle(i)[1]


def antidiagonal(i: Any) -> tuple[int, int]:
    """The cell (n, k) of entry i (i >= 0) of a square array A(n, k), n, k >= 0, read by antidiagonals
    downwards as in the OEIS: A(0, 0), A(0, 1), A(1, 0), A(0, 2), A(1, 1), A(2, 0), ...
    (on antidiagonal d = n + k, n runs from 0 to d).

    >>> [antidiagonal(i) for i in range(6)]
    [(0, 0), (0, 1), (1, 0), (0, 2), (1, 1), (2, 0)]
    """
    d, j = _triangle(i)
    return j, d - j


# ----------------------------------------------------------------------------- finite families

class FiniteFunction:
    """A function {1..K} -> integers given by its table; called outside {1..K} it is ill-defined.

    >>> f = FiniteFunction((1, 1, 2)); f(3)
    2
    """

    __slots__ = ("table",)

    def __init__(self, table: tuple[int, ...]):
        self.table = tuple(table)

    def __call__(self, i: Any) -> int:
        i = int_arg("a finite function", i)
        if not 1 <= i <= len(self.table):
            raise EvalError(f"f({i}) is outside the domain 1..{len(self.table)} of f = {self}")
        return self.table[i - 1]

    def __hash__(self) -> int:
        return hash(("FiniteFunction", self.table))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FiniteFunction) and other.table == self.table

    def __lt__(self, other: "FiniteFunction") -> bool:
        return self.table < other.table

    def __repr__(self) -> str:
        return "f[" + ",".join(map(str, self.table)) + "]"


def _family_size_check(name: str, size: int | None, K: int = 0) -> None:
    """Refuse a family of more than MAX_FAMILY members (None: a size too large to compute, such as
    functions(2 ** 64, 1, 2), refused without computing it), or of tables of more than MAX_FAMILY entries (K), or
    of more than 16 * MAX_FAMILY entries in all."""
    if K > MAX_FAMILY:
        raise ResourceError(f"{name}: tables of {K:,} entries (limit {MAX_FAMILY:,})")
    if size is None:
        raise ResourceError(f"{name} has more than 2^64 members (limit {MAX_FAMILY:,})")
    if size > MAX_FAMILY:
        raise ResourceError(f"{name} has {size:,} members (limit {MAX_FAMILY:,})")
    if size * K > 16 * MAX_FAMILY:
        raise ResourceError(f"{name} has {size:,} tables of {K:,} entries (limit {16 * MAX_FAMILY:,} entries)")


def _power_size(base: int, K: int) -> int | None:
    """base ** K, or None when it exceeds 2^64 (computed only when it does not).

    >>> _power_size(3, 4), _power_size(2, 2 ** 64), _power_size(1, 2 ** 64)
    (81, None, 1)
    """
    if base > 1 and K * (base.bit_length() - 1) >= 64:
        return None
    return base ** K


def _choose_size(n: int, k: int) -> int | None:
    """comb(n, k), or None when both k and n - k exceed 64 (then it exceeds 2^64; the exact value would cost
    time growing with them).

    >>> _choose_size(2 ** 64 + 2, 2 ** 64), _choose_size(2 ** 65, 2 ** 64) is None
    (170141183460469231759357419826448433153, True)
    """
    if min(k, n - k) > 64:
        return None
    return math.comb(n, k)


#: families built lately, by kind and arguments (a claim over ``f in nondecreasing(K, 1, V)`` asks for the same family
#: at instance after instance: the window's rows, the audit's probes); only families of at most CACHED_FAMILY members
#: are kept, at most CACHED_FAMILIES of them (members are immutable, so sharing them changes no value)
_FAMILIES: dict[tuple, tuple] = {}
CACHED_FAMILY, CACHED_FAMILIES = 20_000, 16


def _family(key: tuple, size: int, build: Any) -> tuple:
    """The family `key` (`size` members), built by `build()` unless it was built lately.

    >>> _family(("demo", 1), 2, lambda: (1, 2)) is _family(("demo", 1), 2, lambda: (3, 4))
    True
    """
    got = _FAMILIES.get(key)
    if got is None:
        got = tuple(build())
        if size <= CACHED_FAMILY:
            if len(_FAMILIES) >= CACHED_FAMILIES:
                del _FAMILIES[next(iter(_FAMILIES))]
            _FAMILIES[key] = got
    return got


def functions(K: Any, lo: Any, hi: Any) -> tuple:
    """Every function {1..K} -> {lo..hi}, as callable tables, in lexicographic order of their tables.

    >>> len(functions(2, 1, 3))
    9
    """
    K, lo, hi = (int_arg("functions", v) for v in (K, lo, hi))
    if K < 0 or hi < lo:
        return ()
    size = _power_size(hi - lo + 1, K)
    _family_size_check(f"functions({K}, {lo}, {hi})", size, K)
    assert size is not None
    return _family(("functions", K, lo, hi), size,
                   lambda: (FiniteFunction(t) for t in itertools.product(range(lo, hi + 1), repeat=K)))


def nondecreasing(K: Any, lo: Any, hi: Any) -> tuple:
    """Every nondecreasing function {1..K} -> {lo..hi} (f(1) <= f(2) <= ... <= f(K)).

    >>> nondecreasing(2, 1, 2)
    (f[1,1], f[1,2], f[2,2])
    """
    K, lo, hi = (int_arg("nondecreasing", v) for v in (K, lo, hi))
    if K < 0 or hi < lo:
        return ()
    size = _choose_size(hi - lo + K, K)
    _family_size_check(f"nondecreasing({K}, {lo}, {hi})", size, K)
    assert size is not None
    return _family(("nondecreasing", K, lo, hi), size,
                   lambda: (FiniteFunction(t) for t in itertools.combinations_with_replacement(range(lo, hi + 1), K)))


def subsets(lo: Any, hi: Any) -> tuple:
    """Every subset of {lo..hi} as a frozenset, smallest first (by size, then lexicographic).

    >>> subsets(1, 2)
    (frozenset(), frozenset({1}), frozenset({2}), frozenset({1, 2}))
    """
    lo, hi = int_arg("subsets", lo), int_arg("subsets", hi)
    items = list(range(lo, hi + 1))
    _family_size_check(f"subsets({lo}, {hi})", 2 ** len(items))
    return _family(("subsets", lo, hi), 2 ** len(items),
                   lambda: (frozenset(c) for r in range(len(items) + 1) for c in itertools.combinations(items, r)))


#: the scalar forms of the built-ins this module holds, by name: the registry (:mod:`nimjos.lang.registry`) declares
#: which they are
BUILTINS: dict[str, Any] = {name: globals()[b.scalar_name] for name, b in builtins_of(LANG).items()}


def iter_items(v: Any) -> Iterable:
    """The elements of a finite collection of the language (used by binders)."""
    return _items("a binder", v)

