"""Same play under a new name: a preset renamed (its spec unchanged) must give the old one's games.

    python scripts/same_play_renamed.py BASE/fig3-B OUT/fig3-B-B1     # exit 1 when they differ

``deals.csv``'s rows (every player's chips per deal) must be byte-identical and ``summary.json`` identical once the
new run's preset name, description, player labels and comparison names are mapped back to the old run's (the strings
of the same positions in the two files); the player specs must be the same.  Used by scripts/same_play.sh
(``SAME_PLAY_RENAMED``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def _strings(old: Any, new: Any, out: dict[str, str]) -> None:
    """The renaming ``{new string: old string}`` that the names of ``new`` need to read as ``old``."""
    if isinstance(old, dict) and isinstance(new, dict):
        for k in old.keys() & new.keys():
            if k in ("name", "description", "type", "label", "enhanced", "control", "players", "types", "comparisons"):
                _strings(old[k], new[k], out)
    elif isinstance(old, list) and isinstance(new, list):
        for a, b in zip(old, new, strict=False):
            _strings(a, b, out)
    elif isinstance(old, str) and isinstance(new, str) and old != new:
        out[new] = old


def _mapped(x: Any, names: dict[str, str]) -> Any:
    if isinstance(x, dict):
        return {names.get(k, k): _mapped(v, names) for k, v in x.items()}
    if isinstance(x, list):
        return [_mapped(v, names) for v in x]
    if isinstance(x, str):
        for new in sorted(names, key=len, reverse=True):
            x = x.replace(new, names[new])
        return x
    return x


def same(base: Path, out: Path) -> list[str]:
    """What differs between the runs ``base`` and ``out`` beyond their names (empty: the same play)."""
    a = json.loads((base / "summary.json").read_text())
    b = json.loads((out / "summary.json").read_text())
    problems = []
    if [p["spec"] for p in a["players"]] != [p["spec"] for p in b["players"]]:
        problems.append("the player specs differ")
    names: dict[str, str] = {}
    _strings({k: a[k] for k in ("name", "description")}, {k: b[k] for k in ("name", "description")}, names)
    for x, y in zip(a["players"], b["players"], strict=False):
        _strings({"name": x["name"], "type": x["type"]}, {"name": y["name"], "type": y["type"]}, names)
    for x, y in zip(a["comparisons"], b["comparisons"], strict=False):
        _strings({"name": x["name"]}, {"name": y["name"]}, names)
    if _mapped(b, names) != a:
        problems.append("summary.json differs beyond the names")
    da, db = (p.read_text().split("\n", 1) for p in (base / "deals.csv", out / "deals.csv"))
    if da[1] != db[1]:
        problems.append("deals.csv's rows differ")
    if _mapped(db[0], names) != da[0]:
        problems.append("deals.csv's header differs beyond the names")
    return problems


def main() -> int:
    base, out = Path(sys.argv[1]), Path(sys.argv[2])
    problems = same(base, out)
    for p in problems:
        print(f"{out} against {base}: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
