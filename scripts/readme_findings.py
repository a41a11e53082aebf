"""Rewrite the README's findings section from the results store (after `nimjos check specs/`).

Per source document: claims encoded, and how many held / were refuted / ill-defined / vacuous, and how many
verdicts rest on a reading (the claim's `reading`: where the printed text is garbled or ambiguous, the verdict
is on the statement as read); then every printed statement found wrong with its smallest counterexample, its
reading if it rests on one, and its corrected sibling. A claim with `relaxes` is a probe that drops a
hypothesis on purpose, not a printed statement: probes are counted apart, never listed as findings.

    python scripts/readme_findings.py [--store .nimjos/results.sqlite] [--readme README.md]
"""
from __future__ import annotations

import argparse
import ast
import re
from collections import defaultdict
from pathlib import Path

from nimjos.lang.errors import NimjosError
from nimjos.lang.syntax import parse
from nimjos.report.records import final_row
from nimjos.verdict import HOLDING
from nimjos.results.store import ResultsStore

BEGIN, END = "<!-- findings:begin -->", "<!-- findings:end -->"


def _cx_text(rec: dict) -> str:
    cxs = rec.get("counterexamples") or rec.get("undefined") or []
    if not cxs:
        return ""
    cx = cxs[0]
    b = ", ".join(f"{k}={v}" for k, v in cx["bindings"].items())
    if cx.get("reason"):
        return f"{b}: {cx['reason']}"
    relation = _relation(rec.get("formula") or "")
    if relation not in (None, "=="):
        return f"{b}: left side {cx.get('lhs')}, right side {cx.get('rhs')}, so `{relation}` fails"
    return f"{b}: {cx.get('lhs')} vs printed {cx.get('rhs')}"


def _relation(formula: str) -> str | None:
    """The comparison at the top of a `holds` formula ("==", ">", ...), or None.

    >>> _relation("Gk(k, n) > k - 1"), _relation("x == y"), _relation("G(g, x)")
    ('>', '==', None)
    """
    try:
        tree = parse(formula)
    except NimjosError:
        return None
    if isinstance(tree, ast.Compare) and len(tree.ops) == 1:
        return {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}.get(type(tree.ops[0]))
    return None


def final_records(records: list[dict], only_specs: bool = True) -> dict[tuple[str, str], dict]:
    """(file, claim id) -> the record of the claim's final verdict (nimjos.verdict.final_verdict), for the claims
    of specs/ (or of every file).

    >>> final_records([{"file": "specs/a.toml", "claim_id": "c", "method": "exhaustive", "verdict": "checked"},
    ...                {"file": "specs/a.toml", "claim_id": "c", "method": "sample", "verdict": "sampled"}])
    {('specs/a.toml', 'c'): {'file': 'specs/a.toml', 'claim_id': 'c', 'method': 'sample', 'verdict': 'sampled'}}
    """
    by_claim: dict[tuple, list] = defaultdict(list)
    for r in records:
        if not only_specs or r.get("file", "").startswith("specs/") or "/specs/" in r.get("file", ""):
            by_claim[(r["file"], r["claim_id"])].append(r)
    return {k: final_row(v) for k, v in by_claim.items()}


def is_printed_failure(rec: dict) -> bool:
    """A final record of a printed statement found wrong: refuted or ill-defined, and not a relaxation probe
    (a claim that drops a hypothesis on purpose, `relaxes`). A printed statement under a reading is one.

    >>> is_printed_failure({"verdict": "refuted", "reading": '"sk+1" read as "sk+i"'})
    True
    >>> is_printed_failure({"verdict": "refuted", "relaxes": "thm-2.1"}), is_printed_failure({"verdict": "checked"})
    (False, False)
    """
    return rec.get("verdict") in ("refuted", "ill-defined") and not rec.get("relaxes")


def wrong_entry(rec: dict, fix: str | None, doc: str) -> str:
    """One line of the list of printed statements found wrong: reference, verdict, the smallest counterexample,
    the reading it rests on (if any) and the corrected sibling (if any).

    >>> print(wrong_entry({"file": "specs/a.toml", "claim_id": "eq-17", "ref": "(17)", "verdict": "ill-defined",
    ...                    "reading": '"sk+1" read as "sk+i"', "undefined": [{"bindings": {"k": 3}, "reason": "no value"}]},
    ...                   "eq-17-corrected", "a.txt"))
    - **a.toml (17)** (`eq-17`, ill-defined, as read: "sk+1" read as "sk+i"): k=3: no value; corrected by `eq-17-corrected` [a.txt]
    """
    read = f", as read: {rec['reading']}" if rec.get("reading") else ""
    return (f"- **{Path(rec['file']).name} {rec.get('ref') or rec['claim_id']}** (`{rec['claim_id']}`, {rec['verdict']}{read}): "
            f"{_cx_text(rec)}" + (f"; corrected by `{fix}`" if fix else "") + f" [{doc}]")


def findings(records: list[dict]) -> str:
    finals = final_records(records)
    files = sorted({k[0] for k in finals})
    lines = ["| document | claims | held (proved / proved-bounded / sampled / checked) | refuted | ill-defined | vacuous | other "
             "| on a reading |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    wrong: list[str] = []
    probes = probes_wrong = 0
    for f in files:
        recs = [(k, v) for k, v in finals.items() if k[0] == f]
        words = [v["verdict"] for _, v in recs]
        held = sum(w in HOLDING for w in words)
        counts = {w: words.count(w) for w in ("refuted", "ill-defined", "vacuous")}
        other = len(words) - held - sum(counts.values())
        doc = recs[0][1].get("document") or Path(f).name
        title = recs[0][1].get("source_title") or ""
        split = " / ".join(str(words.count(w)) for w in ("proved", "proved-bounded", "sampled", "checked"))
        readings = sum(bool(v.get("reading")) for _, v in recs)
        lines.append(f"| [{Path(f).name}]({f}) ({title}) | {len(words)} | {held} ({split}) | {counts['refuted']} | "
                     f"{counts['ill-defined']} | {counts['vacuous']} | {other} | {readings} |")
        corrections = {v.get("corrects"): v["claim_id"] for _, v in recs if v.get("corrects")}
        probes += sum(bool(v.get("relaxes")) for _, v in recs)
        probes_wrong += sum(bool(v.get("relaxes")) and v["verdict"] in ("refuted", "ill-defined") for _, v in recs)
        for (_, cid), v in sorted(recs, key=lambda kv: (kv[1].get("claim_order") or 0)):
            if is_printed_failure(v):
                wrong.append(wrong_entry(v, corrections.get(cid), doc))
    methods = sorted({r.get("method") for r in records if r.get("method")})
    command = "nimjos check specs/" if {"sample", "prove"} <= set(methods) else \
        f"nimjos check specs/ --method {','.join(methods)}"
    out = [f"Verdicts of `{command}` (default profile; methods: {', '.join(methods)}; each claim counted once, "
           "by its final verdict), from the results store (`python scripts/readme_findings.py` regenerates "
           "this section):", ""] + lines
    out += ["", "*On a reading*: verdicts on a statement whose printed text is garbled or ambiguous, judged as the "
            "encoder read it (the reading is the claim's `reading`, shown below and in the report).",
            "", "Printed statements found wrong (smallest counterexample first; a statement judged on a reading says "
            "so):", ""] + (wrong or ["- none"])
    out += ["", f"Not listed: {probes} relaxation probes, claims that drop a printed hypothesis on purpose to see "
            f"whether it is needed (not printed statements); {probes_wrong} of them fail, so those hypotheses are "
            "needed."]
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--store", default=".nimjos/results.sqlite")
    ap.add_argument("--readme", default="README.md")
    args = ap.parse_args()
    store = ResultsStore(args.store)
    section = findings(store.latest())
    readme = Path(args.readme)
    text = readme.read_text()
    block = f"{BEGIN}\n{section}\n{END}"
    if BEGIN in text:
        text = re.sub(re.escape(BEGIN) + r".*?" + re.escape(END), lambda m: block, text, flags=re.S)
    else:
        text += f"\n## Findings in the source documents\n\n{block}\n"
    readme.write_text(text)
    print(section)


if __name__ == "__main__":
    main()
