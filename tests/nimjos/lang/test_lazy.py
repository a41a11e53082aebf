"""The on-disk cache of the compiled kernels is keyed by their sources (nimjos.lang.lazy.kernel_cache_dir): numba
itself finds a cached kernel by its own bytecode and its own file's time stamp only, so a kernel that inlines a
kernel or reads a constant of another module would be loaded stale after that module changed."""
from __future__ import annotations

import contextlib
import os
import pathlib
import shutil

import pytest

from nimjos.lang import lazy

ROOT = pathlib.Path(lazy.__file__).resolve().parents[1]


@pytest.fixture
def package(tmp_path: pathlib.Path) -> pathlib.Path:
    """A copy of the sources the kernels are built from (and one module they are not)."""
    root = tmp_path / "nimjos"
    for entry in lazy.KERNEL_SOURCES:
        src = ROOT / entry
        if src.is_dir():
            shutil.copytree(src, root / entry, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            (root / entry).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(src, root / entry)
    (root / "report").mkdir()
    (root / "report" / "pages.py").write_text("X = 1\n")
    return root


@pytest.mark.parametrize("changed", ["games/fast/kernels.py", "games/heaps/fast.py", "josephus/kernels.py",
                                     "lang/lazy.py"])
def test_a_change_to_any_kernel_source_moves_the_cache(package: pathlib.Path, changed: str) -> None:
    before = lazy.cache_dir_for(package, {})
    path = package / changed
    path.write_text(path.read_text() + "\nBIG = 1 << 41\n")    # a constant another module's kernel may read
    after = lazy.cache_dir_for(package, {})
    assert after != before and os.path.dirname(after) == os.path.dirname(before)


def test_other_sources_keep_the_cache(package: pathlib.Path) -> None:
    before = lazy.cache_dir_for(package, {})
    (package / "report" / "pages.py").write_text("X = 2\n")
    assert lazy.cache_dir_for(package, {}) == before


def test_the_users_folder_is_the_base(package: pathlib.Path, tmp_path: pathlib.Path) -> None:
    # the bounds-checked test run gives numba a cache folder of its own: kept, with the key below it
    mine = lazy.cache_dir_for(package, {"NUMBA_CACHE_DIR": str(tmp_path / "checked")})
    assert pathlib.Path(mine).parent == tmp_path / "checked"
    assert pathlib.Path(mine).name == lazy.sources_key(package)
    assert pathlib.Path(lazy.cache_dir_for(package, {})).parent == package / "__pycache__" / "numba"


def test_numba_caches_the_kernels_in_the_keyed_folder() -> None:
    from nimjos.josephus.kernels import compiled, theorem36
    assert int(compiled(theorem36)(41, 3)) == 31
    import numba
    assert numba.config.CACHE_DIR == lazy.kernel_cache_dir()
    folder = pathlib.Path(lazy.kernel_cache_dir())
    assert any(folder.rglob("kernels.theorem36-*.nbi"))


@lazy.compiled_on_use(cache=True)
def _thrice(x):
    return 3 * x


def test_a_cached_kernel_is_compiled_under_the_lock_of_its_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    # processes that share the cache compile one at a time, so the second loads what the first compiled
    folders: list[str] = []
    real = lazy.compiling_alone

    @contextlib.contextmanager
    def spy(folder: str):
        with real(folder):
            folders.append(folder)
            yield

    monkeypatch.setattr(lazy, "compiling_alone", spy)
    assert _thrice(7) == 21
    assert folders == [lazy.kernel_cache_dir()]
    assert _thrice(8) == 24 and len(folders) == 1   # compiled once for the signature


def test_the_compile_lock_is_taken_once_however_deep_the_compiles_nest(tmp_path: pathlib.Path) -> None:
    with lazy.compiling_alone(str(tmp_path)):
        with lazy.compiling_alone(str(tmp_path)):
            assert (tmp_path / "compile.lock").exists()
        assert lazy._HOLD.depth == 1
    assert lazy._HOLD.depth == 0
