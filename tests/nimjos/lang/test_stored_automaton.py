"""Stored automata (nimjos/lang/stored.py, nimjos/spec/automata.py): a spec's ``[automaton.NAME]`` table, validated
once at load (errors name the spec's line and field and the automaton file's line, exit status 2), then NAME(x, y)
a boolean function of that spec; its forms: scalar (the reference), vectorised (the same answers), Walnut (the
automaton installed in Walnut's library and called as ``$name``), Z3 and the fast engines refuse. A right
automaton is proved by Walnut's certificate from the moves; a wrong one is refuted, never proved."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from checkers.discover.automaton import learn
from checkers.discover.search import AUTOMATON, AUTOMATON_CLAIM, READ_BACK_CLAIM
from checkers.z3.terms import Untranslatable
from checkers.z3.translate import Builder
from nimjos.app.cli import main
from nimjos.api.discover import game_source, table_function
from nimjos.games.fast.arith import Unsupported, Vec
from nimjos.games.fast.translate import Translator as FastTranslator
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.registry import STORED_AUTOMATON
from nimjos.lang.stored import DigitAutomaton, StoredAutomaton, read_walnut
from nimjos.lang.syntax import parse
from nimjos.lang.vector import NotVectorisable, vectorise
from nimjos.spec.loader import load_spec
from nimjos.spec.names import spec_namespace

EQUAL = "msd_2 msd_2\n\n0 1\n0 0 -> 0\n1 1 -> 0\n"             # x == y (incomplete: a rejecting sink)
DISJOINT = "msd_2 msd_2\n\n0 1\n0 0 -> 0\n0 1 -> 0\n1 0 -> 0\n"  # x & y == 0
NIM2 = """[game.nim2]
position = ["x", "y"]
moves = [{ to = "(x - k, y)", where = "1 <= k <= x" }, { to = "(x, y - k)", where = "1 <= k <= y" }]
"""
SUB5 = """[game.nim_sub5]
position = ["x", "y"]
moves = [{ to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= 4 and t <= y" }]
"""


def _spec(folder: Path, automaton: str | None, table: str = 'file = "a.txt"', claim: str = "same(x, y)",
          game: str = NIM2, name: str = "same") -> Path:
    if automaton is not None:
        (folder / "a.txt").write_text(automaton)
    text = (f'[source]\nid = "t"\n\n[automaton.{name}]\n{table}\n\n{game}\n[[claim]]\nid = "p"\ngame = '
            f'"{game.split(".")[1].split("]")[0]}"\nfor_all = "x >= 0 and y >= 0"\nwindow = "x <= 12 and y <= 12"\n'
            f'p_positions = "{claim}"\n')
    (folder / "s.toml").write_text(text)
    return folder / "s.toml"


def _verdicts(capsys, path: Path) -> dict[str, str]:
    main(["check", str(path), "--json", "--jobs", "1"])
    return {c["id"]: c["verdict"] for c in json.loads(capsys.readouterr().out)["claims"]}


# ---------------------------------------------------------------- the file and the spec table

def test_a_valid_automaton_is_read_completed_and_called_in_the_spec(tmp_path):
    spec = load_spec(_spec(tmp_path, EQUAL, claim="same(x, y) and same(3, 3) and not same(2, 3)"))
    assert [c.id for c in spec.claims] == ["p"]
    automaton = read_walnut(EQUAL)
    assert automaton.note == "incomplete: completed with a rejecting sink state" and automaton.automaton.states == 2
    assert read_walnut(DigitAutomaton(2, ((0, 1, 1, 0), (1, 1, 1, 1)), (True, False)).walnut()).note == ""


@pytest.mark.parametrize("automaton, table, expected", [
    (EQUAL.replace("1 1 -> 0", "1 2 -> 0"), 'file = "a.txt"', "a.txt:5: the letter '1 2' is not 2 binary digit(s)"),
    (EQUAL.replace("msd_2 msd_2", "msd_3 msd_3"), 'file = "a.txt"', "a.txt:1: the alphabet 'msd_3 msd_3' is not msd_2"),
    (EQUAL + "0 0 -> 1\n\n1 0\n", 'file = "a.txt"', "a.txt:6: state 0 has two targets on the letter 0 0 (here and on "
                                                   "line 4): the automaton is not deterministic"),
    (EQUAL.replace("1 1 -> 0", "1 1 -> 0 1"), 'file = "a.txt"', "not deterministic"),
    (EQUAL.replace("1 1 -> 0", "1 1 -> 7"), 'file = "a.txt"', "a.txt:5: state 0 goes to the undeclared state 7"),
    ("msd_2 msd_2\n\n0 0\n0 0 -> 1\n\n1 1\n0 0 -> 1\n", 'file = "a.txt"', "it reads words, not numbers"),
    (EQUAL, 'file = "missing.txt"', "cannot read 'missing.txt'"),
    (EQUAL, 'file = "../a.txt"', "'../a.txt' leaves the spec's folder"),
    (EQUAL, 'file = "/etc/passwd"', "'/etc/passwd' is an absolute path"),
    (EQUAL, 'file = "a.txt"\nnumeration = "msd_3"', "numeration 'msd_3' is not accepted: only 'msd_2', 'msd_fib'"),
    (EQUAL, 'file = "a.txt"\nnumeration = "msd_fib"', "a.txt:1: the alphabet 'msd_2 msd_2' is not msd_fib on every"),
    (EQUAL.replace("msd_2", "msd_pell").replace("1 1 -> 0", "1 3 -> 0"), 'file = "a.txt"\nnumeration = "msd_pell"',
     "a.txt:5: the letter '1 3' is not 2 digit(s): the alphabet of msd_pell is {0, 1, 2}"),
    (EQUAL, 'file = "a.txt"\nnumration = "msd_2"', "unknown field 'numration'"),
])
def test_a_bad_automaton_is_a_spec_error_naming_file_line_and_field(tmp_path, capsys, automaton, table, expected):
    path = _spec(tmp_path, automaton, table)
    with pytest.raises(SpecError) as err:
        load_spec(path)
    text = str(err.value)
    assert expected in text
    assert text.startswith(f"{path}:5: [automaton.same], field ") or text.startswith(f"{path}:6: [automaton.same]")
    assert main(["check", str(path)]) == 2


def test_a_path_leaving_the_folder_by_a_symbolic_link_is_refused(tmp_path):
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "a.txt").write_text(EQUAL)
    (tmp_path / "spec").mkdir()
    (tmp_path / "spec" / "link.txt").symlink_to(tmp_path / "outside" / "a.txt")
    with pytest.raises(SpecError, match="leaves the spec's folder"):
        load_spec(_spec(tmp_path / "spec", None, 'file = "link.txt"'))


def test_an_automaton_may_not_take_a_builtin_name_and_a_definition_may_not_take_its_name(tmp_path):
    with pytest.raises(SpecError, match="'xor' is already the built-in 'xor' and cannot name an automaton"):
        load_spec(_spec(tmp_path, EQUAL, name="xor", claim="xor(x, y) == 0"))
    path = _spec(tmp_path, EQUAL)
    path.write_text(path.read_text().replace("[game.nim2]", '[define]\n"same(a, b)" = "a == b"\n\n[game.nim2]'))
    with pytest.raises(SpecError) as err:
        load_spec(path)
    # the spec's own automaton is named as such, never called "a built-in"
    assert "'same' is already the stored automaton 'same' ([automaton.same] of this spec) and cannot be redefined" \
        in str(err.value) and "built-in" not in str(err.value)


@pytest.mark.parametrize("edit, expected", [
    # a game, a coordinate, a lambda parameter and a bound variable named as the spec's automaton
    (lambda t: t.replace("[game.nim2]", "[game.same]").replace('game = "nim2"', 'game = "same"'),
     "game name 'same' is already the stored automaton 'same'"),
    (lambda t: t.replace('position = ["x", "y"]', 'position = ["x", "same"]'),
     "'same' is already the stored automaton 'same' ([automaton.same] of this spec) and cannot name a coordinate"),
    (lambda t: t.replace('p_positions = "same(x, y)"', 'p_positions = "all((lambda same: same >= 0)(v) for v in (x, y))"'),
     "lambda parameter 'same' would hide the stored automaton 'same'"),
    (lambda t: t.replace('for_all = "x >= 0 and y >= 0"', 'for_all = "x >= 0 and y >= 0 and 0 <= same <= 2"'),
     "0 <= same <= 2) and (x <= 12 and y <= 12)' but is already the stored automaton same"),
])
def test_a_name_clash_with_a_stored_automaton_names_the_automaton(tmp_path, edit, expected):
    path = _spec(tmp_path, EQUAL)
    path.write_text(edit(path.read_text()))
    with pytest.raises(SpecError) as err:
        load_spec(path)
    assert expected in str(err.value) and "built-in" not in str(err.value)


def test_an_automaton_is_known_only_in_the_spec_that_declares_it(tmp_path):
    (tmp_path / "other").mkdir()
    other = tmp_path / "other" / "s.toml"
    other.write_text(f'[source]\nid = "o"\n\n{NIM2}\n[[claim]]\nid = "p"\ngame = "nim2"\nfor_all = "x >= 0 and y >= 0"\n'
                     'window = "x <= 3 and y <= 3"\np_positions = "same(x, y)"\n')
    load_spec(_spec(tmp_path, EQUAL))
    with pytest.raises(SpecError, match="no function 'same'"):
        load_spec(other)


# ---------------------------------------------------------------- its forms

def test_the_scalar_form_reads_padded_msd_first_digits_and_refuses_negatives_and_booleans():
    disjoint = StoredAutomaton("disjoint", read_walnut(DISJOINT), "d.txt")
    for x in range(40):
        for y in range(40):
            assert disjoint(x, y) == (x & y == 0)
    assert disjoint(2 ** 200, 2 ** 199) and not disjoint(2 ** 200 + 1, 1)
    for bad in ((-1, 0), (True, 0), (0, False), (1,), (1, 2, 3)):
        with pytest.raises(EvalError):
            disjoint(*bad)


def test_the_vectorised_form_agrees_with_the_scalar_form_on_random_and_edge_inputs(tmp_path):
    ns = spec_namespace()
    ns.builtins["disjoint"] = StoredAutomaton("disjoint", read_walnut(DISJOINT), "d.txt")
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.integers(0, 2 ** 40, 500), [0, 1, 2 ** 61, 2 ** 62 - 1, 0, 7]]).astype(np.int64)
    y = np.concatenate([rng.integers(0, 2 ** 40, 500), [0, 0, 2 ** 61, 0, 2 ** 62 - 1, 8]]).astype(np.int64)
    y[:100] = x[:100] & ~np.int64(5)   # some accepted
    got = vectorise(parse("disjoint(x, y + 0) and not disjoint(x, x)"), ns)({"x": x, "y": y})
    want = [ns.builtins["disjoint"](int(a), int(b)) and not ns.builtins["disjoint"](int(a), int(a))
            for a, b in zip(x, y)]
    assert got.tolist() == want
    assert vectorise(parse("disjoint(3, 4)"), ns)({"x": x}) is True
    for text in ("disjoint(x - 1, y)", "disjoint(x < 3, y)", "disjoint(x)"):
        with pytest.raises(NotVectorisable):
            vectorise(parse(text), ns)({"x": np.arange(3), "y": np.arange(3)})


def test_the_registry_states_the_forms_and_z3_and_the_fast_engines_refuse():
    assert STORED_AUTOMATON.reason("vector") is None and STORED_AUTOMATON.reason("walnut") is None
    assert "finite-state predicate" in STORED_AUTOMATON.reason("z3") and STORED_AUTOMATON.reason("fast")
    ns = spec_namespace()
    ns.builtins["disjoint"] = StoredAutomaton("disjoint", read_walnut(DISJOINT), "d.txt")
    z3b = Builder(ns, mode="int")
    with pytest.raises(Untranslatable, match="finite-state predicate"):
        z3b.formula(parse("disjoint(x, y)"), {"x": z3b.var("x"), "y": z3b.var("y")})
    assert z3b.formula(parse("disjoint(4, 3)"), {}) is True or str(z3b.formula(parse("disjoint(4, 3)"), {})) == "True"
    with pytest.raises(Unsupported):
        FastTranslator(ns, {"x": Vec.array(np.arange(4), 3)}).value(parse("disjoint(x, 1)"))


# ---------------------------------------------------------------- Walnut proves a right automaton, refutes a wrong one

def test_walnut_proves_a_right_hand_written_automaton_and_a_wrong_one_is_refuted(tmp_path, capsys, walnut):
    (tmp_path / "right").mkdir()
    (tmp_path / "wrong").mkdir()
    assert _verdicts(capsys, _spec(tmp_path / "right", EQUAL)) == {"p": "proved"}
    assert _verdicts(capsys, _spec(tmp_path / "wrong", DISJOINT)) == {"p": "refuted"}


def test_walnut_refutes_beyond_the_window_an_automaton_right_on_the_window(tmp_path, capsys, walnut):
    # x == y below 16 only (states: no 1-digit yet, then the number of digits read, then a rejecting sink): right
    # on the window x, y <= 12, wrong at (16, 16) and beyond
    wrong = DigitAutomaton(2, ((0, 5, 5, 1), (2, 5, 5, 2), (3, 5, 5, 3), (4, 5, 5, 4), (5, 5, 5, 5), (5, 5, 5, 5)),
                           (True,) * 5 + (False,))
    assert all(wrong.run([x, y]) == (x == y) for x in range(16) for y in range(16)) and not wrong.run([16, 16])
    verdicts = _verdicts(capsys, _spec(tmp_path, wrong.walnut()))
    assert verdicts == {"p": "refuted"}


def test_two_specs_automata_never_share_a_walnut_name():
    a = StoredAutomaton("same", read_walnut(EQUAL), "a.txt")
    b = StoredAutomaton("same", read_walnut(DISJOINT), "b.txt")
    assert a.walnut_name != b.walnut_name and a.walnut_name == StoredAutomaton("q", read_walnut(EQUAL), "c").walnut_name


# ---------------------------------------------------------------- discover writes it, Walnut proves it

def test_an_automatic_p_set_outside_the_grammar_is_proved_from_the_moves_and_check_agrees(tmp_path, capsys, walnut):
    # P: x == y % 5 (x < 5 and x = y mod 5): no formula of the grammar (floors and residues by 2, 3, 4), an
    # automaton of 13 states; learned, written beside the spec, proved by Walnut's certificate from the moves
    games = tmp_path / "games.toml"
    games.write_text(f'[source]\nid = "g"\n\n{SUB5}')
    out = tmp_path / "sub5.toml"
    code = main(["discover", f"{games}::nim_sub5", "--window", "31", "--rounds", "3", "--out", str(out), "--json"])
    found = json.loads(capsys.readouterr().out)
    assert code == 0
    (auto,) = [f for f in found["found"] if f["class"] == AUTOMATON]
    assert auto["statement"] == 'p_positions = "learned_P(x, y)"' and auto["verdict"] == "proved"
    # read back as the formula, proved equal to the automaton by Walnut, and written beside it
    assert auto["formula"] == "x == y % 5" and "read back as 'x == y % 5', proved equal to it" in auto["scope"]
    assert (tmp_path / "sub5_P.txt").read_text().startswith("msd_2 msd_2\n\n0 ")
    assert _verdicts(capsys, out) == {AUTOMATON_CLAIM: "proved", READ_BACK_CLAIM: "proved"}
    # the same spec with one accepting state of the learned automaton flipped: refuted, never proved
    learned = read_walnut((tmp_path / "sub5_P.txt").read_text()).automaton
    flipped = DigitAutomaton(2, learned.transitions, (not learned.accepting[0],) + learned.accepting[1:])
    (tmp_path / "sub5_P.txt").write_text(flipped.walnut())
    assert _verdicts(capsys, out) == {AUTOMATON_CLAIM: "refuted", READ_BACK_CLAIM: "refuted"}


def test_an_automaton_learned_on_too_small_a_box_is_refuted_never_proved(tmp_path, capsys, walnut):
    # nim_sub5's P-set learned below 32 agrees with the table there but not below 64: stated as a claim over the
    # box it was learned on, it is refuted (Walnut's certificate, confirmed by the engine), never proved
    games = tmp_path / "games.toml"
    games.write_text(f'[source]\nid = "g"\n\n{SUB5}')
    target = f"{games}::nim_sub5"
    table = np.asarray(table_function(target, [], game_source(target, []).coords)((63, 63)))
    small = learn(table == 0, 5)
    assert np.array_equal(small.accepts([*np.meshgrid(np.arange(32), np.arange(32), indexing="ij")]), table[:32, :32] == 0)
    assert not np.array_equal(small.accepts([*np.meshgrid(np.arange(64), np.arange(64), indexing="ij")]), table == 0)
    path = _spec(tmp_path, small.walnut(), game=SUB5)
    path.write_text(path.read_text().replace("x <= 12 and y <= 12", "x <= 31 and y <= 31"))
    assert _verdicts(capsys, path) == {"p": "refuted"}


def test_a_negative_argument_is_ill_defined_in_every_method_and_never_proved(tmp_path, capsys, walnut):
    (tmp_path / "a.txt").write_text(EQUAL)
    (tmp_path / "s.toml").write_text(
        '[source]\nid = "d"\n\n[automaton.same]\nfile = "a.txt"\n\n'
        '[[claim]]\nid = "h"\nfor_all = "x >= 0"\nwindow = "x <= 5"\nholds = "same(x - 1, x - 1)"\n\n'
        '[[claim]]\nid = "h2"\nfor_all = "x >= 1"\nwindow = "x <= 5"\nholds = "same(x - 1, x - 1) and not same(x, x - 1)"\n')
    assert _verdicts(capsys, tmp_path / "s.toml") == {"h": "ill-defined", "h2": "proved"}


@pytest.mark.parametrize("claim, expected", [
    ("same(x)", "same(x): the stored automaton same reads 2 number(s) (its automaton has 2 input(s)), given 1"),
    ("same(x, y, 0)", "same(x, y, 0): the stored automaton same reads 2 number(s)"),
    ("twice(x) == 0", "twice(x): twice takes 2 argument(s) (a, b), given 1"),
])
def test_a_call_with_the_wrong_number_of_arguments_is_a_load_error(tmp_path, cli, claim, expected):
    """Never `ill-defined` at run time: the spec's line and field, exit status 2, nothing checked."""
    path = _spec(tmp_path, EQUAL, claim=claim)
    path.write_text(path.read_text().replace("[game.nim2]", '[define]\n"twice(a, b)" = "a - b"\n\n[game.nim2]'))
    r = cli("check", path, "--no-store")
    assert r.returncode == 2 and r.stdout == ""
    assert f"{path}:19: claim 'p', field 'p_positions': {expected}" in r.stderr


# ---------------------------------------------------------------- Fibonacci and Pell numerations

def _wythoff_table(high: int) -> np.ndarray:
    target = f"{ROOT / 'examples' / 'discover' / 'classics.toml'}::wythoff"
    return np.asarray(table_function(target, [], game_source(target, []).coords)((high, high)))


ROOT = Path(__file__).resolve().parents[3]


def test_wythoff_s_p_positions_are_learned_in_fibonacci_numeration_and_read_the_same_in_every_form():
    # base 2 needs 32 states below 64 and breaks below 128; in Zeckendorf digits 8 states, stable
    from checkers.discover.automaton import limit
    table = _wythoff_table(143)
    learned = learn(table == 0, 8, "msd_fib")
    assert learned.numeration == "msd_fib" and learned.states == 8 and limit("msd_fib", 9) == 89
    x, y = np.meshgrid(np.arange(144), np.arange(144), indexing="ij")
    assert np.array_equal(learned.accepts([x, y]), table == 0)
    # the file Walnut reads: msd_fib on each input, read back to the same automaton; the scalar form agrees
    text = learned.walnut()
    assert text.startswith("msd_fib msd_fib\n\n0 ")
    stored = StoredAutomaton("w", read_walnut(text, "msd_fib"), "w.txt")
    assert stored.automaton == learned
    assert [stored(a, b) for a, b in [(0, 0), (1, 2), (2, 1), (3, 5), (4, 7), (1, 1), (2, 3)]] == \
        [True, True, True, True, True, False, False]
    # it rejects a word that is no Zeckendorf representation (two 1s in a row): 11 is no number's digits
    state = 0
    for letter in (3, 3):   # [1,1] [1,1]
        state = learned.transitions[state][letter]
    assert not learned.accepting[state]
    # an msd_2 file is refused where the spec names msd_fib
    with pytest.raises(Exception, match="is not msd_fib on every input"):
        read_walnut(EQUAL, "msd_fib")


@pytest.mark.parametrize("numeration", ["msd_fib", "msd_pell"])
def test_an_automaton_in_fibonacci_or_pell_numeration_is_proved_equal_to_its_formula_and_a_wrong_one_refuted(
        tmp_path, capsys, walnut, numeration):
    from checkers.discover.automaton import limit
    # the residues modulo 3 read in Zeckendorf or Pell digits: learned on the words of length at most 10, agreeing
    # with n % 3 == 1 on the numbers with two more digits
    n = np.arange(limit(numeration, 12))
    learned = learn(n % 3 == 1, 10, numeration)
    assert np.array_equal(learned.accepts([n]), n % 3 == 1) and learned.states == 19
    (tmp_path / "a.txt").write_text(learned.walnut())
    flipped = DigitAutomaton(1, learned.transitions, (not learned.accepting[0],) + learned.accepting[1:], numeration)
    (tmp_path / "b.txt").write_text(flipped.walnut())
    (tmp_path / "s.toml").write_text(
        f'[source]\nid = "n"\n\n[automaton.third]\nfile = "a.txt"\nnumeration = "{numeration}"\n\n'
        f'[automaton.wrong]\nfile = "b.txt"\nnumeration = "{numeration}"\n\n'
        '[[claim]]\nid = "right"\nfor_all = "n >= 0"\nwindow = "n <= 30"\nholds = "third(n) == (n % 3 == 1)"\n\n'
        '[[claim]]\nid = "wrong"\nfor_all = "n >= 0"\nwindow = "n <= 30"\nholds = "wrong(n) == (n % 3 == 1)"\n')
    assert _verdicts(capsys, tmp_path / "s.toml") == {"right": "proved", "wrong": "refuted"}


def test_wythoff_learned_in_fibonacci_numeration_is_proved_from_its_moves_and_read_back_as_its_beatty_pair(walnut):
    from checkers.discover import search
    target = f"{ROOT / 'examples' / 'discover' / 'classics.toml'}::wythoff"
    source = game_source(target, [])
    table_of = table_function(target, [], source.coords)
    small, big = np.asarray(table_of((63, 63))), np.asarray(table_of((127, 127)))
    base2, why, _ = search._automaton(source, small, big, table_of, 1, 127, "msd_2")
    assert base2 is None and "no stable automaton" in why
    found, _, _ = search._automaton(source, small, big, table_of, 1, 127, "msd_fib")
    assert found.klass == "automaton (msd_fib)" and found.states == 8
    result = search.Discovery(source, [])
    columns = [search._columns(small.shape), search._columns(big.shape)]
    checked = search._checked_automaton(source, found, result, (columns[0], small.ravel() == 0), columns[1], 127, None)
    assert checked.verdict == "proved" and "Walnut 6.2 (msd_fib): certificate (a), (b)" in checked.scope
    assert checked.formula == "(x <= y and x == floor_phi(y - x)) or (y <= x and y == floor_phi(x - y))"
    assert 'numeration = "msd_fib"' in search.spec_text(source, [checked.claim], {"learned_P": "w_P.txt"},
                                                        checked.numeration)
