"""Tables at the kernel's speed (issue 37, item 3): a heap game's table goes from its compiled sequence to the
array, the .npy file, the printed values and the picture by array indexing. Differential tests, in process: each
output form against ground truth the fast path does not use (the reference engine on the game graph of sorted
tuples of heaps, the pure-Python plain mex of nimjos.games.heaps.rules, the reference engine with the fast engines
off for declared games)."""
from __future__ import annotations

import json

import numpy as np
import pytest

from nimjos.api import picture, tables
from nimjos.app import cli
from nimjos.api.tables import grundy_table
from nimjos.games.arrays import grundy_array
from nimjos.games.engine import ReferenceEngine, using_engine
from nimjos.games.heaps import fast
from nimjos.games.heaps.fast import detect_table
from nimjos.games.heaps.game import HeapPositions, octal_game
from nimjos.games.heaps.rules import GRUNDYS_GAME, LASKERS_NIM, octal_rules, plain_sequence
from nimjos.games.periodicity import detect
from nimjos.report import plots
from nimjos.spec.loader import load_spec

#: (the game expression of nimjos grundy, its rules): the games the compiled kernels serve, both methods and the
#: scalar plain kernel (Lasker's Nim), a proved period (0.77, 0.07) and none (Grundy's game)
HEAP_GAMES = [('octal("0.77")', octal_rules("0.77")), ('octal("0.07")', octal_rules("0.07")),
              ("grundys_game()", GRUNDYS_GAME), ("laskers_nim()", LASKERS_NIM), ('octal("0.137")', octal_rules("0.137"))]


def graph_values(rules, positions) -> list[int]:
    """The reference engine's values on the game graph of sorted tuples of heaps (no sequence, no kernel)."""
    game = HeapPositions(rules)
    engine = ReferenceEngine()
    engine.use_fast = False
    with using_engine(engine):
        return [game.grundy(p) for p in positions]


@pytest.mark.parametrize("expr, rules", HEAP_GAMES)
def test_a_one_heap_table_is_the_game_graphs_and_the_plain_mexs(expr, rules):
    table, how = grundy_table(expr, [], "3 <= n <= 600")
    assert table.dtype == np.int64 and how["origin"] == [3] and table.shape == (598,)
    assert table.tolist() == plain_sequence(rules, 600)[3:]
    assert table[:16].tolist() == graph_values(rules, [(n,) for n in range(3, 19)])


@pytest.mark.parametrize("expr, rules", HEAP_GAMES[:3])
def test_several_heaps_are_the_game_graphs_values_on_a_box_and_a_triangle(expr, rules):
    box, _ = grundy_table(expr, [], "2 <= a <= 9 and 0 <= b <= 6")
    truth = graph_values(rules, [(a, b) for a in range(2, 10) for b in range(7)])
    assert box.ravel().tolist() == truth
    triangle, how = grundy_table(expr, [], "0 <= a <= 7 and 0 <= b <= a and 0 <= c <= b")
    assert how["positions"] == 120 and np.count_nonzero(triangle == -1) == 8 ** 3 - 120
    g = plain_sequence(rules, 7)
    for a, b, c in np.ndindex(8, 8, 8):
        assert triangle[a, b, c] == (g[a] ^ g[b] ^ g[c] if c <= b <= a else -1)


def test_grundy_array_reads_a_heap_games_sequence_at_any_positions():
    """The window checkers' path (checkers/window/vectorised.py): unsorted positions, repeats, one solve."""
    at = np.array([500, 3, 0, 500, 77, 1, 499], dtype=np.int64)
    g = plain_sequence(octal_rules("0.77"), 500)
    assert grundy_array(ReferenceEngine(), octal_game("0.77"), [at]).tolist() == [g[n] for n in at]


@pytest.mark.parametrize("expr, rules", HEAP_GAMES[:3])
def test_the_npy_file_the_json_and_the_printed_values_are_the_table(expr, rules, tmp_path, capsys):
    out = tmp_path / "t.npy"
    truth = plain_sequence(rules, 300)
    assert cli.main(["grundy", expr, "--window", "0 <= n <= 300", "--out", str(out), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    saved = np.load(out)
    assert saved.dtype == np.int64 and saved.tolist() == truth and printed["values"] == truth
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["origin"] == [0] and meta["positions"] == 301
    assert cli.main(["grundy", expr, "--window", "280 <= n <= 299"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[-1].split() == ["G"] + [str(v) for v in truth[280:300]]


def test_the_picture_is_drawn_from_the_table(tmp_path, monkeypatch):
    """--png hands the table's array itself to the plot (no list of Python ints on the way); the PNG is written."""
    seen = []
    draw = plots.plot_sequence

    def spy(seq, *args, **kwargs):
        seen.append(seq["grundy"])
        return draw(seq, *args, **kwargs)

    monkeypatch.setattr(picture, "plot_sequence", spy)
    png = tmp_path / "k.png"
    assert cli.main(["grundy", 'octal("0.77")', "--window", "0 <= n <= 2000", "--png", str(png)]) == 0
    assert isinstance(seen[0], np.ndarray) and seen[0].tolist() == plain_sequence(octal_rules("0.77"), 2000)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_declared_one_heap_game_and_a_two_coordinate_game_still_take_the_general_path(tmp_path):
    spec = tmp_path / "g.toml"
    spec.write_text('[source]\nid = "t"\n[game.sub]\nposition = ["n"]\nmoves = [ { to = "n - t", where = "t in {1, 3, 4} and t <= n" } ]\n'
                    '[game.wyt]\nposition = ["x", "y"]\nmoves = [\n'
                    '  { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" },\n'
                    '  { to = "(x - t, y - t)", where = "1 <= t <= min(x, y)" } ]\n')

    def reference(name, positions):
        game = load_spec(spec).games[name]()
        engine = ReferenceEngine()
        engine.use_fast = False
        with using_engine(engine):
            return [game.grundy(p) for p in positions]

    one, _ = grundy_table(f"{spec}::sub", [], "4 <= n <= 60")
    assert one.tolist() == reference("sub", list(range(4, 61)))
    two, _ = grundy_table(f"{spec}::wyt", [], "1 <= x <= 14 and 0 <= y <= x")
    cells = [(x, y) for x in range(1, 15) for y in range(15)]
    assert [int(v) for v in two.ravel()] == [v if y <= x else -1 for (x, y), v in zip(cells, reference("wyt", cells))]


def sequences():
    """Sequences with a period, an arithmetic period (a saltus), a long preperiod, none, and random ones."""
    rng = np.random.default_rng(37)
    out = [np.array([5, 9] + [0, 1] * 40), np.array([0, 1, 2, 4, 3, 5, 6, 8, 7] * 1 + list(range(9, 300))),
           np.arange(1000) // 2 * 3, np.array(plain_sequence(LASKERS_NIM, 400)), rng.integers(0, 4, 500),
           np.concatenate([rng.integers(0, 9, 300), np.tile([1, 4, 2, 7, 1], 200)]), np.zeros(1, np.int64),
           np.zeros(0, np.int64), np.array([3, 3])]
    out += [np.tile(rng.integers(0, 3, p), 40)[rng.integers(0, 5):] for p in range(1, 12)]
    return out


@pytest.mark.parametrize("seq", sequences())
def test_the_compiled_period_search_finds_what_detect_finds(seq, monkeypatch):
    monkeypatch.setattr(fast, "COMPILED_DETECT", 0)   # the compiled search even on a short table
    assert detect_table(seq) == detect(seq.tolist())


def test_the_compiled_period_search_agrees_on_many_short_random_tables(monkeypatch):
    """Short tables over few values (and their running sums: a saltus) meet every edge of the search: exactly
    min_repeats periods, ties of preperiod + period, a period found after a longer one."""
    monkeypatch.setattr(fast, "COMPILED_DETECT", 0)
    rng = np.random.default_rng(3)
    tables = [rng.integers(0, k, size) for size in range(1, 40) for k in (2, 3) for _ in range(6)]
    tables += [np.cumsum(t) for t in tables[::3]] + [np.array([7, 8, 9] + [0, 1, 2, 3] * 3)]
    assert [detect_table(t) for t in tables] == [detect(t.tolist()) for t in tables]
    assert detect_table(tables[-1]).preperiod == 3


def test_the_period_of_a_long_table_is_the_compiled_searchs(monkeypatch):
    long = octal_game("0.07").filled_through(fast.COMPILED_DETECT + 10)[: fast.COMPILED_DETECT + 10]
    found = detect_table(long)
    assert found is not None and (found.period, found.saltus) == (34, 0) and found == detect(long)
    assert tables.DETECT_PERIODICITY is detect_table


def test_a_long_sequence_is_plotted_one_pixel_per_value(tmp_path):
    values = np.array(plain_sequence(octal_rules("0.07"), plots.MAX_MARKED + 500))
    path = plots.plot_sequence({"x0": 0, "grundy": values, "claimed": None}, [7], tmp_path / "d.png", "0.07")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
