"""Processes that share the on-disk cache of the compiled kernels compile a kernel once
(nimjos.lang.lazy.compiling_alone): two processes started together into an empty cache, one compiles and the other
loads its result."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys

from nimjos.lang import lazy

ROOT = pathlib.Path(lazy.__file__).resolve().parents[2]

KERNEL = '''
from nimjos.lang import lazy


@lazy.compiled_on_use(cache=True)
def kernel(n):
    s = 0
    for i in range(n):
        s += (i * i) % 7
    return s
'''

RUN = '''
import sys
sys.path[:0] = [{root!r}, {here!r}]
import kern
assert kern.kernel(10) == 19
print(sum(kern.kernel.stats.cache_misses.values()), sum(kern.kernel.stats.cache_hits.values()))
'''


def test_two_processes_compile_a_kernel_once(tmp_path: pathlib.Path) -> None:
    (tmp_path / "kern.py").write_text(KERNEL)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    script = RUN.format(root=str(ROOT), here=str(tmp_path))
    procs = [subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True)
             for _ in range(2)]
    counts = [tuple(int(v) for v in p.communicate(timeout=300)[0].split()) for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert sorted(counts) == [(0, 1), (1, 0)]   # (compiled, loaded from the cache): one process each
