"""Build ``src/loki/data/hu_preflop_equity.npz``: the exact pre-flop all-in equity of every heads-up matchup.

Heads-up, the dead cards of a pre-flop equity are exactly the four hole cards, so the equity of holding ``a``
against holding ``b`` depends on the pair alone, and only up to a permutation of the suits.  This script
enumerates the 1,712,304 boards of each of the matchups that are distinct under suit permutations and
stores, for each, the canonical key (:func:`loki.aivat.heads_up_key`) and the first hand's pot share summed
over all boards in units of 1/2520 (:data:`loki.assessment.showdown.SHARE_UNITS`).  The AIVAT estimator
(:class:`loki.aivat.EquityOracle`) then reads a heads-up pre-flop equity instead of enumerating boards.

    python scripts/hu_preflop_table.py [--out src/loki/data/hu_preflop_equity.npz]

About 8 ms of CPU per matchup (2 x 1.7 M rank look-ups and a pass), 47,008 matchups: 6-7 minutes on one core.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from loki.aivat import heads_up_key
from loki.assessment.showdown import fill_board_ranks, n_boards, row_share_counts
from loki.evaluator import kernel_tables


def matchups() -> dict[int, tuple[tuple[int, int], tuple[int, int]]]:
    """One representative ``(a, b)`` per canonical key (the key's own cards, first hand first)."""
    out: dict[int, tuple[tuple[int, int], tuple[int, int]]] = {}
    holds = [(a, b) for a in range(52) for b in range(a)]
    for i, h1 in enumerate(holds):
        for h2 in holds[:i]:
            if set(h1) & set(h2):
                continue
            key, _ = heads_up_key(h1, h2)
            if key not in out:
                c = key
                b1, b0 = c % 52, (c // 52) % 52
                a1, a0 = (c // 2704) % 52, c // 140608
                out[key] = ((a0, a1), (b0, b1))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "src/loki/data/hu_preflop_equity.npz"))
    args = ap.parse_args()
    t0 = time.process_time()
    reps = matchups()
    keys = np.array(sorted(reps), dtype=np.int64)
    print(f"{len(keys)} matchups ({time.process_time() - t0:.0f} s CPU to list them)")
    tables = kernel_tables()
    nb = int(n_boards(48, 5))
    rows = np.empty((2, nb), dtype=np.int16)
    both = np.arange(2, dtype=np.int64)
    shares = np.empty(len(keys), dtype=np.int64)
    for i, k in enumerate(keys):
        a, b = reps[int(k)]
        holes = np.array([a, b], dtype=np.int64)
        dead = set(a) | set(b)
        deck = np.array([c for c in range(52) if c not in dead], dtype=np.int64)
        fill_board_ranks(holes, both, deck, rows, tables)
        shares[i] = row_share_counts(rows, both)[0]
        if i % 5000 == 0:
            print(f"{i} / {len(keys)}  {time.process_time() - t0:.0f} s CPU", flush=True)
    np.savez_compressed(args.out, keys=keys, shares=shares, boards=np.int64(nb))
    print(f"wrote {args.out}: {len(keys)} matchups, {time.process_time() - t0:.0f} s CPU")


if __name__ == "__main__":
    main()
