"""Write the seconds each claim took in a run (all its methods) beside the specs, for balancing the claims over
the processes of the next runs (nimjos.app.claim_pool.assign): the table is data of the repository, so every
run assigns the same claims to the same process, whatever the load.

    python scripts/claim_costs.py --store .nimjos/results.sqlite --out specs/claim-costs.json
"""
from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from nimjos.results.store import ResultsStore


def costs(store: Path) -> dict[str, float]:
    """'<spec file name>:<claim id>' -> seconds of the claim's latest records (every method), to 0.1 s."""
    out: dict[str, float] = defaultdict(float)
    with ResultsStore(store) as s:
        for rec in s.latest():
            out[f"{Path(rec['file']).name}:{rec['claim_id']}"] += float(rec.get("seconds") or 0.0)
    return {k: round(v, 1) for k, v in sorted(out.items())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--store", default=".nimjos/results.sqlite")
    ap.add_argument("--out", default="specs/claim-costs.json")
    args = ap.parse_args()
    table = costs(Path(args.store))
    Path(args.out).write_text(json.dumps(table, indent=0, sort_keys=True) + "\n")
    print(f"{args.out}: {len(table)} claims, {sum(table.values()):.0f} s in all")


if __name__ == "__main__":
    main()
