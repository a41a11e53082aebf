"""Incremental checking: a claim's stored result is reused only while nothing it depends on changed (its table,
what it reaches in its file, the options, the software), prints and records as a fresh run would, and a change
to one definition or game re-checks exactly the claims that reach it. In-process (the CLI's main), window only."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from checkers.result import ClaimResult
from checkers.options import RunOptions
from nimjos.app import claim_pool
from nimjos.app.cli import main
from nimjos.results.key import verdict_key
from nimjos.results.store import MIGRATIONS, SCHEMA_VERSION, ResultsStore, migrate
from nimjos.spec.fingerprint import claim_fingerprint, reached
from nimjos.spec.loader import load_spec
from nimjos.verdict import Verdict

DEFINE = '''[source]
id = "reuse"

[define]
"sq(x)" = "x * x"
"bump(x)" = "sq(x) + 1"
"tw(x)" = "x + x"
"cap(n)" = "min(2, n)"

[game.take2]
position = ["n"]
moves = [ { to = "n - t", where = "1 <= t <= cap(n)" } ]

[game.take3]
position = ["n"]
moves = [ { to = "n - t", where = "1 <= t <= min(3, n)" } ]
'''

CLAIMS = '''
[[claim]]
id = "a-bump"
for_all = "0 <= x <= 30"
holds = "bump(x) > sq(x)"

[[claim]]
id = "b-twice"
for_all = "0 <= x <= 30"
holds = "tw(x) >= x"

[[claim]]
id = "c-take2"
game = "take2"
for_all = "0 <= n <= 40"
grundy = "n % 3"

[[claim]]
id = "d-take3"
game = "take3"
for_all = "0 <= n <= 40"
grundy = "n % 4"

[[claim]]
id = "e-both"
for_all = "0 <= n <= 20"
holds = "G(take2, n) <= 2 and sq(n) >= n"
'''

UNRELATED = '''
[[claim]]
id = "z-new"
for_all = "0 <= y <= 5"
holds = "y + 0 == y"
'''


def check(capsys, spec: Path, store: Path, *extra: str) -> tuple[int, dict]:
    status = main(["check", str(spec), "--store", str(store), "--method", "exhaustive", "--jobs", "1", "--json",
                   *extra])
    return status, json.loads(capsys.readouterr().out)


def rechecked(out: dict) -> set[str]:
    return {c["id"] for c in out["claims"] if not c["reused"]}


@pytest.fixture
def spec(tmp_path) -> Path:
    path = tmp_path / "reuse.toml"
    path.write_text(DEFINE + CLAIMS)
    return path


def test_what_each_claim_reaches(spec):
    claims = {c.id: reached(c) for c in load_spec(spec).claims}
    assert claims == {"a-bump": ["define:bump", "define:sq"], "b-twice": ["define:tw"],
                      "c-take2": ["define:cap", "game:take2"], "d-take3": ["game:take3"],
                      "e-both": ["define:cap", "define:sq", "game:take2"]}


def test_a_claim_added_above_or_a_comment_leaves_every_fingerprint_alone(spec):
    before = {c.id: claim_fingerprint(c) for c in load_spec(spec).claims}
    spec.write_text(DEFINE + "# a comment\n" + UNRELATED + CLAIMS)
    after = {c.id: claim_fingerprint(c) for c in load_spec(spec).claims}
    assert {k: after[k] for k in before} == before


def test_prove_using_reaches_the_lemma_and_what_it_reaches(tmp_path):
    path = tmp_path / "l.toml"
    head = '[source]\nid = "l"\n[define]\n"sq(x)" = "x * x"\n'
    claims = ('[[claim]]\nid = "lemma"\nfor_all = "0 <= x"\nwindow = "x <= 5"\nholds = "sq(x) >= 0"\n'
              '[[claim]]\nid = "main"\nfor_all = "0 <= x"\nwindow = "x <= 5"\nholds = "x * x + 1 > 0"\n'
              'prove = { using = ["lemma"] }\n')
    path.write_text(head + claims)
    main_claim = load_spec(path).claim("main")
    assert reached(main_claim) == ["claim:lemma", "define:sq"]
    before = claim_fingerprint(main_claim)
    path.write_text(head.replace("x * x", "x ** 2") + claims)
    assert claim_fingerprint(load_spec(path).claim("main")) != before


def test_the_key_covers_the_options_that_change_a_verdict(spec):
    claim = load_spec(spec).claims[0]
    base = verdict_key(claim, RunOptions())
    for changed in (RunOptions(profile="deep"), RunOptions(methods=("exhaustive",)), RunOptions(timeout=5.0),
                    RunOptions(repair=False), RunOptions(max_counterexamples=3), RunOptions(pins={"x": 2})):
        assert verdict_key(claim, changed) != base, changed
    assert verdict_key(claim, RunOptions(), max_positions=1000) != base
    assert verdict_key(claim, RunOptions(store="other.sqlite")) == base


def test_an_unchanged_rerun_reuses_every_verdict_and_prints_and_records_the_same(spec, tmp_path, capsys, monkeypatch):
    store = tmp_path / "r.sqlite"
    status, first = check(capsys, spec, store)
    assert first["reused"] == 0 and len(first["claims"]) == 5
    assert status == 0

    def no_method(*args, **kwargs):
        raise AssertionError("a method ran on a fully reused run")
    monkeypatch.setattr(claim_pool, "run_claim", no_method)
    status2, second = check(capsys, spec, store)
    assert status2 == status and second["reused"] == 5
    assert all(c["reused"] for c in second["claims"])
    strip = lambda c: {k: v for k, v in c.items() if k not in ("reused", "reused_from")}  # noqa: E731
    assert [strip(c) for c in second["claims"]] == [strip(c) for c in first["claims"]]
    # the human output says it too
    assert main(["check", str(spec), "--store", str(store), "--method", "exhaustive", "--jobs", "1"]) == status
    text = capsys.readouterr().out
    assert text.count("reused from run 1") == 5 and "; 5 reused; exit 0" in text
    # recorded as a fresh run records, each row saying which run checked it
    rows = sqlite3.connect(store).execute("SELECT run_id, claim_id, verdict, scope, instances, reused_from "
                                          "FROM results ORDER BY id").fetchall()
    fresh = [r[1:5] for r in rows if r[0] == 1]
    for run in (2, 3):
        assert [r[1:5] for r in rows if r[0] == run] == fresh
        assert {r[5] for r in rows if r[0] == run} == {1}


def test_a_changed_definition_or_game_rechecks_exactly_the_claims_that_reach_it(spec, tmp_path, capsys):
    store = tmp_path / "r.sqlite"
    check(capsys, spec, store)
    spec.write_text(DEFINE.replace('"sq(x)" = "x * x"', '"sq(x)" = "x * x + 0"') + CLAIMS)
    _, out = check(capsys, spec, store)
    assert rechecked(out) == {"a-bump", "e-both"} and out["reused"] == 3
    spec.write_text(DEFINE.replace("min(3, n)", "min(3, n) + 0").replace('"x * x"', '"x * x + 0"') + CLAIMS)
    _, out = check(capsys, spec, store)
    assert rechecked(out) == {"d-take3"}
    # a definition used only by a game's moves: the claims on that game
    spec.write_text(DEFINE.replace("min(3, n)", "min(3, n) + 0").replace('"x * x"', '"x * x + 0"')
                    .replace('"min(2, n)"', '"min(n, 2)"') + CLAIMS)
    _, out = check(capsys, spec, store)
    assert rechecked(out) == {"c-take2", "e-both"}
    spec.write_text(DEFINE.replace("min(3, n)", "min(3, n) + 0").replace('"x * x"', '"x * x + 0"')
                    .replace('"min(2, n)"', '"min(n, 2)"') + UNRELATED + CLAIMS.replace('holds = "tw(x) >= x"', 'holds = "tw(x) >= x + 0"'))
    _, out = check(capsys, spec, store)
    assert rechecked(out) == {"b-twice", "z-new"}


def test_a_refutation_is_reused_with_its_counterexamples_and_exit_status(tmp_path, capsys):
    spec = tmp_path / "bad.toml"
    spec.write_text(DEFINE + '[[claim]]\nid = "wrong"\ngame = "take2"\nfor_all = "0 <= n <= 40"\ngrundy = "n % 2"\n')
    store = tmp_path / "r.sqlite"
    status, first = check(capsys, spec, store)
    status2, second = check(capsys, spec, store)
    assert second["reused"] == 1 and status2 == status == 1
    assert second["claims"][0]["verdict"] == "refuted"
    assert second["claims"][0]["counterexamples"] == first["claims"][0]["counterexamples"]
    assert second["claims"][0]["repairs"] == first["claims"][0]["repairs"]


def test_fresh_checks_again_and_records_and_other_options_miss(spec, tmp_path, capsys):
    store = tmp_path / "r.sqlite"
    check(capsys, spec, store)
    _, out = check(capsys, spec, store, "--fresh")
    assert out["reused"] == 0
    _, out = check(capsys, spec, store, "--max-counterexamples", "3")
    assert out["reused"] == 0
    _, out = check(capsys, spec, store)
    assert out["reused"] == 5
    _, out = check(capsys, spec, store, "--no-store")
    assert out["reused"] == 0


def test_a_result_that_is_not_complete_is_not_kept(spec, tmp_path, capsys, monkeypatch):
    store = tmp_path / "r.sqlite"
    real = claim_pool.run_claim

    def failing_once(claim, opts):
        result = real(claim, opts)
        return ClaimResult(claim, result.verdicts, result.repairs, result.repair_seconds,
                           complete=claim.id != "b-twice")
    monkeypatch.setattr(claim_pool, "run_claim", failing_once)
    check(capsys, spec, store)
    monkeypatch.setattr(claim_pool, "run_claim", real)
    _, out = check(capsys, spec, store)
    assert rechecked(out) == {"b-twice"}


def test_a_crashed_claim_is_not_kept():
    assert claim_pool.crashed(type("C", (), {"id": "c"})(), "signal SIGKILL (9)").complete is False


def test_a_store_of_the_previous_schema_opens_and_keeps_its_rows(tmp_path):
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    migrate(conn, SCHEMA_VERSION - 1)
    conn.execute("INSERT INTO runs (argv, profile, started) VALUES ('[]', 'default', 'then')")
    conn.execute("INSERT INTO results (run_id, file, claim_id, verdict, method, recorded) "
                 "VALUES (1, 'f.toml', 'c', 'checked', 'exhaustive', 'then')")
    conn.commit()
    conn.close()
    with ResultsStore(path) as store:
        assert store.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
        assert [(r["claim_id"], r["reused_from"]) for r in store.latest()] == [("c", None)]
        run = store.begin_run([], "default")
        assert store.remember(run, "k", "f.toml", "c", ([Verdict("c", "checked", "exhaustive", "s")], [], 0.0))
        assert store.reusable(["k"])["k"][1][0].scope == "s"


def test_a_kept_result_that_cannot_be_read_back_is_checked_again(tmp_path):
    with ResultsStore(tmp_path / "r.sqlite") as store:
        run = store.begin_run([], "default")
        store.remember(run, "k", "f.toml", "c", ([Verdict("c", "checked", "exhaustive", "s")], [], 0.0))
        store._conn.execute("UPDATE reusable SET result = ?", (b"not a pickle",))
        assert store.reusable(["k"]) == {}


def test_a_changed_automaton_file_changes_the_fingerprint_of_the_claims_that_use_it(tmp_path):
    odd = "msd_2\n\n0 0\n0 -> 0\n1 -> 1\n\n1 1\n0 -> 0\n1 -> 1\n"
    (tmp_path / "aut.txt").write_text(odd)
    path = tmp_path / "a.toml"
    path.write_text('[source]\nid = "a"\n[automaton.odd]\nfile = "aut.txt"\n'
                    '[[claim]]\nid = "uses"\nfor_all = "0 <= x <= 9"\nholds = "odd(x) == (x % 2 == 1)"\n'
                    '[[claim]]\nid = "not"\nfor_all = "0 <= x <= 9"\nholds = "x >= 0"\n')
    spec = load_spec(path)
    assert reached(spec.claim("uses")) == ["automaton:odd"] and reached(spec.claim("not")) == []
    before = {c.id: claim_fingerprint(c) for c in spec.claims}
    (tmp_path / "aut.txt").write_text(odd.replace("0 0\n", "0 1\n", 1).replace("1 1\n", "1 0\n", 1))
    after = {c.id: claim_fingerprint(c) for c in load_spec(path).claims}
    assert after["uses"] != before["uses"] and after["not"] == before["not"]
