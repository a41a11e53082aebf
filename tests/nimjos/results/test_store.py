"""The results store: writes, the latest record per claim and method, resume sets, migrations, kills."""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from nimjos.verdict import Counterexample, Verdict, phrases
from nimjos.results.store import MIGRATIONS, SCHEMA_VERSION, ResultsStore, StoreError, migrate

ROOT = Path(__file__).resolve().parents[3]


def claim(claim_id: str, file: str = "specs/a.toml", **extra) -> dict:
    base = {"file": file, "spec_hash": "0" * 64, "source_id": "a", "source_title": "A paper",
            "document": "000.txt", "cite": "A. Author", "claim_id": claim_id, "ref": "Theorem 1",
            "text": "G(x) = x", "kind": "grundy", "game": "nim", "expect": "holds", "corrects": None,
            "relaxes": None, "note": None, "formula": "x", "agrees": True}
    base.update(extra)
    return base


def test_creates_parent_dirs_and_uses_wal(tmp_path):
    path = tmp_path / "deep" / "er" / "results.sqlite"
    with ResultsStore(path) as store:
        assert store.schema_version() == SCHEMA_VERSION
    assert path.exists()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_record_round_trip(tmp_path):
    store = ResultsStore(tmp_path / "r.sqlite")
    run = store.begin_run(["check", "specs/a.toml"], "default")
    verdict = Verdict("c", "refuted", "exhaustive", "0 <= x <= 9", instances=10, assumption_held=10,
                      failures=2, seconds=0.25, notes=["n1"],
                      counterexamples=[Counterexample({"x": 2, "y": 0}, 1, 0)],
                      undefined=[Counterexample({"x": 0, "y": 0}, reason="v2(0)")],
                      evidence={"sequence": {"x0": 0, "grundy": [0, 1, 1], "claimed": [0, 1, 0]}})
    store.record(run, claim("c", agrees=False, order=3, for_all="0 <= x <= 9", assume="x > 0"), verdict)
    store.finish_run(run, "ok")
    (row,) = store.latest()
    assert row["claim_id"] == "c" and row["verdict"] == "refuted" and row["method"] == "exhaustive"
    assert row["scope"] == "0 <= x <= 9" and row["instances"] == 10 and row["assumption_held"] == 10
    assert row["failures"] == 2 and row["seconds"] == 0.25 and row["agrees"] is False
    assert row["claim_order"] == 3 and row["spec_hash"] == "0" * 64 and row["source_title"] == "A paper"
    assert row["for_all"] == "0 <= x <= 9" and row["assume"] == "x > 0"
    assert row["counterexamples"] == [{"bindings": {"x": 2, "y": 0}, "lhs": 1, "rhs": 0}]
    assert row["undefined"][0]["reason"] == "v2(0)"
    assert row["notes"] == ["n1"]
    assert row["evidence"]["sequence"]["grundy"] == [0, 1, 1]
    assert row["python_version"] and row["recorded"].endswith("+00:00")
    assert "nimjos_version" in row and "z3_version" in row
    (run_row,) = store.runs()
    assert run_row["argv"] == ["check", "specs/a.toml"] and run_row["status"] == "ok"


def test_record_needs_file_and_claim_id(tmp_path):
    store = ResultsStore(tmp_path / "r.sqlite")
    run = store.begin_run([], "default")
    with pytest.raises(ValueError):
        store.record(run, {"claim_id": "c"}, Verdict("c", "checked", "exhaustive", ""))


def test_latest_per_file_claim_and_method(tmp_path):
    store = ResultsStore(tmp_path / "r.sqlite")
    r1 = store.begin_run([], "default")
    store.record(r1, claim("b", order=1), Verdict("b", "checked", "exhaustive", "w1"))
    store.record(r1, claim("a", order=0), Verdict("a", "refuted", "exhaustive", "w1"))
    store.record(r1, claim("a", file="specs/b.toml"), Verdict("a", "checked", "exhaustive", "w1"))
    r2 = store.begin_run([], "deep")
    store.record(r2, claim("b", order=1), Verdict("b", "sampled", "sample", "w2"))
    store.record(r2, claim("b", order=1), Verdict("b", "checked", "exhaustive", "w2"))
    rows = [(r["file"], r["claim_id"], r["method"], r["verdict"], r["scope"]) for r in store.latest()]
    assert rows == [
        ("specs/a.toml", "a", "exhaustive", "refuted", "w1"),   # claim order 0 before 1
        ("specs/a.toml", "b", "exhaustive", "checked", "w2"),   # the newer exhaustive record
        ("specs/a.toml", "b", "sample", "sampled", "w2"),
        ("specs/b.toml", "a", "exhaustive", "checked", "w1"),
    ]


def test_completed_claims_follows_killed_runs(tmp_path):
    store = ResultsStore(tmp_path / "r.sqlite")

    def check(run, claim_id):
        store.record(run, claim(claim_id), Verdict(claim_id, "checked", "exhaustive", ""))

    r0 = store.begin_run([], "default")
    check(r0, "old")
    store.finish_run(r0, "ok")
    r1 = store.begin_run([], "default")
    check(r1, "a")                       # r1 killed: never finished
    r2 = store.begin_run(["--resume"], "default")
    check(r2, "b")
    assert store.completed_claims(r2) == {("specs/a.toml", "b")}
    assert store.completed_claims(r0) == {("specs/a.toml", "old")}
    assert store.completed_claims(None) == {("specs/a.toml", "a"), ("specs/a.toml", "b"),
                                            ("specs/a.toml", "old")}
    store.finish_run(r2, "ok")
    assert store.completed_claims(None) == {("specs/a.toml", "b")}
    assert ResultsStore(tmp_path / "empty.sqlite").completed_claims(None) == set()


def test_migration_from_version_1_keeps_rows(tmp_path):
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    assert migrate(conn, 1) == 1
    conn.execute("INSERT INTO runs (argv, profile, started) VALUES ('[\"check\"]', 'default', '2024-01-01')")
    conn.execute("""INSERT INTO results (run_id, file, claim_id, verdict, method, scope, counterexamples,
                    undefined, notes, recorded) VALUES (1, 'specs/a.toml', 'c', 'refuted', 'exhaustive',
                    'x <= 3', '[]', '[]', '[]', '2024-01-01')""")
    conn.commit()
    conn.close()
    with ResultsStore(path) as store:
        assert store.schema_version() == SCHEMA_VERSION == len(MIGRATIONS)
        (row,) = store.latest()
        assert row["claim_id"] == "c" and row["evidence"] == {} and row["claim_order"] is None
        assert row["assume"] is None and row["for_all"] is None
        run = store.begin_run([], "default")
        store.record(run, claim("d"), Verdict("d", "checked", "exhaustive", "", evidence={"rerun": "x"}))
        assert [r["claim_id"] for r in store.latest()] == ["c", "d"]
    indexes = {r[0] for r in sqlite3.connect(path).execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert "results_latest" in indexes


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "new.sqlite"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreError, match="newer"):
        ResultsStore(path)


def test_reader_sees_each_record_while_the_writer_runs(tmp_path):
    path = tmp_path / "r.sqlite"
    writer = ResultsStore(path)
    run = writer.begin_run([], "default")
    reader = ResultsStore(path)
    for i in range(3):
        writer.record(run, claim(f"c{i}"), Verdict(f"c{i}", "checked", "exhaustive", ""))
        assert len(reader.latest()) == i + 1


WRITER = textwrap.dedent("""
    import sys, time
    from nimjos.verdict import Verdict
    from nimjos.results.store import ResultsStore
    store = ResultsStore(sys.argv[1])
    run = store.begin_run(["check", "specs/"], "default")
    for i in range(1000):
        store.record(run, {"file": "specs/a.toml", "claim_id": f"c{i:03d}"},
                     Verdict(f"c{i:03d}", "checked", "exhaustive", "", evidence={"i": i}))
        print(i, flush=True)
        time.sleep(0.01)
    store.finish_run(run, "ok")
""")


def test_a_killed_writer_keeps_every_finished_record(tmp_path, starts_processes):
    path = tmp_path / "r.sqlite"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True,
                            env=env, cwd=ROOT)
    done = [int(proc.stdout.readline()) for _ in range(5)]
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert done == [0, 1, 2, 3, 4]
    with ResultsStore(path) as store:
        ids = [row["claim_id"] for row in store.latest()]
        assert ids[:5] == ["c000", "c001", "c002", "c003", "c004"]
        assert len(ids) < 1000
        assert [json.dumps(row["evidence"]) for row in store.latest()][:1] == ['{"i": 0}']
        (run,) = store.runs()
        assert run["finished"] is None
        assert ("specs/a.toml", "c004") in store.completed_claims(None)


def test_counterexample_bindings_keep_their_declared_order(tmp_path):
    store = ResultsStore(tmp_path / "r.sqlite")
    run = store.begin_run([], "default")
    store.record(run, claim("c"), Verdict("c", "refuted", "exhaustive", "",
                                          counterexamples=[Counterexample({"n": 2, "k": 3}, 2, 3)]))
    assert list(store.latest()[0]["counterexamples"][0]["bindings"]) == ["n", "k"]


def test_a_store_of_schema_8_is_migrated_to_the_structured_claim_and_scope(tmp_path):
    # a store as nimjos wrote it before migration 9: the periodic table kept only as str(dict), no scope as data
    from nimjos.report.model import build_report
    from nimjos.results.store import migrate
    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    assert migrate(conn, 8) == 8
    conn.execute("INSERT INTO runs (argv, profile, started) VALUES ('[]', 'default', 'then')")
    conn.execute("""INSERT INTO results (run_id, file, claim_id, kind, formula, for_all, verdict, method, scope,
                    instances, beyond, counterexamples, evidence, recorded)
                    VALUES (1, 'f.toml', 'kayles', 'periodic', ?, '0 <= n and 1 <= k <= len(range(3))', 'refuted',
                            'exhaustive', '0 <= n <= 400', 401, NULL, ?, ?, 'then')""",
                 ("{'period': 12, 'preperiod': 70, 'of': 'G'}",
                  json.dumps([{"bindings": {"n": 70}, "lhs": 2, "rhs": 6}]),
                  json.dumps({"proved_class": {"enumerated": {}, "width": 32}})))
    conn.commit()
    conn.close()
    with ResultsStore(path) as store:
        assert store.schema_version() == SCHEMA_VERSION
        row = store.latest()[0]
    assert row["claim"] == {"kind": "periodic", "pattern": {"period": 12, "preperiod": 70}, "names": ["n", "k"],
                            "coords": []}
    assert row["scope_json"] == {"instances": 401, "proved_class": {"enumerated": {}, "width": 32},
                                 "phrases": [["text", "0 <= n <= 400"]]}   # migration 10: the stored words, one phrase
    claim = build_report([row]).sources[0].claims[0]
    assert claim.statement_words == "G(n + 12) = G(n) for every n >= 70"
    assert claim.comparison.startswith("G(82) = 2, but G(70) = 6")


def test_a_new_record_keeps_the_claim_structure_and_the_scope_as_data(tmp_path):
    from nimjos.results.store import claim_structure
    with ResultsStore(tmp_path / "r.sqlite") as store:
        run = store.begin_run([], "default")
        structure = claim_structure("stair", {"h": "k + 1"}, ("k", "n"), ("n",))
        store.record(run, claim("s", kind="stair", claim=structure),
                     Verdict("s", "proved", "prove", phrases(("class", "all n >= 0"),
                                                             ("engine", "largest automaton 9 states")), instances=1,
                             engines=("Walnut",), automaton_states=9))
        row = store.latest()[0]
    assert row["claim"] == {"kind": "stair", "pattern": {"h": "k + 1"}, "names": ["k", "n"], "coords": ["n"]}
    assert row["scope_json"] == {"instances": 1, "automaton_states": 9, "engines": ["Walnut"],
                                 "phrases": [["class", "all n >= 0"], ["engine", "largest automaton 9 states"]]}
    assert row["scope"] == "all n >= 0; largest automaton 9 states"
