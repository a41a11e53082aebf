"""Messages a new user hits (issue #18): each names the file, the line, the claim or game and the field, and says
what is wrong in the terms of the spec, not of the evaluator."""
from __future__ import annotations

import json

import pytest

from checkers.window.exhaustive import check_exhaustive
from nimjos.app import cli
from nimjos.games.engine import default_engine
from nimjos.lang.errors import SpecError
from nimjos.spec.loader import load_spec

HEAD = '[source]\nid = "m"\n\n'


def message(write_spec, text: str) -> str:
    """The one error a spec gives, loading it and checking each claim by the window."""
    path = write_spec(HEAD + text)
    with pytest.raises(SpecError) as info:
        for claim in load_spec(path).claims:
            check_exhaustive(claim)
    return str(info.value).replace(str(path), "FILE")


def test_a_1d_move_that_gives_a_pair(write_spec):
    got = message(write_spec, '''[game.g]
position = ["x"]
moves = [ { to = "(x - t, t)", where = "1 <= t <= x" } ]
''')
    assert got == ("FILE:6: game 'g', field 'moves[0]': move 1 of game g gives 2 coordinates; the position has 1 "
                   "(position = [\"x\"]: 'to' is a number for a 1-D game)")


def test_a_2d_move_that_gives_three_coordinates_in_one_branch(write_spec):
    got = message(write_spec, '''[game.g]
position = ["a", "b"]
moves = [ { to = "(a - 1, b) if a > b else (a, b - 1, 0)", where = "a + b >= 1" } ]
''')
    assert got == ("FILE:6: game 'g', field 'moves[0]': move 1 of game g gives 3 coordinates; the position has 2 "
                   "(position = [\"a\", \"b\"]: 'to' must be a tuple of 2 coordinates)")


def test_a_move_whose_arity_only_its_value_tells_is_checked_at_evaluation(write_spec):
    got = message(write_spec, '''[define]
"drop(t, i)" = "tuple(t[j] for j in range(len(t)) if j != i)"

[game.g]
position = ["a", "b", "c"]
moves = [ { to = "drop((a, b, c), 0)", where = "a >= 1" } ]

[[claim]]
id = "c"
game = "g"
for_all = "0 <= a <= 2 and 0 <= b <= 2 and 0 <= c <= 2"
grundy = "0"
expect = "holds"
''')
    assert got == ("FILE:9: claim 'c', game 'g', field 'moves': move 1 of game g gives 2 coordinates at position "
                   "(2, 2, 2) (the option (2, 2)); the position has 3")


def test_sorted_is_a_move_target(write_spec):
    """`sorted(...)` returns a tuple whose length the loader cannot count: it is accepted, and checked when run."""
    path = write_spec(HEAD + '''[game.two_heaps]
position = ["a", "b"]
moves = [
  { to = "sorted((a - t, b))", where = "1 <= t <= a" },
  { to = "sorted((a, b - t))", where = "1 <= t <= b" },
]

[[claim]]
id = "nim-sorted"
game = "two_heaps"
for_all = "0 <= a <= b"
window = "a <= 12 and b <= 12"
grundy = "xor(a, b)"
expect = "holds"
''')
    assert check_exhaustive(load_spec(path).claims[0]).verdict == "checked"


@pytest.mark.parametrize("call,hint", [
    ("frobnicate(n)", "(the built-in functions are listed in docs/spec-format.md, under Built-ins; a new one is written "
                 "in the [define] table)"),
    ("sqrt(n)", "(did you mean 'isqrt' or 'sorted'?)"),
])
def test_an_unknown_function_is_not_a_variable(write_spec, call, hint):
    name = call.split("(")[0]
    got = message(write_spec, f'''[[claim]]
id = "c"
for_all = "0 <= n <= 10"
holds = "{call} >= 0"
expect = "holds"
''')
    assert got == f"FILE:7: claim 'c', field 'holds': there is no function {name!r} {hint}"


def test_an_unknown_function_in_a_move_and_in_a_definition(write_spec):
    got = message(write_spec, '''[game.g]
position = ["n"]
moves = [ { to = "n - s", where = "1 <= s <= sqrt(n)" } ]
''')
    assert got == ("FILE:6: game 'g', field 'moves[0]': there is no function 'sqrt' (did you mean 'isqrt' or 'sorted'?)")
    got = message(write_spec, '''[define]
"h(n)" = "sqrt(n) + 1"
''')
    assert got == "FILE:5: definition 'h': there is no function 'sqrt' in the body of h (did you mean 'isqrt' or 'sorted'?)"


def test_an_unknown_variable_is_still_a_variable(write_spec):
    got = message(write_spec, '''[[claim]]
id = "c"
for_all = "0 <= n <= 10"
holds = "zz >= 0"
expect = "holds"
''')
    assert got == "FILE:7: claim 'c', field 'holds': unknown name 'zz' (bind it in for_all, e.g. '0 <= zz <= 10')"


def test_a_bound_on_a_square_is_not_a_bound_on_the_name(write_spec):
    got = message(write_spec, '''[game.squares]
position = ["n"]
moves = [ { to = "n - s * s", where = "1 <= s * s <= n" } ]
''')
    assert got == ("FILE:6: game 'squares', field 'moves[0]': name 's' has no lower bound in '1 <= s * s <= n': a "
                   "bound must be on the bare name s, not on 's * s' (write '1 <= s <= isqrt(n)'; the condition on "
                   "'s * s' may stay as a filter)")


def test_an_unbounded_move_variable_is_bounded_by_the_position(write_spec):
    got = message(write_spec, '''[game.g]
position = ["x"]
moves = [ { to = "x - r", where = "r >= 1" } ]
''')
    assert got == ("FILE:6: game 'g', field 'moves[0]': name 'r' has no upper bound in 'r >= 1' (bound it by the "
                   "position, e.g. 'r <= x' (a constant bound such as 'r <= 100' would cut the game off silently))")


def test_an_infinite_domain_without_a_window_says_which_window_to_add(write_spec):
    got = message(write_spec, '''[[claim]]
id = "c"
for_all = "n >= 0"
holds = "n >= 0"
expect = "holds"
''')
    assert got == ("FILE:6: claim 'c', field 'for_all': for_all states an infinite domain (n unbounded above) and the "
                   "claim gives no window: how much of it should be enumerated? (add window = \"n <= 100\")")


def test_a_builtin_1d_family_needs_its_coordinate_named(write_spec):
    got = message(write_spec, '''[[claim]]
id = "c"
game = "subtraction({1, 2})"
for_all = "0 <= n"
window = "n <= 10"
grundy = "n % 3"
expect = "holds"
''')
    assert got == ("FILE:6: claim 'c', field 'game': subtraction(S) is a one-dimensional game (one heap): which name "
                   "of for_all is the heap? (add position = [\"n\"] to the claim: the name of the heap, as for_all "
                   "binds it)")


def test_gcn_names_as_many_coordinates_as_its_sets(write_spec):
    got = message(write_spec, '''[[claim]]
id = "c"
game = "gcn(2, ({1}, {1}, {1}))"
for_all = "0 <= a <= 3 and 0 <= b <= 3 and 0 <= c <= 3"
grundy = "0"
expect = "holds"
''')
    assert got == ("FILE:6: claim 'c', field 'game': gcn(h, (S1, S2, S3)) has 3 coordinates: which names of for_all "
                   "are they? (add position = [\"a\", \"b\", \"c\"] to the claim)")


def test_a_recursion_without_base_case_is_refused(write_spec):
    got = message(write_spec, '''[define]
"f(n)" = "f(n - 1) + 1"
''')
    assert got == ("FILE:5: definition 'f': definitions may not be recursive without a base case: f calls itself "
                   "unconditionally (f -> f), so the recursion never stops (write the base case with if-else, e.g. "
                   "\"n if n < 2 else f(n - 1) + ...\")")


def test_mutual_recursion_is_refused(write_spec):
    got = message(write_spec, '''[define]
"f(n)" = "0 if n == 0 else g(n - 1)"
"g(n)" = "0 if n == 0 else f(n - 1)"
''')
    assert got.startswith("FILE:5: definition 'f': definitions may not call each other in a cycle: f -> g -> f")


def test_the_resource_guard_says_it_does_not_count_the_assumption(write_spec, capsys, monkeypatch):
    # the guard sized the whole box of for_all while the assumption kept 231 of its 9 million instances
    path = write_spec(HEAD + '''[game.nim2]
position = ["x", "y"]
moves = [ { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" } ]

[[claim]]
id = "small-sum"
game = "nim2"
for_all = "0 <= x and 0 <= y"
window = "x <= 3000 and y <= 3000"
assume = "x + y <= 20"
grundy = "xor(x, y)"
''')
    engine = default_engine()
    monkeypatch.setattr(engine, "max_positions", engine.max_positions)  # --max-positions sets it for the process
    assert cli.main(["check", str(path), "--no-store", "--method", "exhaustive", "--max-positions", "100000"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"nimjos: {path}:12: claim 'small-sum', field 'window': the window has about 9,006,001 "
                          "instances, over the limit of 100,000 positions (--max-positions); estimate:"), err
    assert err.rstrip().endswith("(shrink the window or raise --max-positions; the estimate does not count 'assume': "
                                 "write a restrictive assumption as bounds of for_all)"), err
    assert "Traceback" not in err


def test_a_draw_over_the_limits_is_not_blamed_on_the_window(write_spec, capsys, monkeypatch):
    # the sampler's notes about instances it drew itself told the user to "shrink the window or raise --max-positions"
    path = write_spec(HEAD + '''[game.sub12]
position = ["n"]
moves = [ { to = "n - s", where = "s in {1, 2} and s <= n" } ]

[[claim]]
id = "far"
for_all = "0 <= n"
window = "n <= 100"
holds = "G(sub12, n) == n % 3"
sample = { scale = 1000000, count = 30 }
''')
    engine = default_engine()
    monkeypatch.setattr(engine, "max_positions", engine.max_positions)  # --max-positions sets it for the process
    assert cli.main(["check", str(path), "--no-store", "--method", "sample", "--max-positions", "5000", "--json"]) == 0
    notes = " ".join(json.loads(capsys.readouterr().out)["claims"][0]["notes"])
    assert ("instances skipped: sub12: more than 5,000 positions are reachable from the positions asked for, at an "
            "instance the sampler drew (skipped)") in notes, notes
    assert "shrink the window" not in notes and "--max-positions" not in notes
