"""A player's window on a hand: :class:`PlayerView` (public state plus its own hole cards)."""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from loki.cards import format_cards
from loki.errors import InputError

__all__ = ["PlayerView"]


class PlayerView:
    """A player's window on a :class:`~loki.engine.HandState`: public information plus its own hole cards.

    The view is **live** (it reads the state it was made from, so it follows the hand); keep
    copies of what you need.  Other players' hole cards are hidden (``None``) unless shown at
    the showdown.  The public attributes of the state (pot, bets, orders, the facts of the current
    round, ...) read through: see :data:`VIEW_PUBLIC`.

    It is a window for honest players, not a wall: a player runs in the table's process, and the state behind the
    view holds every seat's cards.  A program that is not trusted plays through the ACPC protocol in a process of its
    own (``loki match --player cmd:...``; docs/ARCHITECTURE.md, "The parts of a player").

    Raises:
        ValueError: ``seat`` out of range (at construction); AttributeError for anything that is not
            public (e.g. ``full_board``).
    """

    __slots__ = ("_s", "_seat")

    def __init__(self, state: Any, seat: int):
        if not 0 <= seat < state.n:
            raise InputError(f"seat {seat} out of range 0..{state.n - 1}")
        self._s = state
        self._seat = seat

    @property
    def seat(self) -> int:
        """This player's seat (read-only: a view shows one seat's cards)."""
        return self._seat

    @property
    def hole_cards(self) -> tuple[int, int]:
        """This player's hole cards."""
        return self._s.hole_cards(self.seat)

    def preflop_situation(self) -> tuple[int, int, int]:
        """``(num_inpot, num_yet_to_act, position)`` of this player for its pre-flop decision (PAPP98
        papp/node44, Eq. 6.1-6.2; :func:`~loki.engine.preflop_situation`).

        >>> from loki.engine import GameConfig, new_hand
        >>> s = new_hand(GameConfig(n_players=6), button=0, rng=0)
        >>> s.apply_many("ff")  # seats 3 and 4 fold; seat 5 to act, only the button (0) behind
        >>> s.view(5).preflop_situation()
        (3, 1, 1)
        """
        return self._s.preflop_situation(self.seat)

    def cards_of(self, seat: int) -> tuple[int, int] | None:
        """Hole cards of ``seat`` if this player may see them (own seat or shown), else None."""
        s = self._s
        if seat == self.seat or (s.went_to_showdown and not s.folded[seat]):
            return s.hole_cards(seat)
        return None

    def legal_actions(self) -> tuple:
        """Legal actions if it is this player's turn, else ``()``."""
        s = self._s
        return s.legal_actions() if s.current_player == self.seat else ()

    def to_call(self, seat: int | None = None) -> int:
        """Chips (not bets) ``seat`` must add to call; default this player's seat (not the player
        to act, unlike :meth:`HandState.to_call`).  0 if folded or nothing to call; capped by the
        stack with finite stacks."""
        return self._s.to_call(self.seat if seat is None else seat)

    def to_call_bets(self, seat: int | None = None) -> float:
        """:meth:`to_call` in bets of the current round (chips / this round's bet size): e.g. 0.5
        for the small blind facing the big blind, 1.0 facing one bet; default this player's seat."""
        return self._s.to_call_bets(self.seat if seat is None else seat)

    def shown_cards(self) -> dict[int, tuple[int, int]]:
        """Hole cards revealed at the showdown, ``{seat: (card, card)}`` (card ints); empty before
        the showdown or without one, so other players' cards stay hidden during the hand."""
        return self._s.shown_cards()

    @property
    def events(self) -> list:
        """The hand's public events so far, in order (the state's list, live: do not mutate);
        empty if recording was disabled.  Amounts in events are chips."""
        return self._s.events

    def __getattr__(self, name):
        # reached only for names that are not public: the public ones are properties (set below the class)
        raise AttributeError(f"PlayerView has no attribute {name!r}")

    def __repr__(self) -> str:
        return f"<PlayerView seat={self.seat} cards={format_cards(self.hole_cards)} of {self._s!r}>"


#: attributes of :class:`~loki.engine.HandState` a :class:`PlayerView` reads through
VIEW_PUBLIC = frozenset(
    {
        "config",
        "n",
        "n_players",
        "button",
        "round",
        "street_name",
        "board",
        "pot",
        "bets_this_round",
        "raises_left",
        "max_bet",
        "bet_size",
        "committed",
        "total_committed",
        "stacks",
        "starting_stacks",
        "folded",
        "active",
        "all_in",
        "can_act",
        "num_active",
        "current_player",
        "is_terminal",
        "history",
        "round_histories",
        "payoffs",
        "payoffs_sb",
        "pots",
        "went_to_showdown",
        "showdown_ranks",
        "small_blind_seat",
        "big_blind_seat",
        "preflop_order",
        "postflop_order",
        "acted_this_round",
        "voluntary_this_round",
        "raised_this_round",
        "raised_last_round",
        "actions_this_round",
    }
)


def _read_through(name: str) -> property:
    # a class-level property per public name: a C-level attrgetter instead of a failed lookup then __getattr__
    return property(
        attrgetter("_s." + name), doc=f"The hand's ``{name}`` (:class:`~loki.engine.HandState`), read through."
    )


for _name in VIEW_PUBLIC:
    setattr(PlayerView, _name, _read_through(_name))
del _name
