"""The notebook API (issue 28, item 6): ``nimjos.check`` gives results that show as claim cards (escaped),
``nimjos.grundy`` an array with its corner."""
from __future__ import annotations

from pathlib import Path

import numpy as np

import nimjos

SPEC = """
[source]
id = "notebook"
title = "A <b>bold</b> title & more"

[game.sub]
params = ["k"]
position = ["n"]
moves = [ { to = "n - s", where = "1 <= s <= k and s <= n" } ]

[[claim]]
id = "sub2-wrong"
ref = "Thm <script>alert(1)</script>"
game = "sub(2)"
for_all = "0 <= n"
window = "n <= 30"
grundy = "n % 2"
expect = "refuted"
"""


def _spec(tmp_path: Path) -> Path:
    path = tmp_path / "notebook.toml"
    path.write_text(SPEC)
    return path


def test_check_shows_a_refuted_claim_as_an_escaped_card_with_its_smallest_counterexample(tmp_path):
    results = nimjos.check(_spec(tmp_path), methods=("exhaustive",))
    assert results.verdicts() == {"sub2-wrong": "refuted"}
    card = results[0]._repr_html_()
    assert "<script>" not in card and "&lt;script&gt;" in card
    # subtraction {1, 2}: G(n) = n mod 3, so the smallest n with n mod 3 != n mod 2 is 2 (2 against 0)
    assert results[0].counterexample() == "n=2: left side 2, right side 0"
    assert "<b>refuted</b>" in card and "n=2: left side 2, right side 0" in card and "(disagrees)" not in card
    assert results._repr_html_().count("nimjos-claim") == 1


def test_grundy_of_a_declared_game_with_params_knows_its_corner(tmp_path):
    table = nimjos.grundy(f"{_spec(tmp_path)}::sub", "3 <= n <= 9", k=2)
    assert isinstance(table, np.ndarray) and table.corner == (3,) and table.coordinates == ("n",)
    assert table.tolist() == [n % 3 for n in range(3, 10)]


def test_grundy_of_a_triangle_has_minus_one_outside_and_the_corner_of_the_box():
    table = nimjos.grundy("nim()", "2 <= a <= 4 and 1 <= b <= a - 1")
    assert table.corner == (2, 1) and table.shape == (3, 3)
    assert table.tolist() == [[2 ^ 1, -1, -1], [3 ^ 1, 3 ^ 2, -1], [4 ^ 1, 4 ^ 2, 4 ^ 3]]
