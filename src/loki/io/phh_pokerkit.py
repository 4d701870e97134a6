"""Hand histories replayed through pokerkit: a finished hand as a :class:`pokerkit.HandHistory` object.

:func:`state_to_phh` drives a pokerkit ``FixedLimitTexasHoldem`` state through the hand (show-downs in
pokerkit's order, pokerkit's chip pushing) and builds the ``HandHistory`` from it.  It is the slow,
independent path: files are written by :mod:`loki.io.phh_write` straight from the engine's records
(about 50x faster), which the tests compare byte for byte with ``state_to_phh(...).dumps()``; this
module serves callers that want the pokerkit object, and the rare hands with an all-in (finite
stacks), which :mod:`loki.io.phh_write` hands over to it.

Seats: pokerkit's player ``k`` (``p{k+1}``) is our seat ``(button + 1 + k) mod n`` (pokerkit's
player 0 is the seat left of the button; heads-up it is the big blind).  Unlimited bankrolls are
written as stacks of :data:`PHH_STACK` chips.
"""

from __future__ import annotations

from functools import lru_cache

from loki.cards import format_cards
from loki.engine import ActionTaken, BoardDealt, HandState
from loki.errors import ConfigError, HandHistoryError
from loki.io.limits import digits

__all__ = ["state_to_phh", "PHH_STACK"]

PHH_STACK = 1_000_000


def _pk_automations():
    from pokerkit import Automation

    return (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.RUNOUT_COUNT_SELECTION,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )


@lru_cache(maxsize=16)
def _pk_game(blinds: tuple[int, int], small_bet: int, big_bet: int):
    """The pokerkit game of our limits (immutable, so shared by every hand)."""
    from pokerkit import FixedLimitTexasHoldem, Mode

    return FixedLimitTexasHoldem(_pk_automations(), True, 0, blinds, small_bet, big_bet, mode=Mode.CASH_GAME)


def state_to_phh(state: HandState, names=None, hand_id=None, fields: dict | None = None):
    """A finished :class:`HandState` as a :class:`pokerkit.HandHistory`.

    Args:
        state: a finished hand (``max_bets`` 4, pokerkit's fixed-limit cap).
        names: display name per seat (``names[seat]``), written as ``players``.
        hand_id: the ``hand`` field (an int, or a string of digits).
        fields: more PHH fields, e.g. ``{"event": "fig3-BR", "_deal": 17}`` (user-defined field names
            start with ``_``).

    Raises:
        ConfigError: ``max_bets`` is not 4.
        HandHistoryError: the hand does not replay in pokerkit.
    """
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # pokerkit's "card not recommended" (burn cards)
        return _state_to_phh(state, names, hand_id, fields)


def _state_to_phh(state, names, hand_id, fields):
    from pokerkit import HandHistory

    cfg = state.config
    if cfg.max_bets != 4:
        raise ConfigError(f"PHH (pokerkit fixed-limit) caps a round at 4 bets; this game has max_bets = {cfg.max_bets}")
    n, button = cfg.n_players, state.button
    pk_of = {(button + 1 + k) % n: k for k in range(n)}
    seat_of = {k: s for s, k in pk_of.items()}
    # pokerkit reverses the blinds heads-up by itself
    game = _pk_game((cfg.small_blind, cfg.big_blind), cfg.small_bet, cfg.big_bet)
    stacks = state.starting_stacks or (PHH_STACK,) * n
    pks = game(tuple(stacks[seat_of[k]] for k in range(n)), n)
    for k in range(n):  # pokerkit writes one "d dh" line per player whatever the dealing order
        pks.deal_hole(format_cards(state.hole_cards(seat_of[k])), k)
    for ev in state.events:
        if isinstance(ev, ActionTaken):
            if pks.actor_index != pk_of[ev.seat]:
                raise HandHistoryError(
                    f"pokerkit expects player {pks.actor_index} but seat {ev.seat} acts ({state.history!r})"
                )
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
    kw = {"finishing_stacks": list(pks.stacks), "seats": [seat_of[k] + 1 for k in range(n)], "seat_count": n}
    if names:
        kw["players"] = [names[seat_of[k]] for k in range(n)]
    if hand_id is not None:
        kw["hand"] = int(hand_id) if digits(str(hand_id)) else None
    if fields:
        kw.update(fields)
    return HandHistory.from_game_state(game, pks, **kw)
