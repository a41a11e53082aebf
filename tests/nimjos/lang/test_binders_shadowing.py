"""A bound variable that shadows a game, a function of the spec or a built-in is a spec error naming both
(it used to read the game as the variable: every position terminal, G = 0 everywhere, no error)."""
from __future__ import annotations

import re

import pytest

from nimjos.app import cli
from nimjos.lang.errors import SpecError
from nimjos.spec.loader import load_spec

GAME_S = """[source]
id = "shadow"
[game.s]
position = ["n"]
moves = [ { to = "n - s", where = "s in {2, 5, 7} and s <= n" } ]
[[claim]]
id = "c"
game = "s"
for_all = "0 <= n"
window = "n <= 20"
grundy = "0"
"""


def test_a_move_variable_named_like_its_game_is_refused_with_file_line_and_both_names(tmp_path, capsys):
    path = tmp_path / "s.toml"
    path.write_text(GAME_S)
    assert cli.main(["check", str(path), "--no-store"]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert f"{path}:5: game 's', field 'moves[0]'" in err
    assert "'s' is bound as a variable in 's in {2, 5, 7} and s <= n' but is already the game s" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("window,what", [
    ("0 <= n <= 20 and 0 <= floor <= 3", "built-in function floor"),
    ("0 <= n <= 20 and 1 <= g <= 3", "game g"),
    ("0 <= n <= 20 and h in {1, 2}", "function (a [define] of this spec) h"),
])
def test_a_claim_variable_that_shadows_a_known_name_is_refused(tmp_path, window, what):
    path = tmp_path / "w.toml"
    path.write_text(f"""[source]
id = "w"
[define]
"h(a)" = "a + 1"
LIMIT = "3"
[game.g]
position = ["n"]
moves = [ {{ to = "n - t", where = "t in {{1, 2}} and t <= n" }} ]
[[claim]]
id = "c"
game = "g"
for_all = "{window}"
holds = "G(g, n) <= 2"
""")
    with pytest.raises(SpecError, match=re.escape(f"already the {what}")):
        load_spec(path)


def test_a_constant_definition_and_a_predicate_on_the_right_of_in_are_not_shadowing(tmp_path):
    path = tmp_path / "ok.toml"
    path.write_text("""[source]
id = "ok"
[define]
LIMIT = "5"
"odd(a)" = "a % 2 == 1"
[[claim]]
id = "c"
for_all = "0 <= n <= LIMIT and n in odd"
holds = "n % 2 == 1"
""")
    assert load_spec(path).claims[0].plan().window.names == ("n",)
