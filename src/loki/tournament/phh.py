"""Hand histories in the Poker Hand History format (PHH, pokerkit's standard).

:func:`hand_to_phh` turns a finished :class:`loki.engine.HandState` into PHH text (a TOML
document) that ``pokerkit.HandHistory.loads`` reads and replays to the same payoffs.  PHH numbers
players from the seat left of the button (``p1`` = our seat ``button + 1``; heads-up ``p1`` is the
big blind, pokerkit reverses the blinds itself).  Our bankrolls are unlimited; PHH needs stacks,
so every player starts with :data:`PHH_STACK` chips (a limit hand can lose at most a few hundred).
Several hands go to one ``.phhs`` file as ``[1]``, ``[2]``, ... tables (``HandHistory.loads_all``).

>>> from loki.engine import GameConfig, new_hand
>>> s = new_hand(GameConfig(n_players=3), button=2, hole_cards=["5d5c", "9hQd", "8dAs"], board="8s4h6d5sJs")
>>> s.apply_many("rfrrc" "cc" "rrc" "rrrrc")
>>> print(hand_to_phh(s, ["a", "b", "c"]).splitlines()[7])
actions = ["d dh p1 5d5c", "d dh p2 9hQd", "d dh p3 8dAs", "p3 cbr 20", "p1 f", "p2 cbr 30", "p3 cbr 40", "p2 cc", "d db 8s4h6d", "p2 cc", "p3 cc", "d db 5s", "p2 cbr 20", "p3 cbr 40", "p2 cc", "d db Js", "p2 cbr 20", "p3 cbr 40", "p2 cbr 60", "p3 cbr 80", "p2 cc", "p3 sm 8dAs", "p2 sm 9hQd"]
"""

from __future__ import annotations

import json
from typing import Sequence

from loki.cards import format_cards
from loki.engine import ActionTaken, BlindPosted, BoardDealt, HandState, RAISE, FOLD

__all__ = ["hand_to_phh", "PHH_STACK", "phh_collection"]

PHH_STACK = 100_000


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def hand_to_phh(state: HandState, names: Sequence[str], *, extra: dict | None = None) -> str:
    """PHH text of a finished hand.

    Args:
        state: a finished hand (unlimited bankrolls).
        names: display name per seat (``names[seat]``).
        extra: more fields, e.g. ``{"hand": 17, "_deal": 1, "_replay": 7}`` (user-defined fields
            start with ``_``).
    """
    cfg = state.config
    n = state.n
    order = [(state.button + 1 + i) % n for i in range(n)]  # PHH player i+1 -> our seat
    pidx = {seat: i + 1 for i, seat in enumerate(order)}
    blinds = [0] * n
    street = [0] * n
    actions = [f"d dh p{pidx[s]} {format_cards(state.hole_cards(s))}" for s in order]
    opener = 0  # pokerkit's showdown starts at the last aggressor of the river, else at p1
    for ev in state.events:
        if isinstance(ev, BlindPosted):
            street[ev.seat] += ev.amount
            blinds[pidx[ev.seat] - 1] = ev.amount
        elif isinstance(ev, BoardDealt):
            street = [0] * n
            actions.append(f"d db {format_cards(ev.cards)}")
        elif isinstance(ev, ActionTaken):
            street[ev.seat] += ev.amount
            p = pidx[ev.seat]
            if ev.action is FOLD:
                actions.append(f"p{p} f")
            elif ev.action is RAISE:
                actions.append(f"p{p} cbr {street[ev.seat]}")
                if ev.round == 3:
                    opener = p - 1
            else:
                actions.append(f"p{p} cc")
    if state.went_to_showdown:
        for i in range(n):
            seat = order[(opener + i) % n]
            if not state.folded[seat]:
                actions.append(f"p{pidx[seat]} sm {format_cards(state.hole_cards(seat))}")
    if n == 2:
        # pokerkit posts heads-up blinds in reverse: give them in PHH order (p1 = big blind) as [sb, bb]
        blinds = sorted(blinds)
    stacks = [PHH_STACK] * n
    pay = state.payoffs
    lines = [
        'variant = "FT"',
        "ante_trimming_status = false",
        f"antes = {[0] * n}",
        f"blinds_or_straddles = {blinds}",
        f"small_bet = {cfg.small_bet}",
        f"big_bet = {cfg.big_bet}",
        f"starting_stacks = {stacks}",
        "actions = [" + ", ".join(_q(a) for a in actions) + "]",
        "players = [" + ", ".join(_q(names[s]) for s in order) + "]",
        f"seats = {[s + 1 for s in order]}",
        f"seat_count = {n}",
        f"finishing_stacks = {[PHH_STACK + pay[s] for s in order]}",
    ]
    for k, v in (extra or {}).items():
        lines.append(f"{k} = {_q(v) if isinstance(v, str) else v}")
    return "\n".join(lines) + "\n"


def phh_collection(texts: Sequence[str], start: int = 1) -> str:
    """Several PHH documents as one ``.phhs`` file (tables ``[start]``, ``[start + 1]``, ...)."""
    return "\n".join(f"[{start + i}]\n{t}" for i, t in enumerate(texts))
