"""Every error in one run (issue 37): ``nimjos check`` and ``nimjos list`` read and validate every file and every
claim before any method runs, and report every independent fault, one line each (file:line, claim or game, field,
message), with exit status 2. A fault that only follows from another (a claim naming a game whose moves are wrong)
is not reported again. When any spec has a fault, no claim is checked, not even those of the valid files."""
from __future__ import annotations

import pathlib
from types import SimpleNamespace

import pytest

import nimjos.app.check_input as check_input
from nimjos.app import cli
from nimjos.lang.errors import SpecError, SpecErrors, each_error
from nimjos.spec.loader import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[3]
TINY = ROOT / "tests" / "data" / "tiny.toml"

THREE = '''[source]
id = "three"

[[claim]]
id = "c1"
for_all = "0 <= n <= 3"
holds = "n * n >= n"
expct = "proved"

[[claim]]
id = "c2"
for_all = "0 <= n <= 3"
holds = "n * n >= m"

[[claim]]
id = "c3"
for_all = "n >= 0"
window = "0 <= k <= 5"
holds = "n >= 0"

[[claim]]
id = "c4"
for_all = "0 <= n <= 3"
holds = "n >= 0"
'''

OTHER = '''[source]
id = "other"

[[claim]]
id = "d1"
for_all = "0 <= n <= 3"
holds = "n >= 0"
expect = "proved-ish"
'''


@pytest.fixture
def no_method_runs(monkeypatch):
    """Fail the test if check hands any claim to the methods (nimjos.app.check_cli, imported on use)."""
    handed: list[tuple[str, list[str]]] = []

    def methods(path: str) -> SimpleNamespace:
        def cmd_check(args):
            handed.append((path, [spec.source.id for spec in args.specs]))
            return 0
        return SimpleNamespace(cmd_check=cmd_check)
    monkeypatch.setattr(check_input, "import_on_use", methods)
    return handed


def test_three_mistakes_in_one_file_and_one_in_another_are_named_in_one_run(write_spec, capsys, no_method_runs):
    three, other = write_spec(THREE, "three.toml"), write_spec(OTHER, "other.toml")
    assert cli.main(["check", str(three), str(other), str(TINY), "--no-store"]) == cli.EXIT_BAD_INPUT
    out, err = capsys.readouterr()
    assert err.replace(str(three.parent) + "/", "").splitlines() == [
        "nimjos: three.toml:8: claim 'c1', field 'expct': unknown field 'expct' (did you mean 'expect' or 'text'?)",
        "nimjos: three.toml:13: claim 'c2', field 'holds': unknown name 'm' (bind it in for_all, e.g. '0 <= m <= 10')",
        "nimjos: three.toml:18: claim 'c3', field 'window': name 'n' has no upper bound in '(n >= 0) and "
        "(0 <= k <= 5)' (add a conjunct such as 'n <= 100')",
        "nimjos: other.toml:8: claim 'd1', field 'expect': expect = 'proved-ish' is not a verdict (did you mean "
        "'proved'?)",
    ]
    assert out == "" and no_method_runs == []   # not even tiny.toml's claim was checked


def test_with_no_fault_the_specs_are_handed_to_the_methods_once_read(capsys, no_method_runs):
    """The fixture above is not vacuous: a valid spec does reach the methods' module."""
    assert cli.main(["check", str(TINY), "--no-store"]) == 0
    assert no_method_runs == [("nimjos.app.check_cli", ["tiny"])]


def test_one_fault_is_raised_as_it_always_was(write_spec):
    path = write_spec(OTHER)
    with pytest.raises(SpecError) as info:
        load_spec(path)
    assert type(info.value) is SpecError and info.value.line == 8 and info.value.field == "expect"


def test_a_file_that_is_not_toml_stops_there_but_the_next_file_is_read(write_spec, capsys):
    broken = write_spec('[source]\nid = "b"\n[[claim]\n', "broken.toml")
    other = write_spec(OTHER, "other.toml")
    missing = broken.parent / "missing.toml"
    assert cli.main(["check", str(broken), str(missing), str(other)]) == cli.EXIT_BAD_INPUT
    lines = capsys.readouterr().err.replace(str(broken.parent) + "/", "").splitlines()
    assert [line.split(": ")[1] for line in lines] == ["broken.toml:3", "missing.toml", "other.toml:8"]
    assert "TOML syntax error" in lines[0] and "no such file or directory" in lines[1]


def test_a_claim_on_a_game_that_failed_adds_no_second_fault(write_spec):
    path = write_spec('''[source]
id = "g"

[game.g]
position = ["x"]
moves = [{ to = "(x - 1,)", iff = "x >= 1" }]

[define]
"h(x)" = "x + undefined_name"
"twice(x)" = "2 * h(x)"

[[claim]]
id = "on-g"
game = "g"
for_all = "0 <= x <= 5"
grundy = "x % 2"

[[claim]]
id = "on-twice"
for_all = "0 <= x <= 5"
holds = "twice(x) >= 0"

[[claim]]
id = "own-fault"
for_all = "0 <= x <= 5"
holds = "x >= y"
''')
    with pytest.raises(SpecErrors) as info:
        load_spec(path)
    got = [(e.line, e.item, e.field) for e in each_error(info.value)]
    assert got == [(6, "game 'g'", "moves[0]"), (9, "definition 'h'", None), (26, "claim 'own-fault'", "holds")]


def test_a_claim_that_names_a_failed_claim_adds_no_second_fault(write_spec):
    path = write_spec('''[source]
id = "r"

[[claim]]
id = "base"
for_all = "0 <= n <= 3"
holds = "n >= 0"
expect = "nonsense"

[[claim]]
id = "fix"
corrects = "base"
for_all = "0 <= n <= 3"
holds = "n >= 0"

[[claim]]
id = "lost"
corrects = "nowhere"
for_all = "0 <= n <= 3"
holds = "n >= 0"

[[claim]]
id = "lemma"
for_all = "0 <= n <= 3"
holds = "n >= q"

[[claim]]
id = "by-lemma"
for_all = "0 <= n <= 3"
holds = "n + 1 >= 0"
prove = { using = ["lemma"] }
''')
    with pytest.raises(SpecErrors) as info:
        load_spec(path)
    assert [(e.item, e.field) for e in each_error(info.value)] == [("claim 'base'", "expect"),
                                                                  ("claim 'lost'", "corrects"),
                                                                  ("claim 'lemma'", "holds")]


def test_independent_definitions_and_a_cycle_are_each_reported_once(write_spec):
    path = write_spec('''[source]
id = "d"

[define]
"f(x)" = "g(x)"
"g(x)" = "f(x) + 1"
"floor(x)" = "x"
"ok(x)" = "x + 1"
"bad(x)" = "x +"

[[claim]]
id = "uses-ok"
for_all = "0 <= x <= 3"
holds = "ok(x) > x"
''')
    with pytest.raises(SpecErrors) as info:
        load_spec(path)
    messages = [e.message for e in each_error(info.value)]
    assert len(messages) == 3
    assert "cycle" in messages[0] and "built-in" in messages[1] and "bad" in str(each_error(info.value)[2])


def test_list_lists_the_valid_files_and_reports_the_faults_of_the_others(write_spec, capsys):
    three = write_spec(THREE, "three.toml")
    assert cli.main(["list", str(TINY), str(three)]) == cli.EXIT_BAD_INPUT
    out, err = capsys.readouterr()
    assert "nim1-grundy" in out and "three.toml" not in out
    assert len(err.splitlines()) == 3 and all(line.startswith(f"nimjos: {three}:") for line in err.splitlines())
