"""The results store: every verdict of every check, in one SQLite file.

A check opens the store, begins a run, records one row per claim and method as soon as that method
is done (each write is its own transaction, so a run that is killed keeps everything it finished),
and finishes the run. Reports are rendered from :meth:`ResultsStore.latest`, never by re-running.

The file is in WAL mode (readers never block the writer) and carries its schema version in
``PRAGMA user_version``; opening an older file upgrades it in place through :data:`MIGRATIONS`.

>>> import tempfile, os
>>> from nimjos.verdict import Verdict
>>> path = os.path.join(tempfile.mkdtemp(), "r.sqlite")
>>> store = ResultsStore(path)
>>> run = store.begin_run(["check", "specs/a.toml"], "default")
>>> store.record(run, {"file": "specs/a.toml", "claim_id": "c1", "agrees": True},
...              Verdict("c1", "checked", "exhaustive", "0 <= x <= 3", instances=4))
>>> store.finish_run(run, "ok")
>>> [(r["claim_id"], r["verdict"], r["instances"]) for r in store.latest()]
[('c1', 'checked', 4)]
>>> store.completed_claims(run)
{('specs/a.toml', 'c1')}
>>> store.close()
"""
from __future__ import annotations

import ast
import io
import json
import os
import pickle
import platform
import sqlite3
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any, Callable

from nimjos.verdict import Phrase, Verdict
from nimjos.words import Kind, PhraseKind

#: where a check writes unless told otherwise (the project's data directory)
DEFAULT_PATH = Path(".nimjos") / "results.sqlite"

#: the claim fields a record keeps, as given by the caller (all text except `agrees` and `order`)
CLAIM_FIELDS = ("file", "spec_hash", "source_id", "source_title", "document", "cite", "claim_id", "ref",
                "text", "kind", "game", "expect", "corrects", "relaxes", "note", "formula", "for_all", "assume",
                "reading", "disagreement")

#: the fields stored as JSON text (the verdict's, and the definitions a claim's statement uses; the claim's structure
#: and the verdict's scope as data)
JSON_FIELDS = ("counterexamples", "undefined", "notes", "evidence", "definitions", "claim", "scope_json")

#: the JSON fields that hold an object (the others hold a list)
JSON_OBJECTS = ("evidence", "claim", "scope_json")

#: the fields of a periodic or stair claim's table that say its pattern
PATTERN_FIELDS = ("period", "preperiod", "saltus", "h")


def claim_structure(kind: str, statement: Any, names: Any = (), coords: Any = ()) -> dict[str, Any]:
    """A claim's structure as the store keeps it (column ``claim``): its kind, the fields of a periodic or stair
    pattern as a table (integers, or expressions as text), its bound names in the order it binds them, and its
    game's coordinates.

    >>> claim_structure("periodic", {"period": 12, "preperiod": 70, "of": "G"}, ("n",), ("n",))
    {'kind': 'periodic', 'pattern': {'period': 12, 'preperiod': 70}, 'names': ['n'], 'coords': ['n']}
    >>> claim_structure("holds", "x + 0 == x", ["x"])
    {'kind': 'holds', 'pattern': {}, 'names': ['x'], 'coords': []}
    """
    pattern = {k: v if isinstance(v, int) and not isinstance(v, bool) else str(v)
               for k, v in (statement.items() if isinstance(statement, dict) else ()) if k in PATTERN_FIELDS}
    return {"kind": kind, "pattern": pattern if kind in (Kind.PERIODIC, Kind.STAIR) else {},
            "names": [str(n) for n in names or ()], "coords": [str(c) for c in coords or ()]}


def _bound_names(for_all: str | None) -> list[str]:
    """The names a stored domain binds, in the order it first writes them (the names it calls, and the names a
    comprehension or a lambda inside it binds, are not the claim's): how a store written before the claim's
    structure was kept learns them.

    >>> _bound_names("1 <= x and 1 <= y and x + y <= len(range(k)) and all(i < x for i in range(y))")
    ['x', 'y', 'k']
    >>> _bound_names("not valid ("), _bound_names(None)
    ([], [])
    """
    try:
        tree = ast.parse(for_all or "", mode="eval")
    except SyntaxError:
        return []
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    local = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    local |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.Lambda) for a in n.args.args}
    found = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in called and n.id not in local),
                   key=lambda n: (n.lineno, n.col_offset))
    return list(dict.fromkeys(n.id for n in found))


def structure_from_texts(kind: str | None, formula: str | None, for_all: str | None) -> dict[str, Any]:
    """A claim's structure from the texts a record kept before the store kept it (and that a caller gives without
    it): its kind, for a periodic or stair claim the text of its table read as a literal (nothing is evaluated), the
    names its domain binds. Once, when the record is written or the store migrated; never when it is read.

    >>> structure_from_texts("periodic", "{'period': 12, 'preperiod': 70}", "0 <= n")
    {'kind': 'periodic', 'pattern': {'period': 12, 'preperiod': 70}, 'names': ['n'], 'coords': []}
    """
    table: Any = None
    if kind in (Kind.PERIODIC, Kind.STAIR):
        try:
            table = ast.literal_eval(formula or "")
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            table = None
    return claim_structure(kind or "", table, _bound_names(for_all))


def _structure_old_rows(conn: sqlite3.Connection) -> None:
    """Migration 9 on the rows written before it: each claim's structure (:func:`structure_from_texts`), and each
    verdict's scope as data from its stored counts and proved class."""
    rows = conn.execute("SELECT id, kind, formula, for_all, instances, beyond, evidence FROM results").fetchall()
    for rid, kind, formula, for_all, instances, beyond, evidence in rows:
        claim = structure_from_texts(kind, formula, for_all)
        scope: dict[str, Any] = {"instances": instances or 0}
        if beyond is not None:
            scope["beyond"] = beyond
        proved_class = (json.loads(evidence) if evidence else {}).get("proved_class")
        if proved_class is not None:
            scope["proved_class"] = proved_class
        conn.execute("UPDATE results SET claim = ?, scope_json = ? WHERE id = ?",
                     (json.dumps(claim), json.dumps(scope), rid))


#: the words the sampler wrote, before migration 10, in the detail of a failure no engine re-evaluated
_NOT_REEVALUATED = "not re-evaluated"


def _scope_phrases_old_rows(conn: sqlite3.Connection) -> None:
    """Migration 10 on the rows written before it: each verdict's scope phrases (its stored words, one phrase of no
    finer kind, :class:`nimjos.verdict.Phrase`), and the confirmed flag of each counterexample (False where the
    sampler's detail said no engine re-evaluated it: the words it wrote then, read once here, never again)."""
    rows = conn.execute("SELECT id, scope, scope_json, counterexamples FROM results").fetchall()
    for rid, text, scope_json, found in rows:
        scope = json.loads(scope_json) if scope_json else {}
        if text and not scope.get("phrases"):
            scope["phrases"] = [Phrase(PhraseKind.TEXT, text).to_json()]
        cxs = json.loads(found) if found else []
        for cx in cxs:
            if (isinstance(cx, dict) and "confirmed" not in cx
                    and str((cx.get("detail") or {}).get("engine", "")).startswith(_NOT_REEVALUATED)):
                cx["confirmed"] = False
        conn.execute("UPDATE results SET scope_json = ?, counterexamples = ? WHERE id = ?",
                     (json.dumps(scope), json.dumps(cxs) if found else found, rid))


#: MIGRATIONS[i] upgrades a store from schema version i to i + 1; the last one gives SCHEMA_VERSION.
#: Never edit a step that has shipped: append a new one.
#: A step is SQL text, or a function of the connection (a change of the data SQL alone cannot make).
MIGRATIONS: tuple[tuple[str | Callable[[sqlite3.Connection], None], ...], ...] = (
    # 1: runs, and one row per claim and method with the verdict and its scope
    (
        """CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            argv TEXT NOT NULL,
            profile TEXT NOT NULL,
            started TEXT NOT NULL,
            finished TEXT,
            status TEXT
        )""",
        """CREATE TABLE results (
            id INTEGER PRIMARY KEY,
            run_id INTEGER NOT NULL REFERENCES runs(id),
            file TEXT NOT NULL, spec_hash TEXT, source_id TEXT, source_title TEXT, document TEXT,
            cite TEXT, claim_id TEXT NOT NULL, ref TEXT, text TEXT, kind TEXT, game TEXT,
            expect TEXT, corrects TEXT, relaxes TEXT, note TEXT, formula TEXT, agrees INTEGER,
            verdict TEXT NOT NULL, method TEXT NOT NULL, scope TEXT, instances INTEGER,
            assumption_held INTEGER, failures INTEGER, counterexamples TEXT, undefined TEXT,
            notes TEXT, seconds REAL,
            nimjos_version TEXT, z3_version TEXT, python_version TEXT, recorded TEXT NOT NULL
        )""",
    ),
    # 2: the evidence reports draw from, the claim's place in its file, indexes for latest() and resume
    (
        "ALTER TABLE results ADD COLUMN evidence TEXT NOT NULL DEFAULT '{}'",
        "ALTER TABLE results ADD COLUMN claim_order INTEGER",
        "CREATE INDEX results_latest ON results (file, claim_id, method, id)",
        "CREATE INDEX results_run ON results (run_id)",
    ),
    # 3: the claim's window (for_all) and assumption, so a report can state the claim in full
    (
        "ALTER TABLE results ADD COLUMN for_all TEXT",
        "ALTER TABLE results ADD COLUMN assume TEXT",
    ),
    # 4: how far a method went: instances beyond the window, the largest value a bound integer reached
    (
        "ALTER TABLE results ADD COLUMN beyond INTEGER",
        "ALTER TABLE results ADD COLUMN largest TEXT",
    ),
    # 5: the reading the encoder chose where the printed text is garbled or ambiguous
    (
        "ALTER TABLE results ADD COLUMN reading TEXT",
    ),
    # 6: the [define] definitions the statement uses, as JSON [[head, body], ...], shown beside it in reports
    (
        "ALTER TABLE results ADD COLUMN definitions TEXT NOT NULL DEFAULT '[]'",
    ),
    # 7: each claim's complete result, kept for reuse under the key of everything it depends on
    #    (nimjos.results.key); on a result row, the run whose check it reuses (NULL: checked in its own run)
    (
        """CREATE TABLE reusable (
            key TEXT PRIMARY KEY,
            run_id INTEGER NOT NULL REFERENCES runs(id),
            file TEXT NOT NULL,
            claim_id TEXT NOT NULL,
            result BLOB NOT NULL,
            recorded TEXT NOT NULL
        )""",
        "ALTER TABLE results ADD COLUMN reused_from INTEGER",
    ),
    # 8: why the final verdict does not agree with the claim's expect (nimjos.verdict.agreement's reason: another
    #    verdict word, or another smallest counterexample), so that a report says what the CLI said
    (
        "ALTER TABLE results ADD COLUMN disagreement TEXT",
    ),
    # 9: the claim's structure (kind, pattern fields, bound names, coordinates: nimjos.results.store.claim_structure)
    #    and the verdict's scope as data (nimjos.verdict.Scope), as JSON; the rows before it get theirs from what
    #    they kept
    (
        "ALTER TABLE results ADD COLUMN claim TEXT",
        "ALTER TABLE results ADD COLUMN scope_json TEXT",
        _structure_old_rows,
    ),
    # 10: the scope's phrases in its record (scope_json), and a counterexample's confirmed flag as data; the rows
    #     before it get theirs from what they kept
    (
        _scope_phrases_old_rows,
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


#: how many results of one claim (file and id) :meth:`ResultsStore.remember` keeps, newest first: a claim checked
#: under a few option sets (profiles, methods) keeps each, and an edited claim's old results do not pile up
KEPT_PER_CLAIM = 4


class StoreError(RuntimeError):
    """The store file cannot be used (for example: written by a newer nimjos)."""


def migrate(conn: sqlite3.Connection, target: int = SCHEMA_VERSION) -> int:
    """Upgrade the schema of `conn` to version `target`, one committed step at a time; return the version.

    >>> conn = sqlite3.connect(":memory:")
    >>> migrate(conn, 1), migrate(conn)
    (1, 10)
    """
    def current() -> int:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(f"the results store has schema version {version}, newer than this nimjos "
                             f"understands ({SCHEMA_VERSION}); upgrade nimjos or use another --store")
        return version

    version = current()
    while version < target:
        conn.execute("BEGIN IMMEDIATE")     # the write lock; another process may have migrated meanwhile
        try:
            version = current()
            if version < target:
                for statement in MIGRATIONS[version]:
                    if callable(statement):
                        statement(conn)
                    else:
                        conn.execute(statement)
                version += 1
                conn.execute(f"PRAGMA user_version = {version}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return version


def versions() -> dict[str, str]:
    """The versions stored with every record: nimjos, z3 and Python ("" for a package not installed).

    >>> sorted(versions())
    ['nimjos_version', 'python_version', 'z3_version']
    """
    def installed(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return ""
    return {"nimjos_version": installed("nimjos"), "z3_version": installed("z3-solver"),
            "python_version": platform.python_version()}


def now() -> str:
    """The current time in UTC, ISO 8601 to the second.

    >>> now().endswith("+00:00")
    True
    """
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat()


def _text(value: Any) -> str | None:
    """A claim field as stored: None stays None, anything else becomes its text.

    >>> _text(None), _text(3), _text("a")
    (None, '3', 'a')
    """
    return None if value is None else str(value)


class ResultsStore:
    """The SQLite results store (see the module docstring). Usable as a context manager."""

    def __init__(self, path: str | os.PathLike = DEFAULT_PATH):
        """Open (creating it and its parent directories if needed) and upgrade the store at `path`.

        >>> import tempfile, os
        >>> with ResultsStore(os.path.join(tempfile.mkdtemp(), "a", "b.sqlite")) as s:
        ...     s.schema_version() == SCHEMA_VERSION
        True
        """
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        migrate(self._conn)
        self._versions = versions()

    def __enter__(self) -> "ResultsStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (idempotent).

        >>> s = ResultsStore(":memory:"); s.close(); s.close()
        """
        self._conn.close()    # closing a closed connection does nothing

    def schema_version(self) -> int:
        """The schema version of the open file.

        >>> ResultsStore(":memory:").schema_version() == SCHEMA_VERSION
        True
        """
        return self._conn.execute("PRAGMA user_version").fetchone()[0]

    def begin_run(self, argv: list[str], profile: str) -> int:
        """Start a run (one invocation of a check) and return its id.

        >>> s = ResultsStore(":memory:")
        >>> s.begin_run(["check", "specs/"], "default"), s.begin_run(["check"], "deep")
        (1, 2)
        """
        with self._conn:
            cur = self._conn.execute("INSERT INTO runs (argv, profile, started) VALUES (?, ?, ?)",
                                     (json.dumps(list(argv)), profile, now()))
        assert cur.lastrowid is not None, "an INSERT sets the row id"
        return cur.lastrowid

    def record(self, run_id: int, claim: dict, verdict: Verdict, reused_from: int | None = None) -> None:
        """Store what `verdict` established about `claim`, committed at once.

        `claim` holds the fields of :data:`CLAIM_FIELDS` (missing ones are stored as NULL; `for_all` and
        `assume` are the claim's domain and assumption as written, optional; `spec_hash` the SHA-256 of the
        spec file the claim was read from, so that a report can tell when the file changed since), optionally
        `definitions` (the ``[define]`` heads and bodies the statement uses, as pairs), `claim` (the claim's
        structure, :func:`claim_structure`; without it, :func:`structure_from_texts` of its kind, formula and
        domain), `agrees`
        (does the verdict satisfy the claim's `expect`; `disagreement`, why not) and optionally `order` (the claim's place in
        its file, used to list claims as the paper does). `reused_from`: the run whose check this verdict reuses
        (:meth:`reusable`), None when this run checked it.

        >>> from nimjos.verdict import Verdict, Counterexample
        >>> s = ResultsStore(":memory:"); run = s.begin_run([], "default")
        >>> v = Verdict("c", "refuted", "exhaustive", "0 <= x <= 9", instances=10, failures=1,
        ...             counterexamples=[Counterexample({"x": 3}, 1, 0)], evidence={"rerun": "nimjos ..."})
        >>> s.record(run, {"file": "f.toml", "claim_id": "c", "agrees": False}, v)
        >>> row = s.latest()[0]
        >>> row["counterexamples"][0]["bindings"], row["evidence"]["rerun"], row["agrees"]
        ({'x': 3}, 'nimjos ...', False)
        """
        if not claim.get("file") or not claim.get("claim_id"):
            raise ValueError("a record needs the claim's 'file' and 'claim_id'")
        data = verdict.to_json()
        row: dict[str, Any] = {name: _text(claim.get(name)) for name in CLAIM_FIELDS}
        agrees = claim.get("agrees")
        row.update({
            "run_id": run_id,
            "agrees": None if agrees is None else int(bool(agrees)),
            "claim_order": claim.get("order"),
            "verdict": verdict.verdict,
            "method": verdict.method,
            "scope": verdict.scope,
            "instances": verdict.instances,
            "assumption_held": verdict.assumption_held,
            "failures": verdict.failures,
            "beyond": verdict.beyond,
            "largest": None if verdict.largest is None else str(verdict.largest),   # may exceed SQLite's 64 bits
            "counterexamples": json.dumps(data["counterexamples"]),      # bindings keep their declared order
            "undefined": json.dumps(data.get("undefined", [])),
            "notes": json.dumps(data.get("notes", [])),
            "evidence": json.dumps(verdict.stored_evidence(), sort_keys=True, default=str),
            "definitions": json.dumps([[str(head), str(body)] for head, body in claim.get("definitions") or []]),
            "claim": json.dumps(claim.get("claim") or structure_from_texts(claim.get("kind"), _text(claim.get("formula")),
                                                                           _text(claim.get("for_all")))),
            "scope_json": json.dumps(verdict.scope_record.to_json(), default=str),
            "seconds": float(verdict.seconds),
            "reused_from": reused_from,
            "recorded": now(),
            **self._versions,
        })
        names = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        with self._conn:
            self._conn.execute(f"INSERT INTO results ({names}) VALUES ({marks})", tuple(row.values()))

    def remember(self, run_id: int, key: str, file: str, claim_id: str, result: tuple) -> bool:
        """Keep a claim's complete result for reuse under `key` (nimjos.results.key), replacing what was kept
        under it: `result` is (verdicts, repairs, seconds of the search for repairs), as the methods gave them.
        Call it only once the whole result is recorded, and never for a claim whose check failed (a crash, an
        internal error): only a complete result is reused. False when the result cannot be kept (not picklable).

        >>> from nimjos.verdict import Verdict
        >>> s = ResultsStore(":memory:"); run = s.begin_run([], "default")
        >>> s.remember(run, "k1", "f.toml", "c", ([Verdict("c", "checked", "exhaustive", "0 <= x <= 3")], [], 0.0))
        True
        >>> s.remember(run, "k2", "f.toml", "c", ([lambda: 0], [], 0.0))
        False
        >>> found = s.reusable(["k1", "k2"]); sorted(found), found["k1"][0], found["k1"][1][0].scope
        (['k1'], 1, '0 <= x <= 3')
        >>> for k in ("k3", "k4", "k5", "k6"):
        ...     _ = s.remember(run, k, "f.toml", "c", ([], [], 0.0))
        >>> sorted(s.reusable(["k1", "k3", "k4", "k5", "k6"]))
        ['k3', 'k4', 'k5', 'k6']
        """
        try:
            blob = pickle.dumps(tuple(result), protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError):
            return False
        with self._conn:
            self._conn.execute("INSERT OR REPLACE INTO reusable (key, run_id, file, claim_id, result, recorded) "
                               "VALUES (?, ?, ?, ?, ?, ?)", (key, run_id, file, claim_id, blob, now()))
            # the newest KEPT_PER_CLAIM results of a claim stay (another profile's, another --method's...)
            self._conn.execute("DELETE FROM reusable WHERE file = ? AND claim_id = ? AND rowid NOT IN (SELECT rowid "
                               "FROM reusable WHERE file = ? AND claim_id = ? ORDER BY rowid DESC LIMIT ?)",
                               (file, claim_id, file, claim_id, KEPT_PER_CLAIM))
        return True

    def reusable(self, keys: list[str]) -> dict[str, tuple]:
        """The results kept under `keys` by :meth:`remember`: key -> (the run that checked it, verdicts, repairs,
        seconds of the search for repairs). A key with nothing kept, or whose result cannot be read back (a
        class nimjos no longer has), is left out: its claim is checked again.

        >>> ResultsStore(":memory:").reusable(["nothing"])
        {}
        """
        out: dict[str, tuple] = {}
        keys = list(dict.fromkeys(keys))
        for start in range(0, len(keys), 500):
            chunk = keys[start:start + 500]
            marks = ", ".join("?" for _ in chunk)
            for row in self._conn.execute(f"SELECT key, run_id, result FROM reusable WHERE key IN ({marks})", chunk):
                try:
                    verdicts, repairs, repair_seconds = _Unpickler(io.BytesIO(row["result"])).load()
                except Exception:  # noqa: BLE001  (anything unreadable is not reused: the claim is checked again)
                    continue
                out[row["key"]] = (row["run_id"], verdicts, repairs, repair_seconds)
        return out

    def finish_run(self, run_id: int, status: str) -> None:
        """Mark a run finished with `status` (for example ``ok``, ``failed``, ``interrupted``).

        >>> s = ResultsStore(":memory:"); run = s.begin_run([], "default"); s.finish_run(run, "ok")
        >>> s.runs()[0]["status"]
        'ok'
        """
        with self._conn:
            self._conn.execute("UPDATE runs SET finished = ?, status = ? WHERE id = ?", (now(), status, run_id))

    def runs(self) -> list[dict]:
        """Every run, oldest first, with its argv decoded.

        >>> s = ResultsStore(":memory:"); _ = s.begin_run(["check", "x.toml"], "deep")
        >>> [(r["id"], r["argv"], r["profile"], r["finished"]) for r in s.runs()]
        [(1, ['check', 'x.toml'], 'deep', None)]
        """
        out = []
        for row in self._conn.execute("SELECT * FROM runs ORDER BY id"):
            run = dict(row)
            run["argv"] = json.loads(run["argv"])
            out.append(run)
        return out

    def latest(self) -> list[dict]:
        """The latest record of every (file, claim_id, method), sorted by file, claim order, claim id, method.

        Each record is a dict of the stored columns; JSON columns come back decoded and `agrees` as a bool.

        >>> from nimjos.verdict import Verdict
        >>> s = ResultsStore(":memory:"); run = s.begin_run([], "default")
        >>> for verdict in ("refuted", "checked"):
        ...     s.record(run, {"file": "f.toml", "claim_id": "c"}, Verdict("c", verdict, "exhaustive", ""))
        >>> [r["verdict"] for r in s.latest()]
        ['checked']
        """
        rows = self._conn.execute("""
            SELECT r.* FROM results r
            JOIN (SELECT MAX(id) AS id FROM results GROUP BY file, claim_id, method) m ON r.id = m.id
            ORDER BY r.file, r.claim_order IS NULL, r.claim_order, r.claim_id, r.method
        """)
        return [_decode(row) for row in rows]

    def completed_claims(self, run_id_or_none: int | None) -> set[tuple[str, str]]:
        """The (file, claim_id) pairs with at least one record in a run, for ``--resume``.

        With a run id: that run's. With None: those of the newest run and of the runs before it back
        to, and including, the newest run that was finished (so a chain of killed runs adds up).

        >>> from nimjos.verdict import Verdict
        >>> s = ResultsStore(":memory:")
        >>> def check(run, claim):
        ...     s.record(run, {"file": "f.toml", "claim_id": claim}, Verdict(claim, "checked", "exhaustive", ""))
        >>> r1 = s.begin_run([], "default"); check(r1, "a")            # killed: never finished
        >>> r2 = s.begin_run(["--resume"], "default"); check(r2, "b")  # killed too
        >>> sorted(s.completed_claims(None)), sorted(s.completed_claims(r2))
        ([('f.toml', 'a'), ('f.toml', 'b')], [('f.toml', 'b')])
        """
        if run_id_or_none is None:
            run_ids = []
            for run in reversed(self.runs()):
                run_ids.append(run["id"])
                if run["finished"] is not None:
                    break
        else:
            run_ids = [run_id_or_none]
        if not run_ids:
            return set()
        marks = ", ".join("?" for _ in run_ids)
        rows = self._conn.execute(f"SELECT DISTINCT file, claim_id FROM results WHERE run_id IN ({marks})",
                                  run_ids)
        return {(row["file"], row["claim_id"]) for row in rows}


#: the globals a kept result may name besides the classes of nimjos and checkers (see :class:`_Unpickler`)
_PLAIN_GLOBALS = {("builtins", name) for name in ("set", "frozenset", "tuple", "list", "dict", "complex", "range",
                                                  "slice", "bytes", "bytearray", "int", "float", "str", "bool")} | {
    ("fractions", "Fraction"), ("collections", "OrderedDict"), ("copyreg", "_reconstructor"), ("builtins", "object")}


class _Unpickler(pickle.Unpickler):
    """Reads a kept result back naming only classes: those defined in nimjos and checkers, and plain values
    (:data:`_PLAIN_GLOBALS`); any other global (a function, a module's attribute) is refused.

    >>> try:
    ...     _Unpickler(io.BytesIO(pickle.dumps(print))).load()
    ... except pickle.UnpicklingError as exc:
    ...     print(exc)
    a kept result names builtins.print, which is not a class of nimjos
    """

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _PLAIN_GLOBALS:
            return super().find_class(module, name)
        if module.split(".")[0] in ("nimjos", "checkers") and "." not in name:
            found = super().find_class(module, name)
            if isinstance(found, type) and found.__module__ == module:
                return found
        raise pickle.UnpicklingError(f"a kept result names {module}.{name}, which is not a class of nimjos")


def _decode(row: sqlite3.Row) -> dict:
    """A results row as a plain dict, JSON columns decoded, `agrees` as a bool (or None)."""
    out = dict(row)
    for name in JSON_FIELDS:
        default: dict | list = {} if name in JSON_OBJECTS else []
        out[name] = json.loads(out[name]) if out.get(name) else default
    if out.get("agrees") is not None:
        out["agrees"] = bool(out["agrees"])
    if out.get("largest") is not None:
        out["largest"] = int(out["largest"])
    return out
