"""A verdict's scope is a record of typed phrases, rendered to words by one renderer; a refutation's confirmation is a
flag on its counterexample; no code decides anything by reading the words of a scope or a note."""
from __future__ import annotations

import ast
import json
import sqlite3
from pathlib import Path

import pytest

from nimjos.report.records import StoredVerdict, scope_words
from nimjos.results.store import SCHEMA_VERSION, ResultsStore, migrate
from nimjos.verdict import (Counterexample, Phrase, Scope, Verdict, _witness_rank, clipped, final_verdict,
                            first_phrase, phrases, render_scope)
from nimjos.words import PhraseKind

ROOT = Path(__file__).resolve().parents[2]


def test_the_renderer_joins_each_phrase_by_its_own_join():
    ps = (Phrase(PhraseKind.CLASS, "every n >= 0"), Phrase(PhraseKind.ENGINE, "by the theorem", ": "),
          Phrase(PhraseKind.LEMMA, "from l (proved: all x >= 0)"))
    assert render_scope(ps) == "every n >= 0: by the theorem; from l (proved: all x >= 0)"
    assert render_scope(()) == ""


def test_phrases_leaves_out_empty_parts_and_keeps_another_scopes_phrases():
    base = phrases((PhraseKind.WINDOW, "0 <= x <= 9"), (PhraseKind.GAME, ""))
    assert [p.kind for p in base] == [PhraseKind.WINDOW]
    more = phrases(base, (PhraseKind.ENGINE, "2 shards on 2 local worker(s)"), Phrase(PhraseKind.FINDING, "held", ": "))
    assert more[:1] == base and render_scope(more) == "0 <= x <= 9; 2 shards on 2 local worker(s): held"
    assert phrases() == () and phrases(()) == ()


@pytest.mark.parametrize("limit", [0, 1, 5, 11, 12, 13, 14, 30, 200])
def test_clipped_is_the_words_cut_at_the_limit(limit):
    ps = phrases((PhraseKind.CLASS, "all n >= 1"), (PhraseKind.LEMMA, "from l (proved: all x >= 0)"))
    words = render_scope(ps)
    cut = render_scope(clipped(ps, limit))
    assert cut == words[:limit]
    assert all(p.kind in (PhraseKind.CLASS, PhraseKind.LEMMA) for p in clipped(ps, limit))


def test_first_phrase_names_a_scope_by_its_first_phrase_or_one_of_a_kind():
    ps = phrases((PhraseKind.CLASS, "for k = 2..5"), (PhraseKind.CLASS, "all n >= 0"), (PhraseKind.ENGINE, "Z3"))
    assert first_phrase(ps) == "for k = 2..5" and first_phrase(ps, PhraseKind.ENGINE) == "Z3"
    assert first_phrase((), PhraseKind.LEMMA) == ""


def test_a_phrase_and_a_scope_round_trip_through_json():
    ps = (Phrase(PhraseKind.CLASS, "all x >= 0"), Phrase(PhraseKind.ENGINE, "by Walnut", ": "))
    s = Scope(window=("0 <= x <= 3",), instances=4, engines=("Walnut",), phrases=ps)
    data = json.loads(json.dumps(s.to_json()))
    assert data["phrases"] == [["class", "all x >= 0"], ["engine", "by Walnut", ": "]]
    assert Scope.from_json(data) == s and Scope.from_json(data).text() == "all x >= 0: by Walnut"
    # an unknown kind (a newer store's) reads as words of no finer kind, the words kept
    assert Phrase.from_json(["future", "w"]) == Phrase(PhraseKind.TEXT, "w")


def test_a_verdict_keeps_its_phrases_and_prints_their_rendering():
    ps = phrases((PhraseKind.CLASS, "all x >= 0"), (PhraseKind.ENGINE, "Z3"))
    v = Verdict("c", "proved", "prove", ps)
    assert v.phrases == ps and v.scope == "all x >= 0; Z3"
    assert v.to_json()["scope"] == v.scope and v.scope_record.phrases == ps
    # one text given (an example, a test) is one phrase of no finer kind
    t = Verdict("c", "checked", "exhaustive", "0 <= x <= 3")
    assert t.phrases == (Phrase(PhraseKind.TEXT, "0 <= x <= 3"),) and t.scope == "0 <= x <= 3"
    assert Verdict("c", "checked", "exhaustive", "").phrases == ()
    assert Verdict.not_applicable("c", "prove", "a table").phrases[0].kind is PhraseKind.REASON


def test_the_store_keeps_the_phrases_and_the_report_renders_them(tmp_path):
    with ResultsStore(tmp_path / "r.sqlite") as store:
        run = store.begin_run([], "default")
        v = Verdict("c", "proved", "prove", phrases((PhraseKind.CLASS, "all n >= 0"),
                                                     (PhraseKind.ENGINE, "largest automaton 9 states")))
        store.record(run, {"file": "f.toml", "claim_id": "c"}, v)
        row = store.latest()[0]
    assert row["scope"] == v.scope
    assert row["scope_json"]["phrases"] == [["class", "all n >= 0"], ["engine", "largest automaton 9 states"]]
    # the report's words come from the phrases, not from the stored words
    assert scope_words({**row, "scope": "other words"}) == "all n >= 0; largest automaton 9 states"
    assert scope_words({"scope": "kept words"}) == "kept words"


def _old_store(path: Path, detail_engine: str) -> None:
    conn = sqlite3.connect(path)
    assert migrate(conn, 9) == 9
    conn.execute("INSERT INTO runs (argv, profile, started) VALUES ('[]', 'default', 'then')")
    conn.execute("""INSERT INTO results (run_id, file, claim_id, verdict, method, scope, instances, counterexamples,
                    scope_json, recorded)
                    VALUES (1, 'f.toml', 'c', 'refuted', 'sample', '30 instances held; all x >= 0', 31, ?, ?, 'then')""",
                 (json.dumps([{"bindings": {"x": 10 ** 14}, "lhs": 0, "rhs": 1, "detail": {"engine": detail_engine}}]),
                  json.dumps({"instances": 31})))
    conn.commit()
    conn.close()


def test_migration_10_gives_old_rows_their_phrases_and_the_confirmed_flag(tmp_path):
    path = tmp_path / "old.sqlite"
    _old_store(path, "not re-evaluated (position too large for the engine)")
    with ResultsStore(path) as store:
        assert store.schema_version() == SCHEMA_VERSION == 10
        row = store.latest()[0]
    assert row["scope_json"]["phrases"] == [["text", "30 instances held; all x >= 0"]]
    assert row["counterexamples"][0]["confirmed"] is False
    assert StoredVerdict.from_row(row).counterexamples[0].confirmed is False
    assert scope_words(row) == "30 instances held; all x >= 0"


def test_migration_10_leaves_a_re_evaluated_counterexample_confirmed(tmp_path):
    path = tmp_path / "old.sqlite"
    _old_store(path, "re-evaluated by the engine")
    with ResultsStore(path) as store:
        row = store.latest()[0]
    assert "confirmed" not in row["counterexamples"][0]
    assert StoredVerdict.from_row(row).counterexamples[0].confirmed is True


def test_a_refutation_ranks_by_its_confirmed_flag_not_by_the_words_of_its_detail():
    words = {"engine": "not re-evaluated (position too large)"}
    far_unconfirmed = Verdict("c", "refuted", "sample", "", counterexamples=[
        Counterexample({"x": 1}, confirmed=False)])
    near_confirmed = Verdict("c", "refuted", "prove", "", counterexamples=[Counterexample({"x": 60})])
    assert final_verdict([far_unconfirmed, near_confirmed]) is near_confirmed
    # the same words in the detail, flagged confirmed: ranked by size alone
    worded = Verdict("c", "refuted", "sample", "", counterexamples=[Counterexample({"x": 1}, detail=dict(words))])
    assert _witness_rank(worded) < _witness_rank(near_confirmed)
    assert final_verdict([worded, near_confirmed]) is worded


def test_the_confirmed_flag_is_in_the_json_only_when_false():
    assert "confirmed" not in Counterexample({"x": 1}).to_json()
    assert Counterexample({"x": 1}, confirmed=False).to_json()["confirmed"] is False


def _python_files() -> list[Path]:
    return sorted(p for d in ("nimjos", "checkers") for p in (ROOT / d).rglob("*.py"))


def _named(node: ast.AST, names: set[str]) -> bool:
    """Is `node` an attribute or a name among `names` (v.scope, found.scope, notes, v.notes...)?"""
    return (isinstance(node, ast.Attribute) and node.attr in names) or (isinstance(node, ast.Name) and node.id in names)


def test_no_code_reads_the_words_of_a_scope_or_a_note_to_decide():
    # a substring test, a prefix or suffix test, a split or an equality on a scope's or a note's words
    words = {"scope", "notes", "note"}
    found = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(isinstance(op, (ast.In, ast.NotIn, ast.Eq, ast.NotEq)) for op in node.ops) \
                        and any(_named(s, words) for s in sides) \
                        and any(isinstance(s, (ast.Constant, ast.JoinedStr)) and not
                                (isinstance(s, ast.Constant) and s.value is None) for s in sides):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("startswith", "endswith", "split", "find", "index", "count") \
                    and _named(node.func.value, words):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_every_method_builds_its_scope_as_phrases():
    # no Verdict is given its scope as words (a string, an f-string, a concatenation) in the package's code
    found = []
    for path in _python_files():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Verdict":
                given = node.args[3] if len(node.args) > 3 else next(
                    (k.value for k in node.keywords if k.arg == "phrases"), None)
                if isinstance(given, (ast.Constant, ast.JoinedStr, ast.BinOp)):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
