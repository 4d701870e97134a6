"""CPU per decision of the default bot (the adaptive Loki) heads-up, two source trees alternating.

Two figures, each for ``--base`` and ``--new`` (``PYTHONPATH=<tree>/src``), ``--rounds`` times alternating:

* **in process**: a fresh process plays ``--hands`` heads-up hands of the bot (``--bot``, default
  ``loki2:BRS:adaptive``) against ``--opponent`` (default ``equity``) on loki's own table
  (:func:`loki.players.table.play_hand`, the button alternating, cards from one seed), after ``--warmup`` untimed
  hands of another seed, and times in thread CPU every ``act`` and ``observe`` call the bot gets: its decisions and
  its opponent modelling, per decision.
* **whole process**: ``loki match`` (the ACPC dealer and both seats in one process) of the bot against the opponent
  for ``--hands`` hands, less a dealer-only baseline, ``loki match`` of two ``calling`` players for as many hands (the
  dealer, the protocol, the process's start-up); the difference, less the opponent's own decisions measured the same
  way against ``calling`` (``opponent vs calling`` less the baseline, per decision of the opponent), per decision of
  the bot.  CPU of the process and every descendant (:func:`_trees.run_whole`).

::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/bench_default_bot.py --base /path/to/old/tree --new . --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _trees import LOKI_CLI, run_whole

_IN_PROCESS = r"""
import json, sys, time
import numpy as np
from loki.engine import GameConfig
from loki.players.registry import make_player
from loki.players.table import play_hand

bot_spec, opp_spec, hands, warmup, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])


class Timed:
    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name
        self.cpu = 0.0
        self.decisions = 0

    def __getattr__(self, item):
        return getattr(self.inner, item)

    def begin_hand(self, *a):
        t = time.thread_time()
        self.inner.begin_hand(*a)
        self.cpu += time.thread_time() - t

    def end_hand(self, view):
        t = time.thread_time()
        self.inner.end_hand(view)
        self.cpu += time.thread_time() - t

    def observe(self, event):
        t = time.thread_time()
        self.inner.observe(event)
        self.cpu += time.thread_time() - t

    def act(self, view, legal):
        t = time.thread_time()
        a = self.inner.act(view, legal)
        self.cpu += time.thread_time() - t
        self.decisions += 1
        return a


game = GameConfig(n_players=2)
bot = Timed(make_player(bot_spec, seed=1))
opp = make_player(opp_spec, seed=2)
for s, n in ((seed + 1, warmup), (seed, hands)):
    bot.cpu, bot.decisions = 0.0, 0
    rng = np.random.default_rng(s)
    for h in range(n):
        players = [bot, opp] if h % 2 == 0 else [opp, bot]
        play_hand(game, players, h % 2, rng)
print(json.dumps({"cpu": bot.cpu, "decisions": bot.decisions}))
"""


def in_process(tree: Path, bot: str, opp: str, hands: int, warmup: int, seed: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    args = [sys.executable, "-c", _IN_PROCESS, bot, opp, str(hands), str(warmup), str(seed)]
    out = subprocess.run(args, env=env, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def match(tree: Path, seats: tuple[str, str], hands: int, seed: int) -> tuple[float, list[int]]:
    """CPU (the process and every descendant) of ``loki match`` of ``seats``, and each seat's decisions (from the match
    log)."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "match.log"
        args = [sys.executable, "-c", LOKI_CLI, "match", "--player", seats[0], "--player", seats[1]]
        args += ["--hands", str(hands), "--seed", str(seed), "--out", str(log)]
        res = run_whole(args, env)
        if res.returncode != 0:
            raise SystemExit(f"loki match {seats} failed:\n{res.stderr[-2000:]}")
        decisions = _decisions(log.read_text())
    return res.cpu, decisions


def _decisions(text: str) -> list[int]:
    """Actions each seat took, from the dealer's ``STATE:hand:betting:cards:scores:names`` lines: the names are in
    position order (the first hand's order is the seats'), and in the bundled heads-up game (reverse blinds) the
    second position acts first pre-flop and the first position first after the flop."""
    counts = [0, 0]
    order: list[str] = []
    for line in text.splitlines():
        if not line.startswith("STATE:"):
            continue
        parts = line.split(":")
        names = parts[-1].split("|")
        if not order:
            order = names
        for r, rnd in enumerate(parts[2].split("/")):
            who = 1 if r == 0 else 0
            for ch in rnd:
                if ch in "fcr":
                    counts[order.index(names[who])] += 1
                    who = 1 - who
    return counts


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True)
    ap.add_argument("--new", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--bot", default="loki2:BRS:adaptive")
    ap.add_argument("--opponent", default="equity")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--warmup", type=int, default=50)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--whole", action="store_true", help="also the whole-process loki match figure")
    a = ap.parse_args(argv)
    per: dict[str, list[float]] = {"base": [], "new": []}
    whole: dict[str, list[float]] = {"base": [], "new": []}
    for r in range(a.rounds):
        for name, tree in (("base", a.base), ("new", a.new)):
            x = in_process(tree, a.bot, a.opponent, a.hands, a.warmup, a.seed)
            per[name].append(1e3 * x["cpu"] / max(1, x["decisions"]))
            line = f"round {r + 1} {name}: in process {per[name][-1]:.2f} ms per decision ({x['decisions']} decisions)"
            if a.whole:
                t_bot, d_bot = match(tree, (a.opponent, a.bot), a.hands, a.seed)
                t_opp, d_opp = match(tree, (a.opponent, "calling"), a.hands, a.seed)
                t_base, _ = match(tree, ("calling", "calling"), a.hands, a.seed)
                opp_each = (t_opp - t_base) / max(1, d_opp[0])
                bot_ms = 1e3 * (t_bot - t_base - opp_each * d_bot[0]) / max(1, d_bot[1])
                whole[name].append(bot_ms)
                line += (
                    f"; whole process {bot_ms:.2f} ms per decision (match {t_bot:.1f} s, dealer-only {t_base:.1f} s, "
                    f"opponent {1e3 * opp_each:.2f} ms per decision, {d_bot[1]} decisions of the bot)"
                )
            print(line, flush=True)
    for label, d in (("in process", per), ("whole process", whole)):
        if not d["new"]:
            continue
        print(
            f"{a.bot} heads-up against {a.opponent}, {a.hands} hands, {label}: ms CPU per decision base "
            f"{min(d['base']):.2f}/{statistics.median(d['base']):.2f}/{max(d['base']):.2f}, new "
            f"{min(d['new']):.2f}/{statistics.median(d['new']):.2f}/{max(d['new']):.2f} (min/median/max of "
            f"{a.rounds}); base/new by median {statistics.median(d['base']) / statistics.median(d['new']):.2f}x"
        )


if __name__ == "__main__":
    main()
