"""Every claim kind and verdict of the exhaustive checker, on small specs with known answers."""
from __future__ import annotations

import pytest

from checkers.window.exhaustive import check_exhaustive
from nimjos.lang.errors import SpecError
from nimjos.spec.loader import load_spec

HEAD = '''[source]
id = "t"
[game.nim1]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= x" } ]
[game.maxnim]
params = ["k"]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= floor(x / k)" } ]
[game.nim2]
position = ["x", "y"]
moves = [ { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" } ]
'''


def check(write_spec, body, claim_id=None, **kw):
    spec = load_spec(write_spec(HEAD + body))
    claim = spec.claim(claim_id) if claim_id else spec.claims[0]
    return check_exhaustive(claim, **kw)


def test_grundy_checked_and_refuted(write_spec):
    v = check(write_spec, '[[claim]]\nid = "a"\ngame = "nim2"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 9 and y <= 9"\ngrundy = "xor(x, y)"\n')
    assert (v.verdict, v.instances) == ("checked", 100)
    v = check(write_spec, '[[claim]]\nid = "a"\ngame = "nim2"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 9 and y <= 9"\ngrundy = "x + y"\n')
    assert v.verdict == "refuted"
    assert v.counterexamples[0].bindings == {"x": 1, "y": 1}
    assert (v.counterexamples[0].lhs, v.counterexamples[0].rhs) == (0, 2)
    keys = [c.key() for c in v.counterexamples]
    assert keys == sorted(keys)


def test_params_from_for_all(write_spec):
    # Maximum Nim, f(x) = floor(x / k): G(x) = x // k when x % k == 0 is the rule (i) of 001 Lemma 2.2
    v = check(write_spec, '[[claim]]\nid = "a"\ngame = "maxnim(k)"\nfor_all = "2 <= k <= 4 and 0 <= x"\nwindow = "x <= 60"\n'
                          'assume = "x % k == 0"\ngrundy = "x // k"\n')
    assert v.verdict == "checked" and v.instances == 3 * 61 and v.assumption_held == 31 + 21 + 16


def test_p_position_families_with_unbounded_index(write_spec):
    body = ('[[claim]]\nid = "a"\ngame = "nim2"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 20 and y <= 20"\n'
            'p_positions = [ { point = "(n, n)", where = "n >= 0" } ]\n')
    assert check(write_spec, body).verdict == "checked"
    body = ('[[claim]]\nid = "a"\ngame = "nim2"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 20 and y <= 20"\n'
            'p_positions = [ { point = "(n, n)", where = "n >= 1" } ]\n')
    v = check(write_spec, body)
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"x": 0, "y": 0}


def test_unjustified_family_index_is_refused(write_spec):
    body = ('[[claim]]\nid = "a"\ngame = "nim2"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 20 and y <= 20"\n'
            'p_positions = [ { point = "(n % 5, n % 5)", where = "n >= 0" } ]\n')
    with pytest.raises(SpecError, match="only a lower bound"):
        check(write_spec, body)


def test_level_sets(write_spec):
    body = ('[[claim]]\nid = "a"\ngame = "nim2"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 15 and y <= 15"\n'
            'levels = "0 <= s <= 15"\nlevel_set = [ { point = "(x, xor(x, s))", where = "0 <= x <= 15" } ]\n')
    assert check(write_spec, body).verdict == "checked"
    body = body.replace("xor(x, s)", "x + s")
    assert check(write_spec, body).verdict == "refuted"


def test_holds_sides_assume_vacuous_and_ill_defined(write_spec):
    v = check(write_spec, '[[claim]]\nid = "a"\nfor_all = "1 <= n"\nwindow = "n <= 50"\nholds = "survivor(n, 2) == 2 * n - 1"\n')
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 2}
    assert (v.counterexamples[0].lhs, v.counterexamples[0].rhs) == (1, 3)
    v = check(write_spec, '[[claim]]\nid = "a"\nfor_all = "1 <= n"\nwindow = "n <= 50"\nassume = "n > 60"\nholds = "n < 0"\n')
    assert v.verdict == "vacuous" and v.assumption_held == 0
    v = check(write_spec, '[[claim]]\nid = "a"\nfor_all = "0 <= n <= 5"\nholds = "v2(n) >= 0"\n')
    assert v.verdict == "ill-defined" and v.undefined[0].bindings == {"n": 0}


def test_values_tables(write_spec):
    v = check(write_spec, '[[claim]]\nid = "a"\ngame = "maxnim(3)"\nvalues = { from = 0, grundy = [0, 0, 0, 1, 0, 1, 2, 0] }\n')
    assert v.verdict == "checked"
    v = check(write_spec, '[[claim]]\nid = "a"\nvalues = { of = "survivor(n, 2)", var = "n", from = 1, equal = [1, 1, 3, 1, 3, 5, 7, 2] }\n')
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 8}
    v = check(write_spec, '[[claim]]\nid = "a"\ngame = "nim2"\nvalues = { from = [0, 0], grundy = [[0, 1], [1, 0]] }\n')
    assert v.verdict == "checked" and v.instances == 4


def test_pins_recheck_one_instance(write_spec):
    body = '[[claim]]\nid = "a"\ngame = "nim2"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 9 and y <= 9"\ngrundy = "x + y"\n'
    v = check(write_spec, body, pins={"x": 1, "y": 1})
    assert v.instances == 1 and v.verdict == "refuted"


def test_dependent_strict_and_fractional_bounds(write_spec):
    v = check(write_spec, '[[claim]]\nid = "a"\nfor_all = "1 <= n <= 6 and 0 < m < n and 3 * t <= n and t >= 1 / 2"\nholds = "m < n and 3 * t <= n"\n')
    expected = sum((n - 1) * (n // 3) for n in range(1, 7))
    assert v.verdict == "checked" and v.instances == expected


def test_deep_profile_widens(write_spec):
    body = ('[[claim]]\nid = "a"\ngame = "nim1"\nfor_all = "0 <= x"\nwindow = "x <= 10"\ndeep = { window = "x <= 100" }\n'
            'grundy = "x"\n')
    assert check(write_spec, body, profile="deep").instances == 101


def test_error_names_file_claim_field_and_line(write_spec):
    body = '[[claim]]\nid = "a"\ngame = "nim2"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 9 and y <= 9"\ngrundy = "xor(x, yy)"\n'
    with pytest.raises(SpecError) as info:
        check(write_spec, body)
    msg = str(info.value)
    assert "spec.toml:" in msg and "claim 'a'" in msg and "field 'grundy'" in msg and "'yy'" in msg
    line = int(msg.split("spec.toml:")[1].split(":")[0])
    assert (HEAD + body).splitlines()[line - 1].startswith("grundy")


def test_unknown_field_suggests(write_spec):
    with pytest.raises(SpecError, match="did you mean 'for_all'"):
        check(write_spec, '[[claim]]\nid = "a"\nforall = "0 <= n <= 3"\nholds = "n >= 0"\n')


def test_pins_must_name_window_variables(write_spec):
    body = '[[claim]]\nid = "a"\ngame = "nim2"\nfor_all = "0 <= x and 0 <= y"\nwindow = "x <= 9 and y <= 9"\ngrundy = "x + y"\n'
    with pytest.raises(SpecError, match="does not bind"):
        check(write_spec, body, pins={"z": 1})
    v = check(write_spec, body, pins={"x": 100, "y": 100})  # beyond the window, in the domain: evaluated
    assert v.instances == 1 and v.verdict == "refuted" and "beyond the window" in v.scope
    v = check(write_spec, body, pins={"x": 100})  # some names pinned: the window's instances with that value
    assert v.instances == 0 and "the window has no instance with the pinned values" in v.scope


def test_expect_counterexample_compares_values():
    from nimjos.verdict import Counterexample, Verdict, agreement
    v = Verdict("c", "refuted", "exhaustive", "", counterexamples=[Counterexample({"n": 2}, 1, 0)])
    for text in ("2", "(2,)", "(2)", "[2]"):
        assert agreement(v, "refuted", text)[0], text
    assert not agreement(v, "refuted", "3")[0]


def test_cycle_message_names_the_game_and_the_cycle(write_spec):
    from nimjos.games.declared import GameDecl
    from nimjos.lang.compiler import Namespace
    g = GameDecl.declare("cyc", {"position": ["n"], "moves": [{"to": "n + 1", "where": "n < 3"},
                                                               {"to": "n - 1", "where": "n >= 1"}]}, Namespace())
    with pytest.raises(SpecError) as info:
        g.instance(()).grundy(2)
    msg = str(info.value)
    assert "game 'cyc'" in msg and "cycle" in msg and "(" not in msg.split("cycle:")[1].split("(a move")[0]


def test_first_only_ends_a_holds_window_at_its_first_failure(write_spec):
    """A correction's candidate asks only whether the claim holds: the window ends at the first instance that fails
    (or is ill-defined), with the same verdict; a claim that holds is checked whole either way (a set comprehension
    keeps the check one instance at a time)."""
    wrong = '[[claim]]\nid = "a"\nfor_all = "0 <= x and 1 <= y"\nwindow = "x <= 99 and y <= 99"\nholds = "len({t % y for t in range(x)}) < 50"\n'
    whole, first = check(write_spec, wrong), check(write_spec, wrong, first_only=True)
    assert (whole.verdict, first.verdict) == ("refuted", "refuted")
    assert whole.instances == 9_900 and first.instances < whole.instances
    undefined = '[[claim]]\nid = "a"\nfor_all = "0 <= x"\nwindow = "x <= 99"\nholds = "len({10 // (t - 50) for t in range(x)}) < 100"\n'
    assert check(write_spec, undefined, first_only=True).verdict == check(write_spec, undefined).verdict
    right = '[[claim]]\nid = "a"\nfor_all = "0 <= x and 1 <= y"\nwindow = "x <= 99 and y <= 99"\nholds = "len({t % y for t in range(x)}) <= y"\n'
    assert (check(write_spec, right, first_only=True).instances, check(write_spec, right).instances) == (9_900, 9_900)


def test_first_only_asks_g_for_the_positions_it_reaches(write_spec, monkeypatch):
    """A first-failure check solves no position ahead (most candidates fail early), with the same verdict and
    counterexample as the check that solves the window's positions at once, and no note about G one at a time."""
    import checkers.window.exhaustive as exhaustive

    text = ('[[claim]]\nid = "a"\nfor_all = "0 <= n"\nwindow = "n <= 300"\n'
            'holds = "G(subtraction({1, 2}), n) == n % 3 and n < 250"\n')
    whole = check(write_spec, text)
    calls = []
    original = exhaustive._prefetch_grundy
    monkeypatch.setattr(exhaustive, "_prefetch_grundy", lambda *a: calls.append(a) or original(*a))
    first = check(write_spec, text, first_only=True)
    assert calls == []
    assert (first.verdict, first.counterexamples[0].bindings) == (whole.verdict, whole.counterexamples[0].bindings) \
        == ("refuted", {"n": 250})
    assert not any("one position at a time" in n for n in first.notes)
