"""Events of a hand (all public: hole cards appear only in :class:`Showdown`, for the hands shown).

Events are read-only by convention: they are plain slotted dataclasses (not frozen, because a
frozen dataclass costs about 4x more to construct and the engine makes one per action), and the
same objects are shared by clones and by every player.  Never mutate one.  Amounts are chips.
"""

from __future__ import annotations

from dataclasses import dataclass

from loki.engine.actions import Action

__all__ = [
    "Event",
    "HandStarted",
    "BlindPosted",
    "ActionTaken",
    "BoardDealt",
    "Showdown",
    "PotAward",
    "HandEnded",
]


@dataclass(slots=True)
class HandStarted:
    """A hand begins.  ``stacks`` is None with unlimited bankrolls, else chips per seat."""

    n_players: int
    button: int
    stacks: tuple[int, ...] | None


@dataclass(slots=True)
class BlindPosted:
    """``seat`` posts a blind of ``amount`` chips (less than the blind if the stack is short);
    ``kind`` is ``"small"`` or ``"big"``."""

    seat: int
    amount: int
    kind: str


@dataclass(slots=True)
class ActionTaken:
    """``seat`` takes ``action`` in ``round`` (0..3), putting ``amount`` chips in the pot
    (0 for a fold or a check); ``all_in`` when this left the player without chips.

    The situation the player faced *before* acting, for opponent modelling: ``to_call`` chips
    to call, ``pot`` chips in the pot, ``bets`` bets/raises made this round (the big blind
    counting as one pre-flop), ``n_active`` players not folded, and ``voluntary`` whether the
    player had already put chips in voluntarily this round (a blind does not count; Make1's
    fold rule, PAPP98 papp/node44), ``could_raise`` whether a bet/raise was legal for it (the round
    not capped and, with finite stacks, the engine's other conditions: :func:`loki.betting.can_raise`).
    ``to_call`` is the amount facing the player, not capped by its stack (an all-in call's
    ``amount`` is the capped one)."""

    seat: int
    action: Action
    amount: int
    round: int
    all_in: bool = False
    to_call: int = 0
    pot: int = 0
    bets: int = 0
    n_active: int = 0
    voluntary: bool = False
    could_raise: bool = True


@dataclass(slots=True)
class BoardDealt:
    """Board cards of ``round`` (1 flop, 2 turn, 3 river) are revealed: ``cards`` the new cards,
    ``board`` all visible cards (card ints)."""

    round: int
    cards: tuple[int, ...]
    board: tuple[int, ...]


@dataclass(slots=True)
class Showdown:
    """Hands shown at the showdown: ``hands`` is a tuple of ``(seat, (card, card), rank)`` for
    every non-folded player, in seat order from the button's left; rank as ``rank7`` (higher is
    stronger)."""

    hands: tuple[tuple[int, tuple[int, int], int], ...]


@dataclass(slots=True)
class PotAward:
    """One pot: ``amount`` chips, ``eligible`` seats, ``winners`` seats and the chips each gets
    (``shares``, parallel to ``winners``; floats under the ``"split"`` rule)."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple


@dataclass(slots=True)
class HandEnded:
    """The hand is over: ``payoffs`` net chips per seat (sum 0), ``pots`` how they were won,
    ``showdown`` whether hands were compared (False: everyone else folded)."""

    payoffs: tuple
    pots: tuple[PotAward, ...]
    showdown: bool


Event = HandStarted | BlindPosted | ActionTaken | BoardDealt | Showdown | HandEnded
