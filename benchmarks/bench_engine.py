"""Benchmark: 10-player fixed-limit hands per second, loki's engine next to pokerkit, same run.

Usage (pin to one core; 2 cores are shared)::

    NUMBA_CACHE_DIR=.numba_cache taskset -c 0 /work/venv/bin/python benchmarks/bench_engine.py [--write]

1. Record ``--hands`` random-play 10-player hands on loki's engine (cards dealt from a seeded
   generator), with two action policies over the legal actions: ``uniform`` (as
   :class:`loki.players.RandomPlayer`: many hands end pre-flop) and ``showdown`` (fold 10% /
   check-call 60% / bet-raise 30%: nearly every hand reaches a multi-way showdown).
2. Replay exactly those hands (given cards, recorded actions) on loki's engine and on pokerkit
   0.7.7 (a ``State`` built with pre-flop cap 3 raises, later 4), best of ``--repeat`` CPU timings;
   pokerkit replays the first ``--pk-hands`` of them (it is slow).  Payoffs are checked to agree.
3. Also time loki's self-play loop (deal from the generator, choose, apply) without replay.

``--write`` puts the figures in BENCHMARKS.md under ``### Rules engine`` (only that
section is replaced).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

from loki.cards import format_cards
from loki.engine import CALL, FOLD, RAISE, GameConfig, new_hand

ROOT = Path(__file__).resolve().parents[1]
POLICIES = {
    "uniform": {FOLD: 1.0, CALL: 1.0, RAISE: 1.0},
    "showdown": {FOLD: 0.10, CALL: 0.60, RAISE: 0.30},
}
WEIGHTS = POLICIES["showdown"]


def choose(legal, r: random.Random):
    tot = sum(WEIGHTS[a] for a in legal)
    x = r.random() * tot
    for a in legal:
        x -= WEIGHTS[a]
        if x <= 0:
            return a
    return legal[-1]


def record(cfg, n_hands, seed):
    rng = np.random.default_rng(seed)
    r = random.Random(seed)
    hands = []
    for h in range(n_hands):
        button = h % cfg.n_players
        s = new_hand(cfg, button, rng=rng)
        acts = []
        while s.current_player is not None:
            a = choose(s.legal_actions(), r)
            acts.append(a)
            s.apply(a)
        holes = [s.hole_cards(i) for i in range(cfg.n_players)]
        hands.append((button, holes, list(s.full_board), acts, s.payoffs, s.went_to_showdown))
    return hands


def replay_loki(cfg, hands):
    out = []
    for button, holes, board, acts, _, _ in hands:
        s = new_hand(cfg, button, holes, board)
        for a in acts:
            s.apply(a)
        out.append(s.payoffs)
    return out


def selfplay_loki(cfg, n_hands, seed):
    rng = np.random.default_rng(seed)
    r = random.Random(seed)
    for h in range(n_hands):
        s = new_hand(cfg, h % cfg.n_players, rng=rng)
        while s.current_player is not None:
            s.apply(choose(s.legal_actions(), r))


def replay_pokerkit(cfg, hands):
    import pokerkit as pk

    A = pk.Automation
    autos = (
        A.ANTE_POSTING,
        A.BET_COLLECTION,
        A.BLIND_OR_STRADDLE_POSTING,
        A.HOLE_CARDS_SHOWING_OR_MUCKING,
        A.HAND_KILLING,
        A.CHIPS_PUSHING,
        A.CHIPS_PULLING,
    )
    streets = (
        pk.Street(False, (False, False), 0, False, pk.Opening.POSITION, cfg.small_bet, cfg.max_bets - 1),
        pk.Street(True, (), 3, False, pk.Opening.POSITION, cfg.small_bet, cfg.max_bets),
        pk.Street(True, (), 1, False, pk.Opening.POSITION, cfg.big_bet, cfg.max_bets),
        pk.Street(True, (), 1, False, pk.Opening.POSITION, cfg.big_bet, cfg.max_bets),
    )
    n = cfg.n_players
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for button, holes, board, acts, _, _ in hands:
            st = pk.State(
                autos,
                pk.Deck.STANDARD,
                (pk.StandardHighHand,),
                streets,
                pk.BettingStructure.FIXED_LIMIT,
                True,
                0,
                (cfg.small_blind, cfg.big_blind),
                0,
                10**9,
                n,
                mode=pk.Mode.TOURNAMENT,
            )
            idx = [(button + 1 + i) % n for i in range(n)]
            for seat in idx:
                st.deal_hole(format_cards(holes[seat]))
            k = 0
            while st.status:
                if st.actor_index is not None:
                    a = acts[k]
                    k += 1
                    if a is FOLD:
                        st.fold()
                    elif a is CALL:
                        st.check_or_call()
                    else:
                        st.complete_bet_or_raise_to()
                elif st.can_burn_card():
                    st.burn_card("??")
                elif st.can_deal_board():
                    m = len(st.board_cards)
                    st.deal_board(format_cards(board[m : m + (3 if m == 0 else 1)]))
                else:  # pragma: no cover
                    raise RuntimeError("pokerkit state stuck")
            pay = [0] * n
            for i, seat in enumerate(idx):
                pay[seat] = st.payoffs[i]
            out.append(tuple(pay))
    return out


def best_time(fn, repeat):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        m = re.search(r"Model name:\s*(.+)", out)
        if m:
            return m.group(1).strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def write_section(text: str) -> None:
    path = ROOT / "BENCHMARKS.md"
    header = "### Rules engine"
    old = path.read_text() if path.exists() else "# Benchmarks\n"
    pat = re.compile(r"^### Rules engine\n.*?(?=^##+ |\Z)", re.S | re.M)
    block = header + "\n\n" + text.rstrip() + "\n\n"
    new = pat.sub(lambda m: block, old) if pat.search(old) else old.rstrip() + "\n\n" + block
    path.write_text(new.rstrip() + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--pk-hands", type=int, default=300)
    ap.add_argument("--players", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--write", action="store_true", help="write the result into BENCHMARKS.md")
    ap.add_argument("--date", default="2026-11-21")
    args = ap.parse_args(argv)

    global WEIGHTS
    cfg = GameConfig(n_players=args.players)
    rows = []
    for pname, weights in POLICIES.items():
        WEIGHTS = weights
        hands = record(cfg, args.hands, args.seed)  # also warms up (numba rank7 compiled/cached)
        sd = sum(h[5] for h in hands) / len(hands)
        n_actions = sum(len(h[3]) for h in hands) / len(hands)
        ours = replay_loki(cfg, hands)
        assert ours == [h[4] for h in hands]
        pk_hands = hands[: args.pk_hands]
        theirs = replay_pokerkit(cfg, pk_hands)
        assert theirs == [h[4] for h in pk_hands], "pokerkit disagrees with loki"
        t_loki = best_time(lambda: replay_loki(cfg, hands), args.repeat)
        t_pk = best_time(lambda: replay_pokerkit(cfg, pk_hands), args.repeat)
        t_self = best_time(lambda: selfplay_loki(cfg, args.hands, args.seed + 1), args.repeat)
        rows.append((pname, n_actions, sd, len(hands) / t_loki, len(pk_hands) / t_pk, args.hands / t_self))

    cmd = (
        f"NUMBA_CACHE_DIR=.numba_cache taskset -c 0 {sys.executable} benchmarks/bench_engine.py "
        f"--hands {args.hands} --pk-hands {args.pk_hands} --players {args.players} --repeat {args.repeat}"
        + (" --write" if args.write else "")
    )
    lines = []
    for pname, n_actions, sd, hl, hp, hs in rows:
        lines.append(
            f"| {pname} | {n_actions:.1f} | {100 * sd:.0f}% | {hl:,.0f} ({1e6 / hl:,.0f} µs) "
            f"| {hp:,.0f} ({1e6 / hp:,.0f} µs) | **{hl / hp:.0f}×** | {hs:,.0f} |"
        )
    table = "\n".join(lines)
    worst = min(r[3] / r[4] for r in rows)
    text = f"""Date: {args.date}. Machine: {cpu_model()} ({os.cpu_count()} logical CPUs, shared with other jobs; pinned to
one core), Python {platform.python_version()}, numpy {np.__version__}, pokerkit 0.7.7.
Command: `{cmd}`

{args.players}-player fixed-limit hands, unlimited stacks, random play over the legal actions. Both engines
replay the same recorded hands (given cards and actions; loki records its events; payoffs checked
equal); loki replays {args.hands} hands, pokerkit the first {args.pk_hands}; best of {args.repeat} runs (CPU time). Self-play =
loki dealing from a numpy Generator, choosing and applying (the simulator's loop).
Policies: `uniform` = RandomPlayer; `showdown` = fold 10% / check-call 60% / bet-raise 30%.

| policy | actions/hand | showdowns | loki hands/s | pokerkit hands/s | speed-up | loki self-play hands/s |
|---|---:|---:|---:|---:|---:|---:|
{table}

Speed-up over pokerkit at least **{worst:.0f}×** (target ≥ 20×).
"""
    print(text)
    if args.write:
        write_section(text)
        print(f"written to {ROOT / 'BENCHMARKS.md'}")


if __name__ == "__main__":
    main()
