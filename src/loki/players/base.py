"""The player protocol: what the table tells a player, and what it asks.

A hand, as seen by a :class:`Player` at :func:`loki.table.play_hand`:

1. ``begin_hand(seat, config, hole_cards, button)`` — its seat, the rules, its two hole cards
   (card ints) and the button seat;
2. ``observe(event)`` for every public event of the hand, in order (``HandStarted``,
   ``BlindPosted``, ``ActionTaken``, ``BoardDealt``, ``Showdown``, ``HandEnded`` from
   :mod:`loki.engine`), its own actions included;
3. ``act(view, legal_actions) -> Action`` whenever it is its turn (``view`` is a live
   :class:`loki.engine.PlayerView`: public state and its own cards only);
4. ``end_hand(view)`` once the hand is over (``view.payoffs`` holds the result).

Between hands, a player whose opponents change seats (the duplicate tournament rotates the seating
between replays of a deal) is told so by ``reseat(mapping)``, so that anything it keeps per seat
(opponent models) can follow the players it was about.

Players must not keep a reference to the view and read it later expecting the old values: the
view follows the hand.  Every random choice a player makes must come from a seeded generator.
"""

from __future__ import annotations

from collections.abc import Sequence

from loki.engine import Action, GameConfig, PlayerView

__all__ = ["Player"]


class Player:
    """Base class of all players: no-op hooks; subclasses implement :meth:`act`."""

    name: str = "player"

    def begin_hand(self, seat: int, config: GameConfig, hole_cards: tuple[int, int], button: int) -> None:
        """A new hand starts; this player sits at ``seat`` holding ``hole_cards``."""

    def observe(self, event) -> None:
        """A public event of the current hand (see :mod:`loki.engine`)."""

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """Choose one of ``legal_actions`` (a non-empty tuple of :class:`Action`)."""
        raise NotImplementedError(f"{type(self).__name__}.act is not implemented")

    def end_hand(self, view: PlayerView) -> None:
        """The hand is over; ``view.payoffs`` gives the net chips per seat."""

    def reseat(self, mapping: dict[int, int]) -> None:
        """Called between hands when the players change seats: ``mapping[old_seat] = new_seat`` for
        every seat (this player's own included).  Re-key anything kept per seat across hands; the
        default keeps nothing per seat and does nothing."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
