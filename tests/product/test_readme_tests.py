"""The README's test commands (issue 28, item 2): CI runs the whole suite with the README's test command, the
README names the fast subset, and the `slow` marker it deselects is registered and used."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FIRST_BLOCK = re.search(r"```sh\n(.*?)```", README, re.S).group(1).splitlines()


def test_ci_runs_the_readmes_whole_suite_command():
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line.strip() and not line.startswith("#")]
    assert "python -m pytest" in FIRST_BLOCK and ci[-1] == "python -m pytest"


def test_the_readme_names_the_fast_subset_and_the_marker_is_registered_and_used():
    assert len([line for line in FIRST_BLOCK if line.strip()]) == 2, "the README starts with two commands"
    assert '`python -m pytest -m "not slow"`' in README
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]["markers"]
    assert any(m.startswith("slow:") for m in markers)
    # the marker is given by the rule of tests/conftest.py (tests/product/test_slow_rule.py checks the rule itself)
    conftest = (ROOT / "tests" / "conftest.py").read_text()
    assert "item.add_marker(pytest.mark.slow)" in conftest and "SLOW_FIXTURES" in conftest
    assert list((ROOT / "tests" / "slow").rglob("test_*.py"))
