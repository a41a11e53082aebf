"""Take-and-break rules as data: what one move does to ONE heap, in the code notation of Winning Ways.

A code ``d0.d1d2d3...`` gives, for each number k of tokens taken, a digit d_k whose bit 2**j says that the
rest of the heap may be left as exactly j non-empty heaps (bit 1: none, the whole heap is taken; bit 2: one
heap; bit 4: two heaps; bit 8: three heaps, the hexadecimal games). ``d0`` takes nothing and may only split
(4 or 8). A rule may also give one digit for every k beyond the written ones (``tail``: Nim is 0.333...), and
may ask the parts of a split into two to be unequal (Grundy's game).

>>> kayles = octal_rules("0.77"); kayles.digits, kayles.max_take, kayles.max_parts
((0, 7, 7), 2, 2)
>>> sorted(kayles.moves(4))
[(1, 1), (1, 2), (2,), (3,)]
>>> plain_sequence(kayles, 12)
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
>>> plain_sequence(GRUNDYS_GAME, 10)
[0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from nimjos.lang.errors import EvalError
from nimjos.lang.lazy import import_on_use

#: the largest number of heaps a rule may leave (bit 2**3 of a hexadecimal digit)
MAX_PARTS = 3


@dataclass(frozen=True)
class HeapRules:
    """What a move does to one heap: take k tokens (k = 0 only to split) and leave j non-empty heaps, allowed
    when bit 2**j of the digit of k is set; ``tail`` is the digit of every k >= len(digits) (0: none);
    ``unequal`` asks the two parts of a split into two to differ (Grundy's game)."""

    digits: tuple[int, ...]
    tail: int = 0
    unequal: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        if not self.digits:
            raise EvalError("a heap rule needs at least the digit d0")
        for d in self.digits + (self.tail,):
            if type(d) is not int or not 0 <= d < 2 ** (MAX_PARTS + 1):
                raise EvalError(f"a code digit is 0..15, got {d!r}")
        if self.digits[0] & 3:
            raise EvalError("d0 (take nothing) may only split the heap: 0, 4, 8 or 12")

    def digit(self, k: int) -> int:
        """The digit of taking k tokens."""
        return self.digits[k] if k < len(self.digits) else self.tail

    @property
    def max_take(self) -> int | None:
        """The most tokens one move takes (t of the Guy-Smith theorem); None when unbounded (a tail digit)."""
        if self.tail:
            return None
        return max((k for k, d in enumerate(self.digits) if d), default=0)

    @property
    def max_parts(self) -> int:
        """The most heaps one move may leave."""
        bits = 0
        for d in self.digits + (self.tail,):
            bits |= d
        return max((j for j in range(MAX_PARTS + 1) if bits >> j & 1), default=0)

    def moves(self, n: int) -> Iterator[tuple[int, ...]]:
        """The heaps one move may leave from a heap of n tokens (sorted tuples; repeats possible)."""
        for k in range(0, n + 1):
            d = self.digit(k)
            if not d:
                if self.tail == 0 and k >= len(self.digits):
                    return
                continue
            r = n - k
            if d & 1 and r == 0:
                yield ()
            if d & 2 and r >= 1:
                yield (r,)
            if d & 4:
                for a in range(1, r // 2 + 1):
                    if not (self.unequal and 2 * a == r):
                        yield (a, r - a)
            if d & 8:
                for a in range(1, r // 3 + 1):
                    for b in range(a, (r - a) // 2 + 1):
                        yield (a, b, r - a - b)

    def code(self) -> str:
        """The code as written (a hexadecimal digit as 0-9a-f; a tail digit as '...d').

        >>> octal_rules("4.07").code(), LASKERS_NIM.code()
        ('4.07', '4.3...')
        """
        ds = "".join(format(d, "x") for d in self.digits[1:])
        return f"{self.digits[0]:x}.{ds}" + (f"{self.tail:x}..." if self.tail else "")


def octal_rules(code: str) -> HeapRules:
    """The rules of an octal (digits 0-7) or hexadecimal (digits 0-9, a-f) code such as '0.77', '.07' or
    '4.07'; trailing zeros are dropped.

    >>> octal_rules(".137").digits, octal_rules("0.f").max_parts
    ((0, 1, 3, 7), 3)
    >>> octal_rules("0.7z")
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.EvalError: octal code '0.7z': 'z' is not a digit (0-9, a-f)
    """
    if not isinstance(code, str):
        raise EvalError(f"an octal code is a string such as \"0.77\", got {code!r}")
    text = code.strip().lower()
    head, dot, rest = text.partition(".")
    if not dot or len(head) > 1:
        raise EvalError(f"octal code {code!r}: write d0.d1d2... (one digit before the point, e.g. '0.77')")
    digits = []
    for ch in (head or "0") + rest:
        if ch not in "0123456789abcdef":
            raise EvalError(f"octal code {code!r}: {ch!r} is not a digit (0-9, a-f)")
        digits.append(int(ch, 16))
    while len(digits) > 1 and digits[-1] == 0:
        digits.pop()
    return HeapRules(tuple(digits), name=f"octal({code!r})".replace("'", '"'))


#: Grundy's game: split a heap into two unequal non-empty heaps
GRUNDYS_GAME = HeapRules((4,), unequal=True, name="grundys_game")
#: Lasker's Nim: take any number of tokens from a heap, or split a heap into two non-empty heaps
LASKERS_NIM = HeapRules((4,), tail=3, name="laskers_nim")
#: Nim on any number of heaps: 0.333...
NIM = HeapRules((0,), tail=3, name="nim")


def plain_moves(rules: HeapRules, n: int) -> int:
    """How many moves :func:`plain_sequence` lists to compute g(0), ..., g(n): a count of its work, the same on
    every machine (a three-way split costs about n^3 / 36 moves in all), exact for every rule.

    >>> plain_moves(octal_rules("0.77"), 12) == sum(len(list(octal_rules("0.77").moves(m))) for m in range(13))
    True
    >>> f = octal_rules("0.f"); [plain_moves(f, n) == sum(len(list(f.moves(m))) for m in range(n + 1)) for n in (0, 9, 40)]
    [True, True, True]
    >>> plain_moves(f, 30_000) > 10 ** 11
    True
    """
    if n < 0:
        return 0
    np = import_on_use("numpy")   # when the moves are counted, not to read a spec
    r = np.arange(n + 1, dtype=np.int64)   # the tokens left after taking: per digit, the moves it gives

    def per_digit(d: int) -> Any:   # an int64 array
        c = np.zeros(n + 1, dtype=np.int64)
        if d & 1:
            c[0] += 1
        if d & 2:
            c[1:] += 1
        if d & 4:
            c += np.maximum((r - 1) // 2, 0) if rules.unequal else r // 2
        if d & 8:
            c += (r * r + 6) // 12   # the partitions of r into three positive parts: round(r^2 / 12)
        return c

    per_heap = np.zeros(n + 1, dtype=np.int64)
    for k, d in enumerate(rules.digits):
        if d and k <= n:
            per_heap[k:] += per_digit(d)[:n + 1 - k]
    if rules.tail:
        k0 = len(rules.digits)
        if k0 <= n:   # every k >= k0: heap m gets the sum of the tail digit's counts at r = 0..m - k0
            per_heap[k0:] += np.cumsum(per_digit(rules.tail))[:n + 1 - k0]
    return int(per_heap.sum())


def plain_sequence(rules: HeapRules, n: int) -> list[int]:
    """g(0), ..., g(n) by the plain mex over every move (the reference computation, O(n^2) and more).

    >>> plain_sequence(LASKERS_NIM, 8)
    [0, 1, 2, 4, 3, 5, 6, 8, 7]
    """
    g: list[int] = []
    for m in range(n + 1):
        seen = set()
        for parts in rules.moves(m):
            v = 0
            for p in parts:
                v ^= g[p]
            seen.add(v)
        v = 0
        while v in seen:
            v += 1
        g.append(v)
    return g
