"""How low can AIVAT's variance go?  The floor that the hole cards set, measured.

Every correction of the estimator (:mod:`loki.aivat`) has expectation zero given the history before it, and the hole
cards are dealt before everything, so the estimate ``Y`` of a deal has the same conditional mean as the plain result
``X``: ``E[Y | holes] = E[X | holes] = mu(holes)``.  Hence, for any value function and any action baselines,

    Var(Y) = Var(mu(holes)) + E[Var(Y | holes)]  >=  Var(mu(holes)),

and the variance ratio AIVAT / plain can never fall below ``Var(mu) / Var(X)``: the part of the comparison that the
hole cards alone decide (which seats hold what, so which spots the enhanced and the control players meet) is signal
to an estimator that does not correct the deal of the hole cards, not noise.  Duplicate replays average it over the
seats but do not remove it.

This script measures that floor: each hole-card deal of a preset is played twice, on its own board and on a second
board drawn independently from the cards the holes leave (both as a full duplicate deal, one seating per seat), and
``Cov(X_1, X_2)`` (and the less noisy ``Cov(Y_1, Y_2)``) estimates ``Var(mu)`` because the two plays are independent
given the holes, up to the players' memory: the second play follows the first, so the players' opponent models
have seen the first play's showdowns (with ``--split players`` both sets have seen the same earlier deals' cards).
That shared history makes the two plays a little more alike than independent plays would be, so the shared parts
below are, if anything, overestimated, and the part the players' own randomness adds underestimated.  It prints the per-deal variance of each
comparison, plain and with the shipped AIVAT, the covariances, the floor as a share of the plain variance, and a
bootstrap interval (whole blocks of deals resampled, since the players learn within a block; fixed seed).  The plain
and the AIVAT covariances estimate the same quantity wherever the corrections are zero-mean given what the two plays
share; the plain one is the noisier, and their paired difference is printed too.

    python experiments/aivat-variance/scripts/aivat_floor.py --preset fig3-BR --seed 2201 --deals 600

``--split players`` asks the next question: of what is left, how much do the cards decide and how much the players'
own random choices (feature B's action selection, the Simulator's sampling, the check-raise coin)?  Each deal is then
played twice on the same hole cards *and* board by two sets of the same players seeded differently (each set playing
every deal in order, as in a tournament), so ``Cov(Y_1, Y_2)`` estimates ``Var(E[Y | cards])`` and the rest of
``Var(Y)``, ``E[Var(Y | cards)]``, is what the players' randomness adds after the action corrections.  ``--split flop`` (``turn``) keeps the hole cards
and the flop (and the turn) and deals the rest of the board again, so ``Cov(Y_1, Y_2)`` estimates how much of the
estimate's variance the hole cards and the flop (and the turn) decide: every correction after them has expectation
zero given them, the flop's own correction is part of what they decide.

Use seeds >= 2000 (seeds 0 and 1 report results; nothing here is fitted, but keep them apart anyway).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))  # aivat_value_function
from aivat_value_function import block_seating, play_seatings  # noqa: E402

from loki.aivat import EquityOracle, hand_corrections, shipped_value_function  # noqa: E402
from loki.tournament.config import load_preset  # noqa: E402
from loki.tournament.schedule import block_deals, deal_cards, seatings  # noqa: E402
from loki.tournament.stats import _groups, per_deal_sb  # noqa: E402


def second_board(seed: int, deal: int, holes, keep: tuple[int, ...] = ()) -> tuple[int, ...]:
    """A board (5 card ids, ``int``) that starts with ``keep`` (the deal's flop, or its flop and turn, or nothing) and
    is completed uniformly from the cards the ``holes`` (pairs of card ids) and ``keep`` leave, independently of the
    rest of the deal's own board; a pure function of ``(seed, deal, holes, keep)``."""
    used = {c for h in holes for c in h} | set(keep)
    rest = np.array([c for c in range(52) if c not in used])
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), int(deal), 0xB0A2D]))
    return tuple(keep) + tuple(int(c) for c in rng.permutation(rest)[: 5 - len(keep)])


#: The board cards the second play keeps: none (``holes``), the flop (``flop``), the flop and the turn (``turn``).
KEEP = {"holes": 0, "flop": 3, "turn": 4}
#: Added to the player seeds of the second set of players (``--split players``).
SECOND_PLAYERS = 7_777_777


def play_twice(cfg, deals: int, split: str, second_set: bool = False) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Play each of the first ``deals`` deals twice, block by block as the tournament runner seats them.

    ``split = "holes"``, ``"flop"`` or ``"turn"``: the same players play the deal's board, then :func:`second_board`
    keeping none of it, its flop, or its flop and turn (with ``second_set``, the second boards are played by a second
    set of the same players, seeded alike, that sees only them: its opponent models never see the first play);
    ``"players"``: the deal's cards played by the tournament's players and by a second set seeded
    :data:`SECOND_PLAYERS` apart.

    Returns:
        ``(plain, aivat, preflop_differs, flop_nonzero)``: ``(D, 2, n) float64`` chips of each player in each play,
        without and with the shipped AIVAT corrections; the number of plays whose seatings did not all take the same
        pre-flop actions; and the number of plays in which some player's flop corrections summed over the seatings
        were not 0 (more than 1e-9 chips).
    """
    game = cfg.game_config()
    n = cfg.n_players
    square = seatings(n)
    vf = shipped_value_function()
    oracle = EquityOracle()
    plain, aivat = [], []
    preflop_differs = flop_nonzero = 0
    for block in range(cfg.n_blocks):
        rng_deals = block_deals(block, min(deals, cfg.deals), cfg.block_deals)
        if not len(rng_deals):
            break
        offsets = (0, SECOND_PLAYERS) if split == "players" else (0, 0) if second_set else (0,)
        sets = [block_seating(cfg, block, off) for off in offsets]
        for d in rng_deals:
            holes, board1 = deal_cards(cfg.seed, d, n)
            x = np.zeros((2, n))
            y = np.zeros((2, n))
            if split == "players":
                plays = [(sets[0], board1), (sets[1], board1)]
            else:
                keep = board1[: KEEP[split]]
                plays = [(sets[0], board1), (sets[-1], second_board(cfg.seed, d, holes, keep))]
            for b, (seating, board) in enumerate(plays):
                flop = np.zeros(n)
                preflops = set()
                for st, probs, row, _ in play_seatings(game, seating, square, holes, board):
                    corr = hand_corrections(st, probs, oracle, vf)
                    preflops.add(tuple(st.history[: st.history.index("/")] if "/" in st.history else st.history))
                    for s, p in enumerate(row):
                        x[b, p] += st.payoffs[s]
                        y[b, p] += st.payoffs[s] + corr.total[s]
                        flop[p] += corr.chance_by_street[1, s]
                preflop_differs += len(preflops) > 1
                flop_nonzero += bool(np.any(np.abs(flop) > 1e-9))
            plain.append(x)
            aivat.append(y)
    return np.array(plain), np.array(aivat), preflop_differs, flop_nonzero


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="fig3-BR")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--boot", type=int, default=2000, help="bootstrap resamples (whole blocks of deals; seed 0)")
    ap.add_argument(
        "--split",
        choices=("holes", "flop", "turn", "players"),
        default="holes",
        help="holes: a second board for the same hole cards; flop / turn: a second turn and river (river) after the "
        "same hole cards and flop (and turn); players: a second set of players on the same cards",
    )
    ap.add_argument(
        "--second-set",
        action="store_true",
        help="with holes / flop / turn: the second boards played by a second set of the same players (no memory of "
        "the first play)",
    )
    ap.add_argument("--out", help="also write the figures as JSON (for docs/EXPERIMENTS.md's tables)")
    a = ap.parse_args()
    cfg = load_preset(a.preset).with_overrides(seed=a.seed, histories=False)
    n, sb = cfg.n_players, cfg.game_config().small_bet
    t0 = time.process_time()
    plain, aivat, preflop_differs, flop_nonzero = play_twice(cfg, a.deals, a.split, a.second_set)
    cpu = time.process_time() - t0
    groups = {}
    for name, chips in (("plain", plain), ("aivat", aivat)):
        g = [_groups(cfg, per_deal_sb(chips[:, b, :], n, sb)) for b in range(2)]
        groups[name] = [g[0][2], g[1][2]]  # the comparisons' per-deal series, board 1 and board 2
    what = "2 sets of players" if a.split == "players" else f"2 boards (the same {a.split})"
    print(f"{a.preset} seed {a.seed}: {len(plain)} deals x {what} x {n} seatings in {cpu:.0f} s CPU")
    shared = {"holes": "Var(mu)", "flop": "Var(E[.|flop])", "turn": "Var(E[.|turn])"}.get(a.split, "Var(E[.|cards])")
    print(f"  plays whose seatings took different pre-flop actions: {preflop_differs} of {2 * len(plain)}; plays with a "
          f"player's flop corrections not summing to 0 over the seatings: {flop_nonzero}")  # fmt: skip
    # a block bootstrap: the players learn within the tournament's blocks, so whole blocks are resampled
    blocks = [np.arange(b, min(b + cfg.block_deals, len(plain))) for b in range(0, len(plain), cfg.block_deals)]
    rng = np.random.default_rng(0)
    idx = [np.concatenate([blocks[j] for j in rng.integers(0, len(blocks), len(blocks))]) for _ in range(a.boot)]
    keys = ("var_plain", "var_aivat", "ratio", "shared_plain", "shared_aivat", "shared_plain_minus_aivat")
    record: dict = {
        "script": "experiments/aivat-variance/scripts/aivat_floor.py",
        "preset": a.preset,
        "seed": a.seed,
        "deals": len(plain),
        "split": a.split,
        "second_set": a.second_set,
        "boot": a.boot,
        "bootstrap": f"blocks of {cfg.block_deals} deals resampled, numpy seed 0",
        "preflop_differs_plays": preflop_differs,
        "flop_correction_nonzero_plays": flop_nonzero,
        "value_function": shipped_value_function().describe(),
        "cpu_seconds": round(cpu, 1),
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "commit": subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=Path(__file__).resolve().parent
        ).stdout.strip(),
        "comparisons": {},
    }
    for ci, comp in enumerate(cfg.compare):
        x1, x2 = groups["plain"][0][ci], groups["plain"][1][ci]
        y1, y2 = groups["aivat"][0][ci], groups["aivat"][1][ci]

        def stats(i):
            vx = 0.5 * (np.var(x1[i], ddof=1) + np.var(x2[i], ddof=1))
            vy = 0.5 * (np.var(y1[i], ddof=1) + np.var(y2[i], ddof=1))
            cxx = np.cov(x1[i], x2[i])[0, 1]
            cyy = np.cov(y1[i], y2[i])[0, 1]
            return np.array([vx, vy, vy / vx, cxx / vx, cyy / vx, (cxx - cyy) / vx])

        est = stats(np.arange(len(plain)))
        boot = np.array([stats(i) for i in idx])
        lo, hi = np.percentile(boot, [2.5, 97.5], axis=0)
        print(f"  {comp.name}:")
        labels = (
            "per-deal variance, plain (sb/hand)^2",
            "per-deal variance, AIVAT",
            "variance ratio AIVAT / plain",
            f"{shared}/Var(X), from Cov(X1, X2)",
            f"{shared}/Var(X), from Cov(Y1, Y2)",
            "the two estimates' difference (paired)",
        )
        for k, lab in enumerate(labels):
            print(f"    {lab:<42} {est[k]:8.4f}   95 % bootstrap [{lo[k]:.4f}, {hi[k]:.4f}]")
        record["comparisons"][comp.name] = {
            **{k: {"value": float(est[j]), "low": float(lo[j]), "high": float(hi[j])} for j, k in enumerate(keys)},
            "series": {
                k: [round(float(v), 6) for v in arr] for k, arr in (("x1", x1), ("x2", x2), ("y1", y1), ("y2", y2))
            },
        }
    if a.out:
        Path(a.out).write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
