"""A rich progress bar for sharded checks: claim, shards done, instances per second, ETA.
Only shown on a terminal and never with --json (the CLI decides).

>>> p = ShardProgress(enabled=False)
>>> p.update(type("C", (), {"id": "c"})(), type("R", (), {"verdict": {"instances": 10}})(), 4)
>>> p.done["c"], p.instances["c"]
(1, 10)
"""
from __future__ import annotations

import time
from typing import Any
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from nimjos.verdict import HasId


class ShardProgress:
    """Tracks shards per claim and draws them with rich when enabled."""

    def __init__(self, enabled: bool = True):
        self.done: dict[str, int] = {}
        self.instances: dict[str, int] = {}
        self.started: dict[str, float] = {}
        self.tasks: dict[str, Any] = {}
        self.progress = None
        if enabled:
            self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                     TextColumn("{task.fields[rate]}"), TimeRemainingColumn(), transient=True)
            self.progress.start()

    def update(self, claim: HasId, result: Any, total: int) -> None:
        cid = claim.id
        self.started.setdefault(cid, time.perf_counter())
        self.done[cid] = self.done.get(cid, 0) + 1
        self.instances[cid] = self.instances.get(cid, 0) + result.verdict["instances"]
        if self.progress is None:
            return
        elapsed = max(1e-9, time.perf_counter() - self.started[cid])
        rate = f"{self.instances[cid] / elapsed:,.0f} instances/s"
        if cid not in self.tasks:
            self.tasks[cid] = self.progress.add_task(cid, total=total, rate=rate)
        self.progress.update(self.tasks[cid], completed=self.done[cid], rate=rate)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()
