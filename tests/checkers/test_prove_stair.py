"""A `stair` claim on a declared game: the prover has no certificate for it and says so (it used to stop the run
with "expected an expression as a string, got dict"); the window still checks it."""
from __future__ import annotations

from checkers.run import run_claim
from nimjos.spec.loader import load_spec

SPEC = """
[source]
id = "stair"

[game.sub1]
position = ["n"]
moves = [ { to = "n - 1", where = "n >= 1" } ]

[[claim]]
id = "st1"
game = "sub1"
for_all = "0 <= n"
window = "n <= 40"
stair = { h = 2 }
"""


def test_a_stair_claim_is_checked_by_the_window_and_not_proved(tmp_path):
    path = tmp_path / "stair.toml"
    path.write_text(SPEC)
    result = run_claim(load_spec(path).claim("st1"))
    by_method = {v.method: v for v in result.verdicts}
    assert result.final.verdict == "checked"
    assert by_method["prove"].verdict == "inconclusive" and "no local certificate" in by_method["prove"].scope
