"""The player protocol: what the table tells a player, and what it asks.

A hand, as seen by a :class:`Player` at :func:`loki.players.table.play_hand`:

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

A player that hands its decisions to another player object (a frozen player plays each hand with a restored copy)
names that object as its ``decider`` (read through :func:`decider_of`), so that what reads a player's decision records
and opponent models (:mod:`loki.explain`) reads the ones that decided.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from loki.engine import Action, GameConfig, PlayerView, legalise

__all__ = ["Player", "legal_probabilities", "one_hot", "table_sizes", "decider_of"]


def legal_probabilities(probs: Sequence[float], legal: Sequence[Action]) -> tuple[float, float, float]:
    """A wanted distribution ``(fold, call, raise)`` as the distribution of the action actually played: the mass of
    each illegal action moves where :func:`loki.engine.legalise` sends it (a fold when checking is free and a raise
    when the betting is capped become a check/call).

    >>> legal_probabilities((0.1, 0.6, 0.3), (Action.CALL, Action.RAISE))
    (0.0, 0.7, 0.3)
    """
    out = [0.0, 0.0, 0.0]
    for a in (Action.FOLD, Action.CALL, Action.RAISE):
        out[int(legalise(a, legal))] += float(probs[int(a)])
    return out[0], out[1], out[2]


def decider_of(player: Any) -> Any:
    """The object that makes ``player``'s decisions: its ``decider`` if it names one (a wrapper that plays through
    another player), else ``player`` itself (module docstring)."""
    return getattr(player, "decider", player)


def one_hot(action: Action) -> tuple[float, float, float]:
    """The distribution of a pure (deterministic) choice."""
    out = [0.0, 0.0, 0.0]
    out[int(action)] = 1.0
    return out[0], out[1], out[2]


class Player:
    """Base class of all players: no-op hooks; subclasses implement :meth:`act`."""

    name: str = "player"
    #: The fewest and the most players at a table this player plays, ``(2, 10)`` (every table the engine deals:
    #: :class:`loki.engine.GameConfig`) unless it says otherwise (``(2, 2)``: heads-up only; read through
    #: :func:`table_sizes`).  A tournament's configuration is refused before any deal when a player's range leaves
    #: out its table (:mod:`loki.tournament.config`); the player's own :meth:`begin_hand` may still refuse.
    table_sizes: tuple[int, int] = (2, 10)

    def begin_hand(self, seat: int, config: GameConfig, hole_cards: tuple[int, int], button: int) -> None:
        """A new hand starts; this player sits at ``seat`` holding ``hole_cards``."""

    def observe(self, event) -> None:
        """A public event of the current hand (see :mod:`loki.engine`)."""

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """Choose one of ``legal_actions`` (a non-empty tuple of :class:`Action`)."""
        raise NotImplementedError(f"{type(self).__name__}.act is not implemented")

    def end_hand(self, view: PlayerView) -> None:
        """The hand is over; ``view.payoffs`` gives the net chips per seat."""

    def action_probabilities(self) -> tuple[float, float, float] | None:
        """The probabilities ``(fold, call, raise)`` with which the last :meth:`act` chose its action, over the legal
        actions of that decision (0 on illegal ones), or None when the player cannot say (the default; e.g. a
        human, or a Simulator decision, whose randomness is a seed).  A referee reads it after each ``act`` for
        variance reduction (AIVAT action corrections); a pure policy returns a one-hot triple."""
        return None

    def action_values(self) -> tuple[float, float, float] | None:
        """The player's own estimates ``(fold, call, raise)``, in chips from the last decision on, of each action of
        the last :meth:`act`, computed before the action was drawn (a Simulator decision: ``(0, EV(call),
        EV(raise))``), or None (the default).  A referee may take them as the baselines of the AIVAT action
        correction (:func:`loki.aivat.hand_corrections`); with :meth:`action_probabilities` exact the correction
        stays unbiased whatever these are."""
        return None

    def holding_probabilities(self, view: PlayerView, legal_actions: Sequence[Action]) -> Any:
        """``(1326, 3) float64``: for every holding (:data:`loki.cards.HOLDING_CARDS` order), the probabilities ``(fold,
        call, raise)`` with which this player would act at this decision had it been dealt that holding, its state
        otherwise as it is (rows of holdings that clash with the board are not read); or None when it cannot say
        without being dealt the holding (the default).  Only a player whose action depends on nothing but its cards
        and the public state (``view``, the legal actions) answers, the reference players do.  A local best response
        (:mod:`loki.lbr`) reads it to follow the player's range; for any other player it asks a copy of the player
        dealt each holding (:class:`loki.players.frozen.Snapshot`)."""
        return None

    def reseat(self, mapping: dict[int, int]) -> None:
        """Called between hands when the players change seats: ``mapping[old_seat] = new_seat`` for
        every seat (this player's own included).  Re-key anything kept per seat across hands; the
        default keeps nothing per seat and does nothing."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


def table_sizes(player: Any) -> tuple[int, int]:
    """The fewest and the most players at a table ``player`` plays: its :attr:`Player.table_sizes`, or the default
    ``(2, 10)`` for a player that does not say (a plug-in kind's player need not be a :class:`Player`).

    >>> table_sizes(Player()), table_sizes(object())
    ((2, 10), (2, 10))
    """
    lo, hi = getattr(player, "table_sizes", Player.table_sizes)
    return int(lo), int(hi)
