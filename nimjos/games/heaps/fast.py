"""Compiled (numba, ``cache=True``) Grundy sequences of heap games: the plain mex and the rare-value method; a
small table by numpy while numba does not run.

Codes with a digit for every k (Lasker's Nim) go to the scalar plain kernel (:func:`_plain_kernel`: every move,
then the mex). Finite codes whose moves leave at most two heaps go to :func:`_kernel`, one of two ways:

* the plain mex: the values of the options that leave no heap or one heap, and of the first FIRST_SPLITS splits of
  each move size, are marked; then the least value not seen is looked for alone among every split, a count that
  compiles to vector instructions (32 splits a step on one-byte values), and the next, until one is missing:
  present values are met soon, the mex costs one vectorised pass over the splits.
* the rare-value method (Winning Ways, "Sparse space spells speed"; Flammenkamp's tables of octal games) fixes a
  mask m and calls a value v *common* when v & m has an odd number of 1 bits, *rare* otherwise. The nim-sum of
  two values is common exactly when one is rare and the other common, so the common values among the options of
  a split come only from splits with a rare part: when few heaps have rare values, they are found in O(#rare)
  steps. The mex is then the least common value c not found, unless some rare value below c is missing too; the
  rare values come from the many splits of two common parts and are looked for by a scan (:func:`_scan`) that
  stops as soon as every rare value below c is seen (the whole scan runs only when one is missing: then the
  heap's value is rare). The scan reads every move size at once: first the FIRST_SPLITS smallest splits of each
  (a part that small has a value of its own, and they show what the repeating middle of the table gives), then
  rounds over STREAMS interleaved runs of each size in turn, marking every split's value while more than FEW
  values are missing, then looking for the last few one at a time (vectorised). The answer is exact whatever
  the mask; the mask decides the speed only, and is chosen on a prefix computed by the plain mex. Where more
  than one heap in GIVE_WAY is rare (Dawson's Kayles: a third), the method gives way to the plain mex.

Both ways read the values from a copy in the narrowest integer type that holds them (one byte each while every
value is below 256: the copy of a million heaps stays in the cache) and from a reversed copy, so that both parts
of the splits a + (r - a), a = lo, lo + 1, ..., are read forwards. `stats` counts the splits marked and the (value,
split) comparisons (per block, not per split: the counter costs nothing in the loops).

A small table in a process where numba does not run yet is not worth numba's start-up (about 0.55 s of CPU, the
import and the first cached kernel's load, whatever the kernel): a finite code's table is then the plain mex in
numpy (:func:`_numpy_mex`, every option's value marked, a vector operation per move size and heap) while numpy's
work in the process stays within NUMPY_WORK, and the periodic tail and the window's periodicity are looked for by
numpy too (:func:`periodic_tail`, :func:`detect_table`); the same values, the same answers.

>>> from nimjos.games.heaps.rules import GRUNDYS_GAME, plain_sequence
>>> sequence(GRUNDYS_GAME, 300).tolist() == plain_sequence(GRUNDYS_GAME, 300)
True
>>> sequence(GRUNDYS_GAME, 300, method="plain").tolist()[:10]
[0, 0, 0, 1, 0, 2, 1, 0, 2, 1]
"""
from __future__ import annotations

import numpy as np

from nimjos.games.heaps.rules import HeapRules
from nimjos.games.periodicity import Periodicity, detect
from nimjos.lang.errors import EvalError
from nimjos.lang.lazy import compiled_on_use, numba_running

#: splits scanned in each run between two looks at the values still missing (rare-value method)
BLOCK = 16
#: the interleaved runs of that scan
STREAMS = 32
#: when at most this many values are still missing, the scan counts the splits that give each of them (a loop
#: that compiles to vector instructions) instead of marking the value of every split
FEW = 2
#: the splits of each run between two looks in that second phase
FEW_BLOCK = 128
#: the prefix on which the mask of the rare-value method is chosen
MASK_PREFIX = 2000
#: the masks tried: low | every bit above those of the prefix's values, low < 2 ** MASK_BITS (the masks of Winning
#: Ways are infinite bitstrings such as 0111...: the bits the prefix does not show are all set)
MASK_BITS = 8
#: the rare-value method gives way to the plain mex once more than one heap in GIVE_WAY is rare (its splits with
#: a rare part, read one at a time, then cost more than a vectorised pass over every split: Dawson's Kayles)
GIVE_WAY = 4
#: the splits of each move size marked at once, a = 1, 2, ..., before the values still missing are looked for
FIRST_SPLITS = 32
#: the splits of each move size the plain mex reads between two looks at the value it looks for
PLAIN_BLOCK = 2048
ALL_BITS = (1 << 62) - 1
#: tables shorter than this are searched for a period by nimjos.games.periodicity.detect (numpy, no kernel to load)
COMPILED_DETECT = 100_000
#: while numba is not running in the process (nimjos.lang.lazy.numba_running), a finite code's g[start..n] is
#: computed by numpy (:func:`_numpy_mex`) as long as the cost of numpy's tables in the process, counted in splits
#: read (:func:`numpy_work`), stays at most this: about 0.16 s of CPU in all, where numba's start-up costs 0.55 s.
#: Measured on the project's machine: numpy marks a split's value in about 3 ns and spends about 6 us of calls
#: per heap; Dawson's Kayles and Kayles to 4,096 (the first round of nimjos.games.heaps.grow) take 0.03 and 0.05 s
NUMPY_WORK = 60_000_000
#: a heap costs numpy's mex as many calls as reading this many splits costs (6 us / 3 ns)
NUMPY_SPLITS_PER_HEAP = 2_000
#: the work of numpy's tables so far in this process: a cost account, which no value depends on (past NUMPY_WORK
#: the compiled kernels take over, so that many small tables never cost more than numba's start-up)
_numpy_done = 0
#: while numba is not running, a table of at most this many values is searched for its periodic tail by numpy
#: (:func:`periodic_tail`: one comparison of the table's last two thirds per period tried, a few ms at 4,096)
NUMPY_TAIL = 1 << 15
#: ... and a long table's period (:func:`detect_table`) is first looked for by numpy among the periods up to
#: this: its answer is detect's whenever the best periodicity found ends (preperiod + period) within that bound
NUMPY_PERIODS = 4096
#: ... when the table has at most this many values: numpy walks the whole table once for the period and once for
#: each multiple of it below preperiod + period, about 0.5 s of CPU for Kayles to 2 * 10^7 (period 12 from 71:
#: six walks), as much as numba's start-up; on a longer table the compiled search costs less
NUMPY_DETECT_VALUES = 1 << 25


@compiled_on_use(cache=True)
def _parity(v: int) -> int:  # pragma: no cover - compiled
    p = 0
    while v:
        p ^= 1
        v &= v - 1
    return p


@compiled_on_use(cache=True)
def _plain_kernel(digits, tail, unequal, g, start, stop):  # pragma: no cover - compiled
    """g[start..stop] by the plain mex, g[:start] given. The marks cover the values 0..top, top the least power
    of two above every value so far (those given included): a value, and the nim-sum of two, is below top, so
    a mex is at most top; top doubles (new marks) when a value reaches it."""
    top = 64
    for i in range(start):
        while g[i] >= top:
            top *= 2
    seen = np.full(top + 1, -1, np.int64)
    L = digits.shape[0]
    for m in range(start, stop + 1):
        for k in range(m + 1):
            d = digits[k] if k < L else tail
            if d == 0:
                if tail == 0 and k >= L:
                    break
                continue
            r = m - k
            if d & 1 and r == 0:
                seen[0] = m
            if d & 2 and r >= 1:
                seen[g[r]] = m
            if d & 4:
                for a in range(1, ((r - 1) // 2 if unequal else r // 2) + 1):
                    seen[g[a] ^ g[r - a]] = m
        v = 0
        while seen[v] == m:
            v += 1
        g[m] = v
        if v >= top:
            top *= 2
            seen = np.full(top + 1, -1, np.int64)


@compiled_on_use(cache=True)
def _matches(x, y, v):  # pragma: no cover - compiled
    """Does some t have x[t] ^ y[t] == v (both read forwards, v of their type)? The flag is kept one byte wide
    (a wider one, as numba's integer promotion makes it, keeps LLVM from packing 32 splits per instruction)."""
    hit = np.uint8(0)
    for t in range(x.shape[0]):
        hit = np.uint8(hit | np.uint8((x[t] ^ y[t]) == v))
    return hit


@compiled_on_use(cache=True)
def _scan(h, back, seen, wanted, need, m, rs, halves, streams, few_block, stats):  # pragma: no cover - compiled
    """Look for the values wanted[:need] (none seen yet at heap m) among the splits of every move size at once:
    the splits a + (r - a), 1 <= a <= halves[q], of r = rs[q]. Each round takes the next few splits of `streams`
    interleaved runs of every move size in turn, so a value that only one move size gives is met as soon as
    that size's splits meet it (not after every split of the sizes before it). While more than FEW values are
    missing a round marks the value of every split it reads (BLOCK in each run); then it looks (few_block in each
    run), for each missing value, the
    splits that give it (a loop over the values and their reversed copy `back` that compiles to vector
    instructions). Returns how many are still missing (those are wanted[:need]); stats[0] grows by the splits
    marked, stats[1] by the (value, split) comparisons of the counts."""
    N = h.shape[0]
    nk = rs.shape[0]
    width = np.zeros(nk, np.int64)
    most = 0
    for q in range(nk):
        width[q] = (halves[q] + streams - 1) // streams
        most = max(most, width[q])
    one = np.empty(1, h.dtype)  # the value looked for, in the type of the values (narrow compares)
    i = 0
    while i < most and need:
        marking = need > FEW
        top_i = i + (BLOCK if marking else few_block)
        for q in range(nk):
            w = width[q]
            if i >= w:
                continue
            r = rs[q]
            half = halves[q]
            ti = min(w, top_i)
            off = N - 1 - r
            for j in range(streams):
                lo = 1 + j * w + i
                hi = min(1 + j * w + ti, half + 1)
                if hi <= lo:
                    break  # the runs after this one start later still
                if marking:
                    for a in range(lo, hi):
                        seen[h[a] ^ h[r - a]] = m
                    stats[0] += hi - lo
                else:
                    for t in range(need):
                        v = wanted[t]
                        if seen[v] != m:
                            stats[1] += hi - lo
                            one[0] = v
                            if _matches(h[lo:hi], back[off + lo:off + hi], one[0]):
                                seen[v] = m
        i = top_i
        need = _drop_seen(seen, wanted, need, m)
    return need


@compiled_on_use(cache=True)
def _drop_seen(seen, wanted, need, m):  # pragma: no cover - compiled
    """Keep in wanted[:need] the values not seen at heap m (in any order); returns how many."""
    t = 0
    while t < need:
        if seen[wanted[t]] == m:
            need -= 1
            wanted[t] = wanted[need]
        else:
            t += 1
    return need


@compiled_on_use(cache=True)
def _mark_first(h, seen, m, rs, halves, stats):  # pragma: no cover - compiled
    """Mark at heap m the values of the first FIRST_SPLITS splits a + (r - a), a = 1, 2, ..., of every r in rs."""
    for q in range(rs.shape[0]):
        r = rs[q]
        hi = min(halves[q], FIRST_SPLITS)
        for a in range(1, hi + 1):
            seen[h[a] ^ h[r - a]] = m
        stats[0] += hi


@compiled_on_use(cache=True)
def _kernel(digits, unequal, g, h, back, start, stop, limit, rare_mode, give_way, mask, shift,
            kpar, stats):  # pragma: no cover - compiled
    """g[start..stop] of a finite code whose moves leave at most two heaps, g[:start] given; h is a copy of g in
    the narrowest integer type that holds every value below `limit` (a power of two), back the same reversed
    (back[N - 1 - x] = g(x), N = len(h)): the loops read both forwards. rare_mode 0 is the plain mex: the
    least value not seen, looked for alone among every split (found soon when present; the mex, absent, costs
    one vectorised pass); rare_mode 1 the rare-value method. A heap x is rare when
    parity(g(x) & mask) == shift * (x & 1); every split takes k = kpar (mod 2) tokens when shift is 1.
    Returns (next index, why): why 0 when done (next = stop + 1), 1 when a value at next reached `limit` (not
    stored: the caller widens h; next = start when a value given is not below it), 2 when more than one heap
    in `give_way` is rare (give_way > 0) at next: the rare-value method saves nothing there, the caller goes
    on with the plain mex."""
    seen = np.full(limit + 1, -1, np.int64)
    L = digits.shape[0]
    nsplit = 0
    for k in range(L):
        if digits[k] & 4:
            nsplit += 1
    ks = np.empty(nsplit, np.int64)
    nsplit = 0
    for k in range(L):
        if digits[k] & 4:
            ks[nsplit] = k
            nsplit += 1
    rs = np.empty(nsplit, np.int64)
    halves = np.empty(nsplit, np.int64)
    cap = stop + 1 if rare_mode else 1
    rare = np.empty(cap, np.int64)
    rval = np.empty(cap, h.dtype)
    wanted = np.empty(limit + 1, np.int64)
    par = np.empty(limit + 1, np.int64)  # parity(v & mask) of every value
    for v in range(limit + 1):
        par[v] = _parity(v & mask)
    N = h.shape[0]
    for i in range(start):
        if g[i] >= limit:
            return start, 1  # a value given is not below limit: the caller widens h first
    nr = 0
    if rare_mode:
        for i in range(1, start):
            if par[g[i]] == shift * (i & 1):
                rare[nr] = i
                rval[nr] = h[i]
                nr += 1
    for m in range(start, stop + 1):
        if give_way and nr * give_way > m:
            return m, 2
        top = min(L - 1, m)
        for k in range(top + 1):
            d = digits[k]
            r = m - k
            if d & 1 and r == 0:
                seen[0] = m
            if d & 2 and r >= 1:
                seen[h[r]] = m
        nq = 0
        for q in range(nsplit):
            r = m - ks[q]
            half = (r - 1) // 2 if unequal else r // 2
            if half >= 1:
                rs[nq] = r
                halves[nq] = half
                nq += 1
        if rare_mode:
            for q in range(nq):
                r = rs[q]
                # the rare parts a < r but a = r / 2 when the parts must differ (two loops without a test inside)
                jr = nr
                while jr > 0 and rare[jr - 1] >= r:
                    jr -= 1
                je = jr
                if unequal and r % 2 == 0 and par[h[r // 2]] == shift * ((r // 2) & 1):
                    je = np.searchsorted(rare[:jr], r // 2)
                for j in range(je):
                    seen[rval[j] ^ h[r - rare[j]]] = m
                for j in range(je + 1, jr):
                    seen[rval[j] ^ h[r - rare[j]]] = m
            cheap = 1 ^ (shift * ((m - kpar) & 1))  # the values only splits with one rare part give
            c = 0
            while c < limit and (seen[c] == m or par[c] != cheap):
                c += 1
            need = 0
            for v in range(c):
                if seen[v] != m:
                    wanted[need] = v
                    need += 1
            # the missing values below c are rare: splits of two common parts give them; the first few of each move
            # size first, one after the other (a part that small has a value of its own; far from the ends, the
            # values of both parts repeat, and a few splits show what their sums give), then the interleaved runs
            if need:
                _mark_first(h, seen, m, rs[:nq], halves[:nq], stats)
                need = _drop_seen(seen, wanted, need, m)
            if need:
                need = _scan(h, back, seen, wanted, need, m, rs[:nq], halves[:nq], STREAMS, FEW_BLOCK, stats)
            v = c
            for t in range(need):
                v = min(v, wanted[t])
        else:
            # the first few splits of each move size give most small values at once
            _mark_first(h, seen, m, rs[:nq], halves[:nq], stats)
            v = 0
            while True:
                while seen[v] == m:
                    v += 1
                if v >= limit:
                    break
                wanted[0] = v
                if _scan(h, back, seen, wanted, 1, m, rs[:nq], halves[:nq], 1, PLAIN_BLOCK, stats):
                    break
        if v >= limit:
            return m, 1
        g[m] = v
        h[m] = v
        back[N - 1 - m] = v
        if rare_mode and m >= 1 and par[v] == shift * (m & 1):
            rare[nr] = m
            rval[nr] = v
            nr += 1
    return stop + 1, 0


def narrowest(limit: int) -> type:
    """The narrowest integer type of the rare-value method's copy of the values, all below `limit` (a
    power of two): the loops read 1 or 2 bytes per value instead of 8, and the copy stays in the cache.

    >>> narrowest(256).__name__, narrowest(512).__name__, narrowest(1 << 20).__name__
    ('uint8', 'uint16', 'int64')
    """
    if limit <= 1 << 8:
        return np.uint8
    if limit <= 1 << 16:
        return np.uint16
    return np.int64


def rare_applies(rules: HeapRules) -> bool:
    """Does the rare-value method apply: a finite code whose moves leave at most two heaps, some splitting?

    >>> from nimjos.games.heaps.rules import GRUNDYS_GAME, LASKERS_NIM
    >>> rare_applies(GRUNDYS_GAME), rare_applies(LASKERS_NIM)
    (True, False)
    """
    return rules.tail == 0 and rules.max_parts <= 2 and any(d & 4 for d in rules.digits)


def split_parity(rules: HeapRules) -> int | None:
    """The parity of k shared by every split (take k, leave two heaps), or None when splits differ in it.

    >>> split_parity(HeapRules((0, 4, 0, 4))), split_parity(HeapRules((4, 4)))
    (1, None)
    """
    ks = {k % 2 for k, d in enumerate(rules.digits) if d & 4}
    return ks.pop() if len(ks) == 1 else None


def choose_mask(g: np.ndarray, shifts: tuple[int, ...] = (0, 1)) -> tuple[int, int, int]:
    """(mask, shift, rare heaps) with the fewest rare heaps among g[1:] (a heap x is rare when the parity of
    g(x) & mask is shift * (x & 1)), over the masks low | (every bit from b on), b the bit length of the
    largest value (at most MASK_BITS), low < 2 ** b, and the given shifts.

    >>> mask, shift, rare = choose_mask(np.array([0, 1, 2, 1, 2], dtype=np.int64)); mask & 255, shift, rare
    (254, 1, 0)
    """
    vals = g[1:].astype(np.int64)
    b = min(MASK_BITS, int(vals.max(initial=0)).bit_length())
    high = ALL_BITS & ~((1 << b) - 1)
    odd = np.arange(1, len(g), dtype=np.int64) & 1
    best = (0, 0, len(vals) + 1)
    for low in range(1 << b):
        mask = low | high
        bits = vals & mask
        par = np.zeros(len(vals), dtype=np.int64)
        while bits.any():
            par ^= bits & 1
            bits >>= 1
        for shift in shifts:
            rare = int((par == shift * odd).sum())
            if rare < best[2]:
                best = (mask, shift, rare)
    return best


def sequence(rules: HeapRules, n: int, method: str = "auto", prefix: np.ndarray | None = None,
             stats: np.ndarray | None = None) -> np.ndarray:
    """g(0), ..., g(n) of a heap game (int64), by the rare-value method when it applies (``method="auto"`` or
    ``"rare"``) or the plain mex (``"plain"``); `prefix` holds values already computed (g(0), ...). In
    ``"auto"`` the rare-value method gives way to the plain mex where too many heaps are rare (GIVE_WAY).
    `stats`, an int64 array of two, grows by the splits whose value the kernels marked and by the (value,
    split) comparisons of their vectorised counts (the cost, for the benchmark).

    >>> from nimjos.games.heaps.rules import GRUNDYS_GAME
    >>> g = sequence(GRUNDYS_GAME, 2500)
    >>> bool((sequence(GRUNDYS_GAME, 2500, prefix=g[:2400]) == g).all()), g[2495:].tolist()
    (True, [17, 38, 21, 22, 33, 16])
    >>> cost = np.zeros(2, dtype=np.int64); _ = sequence(GRUNDYS_GAME, 3000, prefix=g, stats=cost); bool(cost.all())
    True
    """
    global _numpy_done
    if rules.max_parts > 2:
        raise EvalError(f"{rules.name or rules.code()}: the compiled kernels leave at most two heaps per move")
    if method not in ("auto", "rare", "plain"):
        raise EvalError(f"the method of a heap sequence is auto, rare or plain, got {method!r}")
    g = np.zeros(n + 1, dtype=np.int64)
    start = 0
    if prefix is not None:
        start = min(len(prefix), n + 1)
        g[:start] = prefix[:start]
    rare = method != "plain" and rare_applies(rules)
    if method == "rare" and not rare:
        raise EvalError(f"the rare-value method does not apply to {rules.name or rules.code()}")
    if rules.tail:
        if start <= n:
            _plain_kernel(np.array(rules.digits, dtype=np.int64), rules.tail, rules.unequal, g, start, n)
        return g
    work = numpy_work(rules, start, n)
    if method != "rare" and stats is None and not numba_running() and _numpy_done + work <= NUMPY_WORK:
        _numpy_mex(rules, g, start, n)   # a small table: the plain mex in numpy costs less than numba's start-up
        _numpy_done += work
        return g
    cost = np.zeros(2, dtype=np.int64) if stats is None else stats
    if rare:
        head = min(n, MASK_PREFIX)
        _compiled(rules, g, start, head, cost)
        start = max(start, head + 1)
        kpar = split_parity(rules)
        mask, shift, _ = choose_mask(g[:head + 1], (0, 1) if kpar is not None else (0,))
        _compiled(rules, g, start, n, cost, (mask, shift, kpar or 0), 0 if method == "rare" else GIVE_WAY)
    else:
        _compiled(rules, g, start, n, cost)
    return g


def numpy_work(rules: HeapRules, start: int, n: int) -> int:
    """The cost of g[start..n] of a finite code by numpy's plain mex (:func:`_numpy_mex`), counted in splits: the
    splits a + (r - a) of every heap and move size, and NUMPY_SPLITS_PER_HEAP for each heap (the calls of numpy
    a heap costs whatever its splits).

    >>> from nimjos.games.heaps.rules import octal_rules
    >>> numpy_work(octal_rules("0.07"), 0, 4096) == sum(max(0, m - 2) // 2 for m in range(4097)) + 4097 * 2000
    True
    >>> numpy_work(octal_rules("0.07"), 10, 9)
    0
    """
    if n < start:
        return 0
    splits = 0
    for k in (k for k, d in enumerate(rules.digits) if d & 4):
        # sum of half(r) over r = start - k .. n - k, half(r) = r // 2 (equal parts allowed) or (r - 1) // 2
        splits += _halves(n - k, rules.unequal) - _halves(start - k - 1, rules.unequal)
    return splits + (n - start + 1) * NUMPY_SPLITS_PER_HEAP


def _halves(r: int, unequal: bool) -> int:
    """The splits of every heap 0..r: the sum of r' // 2 (or (r' - 1) // 2, unequal parts) over 0 <= r' <= r.

    >>> [_halves(r, False) for r in range(-1, 6)], [_halves(r, True) for r in range(-1, 6)]
    ([0, 0, 0, 1, 2, 4, 6], [0, 0, 0, 0, 1, 2, 4])
    """
    if unequal:
        r -= 1
    if r < 0:
        return 0
    return (r // 2) * ((r + 1) // 2)   # r = 2q + 1: 2 (0 + 1 + ... + q) = q (q + 1); r = 2q: that less q


def _numpy_mex(rules: HeapRules, g: np.ndarray, start: int, n: int) -> None:
    """g[start..n] of a finite code whose moves leave at most two heaps by the plain mex in numpy, g[:start] given:
    the values of every option of heap m are stamped m in `seen` (a value v is an option's when seen[v] == m),
    then the least value not stamped is the heap's. The marks cover 0..top, top a power of two above every value
    so far, as in :func:`_plain_kernel`: an option's value, a nim-sum of two values below top, is below top, so the
    mex is at most top (then top doubles). The second part of the splits a + (r - a), a = 1, 2, ..., is read
    forwards from a reversed view of g.

    >>> from nimjos.games.heaps.rules import octal_rules, plain_sequence
    >>> g = np.zeros(40, dtype=np.int64); _numpy_mex(octal_rules("0.07"), g, 0, 39)
    >>> g.tolist() == plain_sequence(octal_rules("0.07"), 39)
    True
    """
    size = len(g)
    back = g[::-1]   # back[size - 1 - x] is g(x): a view, it sees each value as it is stored
    digits = rules.digits
    whole = [k for k, d in enumerate(digits) if d & 1]
    ones = np.array([k for k, d in enumerate(digits) if d & 2], dtype=np.int64)
    splits = [k for k, d in enumerate(digits) if d & 4]
    top = 64
    while top <= int(g[:start].max(initial=0)):
        top *= 2
    seen = np.full(top + 1, -1, dtype=np.int64)
    for m in range(start, n + 1):
        if m in whole:   # take the whole heap
            seen[0] = m
        r = m - ones
        seen[g[r[r >= 1]]] = m   # leave one heap
        for k in splits:   # leave two heaps, a and r - a, 1 <= a <= half
            r0 = m - k
            half = (r0 - 1) // 2 if rules.unequal else r0 // 2
            if half >= 1:
                seen[g[1:half + 1] ^ back[size - r0:size - r0 + half]] = m
        v = int(np.argmin(seen == m))   # seen[top] is never m: the least index not stamped
        g[m] = v
        if v >= top:
            top *= 2
            seen = np.full(top + 1, -1, dtype=np.int64)


def _compiled(rules: HeapRules, g: np.ndarray, start: int, n: int, cost: np.ndarray,
              rare: tuple[int, int, int] | None = None, give_way: int = 0) -> None:
    """g[start..n] by the compiled kernel of a finite code: the rare-value method with (mask, shift, kpar) when
    `rare` is given (until it gives way, see GIVE_WAY), else the plain mex; widens the copy of the values as
    they grow."""
    digits = np.array(rules.digits, dtype=np.int64)
    mask, shift, kpar = rare or (0, 0, 0)
    limit = 256
    while start <= n:
        while limit <= int(g[:start].max(initial=0)):
            limit *= 2
        h: np.ndarray = g[:n + 1].astype(narrowest(limit))
        back = h[::-1].copy()
        start, why = _kernel(digits, rules.unequal, g, h, back, start, n, limit, int(rare is not None), give_way,
                             mask, shift, kpar, cost)
        if why == 1:
            limit *= 2
        elif why == 2:
            rare, give_way = None, 0


@compiled_on_use(cache=True)
def _periodic_tail(g, most_period, most_start):  # pragma: no cover - compiled
    """The least p <= most_period with g(m + p) = g(m) for every m from some n0 <= most_start to the table's end,
    and the least such n0; (0, 0) when there is none. Each p is read from the end back to its first
    disagreement (a step or two for most p)."""
    N = g.shape[0] - 1
    for p in range(1, most_period + 1):
        m = N - p
        while m >= 0 and g[m + p] == g[m]:
            m -= 1
        if m + 1 <= most_start:
            return p, m + 1
    return 0, 0


def periodic_tail(g: np.ndarray) -> tuple[int, int] | None:
    """(p, n0): the least period p, at most a sixth of the table, with g(n + p) = g(n) for every n from n0 to the
    table's end, n0 (the least) in its first third; None when there is none. An observation of the table only:
    a proof needs a theorem (nimjos.games.heaps.periodicity).

    >>> periodic_tail(np.array([5, 1, 0, 2] + [0, 1, 2] * 6))
    (3, 3)
    >>> periodic_tail(np.arange(30)) is None
    True
    """
    size = len(g)
    a = np.ascontiguousarray(g, dtype=np.int64)
    tail = _numpy_tail if size <= NUMPY_TAIL and not numba_running() else _periodic_tail
    p, n0 = tail(a, size // 6, size // 3)
    return (int(p), int(n0)) if p else None


def _numpy_tail(g: np.ndarray, most_period: int, most_start: int) -> tuple[int, int]:
    """:func:`_periodic_tail` by numpy: the least p <= most_period whose g(m + p) = g(m) holds for every m from
    most_start to the end (compared at once), and then the least n0 from which it holds; (0, 0) when none.

    >>> _numpy_tail(np.array([5, 1, 0, 2] + [0, 1, 2] * 6), 3, 7), _numpy_tail(np.arange(30), 5, 10)
    ((3, 3), (0, 0))
    """
    end = len(g)
    for p in range(1, most_period + 1):
        if np.array_equal(g[most_start + p:], g[most_start:end - p]):
            bad = np.flatnonzero(g[p:most_start + p] != g[:most_start])
            return p, int(bad[-1]) + 1 if len(bad) else 0
    return 0, 0


@compiled_on_use(cache=True)
def _detect(a, min_repeats, limit):  # pragma: no cover - compiled
    """(p, n0, s) of :func:`nimjos.games.periodicity.detect` on the int64 array a: for each p (at most `limit`, none
    beyond the best's n0 + p), the saltus s = a(N - 1) - a(N - 1 - p) at the end, and n0 the least index from which
    a(m + p) = a(m) + s to the end (walked back from the end); kept when seen `min_repeats` times and n0 + p is less
    than the best's. (0, 0, 0) when there is none. A multiple of the best period with the saltus it implies holds
    from the best's n0 on: its walk starts there."""
    n = a.shape[0]
    best_p = 0
    best_n0 = 0
    best_s = 0
    for p in range(1, limit + 1):
        if best_p and p > best_n0 + best_p:
            break
        s = a[n - 1] - a[n - 1 - p]
        m = n - p - 1
        if best_p and p % best_p == 0 and s == best_s * (p // best_p):
            m = min(m, best_n0 - 1)   # a(m + p) = a(m) + s for every m >= best_n0 already: walk on from there
        while m >= 0 and a[m + p] - a[m] == s:
            m -= 1
        n0 = m + 1
        if n - n0 >= min_repeats * p and (best_p == 0 or n0 + p < best_n0 + best_p):
            best_p = p
            best_n0 = n0
            best_s = s
    return best_p, best_n0, best_s


def detect_table(g: np.ndarray, min_repeats: int = 3) -> Periodicity | None:
    """:func:`nimjos.games.periodicity.detect` on a table of values (an int64 array, no Python object per value):
    the same answer, compiled for a long table (COMPILED_DETECT values or more), so that a table of 10^7 values
    with no period (Grundy's game) is searched in a few milliseconds, not seconds. While numba is not running, a
    long table is first searched by detect itself up to the period NUMPY_PERIODS, which answers for a table whose
    periodicity ends early (Kayles to 2 * 10^7: period 12 from 71) without numba's start-up.

    >>> detect_table(np.array([5, 9] + [0, 1] * 4))
    Periodicity(period=2, preperiod=2, saltus=0, through=9)
    >>> detect_table(np.arange(200_000) // 2 * 3) == detect(np.arange(200_000) // 2 * 3)
    True
    """
    a = np.ascontiguousarray(g, dtype=np.int64)
    if len(a) < COMPILED_DETECT:
        return detect(a, min_repeats)
    most = len(a) // min_repeats
    if not numba_running() and len(a) <= NUMPY_DETECT_VALUES:
        # detect's search tries p = 1, 2, ... and stops past the best's preperiod + period: when that is at most
        # NUMPY_PERIODS, the search cut there gives its answer (a table a proved period extended)
        cut = min(most, NUMPY_PERIODS)
        found = detect(a, min_repeats, max_period=cut)
        if cut == most or (found is not None and found.preperiod + found.period <= cut):
            return found
    p, n0, s = _detect(a, min_repeats, most)
    return Periodicity(int(p), int(n0), int(s), len(a) - 1) if p else None
