"""`nimjos grundy`, `nimjos josephus` and `nimjos explain` as a new user meets them: games with three
coordinates, coordinate names, the corner of a written table, periodicity of a 1-D table, Josephus with
n = 0, JSON that never drops values silently and writes integers one way, explain on a printed sequence.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from nimjos.app import cli
from nimjos.josephus.functions import survivor as survivor_function
from nimjos.spec.loader import load_spec

ROOT = Path(__file__).resolve().parents[2]

GAMES = """
[source]
id = "t"
[game.nim3]
position = ["x", "y", "z"]
moves = [
  { to = "(x - t, y, z)", where = "1 <= t <= x" },
  { to = "(x, y - t, z)", where = "1 <= t <= y" },
  { to = "(x, y, z - t)", where = "1 <= t <= z" },
]
[game.pass2]
position = ["x", "p"]
moves = [
  { to = "(x - t, p)", where = "1 <= t <= x" },
  { to = "(x, p - 1)", where = "p >= 1 and x >= 1" },
]
[game.sub3]
position = ["n"]
moves = [ { to = "n - s", where = "s in {1, 2, 3} and s <= n" } ]
[game.sub_odd]
position = ["n"]
moves = [ { to = "n - s", where = "s in {1, 4, 9} and s <= n" } ]
"""


def _games(tmp_path: Path) -> Path:
    path = tmp_path / "games.toml"
    path.write_text(GAMES)
    return path


def test_grundy_prints_a_three_coordinate_game_block_by_block(tmp_path, capsys):
    path = _games(tmp_path)
    out = tmp_path / "nim3.npy"
    rc = cli.main(["grundy", f"{path}::nim3", "--window", "0 <= x <= 1 and 0 <= y <= 2 and 0 <= z <= 2",
                   "--out", str(out)])
    text = capsys.readouterr().out
    assert rc == 0
    assert "x = 1: rows y = 0.., columns z = 0..:" in text
    table = np.load(out)
    assert table.shape == (2, 3, 3) and table[1, 2, 2] == 1 ^ 2 ^ 2


def test_grundy_names_the_coordinates_and_records_the_corner_of_the_written_table(tmp_path, capsys):
    path = _games(tmp_path)
    out = tmp_path / "pass.npy"
    assert cli.main(["grundy", f"{path}::pass2", "--window", "2 <= x <= 3 and 0 <= p <= 1", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "rows x = 2.., columns p = 0..:" in text and "columns y" not in text
    meta = json.loads(out.with_suffix(".json").read_text())
    assert meta["origin"] == [2, 0] and meta["coordinates"] == ["x", "p"]
    assert np.load(out).shape == (2, 2)


def test_grundy_reports_the_period_of_a_one_dimensional_table_or_that_there_is_none(tmp_path, capsys):
    path = _games(tmp_path)
    assert cli.main(["grundy", f"{path}::sub3", "--window", "0 <= n <= 40"]) == 0
    assert "periodic with period 4 from 0" in capsys.readouterr().out
    assert cli.main(["grundy", f"{path}::sub3", "--window", "0 <= n <= 40", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["periodicity"].startswith("periodic with period 4 from 0")
    assert cli.main(["grundy", f"{path}::sub_odd", "--window", "0 <= n <= 6"]) == 0
    assert "no period within the window (0..6)" in capsys.readouterr().out


def test_josephus_with_no_one_in_the_circle_gives_0_as_oeis_a006257(capsys):
    assert survivor_function(0, 2) == 0
    assert cli.main(["josephus", "survivor", "--k", "2", "--n", "0"]) == 0
    assert capsys.readouterr().out.strip() == "0"


def test_josephus_json_keeps_every_value_and_writes_integers_as_integers(capsys):
    assert cli.main(["josephus", "order", "--k", "3", "--n", "500", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["length"] == 500 and len(out["values"]) == 500 and sorted(out["values"]) == list(range(1, 501))
    for n in ("41", "10**30"):
        assert cli.main(["josephus", "survivor", "--k", "2", "--n", n, "--json"]) == 0
        assert isinstance(json.loads(capsys.readouterr().out)["survivor"], int)


def test_explain_a_printed_sequence_at_an_index(capsys):
    spec = ROOT / "specs" / "000_maxnim_josephus.toml"
    assert load_spec(spec).claim("ex-3.3-order").kind == "values"
    assert cli.main(["explain", f"{spec}::ex-3.3-order", "--at", "4"]) == 0
    text = capsys.readouterr().out
    assert "i = 4: removed(10, 3, i) = 2; printed 2" in text


AT_SPEC = """
[source]
id = "at"
[game.sub12]
position = ["n"]
moves = [ { to = "n - s", where = "s in {1, 2} and s <= n" } ]
[[claim]]
id = "mod3"
game = "sub12"
for_all = "0 <= n"
window = "n <= 30"
grundy = "n % 3"
expect = "holds"
[[claim]]
id = "below-40"
for_all = "0 <= n"
window = "n <= 30"
holds = "G(sub12, n) == n % 3 and n < 40"
expect = "holds"
[[claim]]
id = "printed-below-100"
for_all = "0 <= n <= 100"
window = "0 <= n <= 30"
holds = "G(sub12, n) == n % 3"
expect = "holds"
"""


def test_at_beyond_the_window_inside_the_domain_is_evaluated(tmp_path, capsys):
    # --at outside the window answered `vacuous`; a point of the domain is evaluated all the same
    path = tmp_path / "at.toml"
    path.write_text(AT_SPEC)
    assert cli.main(["check", str(path), "--claim", "mod3", "--at", "n=5000", "--no-store"]) == 0
    out = capsys.readouterr().out
    assert "checked      mod3  [exhaustive: only at n=5000 (beyond the window, inside the domain 0 <= n" in out
    assert "1 instance]" in out and "vacuous" not in out
    assert cli.main(["check", str(path), "--claim", "below-40", "--at", "n=50", "--no-store", "--json"]) == 1
    claim = json.loads(capsys.readouterr().out)["claims"][0]
    assert claim["verdict"] == "refuted" and claim["counterexamples"][0]["bindings"] == {"n": 50}
    assert cli.main(["explain", f"{path}::printed-below-100", "--at", "n=50"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == ("claim printed-below-100 at n=50 (beyond the window, inside "
                                                       "the domain 0 <= n <= 100)")


def test_at_outside_the_domain_says_so_and_exits_2(tmp_path, capsys):
    path = tmp_path / "at.toml"
    path.write_text(AT_SPEC)
    said = (f"nimjos: {path}: claim 'printed-below-100': --at n=500 is outside the claim's domain (domain "
            "0 <= n <= 100): the claim says nothing there")
    assert cli.main(["check", str(path), "--claim", "printed-below-100", "--at", "n=500", "--no-store"]) == 2
    assert said in capsys.readouterr().err
    assert cli.main(["explain", f"{path}::printed-below-100", "--at", "n=500"]) == 2
    assert capsys.readouterr().err.strip() == said
    assert cli.main(["check", str(path), "--claim", "mod3", "--at", "n=-1", "--no-store"]) == 2
    assert "--at n=-1 is outside the claim's domain (domain 0 <= n)" in capsys.readouterr().err


def test_explain_a_printed_sequence_without_at_lists_its_terms(tmp_path, capsys):
    # it printed only its header
    path = tmp_path / "seq.toml"
    path.write_text('[source]\nid = "s"\n[[claim]]\nid = "jos"\n'
                    'values = { of = "survivor(n, 2)", var = "n", from = 1, equal = [1, 1, 3, 1, 3, 5, 7, 1] }\n')
    assert cli.main(["explain", f"{path}::jos"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "claim jos is checked (the printed terms n = 1..8); each term, computed and printed:"
    assert lines[3] == "n = 3: survivor(n, 2) = 3; printed 3 (term 3 of the printed sequence, which starts at n = 1)"
    assert len(lines) == 9
