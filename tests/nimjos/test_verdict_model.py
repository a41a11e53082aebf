"""One owner of the verdict rules: every combination of the methods' verdicts gives the same final verdict and
the same agreement with `expect` in the CLI (text and JSON), the pytest plugin, the results store, the report
and the README findings, because each of them calls nimjos.verdict.
"""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from checkers.run import ClaimResult
from nimjos.app import check_cli, cli
from nimjos.report.model import group_claims
from nimjos.results.store import ResultsStore
from nimjos.spec.loader import load_spec
from nimjos.verdict import EXPECTABLE, VERDICTS, Counterexample, Verdict, agreement, final_verdict

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import readme_findings  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
#: what a method may answer (None: the method did not apply)
WINDOW = ("refuted", "ill-defined", "checked", "vacuous", "inconclusive")
SAMPLE = (None, "refuted", "ill-defined", "sampled", "inconclusive")
PROVE = (None, "refuted", "ill-defined", "proved", "proved-bounded", "inconclusive")
COMBINATIONS = [c for c in itertools.product(WINDOW, SAMPLE, PROVE)]


def _verdicts(words: tuple) -> list[Verdict]:
    out = []
    for method, word in zip(("exhaustive", "sample", "prove"), words):
        if word is None:
            continue
        cx = [Counterexample({"x": 1}, 0, 1)] if word == "refuted" else []
        undefined = [Counterexample({"x": 2}, reason="no value")] if word == "ill-defined" else []
        out.append(Verdict("c", word, method, f"{method} scope", instances=3, counterexamples=cx, undefined=undefined))
    return out


@pytest.fixture(scope="module")
def claim():
    return load_spec(ROOT / "tests" / "data" / "tiny.toml").claims[0]


def test_the_combinations_cover_every_verdict_word():
    assert {w for c in COMBINATIONS for w in c if w} == set(VERDICTS)


@pytest.mark.parametrize("words", COMBINATIONS, ids=lambda c: "+".join(w or "-" for w in c))
def test_every_consumer_gives_the_same_final_verdict_and_agreement(words, claim, tmp_path):
    verdicts = _verdicts(words)
    final = final_verdict(verdicts)
    # the run's result, as the CLI and the pytest plugin see it
    result = ClaimResult(claim, verdicts)
    assert result.final is final
    for expect in (None, *EXPECTABLE):
        agrees, why = agreement(final, expect)
        assert agrees == final.agrees_with(expect)
        assert agrees == (why == "")
    agrees, why = agreement(final, claim.expect, claim.expect_counterexample)
    # CLI: JSON entry and text line
    entry = check_cli._json_entry(claim, result, agrees)
    assert (entry["verdict"], entry["method"], entry["agrees"]) == (final.verdict, final.method, agrees)
    line = check_cli._human_line(claim, result, agrees, why)
    assert line.split()[1] == final.verdict
    # the store, then the report and the README findings, from the stored records
    with ResultsStore(tmp_path / "r.sqlite") as store:
        run = store.begin_run(["check"], "default")
        meta = check_cli._claim_meta(claim, agrees)
        for v in verdicts:
            store.record(run, meta, v)
        store.finish_run(run, "ok")
        rows = store.latest()
    (reported,) = group_claims(rows)
    assert (reported.verdict, reported.best["method"], reported.agrees) == (final.verdict, final.method, agrees)
    (found,) = readme_findings.final_records(rows, only_specs=False).values()
    assert (found["verdict"], found["method"]) == (final.verdict, final.method)


def test_the_pytest_plugin_fails_a_claim_exactly_when_the_cli_would(tmp_path, starts_processes):
    spec = tmp_path / "s.toml"
    spec.write_text('[source]\nid = "s"\n[[claim]]\nid = "wrong"\nfor_all = "0 <= n <= 3"\nholds = "n < 3"\n'
                    'expect = "holds"\n[[claim]]\nid = "right"\nfor_all = "0 <= n <= 3"\nholds = "n <= 3"\n')
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(spec),
                          "-o", "addopts=", "--no-header"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert "1 failed, 1 passed" in run.stdout, run.stdout
    assert cli.main(["check", str(spec), "--no-store", "--method", "exhaustive", "--no-repair"]) == cli.EXIT_DISAGREE


#: a cheap claim of each kind of claim in specs/ (see _representatives), chosen from the window seconds of one run;
#: def-2.1-mex, lemma-3.1-i and def-2.1-grundy are ids that two files use
CHEAP = frozenset("""
abstract-g-misprint abstract-h-misprint abstract-k1 abstract-turn-nim abstract-turn-nim-corrected closing-remark
def-1.1-weight def-1.1-weight-corrected def-1.5-union def-2.1-grundy def-2.1-mex ex-3.3-order ex-3.3-rounds
ex-3.3-rounds-from-1 ex-3.3-survivor example-1 example-1.12 example-2.3 example-2.6-stair-needs-h-divides-l
example-2.8 example-2.8-printed example-2.8-without-s2-greater example-3.4 lemma-1.1-1-no-h-bound lemma-1.2-i.1.4
lemma-1.3-25 lemma-2.1-42-no-k-bound lemma-2.1-any-f lemma-2.2-any-f lemma-3.1-eq-1 lemma-3.1-eq-1-corrected
lemma-3.1-eq-6-7 lemma-3.1-eq-9 lemma-3.1-i lemma-3.1-ii-any-x lemma-3.2-iii-label lemma-3.2-iii-label-corrected
lemma-3.2-proof-cases-corrected remark-2.1 thm-1.1 thm-1.1-corrected thm-1.16-wythoff-families thm-1.6-bouton-2
thm-2.1-base-even thm-2.1-tables thm-2.2-maxnim thm-2.4-no-stair thm-2.5-k1 thm-2.9-proof-case-1-printed
thm-3.4-JJ-n thm-3.4-eq-15-k2 thm-3.4-eq-17 thm-3.4-eq-17-corrected thm-3.4-k1 thm-3.5-delete-nim thm-3.5-eq-22
thm-3.5-g0 thm-3.5-g0-corrected thm-3.5-valuation""".split())


def _representatives() -> set[str]:
    """One claim id for each kind of claim of specs/: per file, per (kind, expect, whether it corrects, relaxes or
    rests on a reading), the first claim listed in CHEAP, else the first claim (a new kind of claim is never left
    out, only perhaps slow)."""
    groups: dict[tuple, list] = {}
    for path in sorted((ROOT / "specs").glob("*.toml")):
        for c in load_spec(path).claims:
            key = (path.name, c.kind, c.expect, bool(c.corrects), bool(c.relaxes), bool(c.reading))
            groups.setdefault(key, []).append(c.id)
    return {next((cid for cid in ids if cid in CHEAP), ids[0]) for ids in groups.values()}


def test_cli_json_store_report_and_readme_findings_agree_on_claims_of_every_kind_in_specs(tmp_path, capsys,
                                                                                       starts_processes):
    """The window method on claims of specs/, one of each kind per file: the final verdict printed as JSON is the one
    the store's records give to the report and to the README findings. The agreement is per claim (each consumer
    takes a claim's final verdict from that claim's own records, keyed by file and claim id; the combinations of
    verdict words are all covered in process above), so one claim of each kind stands for the others; ids that two
    files share are among them, for the keying. (All 375 claims took 5 min of the suite; these take seconds.)"""
    store = tmp_path / "results.sqlite"
    ids = _representatives()
    rc = cli.main(["check", str(ROOT / "specs"), "--method", "exhaustive", "--no-repair", "--json", "--jobs", "2",
                   "--store", str(store), *(a for cid in sorted(ids) for a in ("--claim", cid))])
    printed = json.loads(capsys.readouterr().out)
    assert rc in (cli.EXIT_OK, cli.EXIT_DISAGREE) and not printed["errors"]
    by_json = {(Path(c["file"]).name, c["id"]): (c["verdict"], c["method"], c["agrees"]) for c in printed["claims"]}
    with ResultsStore(store) as s:
        rows = s.latest()
    by_report = {(Path(c.file).name, c.claim_id): (c.verdict, c.best["method"], c.agrees) for c in group_claims(rows)}
    by_readme = {(Path(f).name, cid): (r["verdict"], r["method"], r["agrees"])
                 for (f, cid), r in readme_findings.final_records(rows, only_specs=False).items()}
    assert set(by_json) == {(p.name, c.id) for p in (ROOT / "specs").glob("*.toml") for c in load_spec(p).claims
                            if c.id in ids}
    assert by_json == by_report == by_readme
    # every verdict word the window method gives in specs/, and a claim id in two files
    assert {v for v, _, _ in by_json.values()} == {"checked", "refuted", "ill-defined", "vacuous"}
    assert len({cid for _, cid in by_json}) < len(by_json)
