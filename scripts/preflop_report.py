"""Pre-flop fold rates by position from tournament results folders (run with hand histories on).

For every results folder given: the player types' sb/hand (± 95 %, from ``summary.json``) and, from the hand
histories (``hands/*.phhs``), per player type and position (heads-up SB = button and BB; three-handed BTN, SB, BB;
larger tables by seats after the button): hands, the pre-flop fold rate (folded before the flop, % of hands), the
fold rate when facing a raise pre-flop (% of the hands in which the player had to act facing a raise: two or more
bets in, the big blind counting as one), and VPIP (% of hands).

    python scripts/preflop_report.py results/hu-l1-maniac-0 results/hu-l1-maniac-1 [--markdown]

Several folders of the same configuration (seeds) are pooled for the fold rates; the sb/hand of each folder is
listed.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

from loki.engine import Action, ActionTaken
from loki.io.phh import read_phh


def position_name(offset: int, n: int) -> str:
    """Name of the seat ``offset`` places after the button at an ``n``-player table."""
    if n == 2:
        return "SB" if offset == 0 else "BB"
    return {0: "BTN", 1: "SB", 2: "BB"}.get(offset, f"BTN+{offset}")


def fold_counts(folder: Path) -> dict:
    """``{(name, position): [hands, folds, faced_raise, folds_facing_raise, vpip]}`` over a folder's histories."""
    out: dict = defaultdict(lambda: [0, 0, 0, 0, 0])
    files = sorted((folder / "hands").glob("*.phhs"))
    if not files:
        raise SystemExit(f"{folder}: no hand histories (run the tournament with histories = true)")
    for f in files:
        for rec in read_phh(f):
            st = rec.replay()
            n = rec.n_players
            faced: set[int] = set()
            folded: set[int] = set()
            vpip: set[int] = set()
            for ev in st.events:
                if not isinstance(ev, ActionTaken) or ev.round != 0:
                    continue
                if ev.bets >= 2 and ev.to_call > 0:
                    faced.add(ev.seat)
                if ev.action == Action.FOLD:
                    folded.add(ev.seat)
                elif ev.action == Action.RAISE or ev.amount > 0:
                    vpip.add(ev.seat)
            for s in range(n):
                c = out[(rec.names[s], position_name((s - rec.button) % n, n))]
                c[0] += 1
                c[1] += s in folded
                c[2] += s in faced
                c[3] += s in faced and s in folded
                c[4] += s in vpip
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="+", type=Path)
    a = ap.parse_args()
    pooled: dict = defaultdict(lambda: [0, 0, 0, 0, 0])
    for folder in a.folders:
        summary = json.loads((folder / "summary.json").read_text())
        for t in summary["types"]:
            print(f"{folder.name}: {t['type']:28s} {t['sb_per_hand']:+.3f} ± {t['ci']:.3f} sb/hand")
        for k, v in fold_counts(folder).items():
            for i, x in enumerate(v):
                pooled[k][i] += x
    print("| player | position | hands | pre-flop fold | fold facing a raise | VPIP |")
    print("|---|---|---:|---:|---:|---:|")
    for (name, pos), (h, f, fr, ffr, v) in sorted(pooled.items()):
        far = f"{100 * ffr / fr:.1f} % of {fr}" if fr else "-"
        print(f"| {name} | {pos} | {h} | {100 * f / h:.1f} % | {far} | {100 * v / h:.1f} % |")


if __name__ == "__main__":
    main()
