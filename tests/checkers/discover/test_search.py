"""nimjos discover: descriptions fitted on a game's table (from its moves), printed as claims, checked like any claim.

The printed spec is checked again by ``nimjos check``, which must give the same verdict; a fit that holds on the
small box but not on the larger one is never printed; a game no formula of the grammar describes gets "no
description", with the classes tried.
"""
from __future__ import annotations

import ast
import json
import tomllib
from pathlib import Path

import numpy as np

from checkers.discover.grammar import fit_grundy, fit_p_set
from checkers.discover.automaton import learn
from checkers.discover.search import AUTOMATA, AUTOMATON, P_FORMULAS, GameSource, discover, p_classes
from nimjos.app.cli import main
from nimjos.api.discover import game_source, toml_value
from nimjos.lang.build import binary, compare, conjunction, constant, name, show
from nimjos.spec.loader import load_spec

ROOT = Path(__file__).resolve().parents[3]
SPEC_003 = ROOT / "specs" / "003_turn_nim_and_weighted_nim.toml"
SPEC_004 = ROOT / "specs" / "004_cyclic_nimhoff_delete_nim.toml"


def _discover_json(capsys, *argv: str) -> tuple[int, dict]:
    code = main(["discover", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def _check_json(capsys, path: Path) -> dict[str, str]:
    main(["check", str(path), "--json", "--jobs", "1"])
    return {c["id"]: c["verdict"] for c in json.loads(capsys.readouterr().out)["claims"]}


def test_a_subtraction_game_is_discovered_periodic_and_check_on_the_written_spec_agrees(capsys, tmp_path):
    out = tmp_path / "sub.toml"
    code, found = _discover_json(capsys, "subtraction({1, 2, 3})", "--window", "100", "--out", str(out))
    assert code == 0
    assert [f["class"] for f in found["found"]] == ["periodic"]
    assert "period = 4, preperiod = 0" in found["found"][0]["statement"]
    assert found["found"][0]["verdict"] == "proved"
    assert _check_json(capsys, out) == {"discovered-periodic": "proved"}


def test_two_heap_nim_declared_by_its_moves_gets_its_p_positions_and_grundy_values_proved(capsys, tmp_path, walnut):
    out = tmp_path / "nim2.toml"
    code, found = _discover_json(capsys, f"{SPEC_004}::nim2", "--window", "15", "--out", str(out))
    assert code == 0
    by_class = {f["class"]: f for f in found["found"]}
    assert by_class["P-positions formula"]["statement"] == 'p_positions = "x == y"'
    assert by_class["Grundy formula"]["statement"] == 'grundy = "xor(x, y)"'
    # the written spec declares the game and checks to the same verdicts
    spec = load_spec(out)
    assert "nim2" in spec.games
    written = _check_json(capsys, out)
    assert written == {"discovered-p-positions": by_class["P-positions formula"]["verdict"],
                       "discovered-grundy": by_class["Grundy formula"]["verdict"]}
    assert set(written.values()) == {"proved"}


def test_a_fit_that_fails_on_the_larger_table_is_never_printed():
    # the P-positions are x == y except (20, 20): the small box (0..15) fits "x == y", the larger one (0..31) breaks
    # it, and neither a formula nor an automaton learned on the small box is printed
    def table_of(highs):
        x, y = np.meshgrid(np.arange(highs[0] + 1), np.arange(highs[1] + 1), indexing="ij")
        g = (x ^ y).astype(np.int64)
        g[(x == 20) & (y == 20)] = 7
        return g
    result = discover(GameSource("fake", ("x", "y")), table_of, fit_size=15, prove=False)
    assert result.found == []
    assert result.tried == [*p_classes(2), "Grundy formula", *AUTOMATA.values()]
    assert "no stable automaton" in result.closest
    # each class says why: the simplest fit of the small box and the least position where the larger box breaks it
    assert result.misses["P-positions formula"] == ("'x == y' agrees with the table on x <= 15 and y <= 15 but not on "
                                                    "x <= 31 and y <= 31: wrong at x = 20, y = 20 (the table: False)")
    assert result.near_miss.startswith('p_positions = "x == y" (P-positions formula; checked on x <= 15 and y <= 15')
    assert set(result.misses) == set(result.tried)


def test_no_description_on_a_table_the_grammar_cannot_state(capsys):
    rng = np.random.default_rng(5)
    noise = rng.integers(0, 3, size=(64, 64))
    result = discover(GameSource("noise", ("x", "y")), lambda highs: noise[:highs[0] + 1, :highs[1] + 1],
                      fit_size=15, prove=False)
    assert result.found == []


def test_conjunctions_have_no_needless_atom():
    n = np.arange(200)
    fits = [show(f) for f in fit_p_set(("n",), [n], n % 4 == 1)]
    assert fits[0] == "n % 4 == 1"
    assert all("n % 2 == 1 and" not in f for f in fits)


def test_the_grundy_grammar_finds_a_sum_and_refuses_what_is_not_exact():
    x, y = np.arange(10).repeat(10), np.tile(np.arange(10), 10)
    assert [show(f) for f in fit_grundy(("x", "y"), [x, y], x + y)] == ["x + y"]
    assert fit_grundy(("x", "y"), [x, y], x + y + (x == 9)) == []


def test_a_declared_game_with_params_is_named_with_them_and_its_declaration_copied():
    source = game_source(f"{SPEC_004}::cyclic_nimhoff2", ["h = 3"])
    assert source.claim_game == "cyclic_nimhoff2(3)"
    assert source.declarations.startswith("[game.cyclic_nimhoff2]")
    assert 'params = [ "h" ]' in source.declarations


def test_toml_values_round_trip():
    value = {"moves": [{"to": "(x - t, y)", "where": 'a in {1, 2} and "q" != "\\\\"'}], "n": 3, "ok": True}
    text = "\n".join(f"{k} = {toml_value(v)}" for k, v in value.items())
    assert tomllib.loads(text) == value


def test_weighted_nim_of_003_has_no_description_in_these_classes_and_shows_the_best_window_checked_one(capsys):
    # Definition 3.1: P compares a coordinate with an exponent, which no base-2 automaton states for every y
    code, found = _discover_json(capsys, f"{SPEC_003}::weighted_nim", "--window", "15")
    assert code == 1 and found["found"] == []
    assert found["tried"] == [*p_classes(2), "Grundy formula", *AUTOMATA.values()]
    assert "no stable automaton" in found["closest"] and "x < 32 and y < 32" in found["closest"]


def _popcount_parity(v: np.ndarray) -> np.ndarray:
    out = np.zeros_like(v)
    for bit in range(12):
        out ^= (v >> bit) & 1
    return out


def test_an_automatic_p_set_outside_the_grammar_is_learned_as_an_automaton_stated_as_a_claim():
    # P: x and y share no 1-bit and x has an even number of 1-bits (automatic, not a formula of the grammar)
    def table_of(highs):
        x, y = np.meshgrid(np.arange(highs[0] + 1), np.arange(highs[1] + 1), indexing="ij")
        return np.where(((x & y) == 0) & (_popcount_parity(x) == 0), 0, 1)
    result = discover(GameSource("t", ("x", "y")), table_of, fit_size=31, prove=False)
    assert [f.klass for f in result.found] == [AUTOMATON]
    found = result.found[0]
    assert found.verdict == "not checked" and found.states == 3
    assert found.statement == 'p_positions = "learned_P(x, y)"' and found.statement in found.claim
    assert found.stored.startswith("msd_2 msd_2\n\n0 1")


def test_a_learned_automaton_reads_numbers_not_words():
    # leading zeros name the same position: the automaton of the multiples of 3 learned below 2^5 agrees with them
    # on words twice as long, which it was never shown
    n = np.arange(1 << 10)
    learned = learn(n % 3 == 0, 5)
    assert learned.states == 3
    assert np.array_equal(learned.accepts([n]), n % 3 == 0)


def test_josephus_nim_of_002_at_level_0_is_proved_from_its_moves(capsys, walnut):
    # the order relation first: Walnut then knows that x - y is a natural number where the difference is read
    code, found = _discover_json(capsys, str(ROOT / "specs" / "002_josephus_nim.toml") + "::josephus_nim",
                                 "--window", "31")
    assert code == 0
    p_set = found["found"][0]
    assert p_set["statement"] == 'p_positions = "2 * y <= x and (x - y) & (x - y + 1) == 0"'
    assert p_set["verdict"] == "proved" and p_set["states"] > 0


def test_a_fit_the_methods_refute_beyond_the_tables_is_listed_as_refuted_and_never_printed(tmp_path):
    # a table that lies (P only on the even diagonal) for Nim on two heaps: every fit is refuted by the checks
    # against the real game's moves, and none is printed or written
    def table_of(highs):
        x, y = np.meshgrid(np.arange(highs[0] + 1), np.arange(highs[1] + 1), indexing="ij")
        g = (x ^ y).astype(np.int64)
        g[(x == y) & (x % 2 == 1)] = 5
        return g
    out = tmp_path / "lie.toml"
    result = discover(game_source(f"{SPEC_004}::nim2", []), table_of, fit_size=7, out=out)
    assert result.refuted and all(s.startswith("p_positions = ") for s in result.refuted)
    assert not any(f.klass == "P-positions formula" for f in result.found)
    assert all(f.verdict != "refuted" for f in result.found)


def test_an_automaton_the_next_power_of_two_breaks_is_learned_again_when_rounds_allow():
    # P: x == y below 16, and x == y with x even from 16 on (automatic): the automaton RPNI learns below 16 fails
    # below 32; learned again on each larger box, the one learned below 128 holds below 256
    def table_of(highs):
        x, y = np.meshgrid(np.arange(highs[0] + 1), np.arange(highs[1] + 1), indexing="ij")
        p = (x == y) & ((x < 16) | (x % 2 == 0))
        return np.where(p, 0, 1 + (x + y) % 2)
    one = discover(GameSource("t", ("x", "y")), table_of, fit_size=15, prove=False, rounds=1)
    assert one.found == [] and "1 confirmation" in one.closest
    four = discover(GameSource("t", ("x", "y")), table_of, fit_size=15, prove=False, rounds=4)
    assert [f.klass for f in four.found] == [AUTOMATON] and four.found[0].verdict == "not checked"
    assert "x < 256 and y < 256" in four.found[0].scope
    assert four.positions == sum(2 ** (2 * k) for k in range(5, 9))   # the boxes below 32, ..., 256 (16: a corner)


# ----------------------------------------------------------------------------- misère play

MTWO = ('[source]\nid = "mtwo"\n\n[game.mtwo]\nposition = ["n"]\nplay = "misere"\n'
        'moves = [ { to = "n - 2", where = "n >= 2" } ]\n')


def _misere_table(highs: tuple[int, ...]) -> np.ndarray:
    """Take exactly 2 in misère play, by an independent recursion on outcomes: 0 and 1 are terminal (N), n is P
    exactly when its one option n - 2 is N. The misère Grundy values are 1 (N) and 0 (P) here."""
    p = []
    for n in range(highs[0] + 1):
        p.append(n >= 2 and not p[n - 2])
    return np.array([0 if x else 1 for x in p])


def test_a_misere_game_is_fitted_by_its_p_positions_never_by_normal_play_values(tmp_path):
    path = tmp_path / "mtwo.toml"
    path.write_text(MTWO)
    source = game_source(f"{path}::mtwo", [])
    assert source.misere
    found = discover(source, _misere_table, fit_size=100, prove=False)
    assert found.tried == ["periodic P-positions"]
    assert [f.statement for f in found.found] == ['p_positions = "n % 4 in {2, 3}"']
    assert "periodic =" not in found.found[0].claim and "grundy =" not in found.found[0].claim
    # the written claim loads: a claim on a misère game that states its P-positions
    spec = load_spec(_write_found(tmp_path, source, found))
    assert spec.claims[0].plan().misere


def _write_found(tmp_path: Path, source: GameSource, found) -> Path:
    from checkers.discover.search import spec_text
    out = tmp_path / "written.toml"
    out.write_text(spec_text(source, [f.claim for f in found.found]))
    return out


def test_a_misere_declared_game_s_p_set_is_printed_and_proved(tmp_path, cli, walnut):
    path = tmp_path / "mtwo.toml"
    path.write_text(MTWO)
    r = cli("discover", f"{path}::mtwo", "--window", "100")
    assert r.returncode == 0, r.stderr
    assert "periodic P-positions: proved (prove" in r.stdout and "in misère play" in r.stdout
    assert 'p_positions = "n % 4 in {2, 3}"' in r.stdout and "periodic =" not in r.stdout


def test_a_claim_discover_wrote_that_does_not_load_is_its_own_fault_never_the_user_s(tmp_path, cli, monkeypatch):
    import checkers.discover.search as search
    path = tmp_path / "mtwo.toml"
    path.write_text(MTWO)
    original = search.claim_block
    monkeypatch.setattr(search, "claim_block", lambda *a: original(*a).replace("p_positions =", "p_position ="))
    r = cli("discover", f"{path}::mtwo", "--window", "100")
    assert r.returncode == 3 and r.returncode != 2
    assert r.stderr.startswith("nimjos discover: internal error: nimjos discover wrote a claim that does not load")
    assert "a fault of nimjos discover, not of your spec" in r.stderr
    assert "discovered.toml" not in r.stderr and str(tmp_path) not in r.stderr


# ----------------------------------------------------------------------------- domains, disjunctions, exceptions

CLASSICS = ROOT / "examples" / "discover" / "classics.toml"


def _fit_only(target: str, domain: str | None = None, size: int = 15):
    """Discover on a game of examples/discover/classics.toml without checking (the fit and the confirmation only)."""
    from nimjos.api.discover import table_function
    source = game_source(target, [], domain)
    return discover(source, table_function(target, [], source.coords, source.domain), fit_size=size, prove=False)


def test_silver_dollar_is_fitted_on_its_domain_and_the_claim_states_it():
    found = _fit_only(f"{CLASSICS}::silver_dollar", "a < b < c")
    p_set = found.found[0]
    assert (p_set.klass, p_set.statement) == ("P-positions formula", 'p_positions = "c == a + b + 1"')
    assert 'for_all = "0 <= a and 0 <= b and 0 <= c and (a < b < c)"' in p_set.claim
    # the positions valued are those of the domain only (a < b < c below 32; those below 16 are its corner)
    assert found.positions == 4960


def test_a_game_s_domain_field_is_read_and_the_command_s_domain_overrides_it():
    assert game_source(f"{CLASSICS}::greedy_nim", []).domain == "x <= y <= z"
    assert game_source(f"{CLASSICS}::greedy_nim", [], "x < y <= z").domain == "x < y <= z"
    found = _fit_only(f"{CLASSICS}::greedy_nim")
    assert [(f.klass, f.statement) for f in found.found if f.klass.startswith("P")] == \
        [("P-positions disjunction", 'p_positions = "z == 0 or (x < y and y == z)"')]


def test_misere_nim_on_two_heaps_is_a_formula_with_a_finite_exception_set():
    found = _fit_only(f"{CLASSICS}::misere_nim2", size=31)
    assert found.tried == list(P_FORMULAS[:3])
    assert [f.statement for f in found.found] == \
        ['p_positions = "(x == y and x >= 2) or (x == 0 and y == 1) or (x == 1 and y == 0)"']


def test_a_bad_domain_is_refused_naming_its_field(tmp_path, cli):
    r = cli("discover", f"{CLASSICS}::silver_dollar", "--domain", "a < d")
    assert r.returncode == 2 and "--domain 'a < d': the domain names d" in r.stderr and "Traceback" not in r.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('[source]\nid = "b"\n\n[game.g]\nposition = ["x"]\ndomain = "x < q"\n'
                   'moves = [ { to = "x - 1", where = "x >= 1" } ]\n')
    r = cli("discover", f"{bad}::g")
    assert r.returncode == 2 and "bad.toml:6" in r.stderr and "field 'domain'" in r.stderr


def test_the_classics_are_discovered_and_proved_from_their_moves(capsys, walnut):
    expected = {"silver_dollar": ("P-positions formula", 'p_positions = "c == a + b + 1"'),
                "greedy_nim": ("P-positions disjunction", 'p_positions = "z == 0 or (x < y and y == z)"'),
                "misere_nim2": ("P-positions with exceptions",
                                'p_positions = "(x == y and x >= 2) or (x == 0 and y == 1) or (x == 1 and y == 0)"'),
                "wythoff": ("P-positions Beatty pair",
                            'p_positions = "(x <= y and x == floor_phi(y - x)) or (y <= x and y == floor_phi(x - y))"'),
                "wythoff2": ("P-positions Beatty pair",
                             'p_positions = "(x <= y and (y - x) % 2 == 0 and x == floor_sqrt2((y - x) // 2)) or '
                             '(y <= x and (x - y) % 2 == 0 and y == floor_sqrt2((x - y) // 2))"')}
    numerations = {"wythoff": "msd_fib", "wythoff2": "msd_pell"}
    for game, (klass, statement) in expected.items():
        code, found = _discover_json(capsys, f"{CLASSICS}::{game}", "--window", "15")
        assert code == 0
        p_set = [f for f in found["found"] if f["class"].startswith("P-positions")]
        assert [(f["class"], f["statement"], f["verdict"]) for f in p_set] == [(klass, statement, "proved")], game
        assert f"({numerations.get(game, 'msd_2')})" in p_set[0]["scope"]


def test_discover_checks_its_claims_on_a_spec_built_in_memory(tmp_path, monkeypatch):
    # nothing is written or read back: no temporary file, no file in the working folder
    import tempfile
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(tempfile, "TemporaryDirectory", lambda *a, **k: (_ for _ in ()).throw(AssertionError))
    game = GameSource("subtraction({1, 2})", ("n",), heap=True)
    found = discover(game, lambda highs: np.arange(highs[0] + 1) % 3, fit_size=30)
    assert [f.verdict for f in found.found] == ["proved"]
    assert list(tmp_path.iterdir()) == []


def test_a_spec_in_memory_reads_its_stored_automata_from_the_files_given():
    text = ('[source]\nid = "m"\n\n[automaton.even]\nfile = "even.txt"\n\n[[claim]]\nid = "c"\n'
            'for_all = "0 <= n"\nwindow = "n <= 20"\nholds = "even(n) == (n % 2 == 0)"\n')
    walnut = "msd_2\n\n0 1\n0 -> 0\n1 -> 1\n\n1 0\n0 -> 0\n1 -> 1\n"
    spec = load_spec("nowhere/m.toml", text=text, files={"even.txt": walnut})
    assert spec.claim("c").id == "c"


def test_a_game_s_domain_naming_a_param_is_refused_by_discover(tmp_path, cli):
    # the claims discover writes name the game's instance (g(3)): a param in the domain would have no value there
    path = tmp_path / "p.toml"
    path.write_text('[source]\nid = "p"\n\n[game.g]\nparams = ["h"]\nposition = ["x"]\ndomain = "x <= h"\n'
                    'moves = [ { to = "x - 1", where = "x >= 1" } ]\n')
    r = cli("discover", f"{path}::g", "--param", "h=3")
    assert r.returncode == 2 and "the domain of game g 'x <= h': the domain names h" in r.stderr


def test_a_learned_automaton_is_read_back_as_a_residue_formula_and_never_as_one_the_table_does_not_show():
    from checkers.discover.grammar import read_back
    x, y = (a.ravel() for a in np.meshgrid(np.arange(32), np.arange(32), indexing="ij"))
    assert show(read_back(("x", "y"), [x, y], x == y % 5, 13)[0]) == "x == y % 5"
    assert show(read_back(("x", "y"), [x, y], (x % 7 == 3) & (y % 2 == 0), 14)[0]) == "y % 2 == 0 and x % 7 == 3"
    # the moduli come from the automaton's size: a residue modulo 7 is not tried for an automaton of 5 states
    assert read_back(("x", "y"), [x, y], (x % 7 == 3) & (y % 2 == 0), 5) == []
    # x and y share no 1-bit and x has an even number of 1-bits: no formula of the read-back classes
    assert read_back(("x", "y"), [x, y], ((x & y) == 0) & (_popcount_parity(x) == 0), 3) == []


def test_an_automaton_not_read_back_is_printed_beside_its_claim():
    from checkers.discover.search import Found
    from nimjos.app.discover_cli import report_lines
    shown = Found(AUTOMATON, 'p_positions = "learned_P(x, y)"', "[[claim]]", verdict="proved",
                  stored="msd_2 msd_2\n\n0 1\n0 0 -> 0")
    lines = report_lines(_discovery(shown))
    assert "    # msd_2 msd_2" in lines and "    # 0 0 -> 0" in lines
    shown.formula = "x == y"
    assert not any(line.startswith("    # ") for line in report_lines(_discovery(shown)))


def _discovery(found):
    from checkers.discover.search import Discovery
    return Discovery(GameSource("g", ("x", "y")), [AUTOMATON], found=[found], window="x <= 9 and y <= 9")


def test_a_read_back_formula_right_on_the_window_but_not_equal_to_the_automaton_is_never_printed(
        tmp_path, monkeypatch, walnut):
    # the automaton of nim_sub5 is x == y % 5; a candidate wrong only at (0, 4000), far beyond every table, agrees
    # with it on the window: Walnut's equivalence refutes it, and the automaton is printed without a formula
    import checkers.discover.search as search
    from nimjos.api.discover import table_function
    games = tmp_path / "games.toml"
    games.write_text('[source]\nid = "g"\n\n[game.nim_sub5]\nposition = ["x", "y"]\nmoves = [{ to = "(x - t, y)", '
                     'where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= 4 and t <= y" }]\n')
    target = f"{games}::nim_sub5"
    source = game_source(target, [])
    x, y = name("x"), name("y")
    wrong = conjunction([compare(x, ast.Eq, binary(y, ast.Mod, constant(5))),
                         compare(binary(x, ast.Add, y), ast.NotEq, constant(4000))])
    assert show(wrong) == "x == y % 5 and x + y != 4000"
    monkeypatch.setattr(search, "read_back", lambda *_: [wrong])
    result = discover(source, table_function(target, [], source.coords), fit_size=31, rounds=3)
    (auto,) = result.found
    assert (auto.klass, auto.verdict, auto.formula) == (AUTOMATON, "proved", "")
    assert "not read back as a formula: 1 formula(s) agreeing with it on the window were not proved equal" in auto.scope
    assert "discovered-automaton-formula" not in auto.claim


def test_a_failure_names_every_class_tried_and_what_a_theorem_says_when_the_p_positions_thin_out():
    # P-positions at the squares: no periodic pattern, and their share falls on each larger box, so the message
    # says what the theorem on periodic sets' densities then excludes; a periodic table gets no such remark
    def table_of(highs):
        n = np.arange(highs[0] + 1)
        return np.where(np.isin(n, np.arange(n.size) ** 2), 0, 1 + _popcount_parity(n))   # Thue-Morse elsewhere
    result = discover(GameSource("sq", ("n",)), table_of, fit_size=400, prove=False)
    assert result.tried[:2] == ["periodic", "arithmetic-periodic"] and set(result.misses) <= set(result.tried)
    assert "the P-positions thin out" in result.misses["periodic"]
    assert "no periodic description exists" in result.misses["arithmetic-periodic"]
    assert all(k in result.misses for k in AUTOMATA.values())


def test_without_the_formula_classes_wythoff_is_a_fibonacci_automaton_and_base_2_is_excluded_by_a_theorem(
        monkeypatch, walnut):
    # the formula classes left out, the base-2 automaton is not stable, the Fibonacci one is, proved from the moves
    # and read back as the Beatty pair; the base-2 class's line then says which theorem excludes it
    import checkers.discover.search as search
    from nimjos.api.discover import table_function
    target = f"{ROOT / 'examples' / 'discover' / 'classics.toml'}::wythoff"
    source = game_source(target, [])
    monkeypatch.setattr(search, "p_classes", lambda dim: ())
    result = discover(source, table_function(target, [], source.coords))
    (auto,) = result.found
    assert (auto.klass, auto.verdict) == (AUTOMATA["msd_fib"], "proved") and "floor_phi" in auto.formula
    assert result.tried[-2:] == [AUTOMATON, AUTOMATA["msd_fib"]]
    assert "no stable automaton" in result.misses[AUTOMATON]
    assert "excluded by a theorem" in result.misses[AUTOMATON] and "Cobham 1972" in result.misses[AUTOMATON]


def test_the_game_s_spec_is_loaded_once_and_both_tables_come_from_one_game_instance(monkeypatch):
    import nimjos.api.discover as api
    import nimjos.api.tables as tables
    path = ROOT / "tests" / "data" / "tiny.toml"
    spec = load_spec(path)

    def no_second_load(*_):
        raise AssertionError("the spec was loaded again")
    monkeypatch.setattr(api, "load_spec", no_second_load)
    monkeypatch.setattr(tables, "load_spec", no_second_load)
    source = api.game_source(f"{path}::nim1", [], spec=spec)
    table_of = api.table_function(f"{path}::nim1", [], source.coords, spec=spec)
    assert table_of((5,)).tolist() == [0, 1, 2, 3, 4, 5] and table_of((9,)).tolist() == list(range(10))
    # discover values the larger box only: the small one is its corner
    asked = []
    result = discover(source, lambda highs: asked.append(highs) or np.arange(highs[0] + 1), fit_size=30, prove=False)
    assert asked == [(61,)] and result.positions == 62
