"""Loopy games (``loopy = true``): the generalized Sprague-Grundy values of nimjos/games/loopy.py against an
independent ground truth, and the claims the window and the sampler judge with them.

The ground truth here is a retrograde analysis of win, loss and draw from the definition (a position with no move
is lost; one with a lost option is won; one whose options are all won is lost; the rest, never settled, are draws),
which knows nothing of the labelling algorithm. It decides the outcomes of every position of random small graphs,
and the outcomes of the sums of two graphs, which the generalized values predict by Smith's rule: the values are
right only if both agree.
"""
from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from nimjos.games.loopy import Infinite, as_claimed, decided, explore, label, outcome, solve
from nimjos.games.engine import ReferenceEngine
from nimjos.spec.loader import load_spec

import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
NORTHCOTT = ROOT / "examples" / "loopy" / "northcott.toml"
UNDOABLE_PASS = ROOT / "examples" / "loopy" / "subtraction_with_undoable_pass.toml"


def retrograde(adj: dict) -> dict:
    """Win ("N"), loss ("P") or draw ("D") of every position of a finite graph closed under moves, from the
    definition: backward induction from the positions with no move, the rest drawn."""
    pred: dict = {p: [] for p in adj}
    left = {p: len(set(opts)) for p, opts in adj.items()}
    for p, opts in adj.items():
        for q in set(opts):
            pred[q].append(p)
    status = {p: "P" for p, n in left.items() if n == 0}
    queue = list(status)
    while queue:
        q = queue.pop()
        for p in pred[q]:
            if p in status:
                continue
            if status[q] == "P":
                status[p] = "N"
                queue.append(p)
            else:
                left[p] -= 1
                if left[p] == 0:
                    status[p] = "P"
                    queue.append(p)
    return {p: status.get(p, "D") for p in adj}


def graphs(max_size: int = 9):
    """Random directed graphs on 1..max_size vertices (loops and cycles allowed), as adjacency dicts."""
    return st.integers(1, max_size).flatmap(
        lambda n: st.lists(st.lists(st.integers(0, n - 1), max_size=4), min_size=n, max_size=n)
    ).map(lambda rows: {i: row for i, row in enumerate(rows)})


def sum_value(a, b):
    """Smith's rule for the value of a sum from its parts' generalized values: finite + finite is the nim-sum;
    ∞(K) + b (b finite) is ∞(K xor b); two infinities make ∞() (a draw)."""
    if isinstance(a, Infinite) and isinstance(b, Infinite):
        return Infinite(frozenset())
    if isinstance(a, Infinite):
        return Infinite(frozenset(k ^ b for k in a.options))
    if isinstance(b, Infinite):
        return Infinite(frozenset(k ^ a for k in b.options))
    return a ^ b


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_outcomes_of_the_labelling_are_those_of_retrograde_analysis(adj):
    values = label(adj)
    truth = retrograde(adj)
    assert {p: outcome(v) for p, v in values.items()} == truth


@settings(max_examples=150, deadline=None)
@given(graphs(6), graphs(6))
def test_the_values_predict_the_outcomes_of_sums(g, h):
    # G + H: a move in one component; its outcome by retrograde analysis against Smith's rule on the values
    product = {(a, b): [(x, b) for x in g[a]] + [(a, y) for y in h[b]] for a in g for b in h}
    truth = retrograde(product)
    vg, vh = label(g), label(h)
    for (a, b), got in truth.items():
        assert outcome(sum_value(vg[a], vh[b])) == got, (a, b, vg[a], vh[b])


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 9).flatmap(lambda n: st.lists(st.lists(st.integers(0, n - 1), max_size=4), min_size=n,
                                                    max_size=n)))
def test_on_an_acyclic_graph_the_values_are_the_grundy_values(rows):
    adj = {i: [j for j in row if j < i] for i, row in enumerate(rows)}   # every move goes down: no cycle
    grundy: dict = {}
    for i in range(len(rows)):
        seen = {grundy[j] for j in adj[i]}
        grundy[i] = min(m for m in range(len(seen) + 1) if m not in seen)
    assert label(adj) == grundy


def test_the_two_cycle_and_its_entrance():
    vals = label({"a": ["b"], "b": ["a"], "c": ["a", "d"], "d": []})
    assert vals == {"a": Infinite(frozenset()), "b": Infinite(frozenset()), "c": Infinite(frozenset({0})), "d": 0}
    assert [outcome(vals[p]) for p in "abcd"] == ["D", "D", "N", "P"]


def test_a_reversible_move_keeps_a_finite_value():
    # 1 -> 2 -> 1 with 2 -> 0: from 2 the retreat to 1 is reversed by 1 -> 2... 1's options: 0 and 2
    vals = label({0: [], 1: [0, 2], 2: [1, 3], 3: [0]})
    truth = retrograde({0: [], 1: [0, 2], 2: [1, 3], 3: [0]})
    assert {p: outcome(v) for p, v in vals.items()} == truth


def test_a_graph_not_closed_under_moves_is_refused():
    try:
        label({0: [1]})
    except ValueError as exc:
        assert "not closed under moves" in str(exc)
    else:
        raise AssertionError("an open graph was labelled")


def test_positions_that_can_reach_the_unexplored_frontier_are_undecided():
    # a heap that may grow without end: nothing reachable from it is ever closed
    s = solve(lambda n: [n + 1] + ([n - 1] if n else []), [3], limit=50)
    assert s.values == {} and len(s.undecided) == 50 and s.explored == 50
    # a closed part next to an open one: only the closed part is decided
    adj, frontier = explore(lambda p: {"a": ["b"], "b": ["a"], "c": ["d"], "d": ["e"]}.get(p, [p + "!"]), ["c", "a"],
                            limit=4)
    assert frontier == {"e"} and decided(adj, frontier) == {"a", "b"}


@settings(max_examples=200, deadline=None)
@given(graphs(12), st.integers(1, 12), st.integers(0, 11))
def test_a_truncated_exploration_decides_only_what_the_whole_graph_agrees_with(adj, limit, start):
    # explore from one position with a count of positions: every value it decides is the value on the whole graph
    start %= len(adj)
    whole = label(adj)
    part = solve(lambda p: adj[p], [start], limit=limit)
    assert part.explored <= limit
    assert all(whole[p] == v for p, v in part.values.items())
    if limit >= len(adj):   # everything reachable was explored: nothing is undecided
        assert not part.undecided


def test_claimed_values_are_integers_or_sets():
    assert as_claimed(0) == 0 and as_claimed(frozenset({1})) == Infinite(frozenset({1}))
    for bad in (-1, True, (1,), frozenset({-1})):
        try:
            as_claimed(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} taken as a value")


# ----------------------------------------------------------------------------- specs

CYCLE = '''[source]
id = "cycle"

[game.passnim]
position = ["x", "p"]
moves = [
  { to = "(x - s, p)", where = "s in {1, 2} and s <= x" },
  { to = "(x, 1 - p)", where = "x >= 1" },
]

[[claim]]
id = "c"
game = "passnim"
for_all = "x >= 0 and 0 <= p <= 1"
window = "x <= 10"
KIND
'''


def test_a_cycle_without_loopy_is_refused_with_how_to_state_it(write_spec, cli):
    path = write_spec(CYCLE.replace("KIND", 'p_positions = "x == 0"'))
    r = cli("check", path, "--no-store", "--method", "exhaustive")
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"{path}:6: claim 'c', game 'passnim', field 'moves': the game graph of passnim has a cycle" in r.stderr
    assert "add 'loopy = true' to [game.passnim]" in r.stderr and "Traceback" not in r.stderr


def test_loopy_in_misere_play_is_refused(write_spec, cli):
    path = write_spec(CYCLE.replace('position = ["x", "p"]', 'loopy = true\nplay = "misere"\nposition = ["x", "p"]')
                      .replace("KIND", 'p_positions = "x == 0"'))
    r = cli("check", path, "--no-store")
    assert r.returncode == 2 and "field 'loopy'" in r.stderr and "misère" in r.stderr


def test_what_a_loopy_game_cannot_be_asked_is_refused_at_load(write_spec, cli):
    loopy = CYCLE.replace('position = ["x", "p"]', 'loopy = true\nposition = ["x", "p"]')
    for kind, field, words in (('holds = "G(passnim, (x, p)) == 0"', "holds", "a loopy game"),
                               ('grundy_at_most = 3', "grundy_at_most", "a loopy game"),
                               ('periodic = { period = 3 }', "periodic", "a loopy game")):
        r = cli("check", write_spec(loopy.replace("KIND", kind)), "--no-store")
        assert r.returncode == 2, (kind, r.stdout, r.stderr)
        assert f"field '{field}'" in r.stderr and words in r.stderr and "Traceback" not in r.stderr, r.stderr
    acyclic = CYCLE.replace('{ to = "(x, 1 - p)", where = "x >= 1" },', "").replace("KIND", 'draws = "False"')
    r = cli("check", write_spec(acyclic), "--no-store")
    assert r.returncode == 2 and "field 'draws'" in r.stderr and "loopy = true" in r.stderr, r.stderr


def _verdicts(cli, path, *extra):
    r = cli("check", path, "--no-store", "--json", "--no-repair", *extra)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return {c["id"]: c for c in json.loads(r.stdout)["claims"]}


def test_northcott_p_positions_and_no_draws_on_a_window(cli):
    got = _verdicts(cli, NORTHCOTT, "--method", "exhaustive,prove")
    assert got["gaps-nim-sum"]["verdict"] == "checked" and got["no-draws"]["verdict"] == "checked"
    assert got["gaps-sum-wrong"]["verdict"] == "refuted"
    text = json.dumps(got["gaps-nim-sum"])
    assert "Smith-Fraenkel labelling" in text and "not applicable: a loopy game" in text


def test_the_undoable_pass_gets_its_draws_and_values_right(cli):
    got = _verdicts(cli, UNDOABLE_PASS, "--method", "exhaustive")
    assert {k: v["verdict"] for k, v in got.items()} == {
        "p-positions": "checked", "draws": "checked", "generalized-values": "checked",
        "pass-changes-nothing": "refuted", "draws-off-by-one": "refuted", "values-wrong": "refuted"}


def test_a_wrong_claim_is_refuted_at_its_smallest_counterexample(cli):
    r = cli("check", UNDOABLE_PASS, "--no-store", "--method", "exhaustive", "--no-repair", "--claim", "values-wrong")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "smallest counterexample: k=1, x=1, p=0: Grundy value (from the moves) ∞(0), claimed value 1" in r.stdout


def test_the_sampler_judges_drawn_instances_by_their_finite_graphs(write_spec, cli):
    # right on the window and just past it, wrong from x = 45 on: only the far draws can see it
    text = UNDOABLE_PASS.read_text().split("[[claim]]")[0] + '''
[[claim]]
id = "draws-below-45"
game = "passsub(k)"
for_all = "k >= 1 and x >= 0 and 0 <= p <= 1"
window = "k <= 2 and x <= 40"
draws = "k < x < 45"
sample = { scale = 80 }
'''
    r = cli("check", write_spec(text), "--no-store", "--json", "--no-repair", "--method", "exhaustive,sample")
    claim = json.loads(r.stdout)["claims"][0]
    assert claim["verdict"] == "refuted", r.stdout[-3000:]
    sample = [m for m in claim["methods"] if m["method"] == "sample"][0]
    assert sample["verdict"] == "refuted" and sample["counterexamples"][0]["bindings"]["x"] >= 45


def test_positions_the_window_cannot_decide_are_left_out(write_spec, cli):
    text = '''[source]
id = "grow"

[game.grow]
loopy = true
position = ["x"]
moves = [ { to = "x + 1", where = "True" }, { to = "x - 1", where = "x >= 1" } ]

[[claim]]
id = "c"
game = "grow"
for_all = "x >= 0"
window = "x <= 5"
draws = "True"
'''
    r = cli("check", write_spec(text), "--no-store", "--json", "--no-repair", "--method", "exhaustive",
            "--max-positions", "300")
    claim = json.loads(r.stdout)["claims"][0]
    assert claim["verdict"] == "inconclusive", r.stdout[-2000:]
    assert "6 instance(s) of the window left out" in json.dumps(claim)


def test_the_examples_load_with_sources():
    for path in (NORTHCOTT, UNDOABLE_PASS):
        spec = load_spec(path)
        assert spec.source.cite
        wrong = [c for c in spec.claims if c.expect == "refuted"]
        assert wrong and all(c.expect_counterexample and c.note for c in wrong)


def test_the_engine_never_gives_grundy_values_of_a_loopy_game():
    spec = load_spec(UNDOABLE_PASS)
    game = spec.namespace.games["passsub"].instance((2,))
    try:
        ReferenceEngine().solve(game, [(3, 0)])
    except Exception as exc:   # a SpecError naming the loopy game
        assert "loopy" in str(exc)
    else:
        raise AssertionError("Grundy values of a loopy game")


def test_explain_shows_the_generalized_values_of_the_options(cli):
    r = cli("explain", f"{UNDOABLE_PASS}::values-wrong")
    assert r.returncode == 0, r.stderr
    assert "position (1, 0) in passsub(k=1) (loopy" in r.stdout
    assert "(0, 0)  0 (P)" in r.stdout and "(1, 1)  ∞(0) (N)" in r.stdout and "its value: ∞(0) (N)" in r.stdout


def test_a_loopy_game_behind_a_definition_is_refused(write_spec, cli):
    text = UNDOABLE_PASS.read_text().split("[[claim]]")[0] + '''
[define]
"g" = "passsub(2)"

[[claim]]
id = "c"
game = "g"
position = ["x", "p"]
for_all = "x >= 0 and 0 <= p <= 1"
window = "x <= 10"
p_positions = "x == 0"
'''
    r = cli("check", write_spec(text), "--no-store", "--method", "exhaustive")
    assert r.returncode == 2 and "field 'game'" in r.stderr and "is loopy" in r.stderr, r.stderr
