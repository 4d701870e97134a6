"""Fixed-limit Texas Hold'em rules engine for 2-10 players, with an OpenSpiel-style state API.

The game is the one of the AAAI-99 paper (Billings, Peña, Schaeffer, Szafron, §2) and of the
ACPC limit game definitions (``holdem.limit.2p.reverse_blinds.game``, ``holdem.limit.3p.game``):

* Blinds: ``small_blind`` and ``big_blind`` chips (default 5 and 10).  With 3+ players the small
  blind is the seat left of the button (``button + 1``), the big blind ``button + 2``, and the first
  player to act pre-flop is ``button + 3`` (left of the big blind).  **Heads-up** the button posts
  the small blind and acts first pre-flop, the big blind acts first on later streets (ACPC
  ``reverse_blinds``: seat 1 posts 10, seat 2 posts 5, ``firstPlayer = 2 1 1 1``, i.e. the ACPC
  seat 2 is our ``button=1``).  The ACPC 3-player game (``blind = 5 10 0``,
  ``firstPlayer = 3 1 1 1``) is ``button=2``.  Post-flop the first player to act is the first
  active seat left of the button.
* Bets are fixed: ``small_bet`` chips pre-flop and on the flop, ``big_bet`` on the turn and river.
  At most ``max_bets`` bets per round (a bet and 3 raises); pre-flop the big blind counts as the
  first bet, so pre-flop allows ``max_bets - 1`` raises over the big blind (ACPC
  ``maxRaises = 3 4 4 4``).
* Actions are :class:`Action` ``FOLD``, ``CALL`` (check or call) and ``RAISE`` (bet or raise).
  **Folding is legal only when facing a bet**: folding when checking is free is illegal, as in the
  ACPC protocol 2.0 ("Folding is no longer allowed if the player could have called for free") and
  pokerkit's tournament mode.
* Bankroll: ``stacks=None`` gives every player an unlimited bankroll (the paper's experiments, and
  ACPC limit games).  Finite stacks give all-ins, side pots and return of uncalled chips, with the
  same rules as pokerkit 0.7.7 (a call for less than the bet puts the player all-in; a raise for
  less than a full bet is an all-in raise that counts toward the cap; a player who already acted
  may not re-raise when only incomplete all-in raises were made since; raising is illegal when
  nobody else could call it; chips of a bet nobody matched are returned at the end of the round).

Units: every amount is in **chips** unless the name says ``_sb`` (small bets) or ``_bets``.

Pots and the odd chip (``GameConfig.odd_chip``):

* ``"left_of_button"`` (default, integer chips): the pot is cut into layers at every distinct
  total contribution (folded players' chips included); a layer is won by the non-folded players
  who contributed at least its level; consecutive layers with the same eligible players are merged
  into one pot; each pot is divided equally among its best hands and the **whole remainder** of the
  division goes to the first winner clockwise from the button (the small blind's side).  This is
  exactly pokerkit 0.7.7 (``State._end_chips_pushing``: ``divmod(amount, len(winners))``, remainder
  to ``player_indices[0]``, pokerkit's player 0 being the seat left of the button).
* ``"split"`` (ACPC): every pot is divided exactly, so payoffs can be fractional (``float``); the
  ACPC dealer computes values as ``double`` and its 3-player log shows payoffs such as
  ``-5|2.5|2.5`` (hands 256 and 964 of ``3p.limit.h1000.r0.log``).  Use this mode to reproduce
  ACPC logs.

The two rules agree whenever no pot divides unevenly, which is always the case heads-up.

Every betting rule above is implemented once, on array state, in :mod:`loki.betting` (shared with
the Simulator's play-out); this package wraps it with cards, events, histories and views.

Modules: :mod:`~loki.engine.actions` (:class:`Action`, :func:`legalise`), :mod:`~loki.engine.config`
(:class:`GameConfig`), :mod:`~loki.engine.events` (the events), :mod:`~loki.engine.seats` (seat
orders, :func:`preflop_situation`), :mod:`~loki.engine.dealing` (the cards of a hand),
:mod:`~loki.engine.state` (:class:`HandState`, :func:`new_hand`), :mod:`~loki.engine.payout` (the
showdown, pots and payoffs), :mod:`~loki.engine.view` (:class:`PlayerView`).  ``HandState`` and
``new_hand`` are imported on first use (they load numba).

Example::

    >>> from loki.engine import GameConfig, new_hand
    >>> cfg = GameConfig(n_players=3)
    >>> s = new_hand(cfg, button=2, hole_cards=["5d5c", "9hQd", "8dAs"], board="8s4h6d5sJs")
    >>> s.current_player, s.legal_actions()
    (2, (<Action.FOLD: 0>, <Action.CALL: 1>, <Action.RAISE: 2>))
    >>> for a in "rfrrc" "cc" "rrc" "rrrrc":
    ...     s.apply(a)
    >>> s.history, s.payoffs
    ('rfrrc/cc/rrc/rrrrc', (-5, -160, 165))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loki.engine.actions import CALL, FOLD, RAISE, Action, legalise
from loki.engine.config import ODD_CHIP_RULES, STREET_NAMES, GameConfig
from loki.engine.events import (
    ActionTaken,
    BlindPosted,
    BoardDealt,
    Event,
    HandEnded,
    HandStarted,
    PotAward,
    Showdown,
)
from loki.engine.seats import preflop_situation
from loki.engine.view import PlayerView
from loki.errors import IllegalActionError

if TYPE_CHECKING:
    from loki.engine.state import HandState, new_hand

__all__ = [
    "Action",
    "FOLD",
    "CALL",
    "RAISE",
    "GameConfig",
    "IllegalActionError",
    "HandState",
    "PlayerView",
    "new_hand",
    "Event",
    "HandStarted",
    "BlindPosted",
    "ActionTaken",
    "BoardDealt",
    "Showdown",
    "PotAward",
    "HandEnded",
    "STREET_NAMES",
    "ODD_CHIP_RULES",
    "preflop_situation",
    "legalise",
]

_LAZY = ("HandState", "new_hand")


def __getattr__(name: str):
    if name in _LAZY:
        from loki.engine import state

        return getattr(state, name)
    raise AttributeError(f"module 'loki.engine' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
