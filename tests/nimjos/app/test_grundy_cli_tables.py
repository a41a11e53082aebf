"""`nimjos grundy` for every game (issue 28, item 3): built-in games by expression, windows that are not boxes,
grids with axes, --png, periodicity of one-heap tables. Ground truth: OEIS sequences and hand-computed nim-sums,
never the engine's own output."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from nimjos.app import cli
from nimjos.api.tables import grundy_table

ROOT = Path(__file__).resolve().parents[3]
HEAPS = ROOT / "examples" / "heap_games.toml"
#: OEIS A002186 (Kayles), A002188 (Grundy's game), A002187 (Dawson's Kayles: 0.07)
KAYLES = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7]
GRUNDYS_GAME = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]


def test_a_built_in_game_of_a_spec_file_is_tabulated_as_the_issue_asked(capsys):
    assert cli.main(["grundy", f'{HEAPS}::octal("0.77")', "--window", "0 <= n <= 100", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["values"][:len(KAYLES)] == KAYLES and out["shape"] == [101] and out["origin"] == [0]


@pytest.mark.parametrize("game, expected", [
    ("grundys_game()", GRUNDYS_GAME),
    ("laskers_nim()", [0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10, 12, 11]),       # G(4k+3) = 4k+4, G(4k+4) = 4k+3
    ("subtraction({1, 2, 3})", [n % 4 for n in range(13)]),
    ('octal("0.07")', [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2]),             # OEIS A002187
])
def test_built_in_games_without_a_spec_file(game, expected):
    table, how = grundy_table(game, [], f"0 <= n <= {len(expected) - 1}")
    assert table.tolist() == expected and how["coordinates"] == ["n"]


def test_a_heap_game_on_two_heaps_is_the_nim_sum_of_the_heaps_on_a_triangle():
    table, how = grundy_table('octal("0.77")', [], "0 <= a <= 12 and 0 <= b <= a")
    assert table.shape == (13, 13) and how["origin"] == [0, 0] and how["positions"] == 91
    for a in range(13):
        for b in range(13):
            assert table[a, b] == (KAYLES[a] ^ KAYLES[b] if b <= a else -1)


def test_moore_nim_is_valued_on_its_game_graph():
    """Moore's Nim_2 on two heaps may take from both heaps at once: every position but (0, 0) moves to (0, 0)."""
    table, _ = grundy_table("moore_nim(2)", [], "0 <= a <= 3 and 0 <= b <= 3")
    assert table[0, 0] == 0 and (table[1:, :] != 0).all() and (table[:, 1:] != 0).all()


def test_a_filtered_window_marks_the_cells_it_leaves_out():
    table, how = grundy_table("subtraction({1, 2})", [], "0 <= n <= 9 and n % 2 == 0")
    assert table.tolist() == [0, -1, 2, -1, 1, -1, 0, -1, 2] and how["outside"] == 4   # box 0..8
    assert "periodicity" not in how   # a period is read from a whole run of heap sizes only


def test_a_small_two_dimensional_table_prints_as_a_grid_with_axes(capsys):
    assert cli.main(["grundy", "nim()", "--window", "0 <= a <= 3 and 0 <= b <= a"]) == 0
    lines = capsys.readouterr().out.splitlines()
    grid = lines[lines.index("rows a = 0.., columns b = 0..:") + 1:]
    assert grid[0].split() == ["a\\b", "0", "1", "2", "3"]
    assert grid[3].split() == ["2", "2", "3", "0", "."]       # row a = 2: 2^0, 2^1, 2^2, outside
    assert len(grid) == 5


def test_a_long_sequence_prints_with_its_indices_twenty_to_a_line(capsys):
    assert cli.main(["grundy", "subtraction({1, 2})", "--window", "5 <= n <= 44"]) == 0
    text = capsys.readouterr().out
    assert "\n  n   5   6   7" in text and "\n  n  25  26" in text
    assert "periodic with period 3 from 5" in text


def test_png_writes_a_heatmap_and_a_sequence(tmp_path, capsys):
    heat, seq = tmp_path / "heat.png", tmp_path / "seq.png"
    assert cli.main(["grundy", 'octal("0.77")', "--window", "0 <= a <= 12 and 0 <= b <= a", "--png", str(heat)]) == 0
    assert cli.main(["grundy", "grundys_game()", "--window", "0 <= n <= 20", "--png", str(seq)]) == 0
    for path in (heat, seq):
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and path.stat().st_size > 5000
    assert f"wrote {heat}" in capsys.readouterr().out


def test_png_refuses_three_coordinates(tmp_path, capsys):
    rc = cli.main(["grundy", "nim()", "--window", "0 <= a <= 1 and 0 <= b <= 1 and 0 <= c <= 1",
                   "--png", str(tmp_path / "x.png")])
    assert rc == cli.EXIT_BAD_INPUT and "one or two coordinates" in capsys.readouterr().err


@pytest.mark.parametrize("target, window, message", [
    ("no_such_game", "0 <= n <= 3", "no game 'no_such_game'"),
    ("3 + 4", "0 <= n <= 3", "not a game expression"),
    ("nim()", "-2 <= n <= 3", "negative coordinate"),
    ("nim()", "0 <= n <= 3 and n > 5", "holds no position"),
    ("nim()", "0 <= n", "no upper bound"),
])
def test_bad_targets_and_windows_are_one_line_errors(target, window, message, capsys):
    assert cli.main(["grundy", target, "--window", window]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_params_belong_to_declared_games_only(capsys):
    assert cli.main(["grundy", "nim()", "--window", "0 <= n <= 3", "--param", "k=2"]) == cli.EXIT_BAD_INPUT
    assert "--param" in capsys.readouterr().err


def test_a_declared_games_window_still_names_its_coordinates(tmp_path, capsys):
    spec = tmp_path / "g.toml"
    spec.write_text('[source]\nid = "t"\n[game.nim2]\nposition = ["x", "y"]\n'
                    'moves = [ { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" } ]\n')
    assert cli.main(["grundy", f"{spec}::nim2", "--window", "0 <= a <= 3 and 0 <= b <= 3"]) == cli.EXIT_BAD_INPUT
    assert "exactly the coordinates x, y" in capsys.readouterr().err
    table, how = grundy_table(f"{spec}::nim2", [], "0 <= y <= 2 and 0 <= x <= y")
    assert how["coordinates"] == ["x", "y"] and table.tolist() == [[0, 1, 2], [-1, 0, 3], [-1, -1, 0]]
    assert np.count_nonzero(table == -1) == 3


def test_a_box_read_from_the_fast_table_equals_the_same_window_valued_position_by_position(tmp_path):
    """The box path (one solve, a slice of the filled table) against the general path (a filter that holds
    everywhere makes the window not a box): the same values."""
    spec = tmp_path / "g.toml"
    spec.write_text('[source]\nid = "t"\n[game.wyt]\nposition = ["x", "y"]\nmoves = [\n'
                    '  { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" },\n'
                    '  { to = "(x - t, y - t)", where = "1 <= t <= min(x, y)" } ]\n')
    box, how_box = grundy_table(f"{spec}::wyt", [], "3 <= x <= 25 and 0 <= y <= 20")
    general, how_general = grundy_table(f"{spec}::wyt", [], "3 <= x <= 25 and 0 <= y <= 20 and x + y >= 0")
    assert np.array_equal(box, general) and how_box["origin"] == how_general["origin"] == [3, 0]
    assert box[0, 0] == 3 and box[2, 3] == 0    # Wythoff: G(3, 0) = 3, (5, 3) is a P-position
