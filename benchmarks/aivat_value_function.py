"""Choose the AIVAT value function on seeds kept apart from the evaluation.

Plays ``--deals`` deals of a preset exactly as the tournament runner does (same blocks, seeds, seatings),
keeps every finished hand with its players' action probabilities, then

* ``--fit``: measures the expected pot growth ``G[street][k]`` (chips the pot grows by from the start of a
  street with ``k`` live players to the end of the hand) and prints it as a Python table;
* for each candidate value function (pot-equity, and pot-equity + λ · G of a growth table given with
  ``--growth FILE.json``, λ in ``--scales``) computes the AIVAT estimate of every deal and prints the variance
  ratio AIVAT / plain of each player type and comparison.

The value function must be fixed before the evaluation data is seen: fit on one seed, check on another, and
only then run the evaluation seeds (the presets use seed 0).

    python benchmarks/aivat_value_function.py --preset fig3-BR --seed 2101 --deals 300 --fit --out /tmp/g.json
    python benchmarks/aivat_value_function.py --preset fig3-BR --seed 2102 --deals 300 --growth /tmp/g.json

Without ``--fit``, ``--growth`` or ``--diagnose`` any seed may be given (seed 0 too): the script then only evaluates
pot-equity and the shipped value function (nothing is chosen), printing each comparison's per-deal sd.

``--ship`` fits one table on several presets, each on its own seed ≥ 2000 (``--presets``, ``--seed`` the
first, the next presets the following seeds), scales it by ``--scale`` (chosen beforehand on other seeds ≥ 2000)
and writes ``src/loki/data/aivat_growth_v1.json`` with its provenance (script, presets, seeds, deals, date, commit),
the table :func:`loki.aivat.shipped_value_function` reads::

    python benchmarks/aivat_value_function.py --ship --presets fig3-B,fig3-R,fig3-BR,fig3-S,fig3-BRS \
        --seed 2000 --deals 300 --scale 0.5
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from loki.aivat import ActionRecorder, EquityOracle, PotEquityValue, hand_corrections
from loki.players.registry import make_player
from loki.players.table import play_hand
from loki.tournament.config import load_preset
from loki.tournament.schedule import BUTTON, Seating, block_deals, deal_cards, player_seed, seatings
from loki.tournament.stats import _groups, per_deal_sb


def block_seating(cfg, block: int, offset: int = 0) -> Seating:
    """The players of ``block`` seated as the tournament runner seats them (player seeds plus ``offset``)."""
    return Seating(
        [make_player(si.player, seed=player_seed(cfg.seed, block, si.index) + offset, name=si.name) for si in cfg.seats]
    )


def play_seatings(game, seating: Seating, square, holes, board) -> list:
    """One duplicate deal: ``holes`` and ``board`` played once per row of the seating ``square``, in order;
    ``[(final_state, probs, row, values), ...]`` with the players' action probabilities and values."""
    hands = []
    for row in square:
        rec = ActionRecorder()
        st = play_hand(
            game, seating.seat(row), BUTTON, None, hole_cards=holes, board=board, on_action=rec, oracles=True
        )
        hands.append((st, list(rec.probs), row, list(rec.values)))
    return hands


def play(cfg, deals: int):
    """Yield ``(deal, [(final_state, probs, row, values), ...])`` for the first ``deals`` deals, block by block."""
    game = cfg.game_config()
    n = cfg.n_players
    square = seatings(n)
    for block in range(cfg.n_blocks):
        rng_deals = block_deals(block, min(deals, cfg.deals), cfg.block_deals)
        if not len(rng_deals):
            break
        seating = block_seating(cfg, block)
        for d in rng_deals:
            holes, board = deal_cards(cfg.seed, d, n)
            yield d, play_seatings(game, seating, square, holes, board)


def growth_stats(hands_by_deal) -> tuple[np.ndarray, np.ndarray]:
    """Sum and count of (final pot - pot at the start of street r) by (street, live players at that start)."""
    from loki.engine import new_hand

    tot = np.zeros((4, 11))
    cnt = np.zeros((4, 11))
    for _, hands in hands_by_deal:
        for st, *_ in hands:
            n = st.n_players
            final_pot = sum(st.total_committed)
            s = new_hand(
                st.config, st.button, hole_cards=[st.hole_cards(i) for i in range(n)], board=list(st.full_board)
            )
            seen = -1
            acts = [a for a in st.history if a != "/"]
            for i in range(len(acts) + 1):
                if s.round != seen and not s.is_terminal:
                    seen = s.round
                    k = s.num_active
                    tot[seen, k] += final_pot - s.pot
                    cnt[seen, k] += 1
                if i < len(acts):
                    s.apply(acts[i])
    return tot, cnt


def plain_groups(cfg, data) -> tuple[np.ndarray, tuple, list[str]]:
    """The plain per-deal sb/hand of :func:`play`'s ``data`` ``(D, n)``, its groups (per type, per comparison;
    :func:`loki.tournament.stats._groups`) and their names."""
    n = cfg.n_players
    chips = np.array([[sum(st.payoffs[s] for st, _, row, _ in hands for s, p in enumerate(row) if p == q)
                       for q in range(n)] for _, hands in data], dtype=float)  # fmt: skip
    x = per_deal_sb(chips, n, cfg.game_config().small_bet)
    return x, _groups(cfg, x), list(cfg.labels) + [c.name for c in cfg.compare]


def evaluate(cfg, data, vfs) -> tuple[np.ndarray, tuple, list[str]]:
    """Print, for each ``(label, value function)`` of ``vfs``, the variance ratio AIVAT / plain of every player
    type and comparison over :func:`play`'s ``data``, the mean correction of the comparisons and the estimator's
    CPU; return :func:`plain_groups`."""
    n = cfg.n_players
    sb = cfg.game_config().small_bet
    x, gx, names = plain_groups(cfg, data)
    print(f"{'value function':<18}" + "".join(f"{nm[:18]:>20}" for nm in names) + "   (variance ratio AIVAT / plain)")
    for cand in vfs:
        label, vf = cand[0], cand[1]
        own = len(cand) > 2 and cand[2]  # the players' own action values as baselines
        oracle = EquityOracle()
        corr = np.zeros((len(data), n))
        t0 = time.process_time()
        for di, (_, hands) in enumerate(data):
            for st, probs, row, values in hands:
                c = hand_corrections(st, probs, oracle, vf, values if own else None).total
                for s, p in enumerate(row):
                    corr[di, p] += c[s]
        dt = time.process_time() - t0
        gy = _groups(cfg, x + per_deal_sb(corr, n, sb))
        ratios = [float(np.var(b, ddof=1) / np.var(a, ddof=1)) for a, b in zip(gx[1] + gx[2], gy[1] + gy[2])]
        m = [round(float(np.mean(b - a)), 4) for a, b in zip(gx[2], gy[2])]
        sds = [(round(float(np.std(a, ddof=1)), 4), round(float(np.std(b, ddof=1)), 4)) for a, b in zip(gx[2], gy[2])]
        print(f"{label:<18}" + "".join(f"{r:20.3f}" for r in ratios) + f"   mean corr {m}  ({dt:.1f} s CPU)")
        print(f"{'':<18}comparisons' per-deal sd (plain, AIVAT) sb/hand: {sds}")
    return x, gx, names


def ship(presets: list[str], seed: int, deals: int, scale: float, out: str) -> None:
    """Fit one growth table on ``presets`` (the ``i``-th on seed ``seed + i``, ``deals`` deals each), pooled by
    (street, live players), scale it and write it with its provenance to ``out`` (JSON)."""
    import datetime
    import subprocess
    from pathlib import Path

    if seed < 2000:
        raise SystemExit("the shipped table is fitted on seeds >= 2000 only (the evaluations use seeds below)")
    tot = np.zeros((4, 11))
    cnt = np.zeros((4, 11))
    used = []
    for i, name in enumerate(presets):
        cfg = load_preset(name).with_overrides(seed=seed + i, histories=False)
        t0 = time.process_time()
        data = list(play(cfg, deals))
        t, c = growth_stats(data)
        tot += t
        cnt += c
        used.append({"preset": name, "seed": seed + i, "deals": len(data)})
        print(f"{name} seed {seed + i}: {len(data)} deals in {time.process_time() - t0:.1f} s CPU", flush=True)
    g = scale * np.where(cnt >= 20, tot / np.maximum(cnt, 1), 0.0)  # cells seen fewer than 20 times: no growth
    here = Path(__file__).resolve().parent
    try:
        commit = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    doc = {
        "name": "pot-equity+growth",
        "version": "v1",
        "description": "v_p = (pot + G) eq_p - committed_p - G/k: G[street][k] chips, the mean growth of the pot from "
        "the start of a street with k live players to the end of the hand, pooled over the presets below, times "
        "scale (loki.aivat.PotEquityValue)",
        "growth": np.round(g, 3).tolist(),
        "counts": cnt.astype(int).tolist(),
        "provenance": {
            "script": "benchmarks/aivat_value_function.py --ship",
            "presets": used,
            "scale": scale,
            "min_count": 20,
            "date": datetime.date.today().isoformat(),
            "commit": commit,
        },
    }
    with open(out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"wrote {out}")
    for r in range(4):
        print(r, " ".join(f"{x:7.1f}" for x in g[r]), "  n =", cnt[r].astype(int).tolist())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--preset", default="fig3-BR")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("--out", help="write the fitted growth table (JSON)")
    ap.add_argument("--growth", help="a growth table (JSON) to try")
    ap.add_argument("--scales", default="0.5,1,1.5")
    ap.add_argument(
        "--diagnose",
        action="store_true",
        help="regress the comparison on the pot-equity correction components (in-sample: exploration only)",
    )
    ap.add_argument("--config", help="a tournament TOML file instead of --preset")
    ap.add_argument("--ship", action="store_true", help="fit on --presets and write the shipped table")
    ap.add_argument("--presets", default="fig3-B,fig3-R,fig3-BR,fig3-S,fig3-BRS")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--ship-out", default=None, help="default: src/loki/data/aivat_growth_v1.json of this tree")
    args = ap.parse_args()
    if args.ship:
        from pathlib import Path

        out = args.ship_out or str(Path(__file__).resolve().parent.parent / "src/loki/data/aivat_growth_v1.json")
        ship(args.presets.split(","), args.seed, args.deals, args.scale, out)
        return
    if args.seed < 2000 and (args.fit or args.growth or args.diagnose):
        ap.error("fit and choose on seeds >= 2000 (seeds below are evaluation seeds)")
    if args.config:
        from loki.tournament.config import load_config

        cfg = load_config(args.config).with_overrides(seed=args.seed, histories=False)
    else:
        cfg = load_preset(args.preset).with_overrides(seed=args.seed, histories=False)
    t0 = time.process_time()
    data = list(play(cfg, args.deals))
    print(
        f"{args.config or args.preset} seed {args.seed}: {len(data)} deals played in {time.process_time() - t0:.1f} s CPU"
    )
    if args.fit:
        tot, cnt = growth_stats(data)
        g = np.where(cnt > 0, tot / np.maximum(cnt, 1), 0.0)
        print("growth G[street][k] (chips):")
        for r in range(4):
            print(r, " ".join(f"{x:7.1f}" for x in g[r]), "  n =", cnt[r].astype(int).tolist())
        if args.out:
            with open(args.out, "w") as f:
                json.dump({"preset": args.preset, "seed": args.seed, "deals": len(data), "growth": g.tolist()}, f)
    from loki.aivat import shipped_value_function

    candidates = [
        ("pot-equity", PotEquityValue(), False),
        ("shipped v1", shipped_value_function(), False),
        ("v1 + own EVs", shipped_value_function(), True),
    ]
    if args.growth:
        with open(args.growth) as f:
            g = np.array(json.load(f)["growth"])
        candidates.append(("table x1", PotEquityValue(g, name="table"), False))
    if args.growth or args.fit:  # (with --fit alone: the table just fitted, on the same hands: exploration only)
        for lam in (float(x) for x in args.scales.split(",")):
            candidates.append((f"growth x{lam:g}", PotEquityValue(lam * g, name=f"growth x{lam:g}"), False))
    n = cfg.n_players
    sb = cfg.game_config().small_bet
    x, gx, names = evaluate(cfg, data, candidates)
    if args.diagnose:
        oracle = EquityOracle()
        comp = np.zeros((7, len(data), n))  # chance flop, turn, river; action pre-flop .. river
        for di, (_, hands) in enumerate(data):
            for st, probs, row, _ in hands:
                c = hand_corrections(st, probs, oracle)
                parts = np.vstack([c.chance_by_street[1:], c.action_by_street])
                for s, p in enumerate(row):
                    comp[:, di, p] += parts[:, s]
        labels = [
            "chance flop",
            "chance turn",
            "chance river",
            "action pre",
            "action flop",
            "action turn",
            "action river",
        ]
        for gi, nm in enumerate(names):
            target = (gx[1] + gx[2])[gi]
            cols = [(_groups(cfg, per_deal_sb(comp[j], n, sb))[1] + _groups(cfg, per_deal_sb(comp[j], n, sb))[2])[gi]
                    for j in range(7)]  # fmt: skip
            X = np.column_stack(cols)
            keep = X.std(axis=0) > 0
            beta = np.zeros(7)
            beta[keep] = np.linalg.lstsq(X[:, keep] - X[:, keep].mean(0), -(target - target.mean()), rcond=None)[0]
            y1 = target + X.sum(axis=1)
            yb = target + X @ beta
            print(f"{nm}: var plain {np.var(target, ddof=1):.4f}, beta=1: ratio {np.var(y1, ddof=1) / np.var(target, ddof=1):.3f}, "
                  f"best beta ratio {np.var(yb, ddof=1) / np.var(target, ddof=1):.3f}")  # fmt: skip
            for j in range(7):
                print(f"   {labels[j]:<13} beta {beta[j]:6.2f}  var {np.var(cols[j], ddof=1):.4f}  "
                      f"cov with plain {np.cov(cols[j], target)[0, 1]:+.4f}")  # fmt: skip


if __name__ == "__main__":
    main()
