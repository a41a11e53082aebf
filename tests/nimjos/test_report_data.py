"""A results store with one record of every shape a report shows, built from Verdict objects directly.

Used by the report tests (and the browser test); it holds no tests of its own. The checker is not
involved: the values below are what a checker would record, written out by hand.
"""
from __future__ import annotations

from pathlib import Path

from nimjos.verdict import Counterexample, Verdict
from nimjos.results.store import ResultsStore

SCRIPT = "<script>alert(1)</script>"

DEMO = dict(file="specs/demo.toml", spec_hash="ab" * 32, source_id="demo", source_title="A demo paper",
            document="000_demo.txt", cite="A. Author, Demo results, 2024")
OTHER = dict(file="specs/other.toml", spec_hash="cd" * 32, source_id="other", source_title="Another paper",
             document="001_other.txt", cite="B. Author, 2023")

N = 12
NIM_GRID = {"x0": 0, "y0": 0, "grundy": [[x ^ y for y in range(N)] for x in range(N)],
            "claimed": [[int((x + y) % 2 == 0) for y in range(N)] for x in range(N)],
            "label": "claimed P-positions", "game": "nim2"}
SUB23 = [0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 0]
SUB23_WRONG = [n for n in range(16) if SUB23[n] != n % 4 // 2]


def claim(base: dict, claim_id: str, order: int, **fields) -> dict:
    out = dict(base, claim_id=claim_id, order=order, ref=None, text=None, kind="holds", game=None,
               expect=None, corrects=None, relaxes=None, note=None, formula=None, agrees=True)
    out.update(fields)
    return out


def records() -> list[tuple[dict, Verdict]]:
    """(claim, verdict) pairs: refuted 2-D, its correction, ill-defined, refuted 1-D and Josephus, held ones."""
    nim_cx = [Counterexample({"x": x, "y": y}, "N", "P", detail={"grundy": x ^ y})
              for x, y in [(0, 2), (2, 0), (1, 3)]]
    return [
        (claim(DEMO, "nim-parity", 0, ref="Theorem 1", kind="p_positions", game="nim2", expect="refuted",
               text="A position is a P-position exactly when x + y is even. " + SCRIPT,
               note="Parity is not the nim-sum. " + SCRIPT, formula="(x + y) % 2 == 0"),
         Verdict("nim-parity", "refuted", "exhaustive", "0 <= x <= 11, 0 <= y <= 11; game nim2", instances=144,
                 assumption_held=144, failures=60, counterexamples=nim_cx, seconds=0.5,
                 evidence={"grid": NIM_GRID,
                           "options": {"position": "(0, 2)", "options": [{"position": "(0, 0)", "grundy": 0},
                                                                          {"position": "(0, 1)", "grundy": 1}],
                                       "mex": 2, "claimed": "P"},
                           "rerun": "nimjos check specs/demo.toml --claim nim-parity --at 'x=0,y=2'",
                           "repairs": [{"field": "p_positions", "text": "xor(x, y) == 0",
                                        "edits": ["(x + y) % 2 -> xor(x, y)"], "verdict": "checked",
                                        "scope": "0 <= x <= 11, 0 <= y <= 11", "instances": 144}]})),
        (claim(DEMO, "nim-xor", 1, ref="Theorem 1, corrected", kind="p_positions", game="nim2", expect="holds",
               corrects="nim-parity", text="A position is a P-position exactly when x XOR y = 0.",
               formula="xor(x, y) == 0"),
         Verdict("nim-xor", "checked", "exhaustive", "0 <= x <= 11, 0 <= y <= 11; game nim2", instances=144,
                 assumption_held=144, seconds=0.25)),
        (claim(DEMO, "v2-zero", 2, ref="Lemma 2", kind="grundy", game="delete_nim", expect="holds",
               text="G(x, y) = v2(x OR y)", formula="v2(x | y)", agrees=False),
         Verdict("v2-zero", "ill-defined", "exhaustive", "0 <= x <= 3, 0 <= y <= 3", instances=16,
                 assumption_held=16,
                 undefined=[Counterexample({"x": 0, "y": 0}, 0, None, reason="v2(0) is undefined")])),
        (claim(DEMO, "sub23-period", 3, ref="Example 3", kind="grundy", game="sub23", expect="refuted",
               text="G(n) = (n mod 4) // 2", formula="n % 4 // 2"),
         Verdict("sub23-period", "refuted", "exhaustive", "0 <= n <= 15; game sub23", instances=16,
                 failures=len(SUB23_WRONG), counterexamples=[Counterexample({"n": n}, SUB23[n], n % 4 // 2)
                                                             for n in SUB23_WRONG],
                 evidence={"sequence": {"x0": 0, "grundy": SUB23, "claimed": [n % 4 // 2 for n in range(16)],
                                        "label": "claimed value", "game": "sub23"}})),
        (claim(DEMO, "josephus-last", 4, ref="Theorem 4", kind="holds", expect="refuted",
               text="The survivor is 2n - 1.", formula="survivor(n, k) == 2 * n - 1",
               for_all="1 <= n <= 20 and k in {3}", assume="n % 2 == 0"),
         Verdict("josephus-last", "refuted", "exhaustive", "1 <= n <= 20, k in {3}", instances=20, failures=18,
                 counterexamples=[Counterexample({"n": 2, "k": 3}, 2, 3)],
                 evidence={"josephus": {"n": 10, "k": 3},
                           "rerun": "nimjos check specs/demo.toml --claim josephus-last --at 'n=2,k=3'"})),
        (claim(DEMO, "plain", 5, ref="Remark 5", text="Harmless text " + SCRIPT, formula="x + 1 >= 1"),
         Verdict("plain", "checked", "exhaustive", "0 <= x <= 9", instances=10, seconds=0.01)),
        (claim(DEMO, "proved-one", 6, ref="Theorem 6", formula="xor(x, x) == 0", expect="proved"),
         Verdict("proved-one", "checked", "exhaustive", "0 <= x <= 99", instances=100, seconds=0.02)),
        (claim(DEMO, "proved-one", 6, ref="Theorem 6", formula="xor(x, x) == 0", expect="proved"),
         Verdict("proved-one", "proved", "prove", "every x >= 0", seconds=0.3)),
        (claim(OTHER, "never", 0, ref="Lemma 7", text="If x < 0 then x = x.", formula="x == x", expect="holds",
               agrees=False),
         Verdict("never", "vacuous", "exhaustive", "0 <= x <= 9", instances=10, assumption_held=0)),
        (claim(OTHER, "never-relaxed", 1, ref="Lemma 7 without x < 0", formula="x == x + 1", expect="refuted",
               relaxes="never", note="Is x < 0 needed? Yes."),
         Verdict("never-relaxed", "refuted", "exhaustive", "0 <= x <= 9", instances=10, failures=10,
                 counterexamples=[Counterexample({"x": 0}, 0, 1)])),
    ]


def make_store(path: Path) -> Path:
    """Write the records above into a new store at `path` and return the path."""
    with ResultsStore(path) as store:
        run = store.begin_run(["check", "specs/"], "default")
        for meta, verdict in records():
            store.record(run, meta, verdict)
        store.finish_run(run, "ok")
    return Path(path)
