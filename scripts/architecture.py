"""Rewrite the module list of docs/architecture.md from the tree: every module of nimjos/ and checkers/, layer by
layer from the top down (the order of the import-linter contract in pyproject.toml), with its line count and
its one job (the first sentence of its docstring).

The list stands between the markers ``<!-- modules:begin -->`` and ``<!-- modules:end -->``; the prose around
them is kept. tests/product/test_architecture.py fails when the committed list differs from the generated one.

    python scripts/architecture.py [--doc docs/architecture.md]
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
BEGIN, END = "<!-- modules:begin -->", "<!-- modules:end -->"
COMMAND = "python scripts/architecture.py"

#: the end of a sentence: a period, then a space and a capital letter or code (``e.g. a`` goes on)
_SENTENCE_END = re.compile(r"\.(?=\s+[A-Z`*:(]|\s*$)")


def first_sentence(docstring: str, longest: int = 200) -> str:
    """A docstring's first sentence, on one line, without its final period; a sentence longer than `longest`
    characters is cut at its first colon. A period or colon inside parentheses or code, or a period followed
    by a small letter (``e.g. the``), does not end it.

    >>> first_sentence("The command line: ``nimjos check``.\\n\\nMore text.")
    'The command line: ``nimjos check``'
    >>> first_sentence("The command line: ``nimjos check``.", longest=20)
    'The command line'
    >>> first_sentence("Periodicity (Definitions 1.20. and 2.2: both), as observations. More.")
    'Periodicity (Definitions 1.20. and 2.2: both), as observations'
    >>> first_sentence("Builds a window, e.g. the box\\nof a claim")
    'Builds a window, e.g. the box of a claim'
    >>> first_sentence("``nimjos new FILE.toml``: a new spec", longest=10)
    '``nimjos new FILE.toml``'
    """
    paragraph = " ".join(docstring.strip().split("\n\n")[0].split())
    sentence, head = paragraph.rstrip("."), ""
    depth, code = 0, False
    for i, char in enumerate(paragraph):
        if paragraph.startswith("``", i) and not paragraph.startswith("`", i + 2):
            code = not code
        depth += (char in "([{") - (char in ")]}")
        if depth > 0 or code:
            continue
        if char == ":" and paragraph.startswith(": ", i) and not head:
            head = paragraph[:i]
        if char == "." and _SENTENCE_END.match(paragraph, i):
            sentence = paragraph[:i]
            break
    return head if len(sentence) > longest and head else sentence


def layers(root: Path = ROOT) -> tuple[list[str], list[str]]:
    """The root packages of the import-linter configuration in pyproject.toml that are not layers themselves,
    and the layers of its contract of layers across the packages (the one without ``containers``; a contract
    inside a package orders that package's subpackages), from the top down.

    >>> outside, inside = layers()
    >>> outside, inside[0], inside[-1]
    (['nimjos'], 'nimjos.app', 'nimjos.words')
    """
    config = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["importlinter"]
    (contract,) = [c for c in config["contracts"] if c["type"] == "layers" and "containers" not in c]
    return [p for p in config["root_packages"] if p not in contract["layers"]], list(contract["layers"])


def layer_modules(layer: str, root: Path = ROOT) -> dict[str, list[Path]]:
    """The module files of one layer, grouped under a heading (relative to `root`): a package's own modules
    sorted by name (``__init__.py`` first), then its subpackages, each the same way; a module layer under its
    own path.

    >>> groups = layer_modules("nimjos.results")
    >>> {folder: [p.name for p in files] for folder, files in groups.items()}
    {'nimjos/results/': ['__init__.py', 'key.py', 'store.py']}
    >>> layer_modules("nimjos.verdict")
    {'nimjos/verdict.py': [PosixPath('nimjos/verdict.py')]}
    """
    path = root.joinpath(*layer.split("."))
    if not path.is_dir():
        module = path.with_suffix(".py").relative_to(root)
        return {module.as_posix(): [module]}
    out: dict[str, list[Path]] = {}
    for folder in sorted(p for p in [path, *path.rglob("*")] if p.is_dir() and (p / "__init__.py").exists()):
        files = sorted(folder.glob("*.py"), key=lambda p: (p.name != "__init__.py", p.name))
        out[f"{folder.relative_to(root).as_posix()}/"] = [p.relative_to(root) for p in files]
    return out


def module_line(path: Path, root: Path = ROOT) -> str:
    """One line of the module list: the module's path, its line count and its job.

    >>> module_line(Path("nimjos/results/store.py")).split(" lines): ")[1]
    'The results store: every verdict of every check, in one SQLite file'
    """
    text = (root / path).read_text()
    docstring = ast.get_docstring(ast.parse(text)) or ""
    job = first_sentence(docstring) or "(no docstring)"
    return f"- `{path.as_posix()}` ({len(text.splitlines())} lines): {job}"


def module_list(root: Path = ROOT) -> str:
    """The generated module list: a heading per package directory, a line per module, from the top layer down
    (first the ``__init__.py`` of a root package that is not a layer).

    >>> text = module_list()
    >>> text.splitlines()[0], "- `nimjos/verdict.py`" in text, "- `nimjos/lang/syntax.py`" in text
    ('`nimjos/`', True, True)
    """
    outside, inside = layers(root)
    groups = {f"{package}/": [Path(package, "__init__.py")] for package in outside}
    for layer in inside:
        groups.update(layer_modules(layer, root))
    blocks = []
    for folder, files in groups.items():
        blocks.append("\n".join([f"`{folder}`", ""] + [module_line(p, root) for p in files]))
    return "\n\n".join(blocks)


def rewrite(doc: str, listing: str) -> str:
    """`doc` with the text between the markers replaced by `listing`.

    >>> rewrite(f"intro\\n{BEGIN}\\nold\\n{END}\\nafter\\n", "new")
    'intro\\n<!-- modules:begin -->\\nnew\\n<!-- modules:end -->\\nafter\\n'
    >>> rewrite("no markers", "new")
    Traceback (most recent call last):
    ...
    ValueError: the markers <!-- modules:begin --> and <!-- modules:end --> are missing
    """
    if BEGIN not in doc or END not in doc:
        raise ValueError(f"the markers {BEGIN} and {END} are missing")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{listing}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    """Rewrite the module list of a document (docs/architecture.md unless ``--doc`` names another).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     doc = Path(folder) / "doc.md"
    ...     _ = doc.write_text(f"Modules:\\n{BEGIN}\\n{END}\\n")
    ...     main(["--doc", str(doc)]), "- `nimjos/verdict.py`" in doc.read_text(), main(["--doc", str(doc)])
    doc.md: rewritten
    doc.md: up to date
    (0, True, 0)
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--doc", type=Path, default=DOC)
    args = parser.parse_args(argv)
    old = args.doc.read_text()
    new = rewrite(old, module_list())
    if new != old:
        args.doc.write_text(new)
    print(f"{args.doc.name}: {'rewritten' if new != old else 'up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
