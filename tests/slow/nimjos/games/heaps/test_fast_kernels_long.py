"""The long tests of tests/nimjos/games/heaps/test_fast_kernels.py (each several seconds of CPU), slow by their
folder; the bounds-checked child of tests/nimjos/games/test_engine_bounds.py runs them too."""
from __future__ import annotations






import numpy as np


import pytest






from nimjos.games.heaps.fast import MASK_PREFIX, sequence






from nimjos.games.heaps.rules import GRUNDYS_GAME, HeapRules, octal_rules, plain_sequence




CODES = ["0.77", "0.07", "0.137", "4.07", "0.6", "0.16", "0.37", "0.753", "0.4", "0.04", "0.14", "0.56", "0.74",
         "0.775", "4.4", "0.3", "0.33"]


RULES = ([octal_rules(c) for c in CODES] + [GRUNDYS_GAME, HeapRules((0, 0, 4), unequal=True),
         HeapRules((4, 0, 4), unequal=True), HeapRules((0, 1, 4), unequal=True),
         HeapRules((0, 0, 0, 3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 6, 0, 7, 3, 0, 2, 0, 0, 0, 0, 7))])


IDS = [r.name or r.code() + ("u" if r.unequal else "") for r in RULES]


METHODS = ["plain", "auto", "rare"]


def methods(rules: HeapRules) -> list[str]:
    return METHODS if any(d & 4 for d in rules.digits) else ["plain", "auto"]


OLD_TABLES = [("0.77", 100_000, "f588c559c4b665ca"), ("0.07", 30_000, "160abf305a9a542a"),
              ("grundy", 200_000, "0598dd49832ba0ab"), ("0.137", 30_000, "e5c6e49308a9a998"),
              ("0.16", 30_000, "ad5e294723ff6ec6"), ("4.07", 30_000, "f0c8dd0352e1d51c"),
              ("0.4", 30_000, "0da96dfa6298b5ec")]


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_every_method_gives_the_values_of_the_moves(rules):
    """Against the mex over rules.moves (the reference computation), past the rare-value method's prefix."""
    want = plain_sequence(rules, 2300)
    for method in methods(rules):
        assert sequence(rules, 2300, method=method).tolist() == want, method


def test_the_scan_looks_across_every_move_size_at_once():
    """Kayles: a value only the take-2 splits give is found among the first take-2 splits, not after every take-1
    split: a bounded number of splits per heap (the scan one move size at a time read ~n/4 per heap: 5,000 here)."""
    rules = octal_rules("0.77")
    head = sequence(rules, MASK_PREFIX + 1)
    cost = np.zeros(2, dtype=np.int64)
    g = sequence(rules, 20_000, prefix=head, stats=cost)
    heaps = 20_000 - MASK_PREFIX - 1
    assert cost[0] + cost[1] < 100 * heaps, cost
    # the values, all of them, against the plain mex up to 2,000 carried on by Kayles' period: 12 from heap 71 on
    # (Guy and Smith's theorem: a period p from n0 on that holds up to 2 * n0 + p + t, t = 2 the largest take, holds
    # for ever; the plain mex up to 20,000 instead took 40 s of CPU, and 50 s more in the bounds-checked child)
    plain = plain_sequence(rules, 2_000)
    assert all(plain[n] == plain[n - 12] for n in range(71 + 12, 2_001)) and plain[70] != plain[70 + 12]
    assert g.tolist() == [plain[n] if n < 71 else plain[71 + (n - 71) % 12] for n in range(20_001)]
