"""Declared games recognised as subtraction games (nimjos/games/recognise.py): a recognised declaration has, at
every heap size of a window, exactly the options of the built-in subtraction(S) and the same Grundy values; a
declaration whose options the recognition does not know exactly is refused, never guessed. A declared game whose
moves take a fixed amount leaving nothing or one heap is read as the octal game of its code, with the same options
and values as the built-in octal(code) at every heap size."""
from __future__ import annotations

import pytest

from nimjos.games.declared import subtraction
from nimjos.games.functions import octal
from nimjos.games.recognise import recognised_octal, recognised_subtraction
from nimjos.spec.loader import load_spec


def _game(tmp_path, *moves: tuple[str, str], params: str = ""):
    body = ", ".join(f'{{ to = "{to}", where = "{where}" }}' for to, where in moves)
    head = f"params = [{params}]\n" if params else ""
    path = tmp_path / "g.toml"
    path.write_text(f'[source]\nid = "g"\n\n[game.g]\n{head}position = ["n"]\nmoves = [ {body} ]\n')
    return load_spec(path).games["g"]


def _mex(values: set[int]) -> int:
    return next(v for v in range(len(values) + 1) if v not in values)


@pytest.mark.parametrize("moves, expected", [
    ((("n - s", "s in {1, 3, 4} and s <= n"),), {1, 3, 4}),
    ((("n - s", "1 <= s <= n and s <= 3"),), {1, 2, 3}),
    ((("n - s", "n >= s and 2 <= s and s < 6 and s in {1, 2, 5, 7}"),), {2, 5}),
    ((("n - 2", "n >= 2"), ("n - 5", "5 <= n")), {2, 5}),
    ((("n - s", "s in {2, 3} and s <= n and n >= 1"),), {2, 3}),
])
def test_a_recognised_game_has_the_options_and_values_of_the_built_in(tmp_path, moves, expected):
    declared = _game(tmp_path, *moves)()
    S = recognised_subtraction(declared)
    assert S == frozenset(expected)
    builtin = subtraction(S)
    grundy: list[int] = []
    for n in range(80):
        mine = sorted(set(declared.options(n)))
        assert mine == sorted(set(builtin.options(n))), n
        grundy.append(_mex({grundy[m] for m in mine}))
    assert grundy == [builtin_value for builtin_value in _builtin_values(builtin, 80)]


def _builtin_values(builtin, count: int) -> list[int]:
    out: list[int] = []
    for n in range(count):
        out.append(_mex({out[m] for m in builtin.options(n)}))
    return out


@pytest.mark.parametrize("moves", [
    (("n - s", "s in {1, 2} and s < n"),),                       # s < n: the heap is never emptied
    (("n - 2", "n >= 3"),),                                     # from 3 on only
    (("n - s", "s in {1, 2} and s <= n and n % 2 == 0"),),      # an extra condition
    (("n - s", "1 <= s <= min(n, 3)"),),                        # a bound the recognition does not read
    (("n - s", "1 <= s <= n"),),                                # no finite set (Nim on one heap)
    (("n // 2", "n >= 1"),),                                    # not a subtraction
    (("n - s", "s in {1, 2} and s <= n"), ("n // 2", "n >= 2")),  # one family not a subtraction
])
def test_a_declaration_not_read_exactly_is_refused(tmp_path, moves):
    assert recognised_subtraction(_game(tmp_path, *moves)()) is None


@pytest.mark.parametrize("moves, code", [
    ((("n - s", "s in {1, 2} and s < n"),), "0.22"),                  # never empty the heap
    ((("n - 2", "n >= 3"),), "0.02"),                                 # take 2, leaving at least one
    ((("n - s", "s in {1, 3, 4} and s <= n"),), "0.3033"),            # the subtraction game {1, 3, 4}
    ((("n - 1", "n == 1"), ("n - s", "s in {2, 3} and n > s")), "0.122"),
    ((("n - s", "1 <= s <= 3 and s < n and n >= 2"),), "0.222"),      # n >= 2 says nothing more than s < n
    ((("n - s", "s in {1, 2} and s == n"),), "0.11"),                 # only a whole heap of 1 or 2 is taken
])
def test_a_take_and_break_declaration_has_the_options_and_values_of_the_built_in_octal_game(tmp_path, moves, code):
    declared = _game(tmp_path, *moves)()
    assert recognised_octal(declared) == code
    builtin = octal(code)
    grundy: list[int] = []
    for n in range(80):
        mine = sorted((q,) if q else () for q in declared.options(n))
        assert mine == sorted(builtin.options(n)), n
        grundy.append(_mex({grundy[q] for q in declared.options(n)}))
    assert grundy == [builtin.grundy(n) for n in range(80)]


@pytest.mark.parametrize("moves", [
    (("n - s", "s in {1, 2} and s <= n - 2"),),                  # a bound on the heap the reading does not know
    (("n - s", "s in {1, 2} and s < n and n >= 4"),),            # s = 1 from n >= 4 on: no octal digit says so
    (("n - 2", "n >= 4"),),
    (("n - s", "1 <= s <= 3 and s < n and n >= 3"),),           # s = 1 leaves a heap of 2 or more
    (("n - s", "s in {1, 2} and s < n and s <= n"),),            # two readings of the same bound
    (("n - 2", "n == 2 and n >= 2"),),
])
def test_a_take_and_break_declaration_not_read_exactly_is_refused(tmp_path, moves):
    assert recognised_octal(_game(tmp_path, *moves)()) is None


def test_a_param_is_never_read_as_the_amount(tmp_path):
    # k is a param: "k in {1, 2}" is a condition on the instance, not a set of amounts
    decl = _game(tmp_path, ("n - k", "k in {1, 2} and k <= n"), params='"k"')
    assert recognised_subtraction(decl(2)) is None


def test_misere_play_is_not_recognised(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text('[source]\nid = "m"\n\n[game.m]\nposition = ["n"]\nplay = "misere"\n'
                    'moves = [ { to = "n - 2", where = "n >= 2" } ]\n')
    assert recognised_subtraction(load_spec(path).games["m"]()) is None


def test_the_recognised_form_shows_in_the_scope_of_a_periodicity_proof(capsys):
    import json
    from pathlib import Path
    from nimjos.app.cli import main
    classics = Path(__file__).resolve().parents[3] / "examples" / "discover" / "classics.toml"
    assert main(["discover", f"{classics}::sub134", "--window", "100", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["found"][0]
    assert found["statement"] == "periodic = { period = 7, preperiod = 0, saltus = 0 }"
    assert (found["verdict"], found["method"]) == ("proved", "periodicity")
    assert "its moves read as subtraction({1, 3, 4})" in found["scope"]


def test_a_declared_octal_game_is_discovered_periodic_and_proved_by_guy_smith(capsys):
    import json
    from pathlib import Path
    from nimjos.app.cli import main
    classics = Path(__file__).resolve().parents[3] / "examples" / "discover" / "classics.toml"
    assert main(["discover", f"{classics}::never_last", "--window", "100", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["found"][0]
    assert found["statement"] == "periodic = { period = 3, preperiod = 1, saltus = 0 }"
    assert (found["verdict"], found["method"]) == ("proved", "periodicity")
    assert 'its moves read as octal("0.22"), Guy-Smith' in found["scope"]
