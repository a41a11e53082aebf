"""The one way a module is imported on first use instead of at start-up: :func:`import_on_use`, by a path
named in a registry (:data:`nimjos.app.cli.SUBCOMMANDS`: the module that adds a subcommand's arguments and the one
that does its work; :data:`nimjos.API`), an engine of the project named in :data:`MODULES_ON_USE`, or a heavy
library named in :data:`LIBRARIES_ON_USE`.

The project imports at the top of a module, never inside a function (tests/product/test_architecture.py); this
module is the one exception, so that ``nimjos --help``, ``nimjos josephus survivor`` and reading a spec do not
load sympy, numba, z3, matplotlib, dask or numpy. Of the project, the modules of the application layer and of the API
(``nimjos.app.*``, ``nimjos.api.*``, the two top layers, which nothing below may import) and the engines of :data:`MODULES_ON_USE` are loaded this way; an
engine only by a module of its own layer or of a layer above, so a lazy import is never an import upward through
the layers; tests/product/test_architecture.py checks who calls it with what.

The compiled kernels of the games (:func:`compiled_on_use`, in place of ``numba.njit``) are compiled, and numba
imported, at the first call of one of them. Processes that share the on-disk cache compile one at a time
(:func:`compiling_alone`): a process that needs a kernel another is compiling waits, then loads it from the cache,
instead of compiling it again (the main job's two workers each compiled the kernels both use).

>>> import_on_use("nimjos.app.scaffold").__name__
'nimjos.app.scaffold'
"""
from __future__ import annotations

import functools
import hashlib
import importlib
import os
import pathlib
import sys
import tempfile
import threading
from types import MethodType, ModuleType
from typing import Any, Callable, Iterator, Mapping
from contextlib import contextmanager

try:
    import fcntl   # POSIX: a lock on a file of the cache folder, which the kernel's processes share
except ImportError:  # pragma: no cover - not POSIX: each process compiles on its own
    fcntl = None   # type: ignore[assignment]  # no such module off POSIX: each process compiles on its own

#: the packages whose modules may be imported on first use: the two top layers (the application, and the API it
#: and ``import nimjos`` call)
LAZY_PACKAGES = ("nimjos.app", "nimjos.api")

#: third-party libraries imported on first use, each with the one place that needs it
LIBRARIES_ON_USE = {
    "numba": "nimjos.josephus.kernels.compiled: the Josephus kernels, compiled when the work pays for numba; "
             "compiled_on_use: the kernels of the games, compiled at their first call",
    "numba.cpython.unsafe.numbers": "nimjos.games.fast.kernels: the intrinsic trailing_zeros of a compiled kernel",
    "networkx": "nimjos.games.engine: the order of a game's positions, when the reference engine computes a table",
    "numpy": "the arrays of the values a method computes: nimjos.lang.binders (a window's bindings as arrays), "
             "nimjos.lang.stored (an automaton run on arrays), nimjos.games.heaps (a heap game's sequence and its "
             "count of moves); reading and validating a spec needs none",
}

#: the engines of the project imported on first use, each with the module that loads it: a spec is read and
#: validated with the names, games and functions of the language, and their values are computed (numpy, the
#: compiled kernels) only when a method asks for them. Loaded by a module of the same layer or of one above.
MODULES_ON_USE = {
    "nimjos.games.fast": "nimjos.games.engine: the fast engines, tried at a game's first solve",
    "nimjos.games.heaps.grow": "nimjos.games.heaps.game: the compiled kernels that grow a heap game's sequence",
    "nimjos.josephus.algorithms": "nimjos.josephus.functions: the Josephus algorithms, at a function's first call",
}


def import_on_use(path: str) -> ModuleType:
    """Import ``path`` (a module of ``nimjos.app``, an engine of :data:`MODULES_ON_USE` or a library of
    :data:`LIBRARIES_ON_USE`) now, at its first use; later calls return the imported module at once.

    >>> import_on_use("nimjos.games.fast").__name__
    'nimjos.games.fast'
    >>> import_on_use("nimjos.report")
    Traceback (most recent call last):
    ...
    ValueError: only modules of nimjos.app and nimjos.api, the engines nimjos.games.fast, nimjos.games.heaps.grow, nimjos.josephus.algorithms and the libraries numba, numba.cpython.unsafe.numbers, networkx, numpy are imported on first use, not 'nimjos.report'
    """
    if not (path in MODULES_ON_USE or path in LIBRARIES_ON_USE or path.startswith(tuple(p + "." for p in LAZY_PACKAGES))):
        raise ValueError(f"only modules of {' and '.join(LAZY_PACKAGES)}, the engines {', '.join(MODULES_ON_USE)} and the libraries "
                         f"{', '.join(LIBRARIES_ON_USE)} are imported on first use, not {path!r}")
    return sys.modules.get(path) or importlib.import_module(path)


class CompiledOnUse:
    """A kernel that numba compiles (``numba.njit(**options)``) at its first call: see :func:`compiled_on_use`."""

    def __init__(self, fn: Callable, options: dict[str, Any]):
        functools.update_wrapper(self, fn)
        self.py_func = fn
        self.options = options
        #: the numba dispatcher, made at the first call of a kernel of the same module
        self.dispatcher: Any = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.dispatcher is None:
            _compile_kernels(self.py_func.__globals__)
        return self.dispatcher(*args, **kwargs)

    def __get__(self, obj: Any, objtype: Any = None) -> Any:   # a function's descriptor: doctest finds its examples
        return self if obj is None else MethodType(self, obj)


def numba_running() -> bool:
    """Has this process imported numba (a kernel compiled on use, or any other module)? Then a compiled kernel
    costs its work; before, its first call also pays numba's start-up, about 0.55 s of CPU on the project's
    machine (the import, 0.2 s, and the first cached kernel's load, 0.35 s, whatever the kernel: numba sets up
    its compilation target), which a small computation done by numpy instead does not.

    >>> @compiled_on_use(cache=False)
    ... def one():
    ...     return 1
    >>> one(), numba_running()
    (1, True)
    """
    return "numba" in sys.modules


#: the sources a compiled kernel can be built from, under the nimjos package: the packages that hold kernels (a kernel
#: may call, inline or read a constant of another module of them) and this module (the overloads, the binding of names)
KERNEL_SOURCES = ("games", "josephus", "lang/lazy.py")


def sources_key(root: pathlib.Path) -> str:
    """A hash of every source of :data:`KERNEL_SOURCES` under the package folder `root` (their paths and bytes).

    >>> len(sources_key(pathlib.Path(__file__).resolve().parents[1]))
    16
    """
    digest = hashlib.sha256()
    for entry in KERNEL_SOURCES:
        path = root / entry
        for f in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            digest.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def cache_dir_for(root: pathlib.Path, environ: Mapping[str, str]) -> str:
    """The folder of numba's on-disk cache of the kernels of the package folder `root`: the folder the user gave
    numba (``NUMBA_CACHE_DIR`` in `environ`), else ``nimjos/__pycache__/numba`` (the system's temporary folder when
    the package cannot be written), then a folder named by :func:`sources_key`.

    >>> root = pathlib.Path(__file__).resolve().parents[1]
    >>> cache_dir_for(root, {"NUMBA_CACHE_DIR": "/c"}) == os.path.join("/c", sources_key(root))
    True
    """
    base = environ.get("NUMBA_CACHE_DIR")
    if not base:
        base = str(root / "__pycache__" / "numba")
        if not os.access(root, os.W_OK):
            base = os.path.join(tempfile.gettempdir(), "nimjos-numba")
    return os.path.join(base, sources_key(root))


@functools.lru_cache(maxsize=None)
def kernel_cache_dir() -> str:
    """The folder of numba's on-disk cache of the compiled kernels (``cache=True``) of this run (:func:`cache_dir_for`).
    numba finds a cached kernel by its own bytecode and the time stamp of its own file only, so a kernel that inlines
    a kernel or reads a constant of another module would be loaded stale after that module changed; keyed by every
    source a kernel can reach, a cached kernel is one compiled from this run's sources, and a change of any of them
    compiles them again (in a new folder).

    >>> len(os.path.basename(kernel_cache_dir()))
    16
    """
    return cache_dir_for(pathlib.Path(__file__).resolve().parents[1], os.environ)


def numba_for_kernels() -> ModuleType:
    """numba, imported on first use, with its on-disk cache in :func:`kernel_cache_dir` (set at every call: numba
    re-reads its settings from the environment when a ``NUMBA_`` variable changes).

    >>> numba_for_kernels().config.CACHE_DIR == kernel_cache_dir()
    True
    """
    numba = import_on_use("numba")
    numba.config.CACHE_DIR = kernel_cache_dir()
    return numba


#: (function, implementation) of the numba overloads registered by :func:`overload_on_use`, applied when numba loads
_OVERLOADS: list[tuple[Callable, Callable]] = []


def compiled_on_use(**options: Any) -> Callable[[Callable], CompiledOnUse]:
    """In place of ``@numba.njit(**options)``: the kernel is compiled, and numba imported, at its first call.

    Then every kernel of the kernel's module is handed to numba, and the module's names of the kernels (those of
    other modules that it imports too) are bound to numba's dispatchers, so that a compiled kernel calls another
    as numba does. A pure cache: the same compiled code for every caller, no state of a check.

    >>> @compiled_on_use(cache=False)
    ... def twice(x):
    ...     return 2 * x
    >>> kept = [twice]; kept[0].dispatcher is None
    True
    >>> kept[0](21), twice is kept[0].dispatcher, type(twice).__module__.split(".")[0]
    (42, True, 'numba')
    """
    def wrap(fn: Callable) -> CompiledOnUse:
        return CompiledOnUse(fn, options)
    return wrap


def overload_on_use(fn: Callable) -> Callable[[Callable], Callable]:
    """In place of ``@numba.extending.overload(fn)``: the overload is registered when numba is imported by
    :func:`compiled_on_use` (before anything is compiled).

    >>> def one(): return 1
    >>> overload_on_use(one)(lambda: (lambda: 1)).__name__
    '<lambda>'
    """
    def wrap(impl: Callable) -> Callable:
        _OVERLOADS.append((fn, impl))
        return impl
    return wrap


#: this process's hold of the compile lock: how deep the compiles that hold it are nested (a kernel's compile
#: compiles the kernels it calls)
_HOLD = threading.local()


@contextmanager
def compiling_alone(folder: str) -> Iterator[None]:
    """In the body, no other process compiles a kernel into the cache folder `folder`: a lock on its file
    ``compile.lock`` (POSIX ``flock``; released by the system if the process dies), taken once however deeply
    the compiles nest. Where there is no ``flock``, the body runs at once.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     with compiling_alone(d):
    ...         with compiling_alone(d):   # nested: the lock is already this process's
    ...             os.path.exists(os.path.join(d, "compile.lock"))
    True
    """
    depth = getattr(_HOLD, "depth", 0)
    if depth or fcntl is None:
        _HOLD.depth = depth + 1
        try:
            yield
        finally:
            _HOLD.depth = depth
        return
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "compile.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        _HOLD.depth = 1
        try:
            yield
        finally:
            _HOLD.depth = 0
            fcntl.flock(lock, fcntl.LOCK_UN)


def _alone(compile: Callable) -> Callable:
    """A dispatcher's ``compile(signature)`` under :func:`compiling_alone`: numba looks in the on-disk cache before
    it compiles, so a process that waited finds there what the other one compiled."""
    def compile_alone(sig: Any) -> Any:
        with compiling_alone(kernel_cache_dir()):
            return compile(sig)
    return compile_alone


def _compile_kernels(namespace: dict[str, Any]) -> None:
    """Give every :class:`CompiledOnUse` kernel named in the module `namespace` its dispatcher, and bind the names."""
    numba = numba_for_kernels()
    while _OVERLOADS:
        fn, impl = _OVERLOADS.pop(0)
        numba.extending.overload(fn)(impl)
    for name, value in list(namespace.items()):
        if isinstance(value, CompiledOnUse):
            if value.dispatcher is None:
                if value.py_func.__globals__ is namespace:
                    value.dispatcher = numba.njit(**value.options)(value.py_func)
                    if value.options.get("cache"):
                        value.dispatcher.compile = _alone(value.dispatcher.compile)
                else:
                    _compile_kernels(value.py_func.__globals__)
            namespace[name] = value.dispatcher
