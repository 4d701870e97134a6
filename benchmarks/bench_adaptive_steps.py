"""Where the adaptive Loki's CPU goes at a table, step by step, in the game (not in a hot loop).

Plays ``--hands`` hands of fig3-BRS's field (8 x ``loki1`` and 2 x ``--spec``, default the default bot
``loki2:BRS:adaptive``; ``--players 2``: the spec heads-up against ``--opponent``) after ``--warmup`` untimed hands of
another seed, with timing wrappers (thread CPU) around the spec's seats' ``act`` and ``observe`` calls and around the
steps of the adaptive model and of the believed play-out: the adaptive re-weighting of an opponent's action (pre- and
post-flop) and, inside it, each candidate's re-weighting, the average kernel, a new hand and a new round of the
candidates' tables; the opponent-specific model's board order (a hit or a computation); the showdown learning; the
play-out policies, beliefs and believed values of the decisions.  Per step: calls, µs per call and per decision of
the seats, and its share of the seats' CPU.  An indented step is part of the one above it.

The figures are those of the game, where the caches are cold between two calls (the same calls in a hot loop cost
about 2-3x less), and the wrappers add a little to every call; use them for shares, and
``bench_decision_cost.py`` for the CPU per decision of two specs::

    NUMBA_CACHE_DIR=.numba_cache python benchmarks/bench_adaptive_steps.py --hands 300
"""

from __future__ import annotations

import argparse
import collections
import json
import time
from collections.abc import Callable

import numpy as np

from loki.engine import GameConfig
from loki.modeler import adaptive, blind, specific, triple_model
from loki.players.registry import make_player
from loki.players.table import play_hand
from loki.simulator import driver, policy

_CPU: collections.Counter = collections.Counter()
_CALLS: collections.Counter = collections.Counter()


def _wrap(owner: object, name: str, label: Callable[..., str]) -> None:
    """Time ``owner.name`` (a function of a module or a method of a class) under ``label(*args)``, the label taken
    before the call (it may read state the call changes)."""
    f = getattr(owner, name)

    def timed(*a, **k):
        key = label(*a)
        t = time.thread_time_ns()
        out = f(*a, **k)
        _CPU[key] += time.thread_time_ns() - t
        _CALLS[key] += 1
        return out

    setattr(owner, name, timed)


def _street(step: str, at: int) -> Callable[..., str]:
    # the label of a re-weighting call, by the round of its action (argument ``at`` is the ActionTaken)
    return lambda *a: f"{step} {'pre-flop' if a[at].round == 0 else 'post-flop'}"


def _instrument() -> None:
    _wrap(adaptive.AdaptiveModeler, "reweight", _street("adaptive re-weighting", 2))
    for cls, name in (
        (triple_model.TripleModeler, "the paper's candidate"),
        (specific.SpecificModeler, "the opponent-specific candidate"),
        (blind.BlindModeler, "the card-blind candidate"),
    ):
        _wrap(cls, "reweight", _street("  " + name, 2))
    for kernel in ("grouped_average_into", "model_average_into", "mixture_into"):
        _wrap(adaptive, kernel, lambda *a, _k=kernel: f"  the average kernel ({_k})")
    _wrap(adaptive, "_new_hand", lambda *a: "  a new hand of the candidates' tables")
    _wrap(adaptive, "_new_round", lambda *a: "  a new round of the candidates' tables")
    orders = specific._BOARD_ORDERS
    _wrap(specific, "_board_order", lambda b, n: "    its board order, " + ("kept" if (b, n) in orders else "computed"))
    _wrap(adaptive.AdaptiveModeler, "learn", lambda *a: "the adaptive model's showdown learning")
    _wrap(adaptive.AdaptiveModeler, "playout_policy", lambda *a: "  the adaptive play-out policy of an opponent")
    _wrap(policy, "beliefs_of", lambda *a: "the believed play-out's beliefs")
    _wrap(driver, "_believed_values", lambda *a: "the believed play-out's values")


_ORDER = (
    "adaptive re-weighting post-flop",
    "  the paper's candidate post-flop",
    "  the opponent-specific candidate post-flop",
    "    its board order, computed",
    "    its board order, kept",
    "  the card-blind candidate post-flop",
    "  the average kernel (grouped_average_into)",
    "  the average kernel (model_average_into)",
    "  a new round of the candidates' tables",
    "adaptive re-weighting pre-flop",
    "  the paper's candidate pre-flop",
    "  the opponent-specific candidate pre-flop",
    "  the card-blind candidate pre-flop",
    "  the average kernel (mixture_into)",
    "  a new hand of the candidates' tables",
    "the adaptive model's showdown learning",
    "the believed play-out's beliefs",
    "  the adaptive play-out policy of an opponent",
    "the believed play-out's values",
)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spec", default="loki2:BRS:adaptive")
    ap.add_argument("--players", type=int, choices=(2, 10), default=10)
    ap.add_argument("--opponent", default="equity", help="the opponent heads-up (--players 2)")
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--warmup", type=int, default=30)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--json", action="store_true", help="also print the figures as one JSON line")
    a = ap.parse_args(argv)
    _instrument()
    if a.players == 10:
        seats = [make_player("loki1", seed=i) for i in range(8)] + [make_player(a.spec, seed=10 + i) for i in range(2)]
        timed = seats[8:]
    else:
        seats = [make_player(a.spec, seed=1), make_player(a.opponent, seed=2)]
        timed = seats[:1]
    for p in timed:
        for name in ("act", "observe", "begin_hand", "end_hand"):
            _wrap(p, name, lambda *x, _n=name: f"the seats' {_n}")
    game = GameConfig(n_players=a.players)
    for seed, hands in ((a.seed + 1, a.warmup), (a.seed, a.hands)):
        _CPU.clear()
        _CALLS.clear()
        rng = np.random.default_rng(seed)
        for h in range(hands):
            play_hand(game, seats, h % game.n_players, rng)
    decisions = _CALLS["the seats' act"]
    deciding = _CPU["the seats' act"]
    seats_cpu = sum(_CPU[f"the seats' {n}"] for n in ("act", "observe", "begin_hand", "end_hand"))
    print(
        f"{a.spec}, {a.players} players, {a.hands} hands: {decisions} decisions of the timed seats, "
        f"{seats_cpu / max(decisions, 1) / 1e3:.0f} µs of CPU per decision (deciding "
        f"{deciding / max(decisions, 1) / 1e3:.0f}, observing and new hands the rest)"
    )
    print("| step | calls | µs per call | µs per decision | share of the seats' CPU |\n|---|---:|---:|---:|---:|")
    rows = {}
    for key in _ORDER + tuple(sorted(k for k in _CPU if k not in _ORDER and not k.startswith("the seats'"))):
        if not _CALLS[key]:
            continue
        cpu, n = _CPU[key], _CALLS[key]
        rows[key.strip()] = {"calls": n, "us_per_call": cpu / n / 1e3, "us_per_decision": cpu / max(decisions, 1) / 1e3}
        print(
            f"| {key.replace('  ', '· ')} | {n:,} | {cpu / n / 1e3:.1f} | {cpu / max(decisions, 1) / 1e3:.1f} | "
            f"{100 * cpu / max(seats_cpu, 1):.1f} % |"
        )
    if a.json:
        print(json.dumps({"spec": a.spec, "players": a.players, "hands": a.hands, "decisions": decisions,
                          "seats_us_per_decision": seats_cpu / max(decisions, 1) / 1e3, "steps": rows}))  # fmt: skip


if __name__ == "__main__":
    main()
