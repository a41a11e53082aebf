"""Misère play (issue 27): `play = "misere"` on a declared game, `misere(GAME)` for built-ins and heap games.

Ground truth in misère play comes from the moves with a terminal position as an N-position; a misère sum is valued
as a whole position (never by a nim-sum); a claim that asks a normal-play Grundy value of a misère game is a spec
error (exit status 2); the methods that know normal play only say they do not apply; the local certificate and
Walnut's certificate carry the misère terminal condition, so that the normal-play P-set of a misère game is never
proved.
"""
from __future__ import annotations

import ast
import json
import pathlib
from functools import lru_cache

import pytest

from checkers.options import RunOptions
from checkers.run import run_claim
from nimjos.games.declared import GameDecl, subtraction
from nimjos.games.engine import ReferenceEngine, position_value
from nimjos.games.functions import G, heaps, misere, misere_grundy, nim, octal
from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import SpecError
from nimjos.spec.loader import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[4]
NIM_SPEC = ROOT / "examples" / "misere" / "nim.toml"

NIM2 = {"position": ["x", "y"], "play": "misere",
        "moves": [{"to": "(x - t, y)", "where": "1 <= t <= x"}, {"to": "(x, y - t)", "where": "1 <= t <= y"}]}


# ----------------------------------------------------------------------------- ground truth from the moves

def _misere_outcomes_by_brute_force(n_max: int, options) -> dict:
    """Is each position a misère P-position: an independent recursion (outcomes only, no Grundy values), a
    position being N iff it is terminal or has a P option."""
    @lru_cache(maxsize=None)
    def is_p(pos):
        opts = options(pos)
        return bool(opts) and not any(is_p(q) for q in opts)
    return is_p


def test_terminal_value_is_one_and_mex_elsewhere():
    assert position_value(True, []) == 1 and position_value(False, []) == 0
    assert position_value(True, [1, 2]) == 0 and position_value(True, [0]) == 1


def test_declared_misere_game_from_the_moves():
    decl = GameDecl.declare("nim2", NIM2, Namespace())
    g = decl.instance(())
    assert g.play == "misere"
    is_p = _misere_outcomes_by_brute_force(12, lambda p: tuple(g.options(p)))
    for x in range(13):
        for y in range(13):
            assert (g.grundy((x, y)) == 0) == is_p((x, y)), (x, y)
    # the fast engines (which compute normal play) declined: the reference engine answered
    assert g.dense is None and all("reference" in s for s in g.solved_by)


def test_misere_of_a_built_in_family_and_of_a_subtraction_game():
    g = misere(subtraction(frozenset({1, 2})))
    # by hand: 0 terminal -> 1; 1 -> {0}: mex{1} = 0; 2 -> {1, 0}: mex{0, 1} = 2; 3 -> {2, 1}: mex{2, 0} = 1
    assert [g.grundy(n) for n in range(4)] == [1, 0, 2, 1]
    assert misere(g) is g and misere(subtraction(frozenset({1, 2}))) is g


def test_a_misere_sum_is_not_a_nim_sum():
    m = misere(nim())
    assert m.grundy((1,)) == 0 and m.grundy((1, 1)) != 0      # (1) is P, (1) + (1) is N: no nim-sum rule
    assert m.grundy(()) == 1 and m.grundy((0, 0)) == 1           # the empty position is terminal: N
    assert m.grundy((2, 2)) == 0 and m.grundy((1, 1, 1)) == 0
    assert misere_grundy(nim(), (1, 1, 1)) == 0


def test_heaps_of_a_misere_one_heap_game_is_the_misere_sum():
    decl = GameDecl.declare("s12", {"position": ["n"], "play": "misere",
                                    "moves": [{"to": "n - s", "where": "s in {1, 2} and s <= n"}]}, Namespace())
    total = heaps(decl.instance(()))
    assert total.play == "misere"
    is_p = _misere_outcomes_by_brute_force(0, lambda p: tuple(total.options(p)))
    for h in [(1,), (1, 1), (1, 2), (3, 3), (0, 4), (2, 2, 2)]:
        assert (total.grundy(h) == 0) == is_p(tuple(sorted(h))), h


def _kayles_rows(n: int, take: set[int]) -> tuple:
    """The options of a row of n pins when a move knocks down k adjacent pins (k in `take`), from the pins
    themselves: (left row, right row) for every place, empty rows dropped."""
    out = set()
    for k in take:
        for start in range(n - k + 1):
            out.add(tuple(sorted(r for r in (start, n - start - k) if r)))
    return tuple(out)


@pytest.mark.parametrize("code, take, top", [("0.77", {1, 2}, 26), ("0.07", {2}, 30)])
def test_misere_octal_single_heaps_against_pin_rows(code, take, top):
    """Differential: the engine's misère outcomes of single heaps of Kayles and Dawson's Kayles against an
    independent recursion over rows of pins (sums as sorted tuples of rows)."""
    @lru_cache(maxsize=None)
    def is_p(rows: tuple) -> bool:
        opts = []
        for i, r in enumerate(rows):
            rest = rows[:i] + rows[i + 1:]
            opts.extend(tuple(sorted(rest + parts)) for parts in _kayles_rows(r, take))
        return bool(opts) and not any(is_p(q) for q in opts)
    g = misere(octal(code))
    assert [n for n in range(top + 1) if g.grundy(n) == 0] == [n for n in range(top + 1) if is_p((n,) if n else ())]


def test_the_engine_refuses_nothing_of_normal_play():
    nim_n = GameDecl.declare("nimn", {**NIM2, "play": "normal"}, Namespace()).instance(())
    e = ReferenceEngine()
    e.solve(nim_n, [(3, 3)])
    assert nim_n.lookup((3, 3)) == 0 and nim_n.lookup((0, 0)) == 0


# ----------------------------------------------------------------------------- the spec language refuses normal values

def test_G_of_a_misere_game_is_a_spec_error():
    with pytest.raises(SpecError, match="normal-play Grundy value"):
        G(misere(nim()), (1, 2))


def _spec(tmp_path, body: str) -> pathlib.Path:
    path = tmp_path / "m.toml"
    path.write_text('[source]\nid = "m"\n\n[game.nim2]\nposition = ["x", "y"]\nplay = "misere"\n'
                    'moves = [ { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" } ]\n\n'
                    + body)
    return path


@pytest.mark.parametrize("body, field", [
    ('[[claim]]\nid = "g"\ngame = "nim2"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 3 and y <= 3"\n'
     'grundy = "x ^ y"\n', "grundy"),
    ('[[claim]]\nid = "h"\nfor_all = "0 <= x"\nwindow = "x <= 3"\nholds = \'G(misere(nim()), (x, x)) == 0\'\n', "holds"),
    ('[[claim]]\nid = "v"\ngame = \'misere(octal("0.77"))\'\nposition = ["n"]\n'
     'values = { from = 0, grundy = [1, 0, 2] }\n', "values"),
    ('[[claim]]\nid = "p"\ngame = \'misere(octal("0.77"))\'\nposition = ["n"]\nfor_all = "0 <= n"\nwindow = "n <= 30"\n'
     'periodic = { period = 12, preperiod = 0 }\n', "periodic"),
])
def test_a_normal_value_claim_on_a_misere_game_is_refused_at_load(tmp_path, body, field):
    path = _spec(tmp_path, body)
    with pytest.raises(SpecError) as info:
        spec = load_spec(path)
        for claim in spec.claims:
            claim.plan()
    err = info.value
    assert err.field == field and err.file == str(path) and err.line is not None
    assert "misère" in str(err.message)


def test_a_normal_value_claim_exits_with_status_2(tmp_path, cli):
    path = _spec(tmp_path, '[[claim]]\nid = "g"\ngame = "nim2"\nfor_all = "0 <= x and 0 <= y"\n'
                           'window = "x <= 3 and y <= 3"\ngrundy = "x ^ y"\n')
    r = cli("check", str(path), "--no-store")
    assert r.returncode == 2, r.stdout + r.stderr
    assert "misère" in r.stdout + r.stderr and "grundy" in r.stdout + r.stderr


def test_an_unknown_play_convention_is_refused(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('[source]\nid = "p"\n\n[game.g]\nposition = ["n"]\nplay = "misère"\n'
                    'moves = [ { to = "n - 1", where = "n >= 1" } ]\n')
    with pytest.raises(SpecError, match="play convention") as info:
        load_spec(path)
    assert info.value.field == "play"


# ----------------------------------------------------------------------------- the methods

@pytest.fixture(scope="module")
def nim_spec():
    return load_spec(NIM_SPEC)


def _run(spec, claim_id: str, methods=None):
    return run_claim(spec.claim(claim_id), RunOptions(methods=methods) if methods else RunOptions()).final


def test_misere_two_heap_nim_is_proved_by_walnuts_misere_certificate(nim_spec, walnut):
    v = _run(nim_spec, "misere-two-heap-nim", ("exhaustive", "prove"))
    assert v.verdict == "proved", v.scope
    assert "misère" in v.scope and "(c) no terminal position" in v.scope


def test_the_normal_play_set_of_the_misere_game_is_never_proved(nim_spec, walnut):
    # the prover alone (no window first): Walnut's misère certificate fails at the terminal position
    v = _run(nim_spec, "normal-play-set-for-misere-two-heap-nim", ("prove",))
    assert v.verdict == "refuted", v.scope
    assert v.counterexamples[0].bindings == {"x": 0, "y": 0}
    # and the sampler's local certificate: condition (c) at the terminal position
    s = _run(nim_spec, "normal-play-set-for-misere-two-heap-nim", ("sample",))
    assert s.verdict == "refuted" and s.counterexamples[0].bindings == {"x": 0, "y": 0}


@pytest.mark.parametrize("claim_id", ["bouton-normal-read-as-misere", "bouton-misere-threshold-2",
                                      "normal-play-set-for-misere-two-heap-nim"])
def test_wrong_readings_are_refuted_at_the_smallest_counterexample(nim_spec, claim_id):
    claim = nim_spec.claim(claim_id)
    v = run_claim(claim, RunOptions(methods=("exhaustive",))).final
    assert v.verdict == "refuted"
    want = ast.literal_eval(claim.expect_counterexample)
    assert tuple(v.counterexamples[0].bindings.values()) == (want if isinstance(want, tuple) else (want,))


def test_bouton_misere_is_checked_and_sampled_never_reduced(nim_spec):
    result = run_claim(nim_spec.claim("bouton-misere"))
    by_method = {v.method: v for v in result.verdicts}
    assert by_method["exhaustive"].verdict == "checked" and by_method["exhaustive"].instances == 3002
    assert "misère play" in by_method["exhaustive"].scope
    assert by_method["prove"].verdict == "inconclusive" and by_method["prove"].scope.startswith("not applicable")
    assert "no Sprague-Grundy reduction" in by_method["prove"].scope
    assert by_method["sample"].verdict == "sampled" and "no Sprague-Grundy reduction" in by_method["sample"].scope
    assert result.final.verdict == "sampled"


def test_a_misere_declared_game_under_heaps_is_never_reduced(tmp_path):
    path = tmp_path / "h.toml"
    path.write_text('[source]\nid = "h"\n\n[game.nim1]\nposition = ["x"]\nplay = "misere"\n'
                    'moves = [ { to = "x - t", where = "1 <= t <= x" } ]\n\n'
                    '[[claim]]\nid = "one"\ngame = "nim1"\nfor_all = "0 <= x"\nwindow = "x <= 30"\n'
                    'p_positions = "x == 1"\nexpect = "holds"\n\n'
                    '[[claim]]\nid = "sum"\ngame = "heaps(nim1)"\nposition = ["h"]\n'
                    'for_all = "n >= 1 and len(h) == n and all(x >= 0 for x in h)"\n'
                    'window = "1 <= n <= 3 and h in multisets(n, 0, 4)"\np_positions = "nimsum(h) == 0"\n'
                    'expect = "refuted"\n')
    spec = load_spec(path)
    prove = run_claim(spec.claim("sum"), RunOptions(methods=("prove",))).final
    assert prove.verdict == "inconclusive" and prove.scope.startswith("not applicable") and "misère" in prove.scope
    window = run_claim(spec.claim("sum"), RunOptions(methods=("exhaustive",))).final
    assert window.verdict == "refuted" and window.counterexamples[0].bindings["h"] == (0,)


def test_every_verdict_of_the_misere_examples(tmp_path, cli_process):
    r = cli_process("check", str(NIM_SPEC), "--json", "--no-store", timeout=600, cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert all(c["agrees"] for c in out["claims"]), [(c["id"], c["verdict"]) for c in out["claims"]]


def test_the_report_page_says_misere_play_beside_the_game(tmp_path, cli):
    store, out = tmp_path / "r.sqlite", tmp_path / "out"
    for argv in (["check", str(NIM_SPEC), "--claim", "normal-play-set-for-misere-two-heap-nim", "--store", str(store)],
                 ["report", "--store", str(store), "--out", str(out), "--measured", str(tmp_path / "none")]):
        r = cli(*argv)
        assert r.returncode in (0, 1), r.stdout + r.stderr
    page = (out / "claims" / "nim--normal-play-set-for-misere-two-heap-nim.md").read_text()
    assert "Game `nim2`, misère play.\n\n**" in page


@pytest.mark.parametrize("body", [
    # G of a misère game behind a definition: the window's evaluation (vectorised or scalar) refuses it
    '[define]\n"h(x)" = "G(nim2, (x, x))"\n\n[[claim]]\nid = "d"\nfor_all = "0 <= x"\nwindow = "x <= 5"\n'
    'holds = "h(x) == 0"\n',
    # a misère game behind a definition: its play convention is not in the claim's text, so no method may judge it
    '[define]\n"mg" = "misere(nim())"\n\n[[claim]]\nid = "m"\ngame = "mg"\nposition = ["h"]\n'
    'for_all = "n == 2 and len(h) == n and all(x >= 0 for x in h)"\nwindow = "h in multisets(n, 0, 3)"\n'
    'p_positions = "nimsum(h) == 0"\n',
])
def test_misere_play_hidden_in_a_definition_is_a_spec_error(tmp_path, body):
    spec = load_spec(_spec(tmp_path, body))
    with pytest.raises(SpecError, match="misère"):
        run_claim(spec.claims[0], RunOptions(methods=("exhaustive",)))


def test_nimjos_grundy_says_misere_values(cli):
    r = cli("grundy", f"{NIM_SPEC}::nim2", "--window", "0 <= x <= 3 and 0 <= y <= 3", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert "misère play" in out["game"]
    assert out["values"][0][0] == 1 and out["values"][1][1] == 1 and out["values"][2][2] == 0


SUB12 = ('[game.sub12]\nposition = ["n"]\nplay = "misere"\nmoves = [ { to = "n - s", where = "1 <= s <= 2 and s <= n" } ]\n\n'
         '[[claim]]\nid = "c"\ngame = "sub12"\nfor_all = "0 <= n"\nwindow = "n <= 60"\np_positions = "{}"\n')


@pytest.mark.parametrize("p_set, verdict, at", [
    ("n % 3 == 1", "proved", None),                   # misère subtraction {1, 2}: P iff n = 1 (mod 3)
    ("n % 3 == 0", "refuted", 0),                     # the normal-play set: 0 is terminal, an N-position
    ("n % 3 == 1 or n == 0", "refuted", 0),           # (c) fails: a terminal position in the set
])
def test_z3_certificate_in_misere_play(tmp_path, p_set, verdict, at):
    from checkers.context import CheckContext
    from checkers.prove.method import _prove_with_z3
    path = tmp_path / "z.toml"
    path.write_text('[source]\nid = "z"\n\n' + SUB12.replace("{}", p_set))
    claim = load_spec(path).claims[0]
    context = CheckContext.for_claim()
    with context.installed():
        v = _prove_with_z3(claim, RunOptions(), (), context)
    assert v.verdict == verdict, v.scope
    if at is None:
        assert "in misère play, (c) no terminal position in the set" in v.scope
    else:
        assert v.counterexamples[0].bindings == {"n": at}


@pytest.mark.parametrize("body, where, shown", [
    ('[[claim]]\nid = "mm"\ngame = "misere(misere(nim()))"\nposition = ["h"]\n'
     'for_all = "n == 2 and len(h) == n and all(x >= 0 for x in h)"\nwindow = "h in multisets(n, 0, 3)"\n'
     'p_positions = "nimsum(h) == 0"\n', "11: claim 'mm', field 'game'", "misere(misere(nim()))"),
    ('[[claim]]\nid = "md"\ngame = "misere(nim2)"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 3 and y <= 3"\n'
     'p_positions = "x == y"\n', "11: claim 'md', field 'game'", "misere(nim2)"),
    ('[define]\nmn = "misere(nim())"\n\n[[claim]]\nid = "mf"\nfor_all = "0 <= x <= 3"\n'
     'holds = "misere_grundy(misere(mn), (x,)) >= 0"\n', "15: claim 'mf', field 'holds'", "misere(mn)"),
    ('[define]\nmm = "misere(misere(nim()))"\n', "10: definition 'mm'", "misere(misere(nim()))"),
])
def test_misere_of_a_misere_game_is_refused_at_load(tmp_path, cli, body, where, shown):
    """misere(misere(G)) was silently misère G: now a load error naming the file, line and field (exit status 2)."""
    path = _spec(tmp_path, body)
    r = cli("check", path, "--no-store")
    assert r.returncode == 2 and r.stdout == "", r.stderr
    assert f"{path}:{where}: {shown}: misere(GAME) of a game already in misère play" in r.stderr, r.stderr
    assert "misère play applied twice is still misère play" in r.stderr


def test_misere_of_a_misere_game_hidden_from_the_loader_is_refused_when_evaluated():
    from nimjos.games.functions import FAMILIES
    with pytest.raises(Exception, match="is already in misère play"):
        FAMILIES["misere"](misere(nim()))
