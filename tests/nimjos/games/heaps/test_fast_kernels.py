"""The heap kernels of issue 29: the scan that looks for the missing values across every move size at once, the
plain mex that looks for one value at a time (vectorised), the rare-value method giving way to it, and the table
extended by a period the Guy-Smith theorem proves. Ground truth: the game's moves (rules.moves, and the reference
engine on positions of several heaps); the kernels of 60daf3d (the plain kernel is still here for codes with a
tail digit; the rare-value kernel's tables are kept as checksums). This file also runs in the bounds-checked child
of tests/nimjos/games/test_engine_bounds.py."""
from __future__ import annotations

import hashlib
import itertools

import numpy as np
import pytest

import nimjos.games.heaps.fast as fast
import nimjos.games.heaps.grow as grow
from nimjos.games.engine import ReferenceEngine
from nimjos.games.heaps.fast import (COMPILED_DETECT, MASK_PREFIX, NUMPY_PERIODS, NUMPY_WORK, _detect, _numpy_mex,
                                     _numpy_tail, _periodic_tail, _plain_kernel, detect_table, numpy_work,
                                     periodic_tail, sequence)
from nimjos.games.periodicity import Periodicity
from nimjos.games.heaps.game import HeapGame, HeapPositions
from nimjos.games.heaps.grow import grown_sequence
from nimjos.games.heaps.rules import GRUNDYS_GAME, HeapRules, octal_rules, plain_sequence
from nimjos.lang.errors import EvalError

#: finite codes whose moves leave at most two heaps: one or two splitting digits, splits of a heap left whole (4.),
#: taking the whole heap, unequal parts, values past 255 (the last)
CODES = ["0.77", "0.07", "0.137", "4.07", "0.6", "0.16", "0.37", "0.753", "0.4", "0.04", "0.14", "0.56", "0.74",
         "0.775", "4.4", "0.3", "0.33"]
RULES = ([octal_rules(c) for c in CODES] + [GRUNDYS_GAME, HeapRules((0, 0, 4), unequal=True),
         HeapRules((4, 0, 4), unequal=True), HeapRules((0, 1, 4), unequal=True),
         HeapRules((0, 0, 0, 3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 6, 0, 7, 3, 0, 2, 0, 0, 0, 0, 7))])
IDS = [r.name or r.code() + ("u" if r.unequal else "") for r in RULES]
METHODS = ["plain", "auto", "rare"]


def methods(rules: HeapRules) -> list[str]:
    return METHODS if any(d & 4 for d in rules.digits) else ["plain", "auto"]


@pytest.mark.parametrize("rules", RULES[:6] + [GRUNDYS_GAME], ids=IDS[:6] + ["grundys_game"])
def test_the_sequence_is_the_value_of_positions_of_several_heaps(rules):
    """The reference engine on the game graph of multisets of up to three heaps of size <= 9: the nim-sum of the
    new kernels' values (the Sprague-Grundy theorem, checked from the moves)."""
    graph = HeapPositions(rules)
    engine = ReferenceEngine()
    engine.use_fast = False
    positions = [p for k in range(4) for p in itertools.combinations_with_replacement(range(10), k)]
    engine.solve(graph, positions)
    numpy = np.zeros(10, dtype=np.int64)
    _numpy_mex(rules, numpy, 0, 9)
    for method, g in [(m, sequence(rules, 9, method=m)) for m in methods(rules)] + [("numpy", numpy)]:
        for p in positions:
            assert graph.table[p] == int(np.bitwise_xor.reduce(g[list(p)], initial=0)), (method, p)


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_the_new_kernels_agree_with_the_old_plain_kernel(rules):
    """The plain kernel of 60daf3d (every split marked, then the mex) on the same finite codes, to 6000."""
    old = np.zeros(6001, dtype=np.int64)
    _plain_kernel(np.array(rules.digits, dtype=np.int64), rules.tail, rules.unequal, old, 0, 6000)
    for method in methods(rules):
        assert np.array_equal(sequence(rules, 6000, method=method), old), method


#: sha256 (first 16 hex digits) of the int64 tables of 60daf3d's kernels (`sequence(rules, n)`, the rare-value
#: method where it applies), computed with that commit before the change
OLD_TABLES = [("0.77", 100_000, "f588c559c4b665ca"), ("0.07", 30_000, "160abf305a9a542a"),
              ("grundy", 200_000, "0598dd49832ba0ab"), ("0.137", 30_000, "e5c6e49308a9a998"),
              ("0.16", 30_000, "ad5e294723ff6ec6"), ("4.07", 30_000, "f0c8dd0352e1d51c"),
              ("0.4", 30_000, "0da96dfa6298b5ec")]


@pytest.mark.parametrize("code,n,digest", OLD_TABLES)
def test_the_tables_of_the_old_rare_value_kernel(code, n, digest):
    rules = GRUNDYS_GAME if code == "grundy" else octal_rules(code)
    g = sequence(rules, n)
    assert hashlib.sha256(g.astype(np.int64).tobytes()).hexdigest()[:16] == digest


def test_the_rare_value_method_gives_way_to_the_plain_mex_where_rare_heaps_abound():
    """Dawson's Kayles: a third of the heaps are rare under the best mask; "auto" goes on with the plain mex (it
    looks for each value among the splits, vectorised, instead of reading every rare part one at a time), "rare"
    does not; the same values."""
    rules = octal_rules("0.07")
    head = sequence(rules, 3000, method="plain")
    auto, rare = np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64)
    a = sequence(rules, 6000, prefix=head, stats=auto)
    b = sequence(rules, 6000, prefix=head, method="rare", stats=rare)
    assert np.array_equal(a, b)
    assert auto[1] > rare[1]  # the plain mex compares; the rare-value method marks the splits of rare parts
    with pytest.raises(EvalError):
        sequence(rules, 10, method="fast")


def test_periodic_tail_reads_the_table_only():
    g = np.array([3, 3, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2])
    assert periodic_tail(g) == (3, 2)
    assert periodic_tail(np.zeros(5, dtype=np.int64)) is None  # a period of at most 5 // 6 = 0
    assert periodic_tail(np.array([1] * 8 + [0] * 12)) is None  # from n0 = 8, past the first third (6)


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "4.07", "0.6", "0.16", "0.3", "0.33", "0.753"])
def test_the_extension_by_a_proved_period_is_exact(code, monkeypatch):
    """Rounds from 128 heaps: the table is extended once the Guy-Smith range lies inside it, and the extension
    agrees with the kernels (and with the moves) everywhere; codes with no period in reach are computed."""
    monkeypatch.setattr(grow, "FIRST_ROUND", 128)
    rules = octal_rules(code)
    grown = grown_sequence(rules, 40_000)
    want = sequence(rules, 40_000)
    assert np.array_equal(grown.values, want)
    assert grown.values[:3001].tolist() == plain_sequence(rules, 3000)
    if grown.proof is None:
        assert grown.computed == 40_000
    else:
        p = grown.proof
        assert p.holds and 2 * max(p.preperiod, 1) + 2 * p.period + rules.max_take <= grown.computed + 1
        assert grown.computed < 40_000


def test_kayles_is_extended_once_the_theorem_covers_the_table(monkeypatch):
    """Kayles: period 12 from 71; the theorem's range 71 <= n < 156 and its period after it need 168 values: the
    round of 128 is not enough (and 71 is past its first third), the round of 256 is."""
    monkeypatch.setattr(grow, "FIRST_ROUND", 128)
    grown = grown_sequence(octal_rules("0.77"), 5000)
    assert (grown.computed, grown.proof.period, grown.proof.preperiod) == (256, 12, 71)
    again = grown_sequence(octal_rules("0.77"), 9000, grown.values, grown.computed, grown.proof)
    assert again.computed == 256 and np.array_equal(again.values, sequence(octal_rules("0.77"), 9000))


def test_grundys_game_and_tail_codes_are_never_extended():
    assert grown_sequence(GRUNDYS_GAME, 9000).proof is None
    assert grown_sequence(octal_rules("0.07"), 3000).proof is None  # one round: no look beyond the table


def test_the_heap_engine_says_in_its_scope_that_it_extended_the_table():
    game = HeapGame(octal_rules("0.07"), "dawson")
    game.grundy(100_000)
    said = [s for s in game.solved_by if "period" in s]
    assert len(said) == 1 and "period 34" in said[0] and "Guy-Smith" in said[0] and "computed to 4,096" in said[0]
    assert np.array_equal(game.values(200_000)[:200_001], sequence(octal_rules("0.07"), 200_000))
    grundy = HeapGame(GRUNDYS_GAME, "grundy")
    grundy.grundy(20_000)
    assert not any("period" in s for s in grundy.solved_by)


def test_repeat_continues_the_period_from_any_start():
    rng = np.random.default_rng(29)
    for _ in range(300):
        period = int(rng.integers(1, 20))
        start = int(rng.integers(period, 60))
        n = int(rng.integers(start - 1, 400))
        given = rng.integers(0, 9, start)
        want = [int(x) for x in given[:n + 1]]
        for m in range(start, n + 1):
            want.append(want[m - period])
        assert grow.repeat(given, n, period, start).tolist() == want, (period, start, n)


# ------------------------------------------------------------------ without numba: numpy fills a small table

@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_the_numpy_mex_agrees_with_the_compiled_plain_kernel(rules):
    """numpy's plain mex (the path of a process where numba does not run yet) against the compiled plain kernel of
    60daf3d, to 2,500 (the last code's values pass 64, 128 and 256 on the way: the marks double), from nothing and
    from given values."""
    want = np.zeros(2501, dtype=np.int64)
    _plain_kernel(np.array(rules.digits, dtype=np.int64), rules.tail, rules.unequal, want, 0, 2500)
    for given in (0, 1, 700):
        g = np.zeros(2501, dtype=np.int64)
        g[:given] = want[:given]
        _numpy_mex(rules, g, given, 2500)
        assert np.array_equal(g, want), given


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_numpy_work_counts_the_splits_read(rules):
    rng = np.random.default_rng(37)
    for _ in range(20):
        start = int(rng.integers(0, 60))
        n = int(rng.integers(start - 1, 90))
        splits = 0
        for m in range(start, n + 1):
            for k, d in enumerate(rules.digits):
                if d & 4 and m - k >= 0:
                    splits += max(0, (m - k - 1) // 2 if rules.unequal else (m - k) // 2)
        assert numpy_work(rules, start, n) == splits + max(0, n - start + 1) * fast.NUMPY_SPLITS_PER_HEAP


def test_sequence_takes_numpy_for_a_small_table_until_numba_runs(monkeypatch):
    """The choice of the engine, by cost: numpy while numba is not running and numpy's work in the process stays
    at most NUMPY_WORK, else the compiled kernels (the rare-value method, the cost counters, a large table, many
    small tables); the same values."""
    calls: list[tuple[int, int]] = []
    monkeypatch.setattr(fast, "_numpy_done", 0)
    real = fast._numpy_mex
    monkeypatch.setattr(fast, "_numpy_mex",
                        lambda rules, g, start, n: calls.append((start, n)) or real(rules, g, start, n))
    dawson, kayles = octal_rules("0.07"), octal_rules("0.77")
    compiled = {r: sequence(r, 6000) for r in (dawson, kayles)}
    assert calls == []                                    # numba runs in this process: the kernels
    monkeypatch.setattr(fast, "numba_running", lambda: False)
    assert np.array_equal(sequence(dawson, 4096), compiled[dawson][:4097]) and calls == [(0, 4096)]
    assert np.array_equal(sequence(kayles, 6000, prefix=compiled[kayles][:3000]), compiled[kayles])
    assert calls[-1] == (3000, 6000)
    calls.clear()
    assert np.array_equal(sequence(kayles, 3000, method="rare"), compiled[kayles][:3001])
    assert np.array_equal(sequence(kayles, 3000, stats=np.zeros(2, dtype=np.int64)), compiled[kayles][:3001])
    big = next(n for n in range(4096, 100_000, 256) if numpy_work(dawson, 0, n) > NUMPY_WORK)
    assert numpy_work(dawson, 0, big - 256) <= NUMPY_WORK
    monkeypatch.setattr(fast, "_numpy_done", 0)
    assert np.array_equal(sequence(dawson, big)[:6001], compiled[dawson]) and calls == []
    small = numpy_work(dawson, 0, 2000)
    for _ in range(NUMPY_WORK // small + 2):           # the account: many small tables, then the kernels
        assert np.array_equal(sequence(dawson, 2000), compiled[dawson][:2001])
    assert len(calls) == NUMPY_WORK // small and fast._numpy_done == len(calls) * small


def test_numpys_periodic_tail_agrees_with_the_compiled_one():
    rng = np.random.default_rng(370)
    for _ in range(400):
        period = int(rng.integers(1, 30))
        pre = int(rng.integers(0, 200))
        size = int(rng.integers(6, 600))
        head = rng.integers(0, 4, pre)
        cycle = rng.integers(0, 4, period)
        g = np.concatenate([head, np.resize(cycle, max(0, size - pre))])[:size].astype(np.int64)
        if rng.random() < 0.2:   # a value off the period near the end
            g[-int(rng.integers(1, size + 1))] = 9
        assert _numpy_tail(g, size // 6, size // 3) == _periodic_tail(g, size // 6, size // 3), (period, pre, size)


def test_periodic_tail_and_detect_table_take_numpy_until_numba_runs(monkeypatch):
    """Without numba: periodic_tail by numpy, and detect_table by detect cut at NUMPY_PERIODS, which answers when
    the best periodicity ends within the cut and otherwise hands the table to the compiled search; every answer
    that of the compiled search."""
    rng = np.random.default_rng(371)
    tables = [np.resize(rng.integers(0, 5, 12), 200_000),                                  # from 0
              np.concatenate([rng.integers(0, 5, 71), np.resize(rng.integers(0, 5, 12), COMPILED_DETECT)]),
              np.concatenate([rng.integers(0, 5, NUMPY_PERIODS), np.resize(rng.integers(0, 5, 34), 150_000)]),
              np.arange(COMPILED_DETECT) // 3 * 2,                                          # a saltus
              rng.integers(0, 1000, COMPILED_DETECT)]                                       # none
    want = []
    for t in tables:
        p, n0, s = _detect(t.astype(np.int64), 3, len(t) // 3)
        want.append(Periodicity(int(p), int(n0), int(s), len(t) - 1) if p else None)
    compiled = []
    real = fast._detect
    monkeypatch.setattr(fast, "_detect", lambda *a: compiled.append(len(a[0])) or real(*a))
    monkeypatch.setattr(fast, "numba_running", lambda: False)
    assert [detect_table(t) for t in tables] == want
    assert compiled == [len(tables[2]), len(tables[4])]   # preperiod + period past the cut; no period
    monkeypatch.setattr(fast, "NUMPY_DETECT_VALUES", 150_000)
    assert detect_table(tables[0]) == want[0] and compiled[-1] == len(tables[0])   # longer: compiled at once
    monkeypatch.setattr(fast, "_periodic_tail", None)     # numpy only
    assert periodic_tail(np.array([5, 1, 0, 2] + [0, 1, 2] * 6)) == (3, 3)


def test_dawsons_and_kayles_long_tables_need_no_compiled_kernel_before_numba_runs(monkeypatch):
    """What ``nimjos grundy`` does for Dawson's Kayles to 3 * 10^5 and Kayles to 10^6 in a process where numba
    does not run: 4,096 heaps by numpy, the period proved (Guy-Smith) and repeated, the window's periodicity found
    by numpy; no compiled kernel is called (each would raise here), and the tables are the compiled ones."""
    want = {code: sequence(octal_rules(code), 10_000) for code in ("0.07", "0.77")}

    def refused(*args):
        raise AssertionError("a compiled kernel was called")
    monkeypatch.setattr(fast, "numba_running", lambda: False)
    monkeypatch.setattr(fast, "_numpy_done", 0)
    for name in ("_kernel", "_plain_kernel", "_periodic_tail", "_detect"):
        monkeypatch.setattr(fast, name, refused)
    for code, n, period, preperiod in (("0.07", 300_000, 34, 53), ("0.77", 1_000_000, 12, 71)):
        grown = grown_sequence(octal_rules(code), n)
        assert grown.computed == 4096 and (grown.proof.period, grown.proof.preperiod) == (period, preperiod)
        assert np.array_equal(grown.values[:10_001], want[code])
        assert detect_table(grown.values) == Periodicity(period, preperiod, 0, n)
