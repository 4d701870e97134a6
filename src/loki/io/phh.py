"""Poker Hand History (PHH) files through pokerkit's :class:`pokerkit.HandHistory`.

Writing drives a pokerkit ``FixedLimitTexasHoldem`` state through the hand (so the file is exactly
what pokerkit would write, show-downs in pokerkit's order) and dumps it; reading walks the PHH
action lines into a :class:`~loki.io.acpc_log.HandRecord`.

Seats: pokerkit's player ``k`` (``p{k+1}``) is our seat ``(button + 1 + k) mod n`` (pokerkit's
player 0 is the seat left of the button; heads-up it is the big blind).  Records read from PHH
use seat ``k`` with ``button = n - 1``.  Unlimited bankrolls are written as stacks of
:data:`PHH_STACK` chips.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from loki.cards import format_cards
from loki.engine import ActionTaken, BoardDealt, GameConfig, HandState
from loki.io.acpc_log import HandRecord

__all__ = ["record_to_phh", "state_to_phh", "write_phh", "read_phh", "phh_to_record", "PHH_STACK"]

PHH_STACK = 1_000_000


def _pk_automations():
    from pokerkit import Automation

    return (
        Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING, Automation.RUNOUT_COUNT_SELECTION, Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
    )


def state_to_phh(state: HandState, names=None, hand_id=None):
    """A finished :class:`HandState` as a :class:`pokerkit.HandHistory`."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # pokerkit's "card not recommended" (burn cards)
        return _state_to_phh(state, names, hand_id)


def _state_to_phh(state, names, hand_id):
    from pokerkit import FixedLimitTexasHoldem, HandHistory, Mode

    cfg = state.config
    if cfg.max_bets != 4:
        raise ValueError(f"PHH (pokerkit fixed-limit) caps a round at 4 bets; this game has max_bets = {cfg.max_bets}")
    n, button = cfg.n_players, state.button
    pk_of = {(button + 1 + k) % n: k for k in range(n)}
    seat_of = {k: s for s, k in pk_of.items()}
    blinds = (cfg.small_blind, cfg.big_blind)  # pokerkit reverses them heads-up by itself
    game = FixedLimitTexasHoldem(
        _pk_automations(), True, 0, blinds, cfg.small_bet, cfg.big_bet, mode=Mode.CASH_GAME)
    stacks = state.starting_stacks or (PHH_STACK,) * n
    pks = game(tuple(stacks[seat_of[k]] for k in range(n)), n)
    while pks.can_deal_hole():
        k = pks.hole_dealee_index
        pks.deal_hole(format_cards([state.hole_cards(seat_of[k])[len(pks.hole_cards[k])]]))
    for ev in state.events:
        if isinstance(ev, ActionTaken):
            if pks.actor_index != pk_of[ev.seat]:
                raise ValueError(f"pokerkit expects player {pks.actor_index} but seat {ev.seat} acts ({state.history!r})")
            if ev.action == 0:
                pks.fold()
            elif ev.action == 1:
                pks.check_or_call()
            else:
                pks.complete_bet_or_raise_to()
        elif isinstance(ev, BoardDealt):
            if pks.can_burn_card():
                pks.burn_card("??")
            pks.deal_board(format_cards(ev.cards))
        while pks.showdown_index is not None:
            pks.show_or_muck_hole_cards(True)
    while pks.showdown_index is not None:
        pks.show_or_muck_hole_cards(True)
    kw = {"finishing_stacks": list(pks.stacks)}
    if names:
        kw["players"] = [names[seat_of[k]] for k in range(n)]
    if hand_id is not None:
        kw["hand"] = int(hand_id) if str(hand_id).isdigit() else None
    return HandHistory.from_game_state(game, pks, **kw)


def record_to_phh(rec: HandRecord):
    """A :class:`HandRecord` as a :class:`pokerkit.HandHistory` (the hand is replayed on the engine)."""
    return state_to_phh(rec.replay(), rec.names or None, rec.hand_id)


def write_phh(path, hands: Iterable) -> int:
    """Write hands (:class:`HandRecord` or ``(HandState, names, hand_id)``) to a ``.phhs`` file
    (``.phh`` for a single hand); returns how many were written."""
    from pokerkit import HandHistory

    hhs = []
    for h in hands:
        hhs.append(record_to_phh(h) if isinstance(h, HandRecord) else state_to_phh(*h))
    p = Path(path)
    if p.suffix == ".phh" and len(hhs) == 1:
        p.write_text(hhs[0].dumps())
    else:
        p.write_text(HandHistory.dumps_all(hhs))
    return len(hhs)


def phh_to_record(hh, hand_id=None) -> HandRecord:
    """A pokerkit :class:`HandHistory` (fixed-limit Texas hold'em, ``variant = 'FT'``) as a record.

    Raises:
        ValueError: other variants, or action lines we do not understand.
    """
    if hh.variant != "FT":
        raise ValueError(f"PHH variant {hh.variant!r}: only fixed-limit Texas hold'em ('FT') is supported")
    n = len(hh.starting_stacks)
    bl = [int(x) for x in (hh.blinds_or_straddles or [])] + [0] * n
    sb, bb = bl[0], bl[1]  # pokerkit's order, also heads-up
    config = GameConfig(n_players=n, small_bet=int(hh.small_bet), big_bet=int(hh.big_bet), small_blind=sb,
                        big_blind=bb)
    holes = [""] * n
    board, betting = "", ""
    for line in hh.actions:
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if parts[:2] == ["d", "dh"]:
            k = int(parts[2][1:]) - 1
            if "?" not in parts[3]:
                holes[k] = parts[3]
        elif parts[:2] == ["d", "db"]:
            board += parts[2]
            betting += "/"
        elif parts[0].startswith("p") and len(parts) >= 2:
            k = int(parts[0][1:]) - 1
            code = parts[1]
            if code == "f":
                betting += "f"
            elif code == "cc":
                betting += "c"
            elif code == "cbr":
                betting += "r"
            elif code == "sm":
                if len(parts) > 2 and "?" not in parts[2]:
                    holes[k] = parts[2]
            else:
                raise ValueError(f"PHH action {line!r} not understood")
        else:
            raise ValueError(f"PHH action {line!r} not understood")
    payoffs = None
    if hh.finishing_stacks:
        payoffs = tuple(int(f) - int(s) for f, s in zip(hh.finishing_stacks, hh.starting_stacks))
    names = tuple(hh.players) if hh.players else tuple(f"p{k + 1}" for k in range(n))
    return HandRecord(hand_id if hand_id is not None else (hh.hand if hh.hand is not None else 0), config, n - 1,
                      tuple(holes), board, betting, payoffs, names)


def read_phh(path) -> list[HandRecord]:
    """All hands of a ``.phh``/``.phhs`` file as :class:`HandRecord` (hand ids numbered from 0 when absent)."""
    from pokerkit import HandHistory

    p = Path(path)
    with open(p, "rb") as f:
        hhs = list(HandHistory.load_all(f)) if p.suffix == ".phhs" else [HandHistory.load(f)]
    return [phh_to_record(hh, hh.hand if hh.hand is not None else i) for i, hh in enumerate(hhs)]
