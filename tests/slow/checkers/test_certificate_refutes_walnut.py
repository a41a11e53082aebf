"""What a prover finds, the verdict says (issue: confirmed certificate failures refute, the documented mex
certificate runs), through Walnut: a stored automaton that is Nim's P-set except at (2^20, 2^20) is refuted there,
the least counterexample, without valuing the box; the 987/610 Wythoff family is refuted by Z3's failure of (a) and
its witness; Lasker's formula is proved by the mex certificate from ``nimjos check``, and a formula wrong from
n = 5000 on is refuted at 5000."""
from __future__ import annotations

import json

import pytest

from checkers.options import RunOptions
from checkers.run import run_claim
from nimjos.spec.loader import load_spec

NIM2 = """[source]
id = "nim20"

[automaton.nimP]
file = "nimP.txt"

[game.nim2]
position = ["x", "y"]
moves = [{ to = "(x - k, y)", where = "1 <= k <= x" }, { to = "(x, y - k)", where = "1 <= k <= y" }]

[[claim]]
id = "nim-p-except-2-20"
game = "nim2"
for_all = "x >= 0 and y >= 0"
window = "x <= 40 and y <= 40"
p_positions = "nimP(x, y)"

[[claim]]
id = "nim-extra"
game = "nim2"
for_all = "x >= 0 and y >= 0"
window = "x <= 12 and y <= 12"
p_positions = "x == y or (x == 1000 and y == 1001)"
"""


def nim_except(k: int) -> str:
    """x == y except at (2^k, 2^k), in Walnut's format (msd_2, two arguments): state 0 has read zeros only, state
    s in 1..k+1 a one and s - 1 zeros (state k + 1: exactly 2^k so far, rejecting), state k + 2 anything else."""
    lines = ["msd_2 msd_2", ""]
    for s in range(k + 3):
        zero = 0 if s == 0 else (s + 1 if s <= k else k + 2)
        one = 1 if s == 0 else k + 2
        lines += [f"{s} {0 if s == k + 1 else 1}", f"0 0 -> {zero}", f"1 1 -> {one}", ""]
    return "\n".join(lines)


def test_the_automaton_is_nims_p_set_except_at_one_position(tmp_path):
    (tmp_path / "nimP.txt").write_text(nim_except(4))
    (tmp_path / "s.toml").write_text(NIM2)
    spec = load_spec(tmp_path / "s.toml")
    plan = spec.claim("nim-p-except-2-20").plan()
    got = {(x, y) for x in range(40) for y in range(40) if plan.formula({"x": x, "y": y})}
    assert got == {(x, x) for x in range(40)} - {(16, 16)}


def test_a_stored_automaton_wrong_at_two_to_the_twenty_is_refuted_there(tmp_path, walnut):
    (tmp_path / "nimP.txt").write_text(nim_except(20))
    (tmp_path / "s.toml").write_text(NIM2)
    spec = load_spec(tmp_path / "s.toml")
    result = run_claim(spec.claim("nim-p-except-2-20"), RunOptions(methods=("exhaustive", "prove")))
    v = result.final
    assert v.verdict == "refuted" and v.method == "prove", v.scope
    cx = v.counterexamples[0]
    assert cx.bindings == {"x": 2 ** 20, "y": 2 ** 20} and (cx.lhs, cx.rhs) == ("P", "N")
    assert "certificate (b) fails at (1048576, 1048576)" in v.scope
    assert "each of its 2,097,152 options" in v.scope and "vectorised evaluator" in v.scope
    assert "the least counterexample, (1048576, 1048576)" in v.notes[0]
    assert "finds no counterexample" not in " ".join([v.scope, *v.notes])


def test_walnuts_least_failure_is_the_least_counterexample(tmp_path, walnut):
    """(1000, 1001) is claimed wrongly (an N-position: it moves to (1000, 1000)); Walnut's least failure of the
    certificate is there, the engine cannot value a 1001 x 1002 box, and its options' claims are right (Walnut
    decided the certificate below), so its outcome is N."""
    (tmp_path / "nimP.txt").write_text(nim_except(3))
    (tmp_path / "s.toml").write_text(NIM2)
    v = run_claim(load_spec(tmp_path / "s.toml").claim("nim-extra"), RunOptions(methods=("exhaustive", "prove"))).final
    assert v.verdict == "refuted", v.scope
    cx = v.counterexamples[0]
    assert cx.bindings == {"x": 1000, "y": 1001} and (cx.lhs, cx.rhs) == ("N", "P")


WYTHOFF = """[source]
id = "w987"

[game.wythoff]
position = ["x", "y"]
moves = [
  { to = "(x - t, y)", where = "1 <= t <= x" },
  { to = "(x, y - t)", where = "1 <= t <= y" },
  { to = "(x - t, y - t)", where = "1 <= t <= min(x, y)" },
]

[[claim]]
id = "wythoff-987-610"
game = "wythoff"
for_all = "0 <= x and 0 <= y"
window = "x <= 80 and y <= 80"
p_positions = [
  { point = "(n * 987 // 610, n * 987 // 610 + n)", where = "n >= 0" },
  { point = "(n * 987 // 610 + n, n * 987 // 610)", where = "n >= 0" },
]
"""


def test_the_987_610_wythoff_family_is_refuted_by_a_confirmed_failure(write_spec, cli, walnut):
    out = cli("check", str(write_spec(WYTHOFF)), "--no-store", "--json", "--method", "exhaustive,prove").stdout
    claim = json.loads(out)["claims"][0]
    assert claim["verdict"] == "refuted" and claim["method"] == "prove", claim["scope"]
    assert "certificate (a) fails at" in claim["scope"] and "not necessarily the least" in claim["scope"]


LASKER = """[source]
id = "lasker"

[[claim]]
id = "mine"
game = "laskers_nim()"
position = ["n"]
for_all = "n >= 0"
window = "n <= 300"
grundy = "0 if n == 0 else (n - 1 if n % 4 == 0 else (n + 1 if n % 4 == 3 else n))"

[[claim]]
id = "wrong-from-5000"
game = "laskers_nim()"
position = ["n"]
for_all = "1 <= n"
window = "n <= 2000"
grundy = "n if n % 4 in (1, 2) or n == 5000 else (n + 1 if n % 4 == 3 else n - 1)"
"""


@pytest.mark.parametrize("cid, verdict", [("mine", "proved"), ("wrong-from-5000", "refuted")])
def test_the_mex_certificate_runs_from_check(write_spec, cli, walnut, cid, verdict):
    out = cli("check", str(write_spec(LASKER)), "--claim", cid, "--no-store", "--json").stdout
    claim = json.loads(out)["claims"][0]
    assert claim["verdict"] == verdict and claim["method"] == "periodicity", claim["scope"]
    assert "mex certificate for the code 4.3..." in claim["scope"]
    if verdict == "refuted":
        cx = claim["counterexamples"][0]
        assert cx["bindings"] == {"n": 5000} and (cx["lhs"], cx["rhs"]) == (4999, 5000)
        assert "proved for every n" not in claim["scope"]
