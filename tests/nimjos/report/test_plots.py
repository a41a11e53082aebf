"""The report's plots: non-blank, deterministic PNGs; the Josephus rounds read off the circle."""
from __future__ import annotations

import hashlib

import numpy as np
import pytest
from matplotlib.image import imread

from nimjos.josephus.algorithms import simulate_circle
from nimjos.report.model import Claim, marks
from nimjos.report.plots import grid_disagreements, plot_grid, plot_josephus, plot_sequence, removal_rounds


def test_rounds_of_the_example_in_the_paper():
    # 000, Example 3.3 (n = 10, k = 3): round 1 removes 3, 6, 9; round 2: 2, 7; round 3: 1, 8; round 4: 5;
    # then 10, and 4 survives. (The paper puts 10 in a sixth round after an empty fifth; going around
    # the circle once per round, 10 falls in the fifth: after 5 the count is 10, 4, 10.)
    steps = removal_rounds(10, 3)
    by_round: dict[int, list[int]] = {}
    for number, _, rnd in steps[:-1]:
        by_round.setdefault(rnd, []).append(number)
    assert by_round == {1: [3, 6, 9], 2: [2, 7], 3: [1, 8], 4: [5], 5: [10]}
    assert steps[-1] == (4, 10, 5)


@pytest.mark.parametrize("n, k", [(1, 1), (1, 5), (7, 1), (7, 3), (13, 2), (5, 11), (30, 4)])
def test_rounds_follow_the_elimination_order(n, k):
    steps = removal_rounds(n, k)
    assert [s[0] for s in steps] == simulate_circle(n, k)
    assert [s[1] for s in steps] == list(range(1, n + 1))
    rounds = [s[2] for s in steps]
    assert rounds == sorted(rounds)
    if n > 1:
        assert rounds[0] == (k - 1) // n + 1
    if k == 1:
        assert set(rounds) == {1}
    # within a round the removed numbers increase (one pass around the circle, from 1 towards n)
    for r in set(rounds):
        removed = [s[0] for s in steps[:-1] if s[2] == r]
        assert removed == sorted(removed)


def non_blank(path) -> bool:
    pixels = imread(path)
    return pixels.ndim == 3 and float(np.std(pixels[..., :3])) > 0.05


def digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


GRID = {"x0": 0, "y0": 0, "grundy": [[x ^ y for y in range(8)] for x in range(8)],
        "claimed": [[int((x + y) % 2 == 0) for y in range(8)] for x in range(8)], "label": "claimed P-positions"}


def test_grid_plot(tmp_path):
    a = plot_grid(GRID, [(0, 2), (2, 0), (50, 50)], tmp_path / "a.png", "nim")
    b = plot_grid(GRID, [(0, 2), (2, 0), (50, 50)], tmp_path / "b.png", "nim")
    assert non_blank(a) and digest(a) == digest(b)


def test_grid_with_cells_outside_the_window_and_claimed_values(tmp_path):
    grid = {"x0": 3, "y0": 5, "grundy": [[0, 1, -1], [1, -1, -1]], "claimed": [[0, 2, None], [1, None, None]],
            "label": "claimed value"}
    assert grid_disagreements(grid).tolist() == [[False, True, False], [False, False, False]]
    assert non_blank(plot_grid(grid, [(3, 6)], tmp_path / "g.png", "window"))


def test_p_position_disagreements():
    assert grid_disagreements(GRID).sum() == sum(1 for x in range(8) for y in range(8)
                                                 if ((x ^ y) == 0) != ((x + y) % 2 == 0))
    assert not grid_disagreements(dict(GRID, claimed=None)).any()


def test_sequence_plot(tmp_path):
    seq = {"x0": 5, "grundy": [0, 1, 2, 0, 1], "claimed": [0, 1, None, 1, 1]}
    path = plot_sequence(seq, [8, 99], tmp_path / "s.png", "sequence")
    assert non_blank(path)
    assert non_blank(plot_sequence({"x0": 0, "grundy": [0, 1], "claimed": None}, [], tmp_path / "t.png", "t"))


@pytest.mark.parametrize("n, k", [(10, 3), (41, 3), (1, 2), (6, 20)])
def test_josephus_plot(tmp_path, n, k):
    assert non_blank(plot_josephus(n, k, tmp_path / "j.png", f"n = {n}, k = {k}"))


def test_marks_only_from_named_or_unambiguous_coordinates():
    cx = [{"bindings": {"k": 2, "x": 3, "y": 4}}, {"bindings": {"k": 2, "x": 0, "y": 1}}]
    assert marks(Claim("f", "c", [], {"counterexamples": cx}), 2) == []
    named = {"counterexamples": cx, "evidence": {"grid": {"coords": ["x", "y"]}}}
    assert marks(Claim("f", "c", [], named), 2) == [(3, 4), (0, 1)]
    one = {"counterexamples": [{"bindings": {"n": 7}}, {"bindings": {"n": "(1, 2)"}}]}
    assert marks(Claim("f", "c", [], one), 1) == [(7,)]


NIM2 = '''[source]
id = "n2"
[game.nim2]
position = ["x", "y"]
moves = [ { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" } ]
[[claim]]
id = "big"
game = "nim2"
for_all = "0 <= x and 0 <= y"
window = "x <= 10 and y <= 10"
p_positions = "x == y"
[[claim]]
id = "small"
game = "nim2"
for_all = "0 <= x and 0 <= y"
window = "x <= 3 and y <= 6"
p_positions = "x == y or x == 0"
expect = "refuted"
'''


def test_the_plotted_grid_is_the_checked_window_even_when_the_engine_knows_more(write_spec):
    # 003 thm-3.1's plot showed rows 17-28 beyond its window x <= 16: the engine's table had been filled further
    # by another claim on the same game. The evidence holds the window's cells only; anything else is "not checked".
    from checkers.window.exhaustive import check_exhaustive
    from nimjos.spec.loader import load_spec
    spec = load_spec(write_spec(NIM2))
    check_exhaustive(spec.claim("big"))
    grid = check_exhaustive(spec.claim("small")).evidence["grid"]
    assert (len(grid["grundy"]), len(grid["grundy"][0])) == (4, 7)
    assert all(v >= 0 for row in grid["grundy"] for v in row)


def test_cells_outside_the_window_are_drawn_as_not_checked(tmp_path):
    from nimjos.report import render
    from nimjos.report.plots import not_checked
    from nimjos.results.store import ResultsStore
    from nimjos.verdict import Counterexample, Verdict
    from tests.nimjos.test_report_data import DEMO, claim
    grid = {"x0": 0, "y0": 0, "grundy": [[0, 1, -1], [1, 0, -1]], "claimed": [[1, 0, None], [0, 1, None]],
            "label": "claimed P-positions", "game": "nim2"}
    assert not_checked(grid) == 2 and not_checked(dict(grid, grundy=[[0, 1], [1, 0]])) == 0
    with ResultsStore(tmp_path / "r.sqlite") as store:
        run = store.begin_run(["check"], "default")
        store.record(run, claim(DEMO, "c", 0, kind="p_positions", formula="x == y or y == 2", expect="refuted"),
                     Verdict("c", "refuted", "exhaustive", "0 <= x <= 1, 0 <= y <= 1", instances=4, failures=1,
                             counterexamples=[Counterexample({"x": 0, "y": 1}, "N", "P")], evidence={"grid": grid}))
    render(tmp_path / "r.sqlite", tmp_path / "out", ("md",))
    page = (tmp_path / "out" / "claims" / "demo--c.md").read_text()
    assert "grey cells: not checked (outside the window)" in page
