"""Reference players: the floors any Loki should beat.

- :class:`RandomPlayer` (``random``): uniform over the legal actions;
- :class:`CallingStation` (``calling``): always checks or calls;
- :class:`Maniac` (``maniac``): card-blind aggression: facing a bet it folds 6 % of the time and otherwise calls or
  raises at random; with nothing to call it checks or bets at random (the opponent of the heads-up test of opponent-specific models);
- :class:`EquityPlayer` (``equity``): raises when its all-in equity against one random holding is over 0.5,
  otherwise calls, never folds (a 20-line "equity" bot; pre-flop the equity is the IR2 table's showdown share,
  post-flop the exact :func:`loki.assessment.equity`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from loki.engine import CALL, FOLD, RAISE, Action, PlayerView
from loki.players.base import Player
from loki.players.registry import PlayerKind

__all__ = ["RandomPlayer", "CallingStation", "Maniac", "EquityPlayer", "RANDOM", "CALLING", "MANIAC", "EQUITY"]


class RandomPlayer(Player):
    """Chooses uniformly among the legal actions, from its own seeded generator.

    Args:
        seed: int seed or ``numpy.random.Generator`` (None: unseeded, non-reproducible).
        name: display name.
    """

    def __init__(self, seed: int | np.random.Generator | None = None, name: str = "random"):
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self.name = name

    def begin_hand(self, seat, config, hole_cards, button) -> None:
        """Nothing to prepare: the random player ignores its cards and position."""

    def observe(self, event) -> None:
        """Ignored: the random player keeps no state."""

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """One of ``legal_actions``, uniformly at random from the player's generator.

        Raises:
            ValueError: ``legal_actions`` empty (the table never asks then).
        """
        self._n_legal = tuple(legal_actions)
        return legal_actions[int(self.rng.integers(len(legal_actions)))]

    def action_probabilities(self) -> tuple[float, float, float] | None:
        """Uniform over the legal actions of the last decision."""
        legal = getattr(self, "_n_legal", None)
        if not legal:
            return None
        p = 1.0 / len(legal)
        return tuple(p if a in legal else 0.0 for a in (FOLD, CALL, RAISE))  # type: ignore[return-value]


class CallingStation(Player):
    """Always checks or calls (never folds, never raises)."""

    def __init__(self, name: str = "calling-station"):
        self.name = name

    def begin_hand(self, seat, config, hole_cards, button) -> None:
        """Nothing to prepare: the calling station ignores its cards and position."""

    def observe(self, event) -> None:
        """Ignored: the calling station keeps no state."""

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """Always ``CALL`` (a check when nothing is to call); it is legal whenever the player is
        asked to act.  Raises nothing."""
        return CALL

    def action_probabilities(self) -> tuple[float, float, float] | None:
        """Always a check/call: ``(0, 1, 0)``."""
        return (0.0, 1.0, 0.0)


class Maniac(Player):
    """A card-blind maniac: facing a bet it folds with probability ``fold`` (6 %), otherwise raises with probability
    ``aggression`` (0.5) and calls; with nothing to call it bets with probability ``aggression`` and checks.

    Args:
        seed: int seed or ``numpy.random.Generator`` (two draws per decision at most).
        name: display name.
        fold: fold probability facing a bet.
        aggression: bet/raise probability when not folding.
    """

    def __init__(self, seed: int | np.random.Generator | None = None, name: str = "maniac", fold: float = 0.06,
                 aggression: float = 0.5):  # fmt: skip
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self.name = name
        self.fold = fold
        self.aggression = aggression

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """The maniac's action (its cards are never looked at)."""
        fold = self.fold if FOLD in legal_actions else 0.0
        raise_ = (1.0 - fold) * self.aggression if RAISE in legal_actions else 0.0
        self._probs = (fold, 1.0 - fold - raise_, raise_)
        if FOLD in legal_actions and self.rng.random() < self.fold:
            return FOLD
        if RAISE in legal_actions and self.rng.random() < self.aggression:
            return RAISE
        return CALL

    def action_probabilities(self) -> tuple[float, float, float] | None:
        """``(fold, call, raise)`` of the last decision: fold ``fold`` when facing a bet, raise ``aggression`` of the
        rest when raising is legal."""
        return getattr(self, "_probs", None)


class EquityPlayer(Player):
    """Raises when its equity against one random holding is over 0.5, otherwise checks/calls; never folds.

    Pre-flop the equity is the hand class's showdown share against one random hand (IR2 = 2·E − 1 > 0, PAPP98
    Eq. 5.1 tables); post-flop it is exact (:func:`loki.assessment.equity`, uniform opponent range).
    """

    def __init__(self, name: str = "equity"):
        self.name = name

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """RAISE if legal and the equity is over 0.5, else CALL."""
        from loki.players.exploit import card_blind_equity

        eq = card_blind_equity(view.hole_cards, view.board if view.round > 0 else ())
        self._last = RAISE if eq > 0.5 and RAISE in legal_actions else CALL
        return self._last

    def action_probabilities(self) -> tuple[float, float, float] | None:
        """A pure policy: one-hot on the last action."""
        last = getattr(self, "_last", None)
        return None if last is None else ((0.0, 0.0, 1.0) if last is RAISE else (0.0, 1.0, 0.0))


RANDOM = PlayerKind(
    name="random",
    build=lambda cfg, seed, name: RandomPlayer(seed, name=name or "random"),
    spec=lambda cfg: "random",
    description="uniform over the legal actions (reference player)",
)

CALLING = PlayerKind(
    name="calling",
    build=lambda cfg, seed, name: CallingStation(name=name or "calling station"),
    spec=lambda cfg: "calling",
    description="always checks or calls (reference player)",
)

MANIAC = PlayerKind(
    name="maniac",
    build=lambda cfg, seed, name: Maniac(seed, name=name or "maniac"),
    spec=lambda cfg: "maniac",
    description="card-blind: folds 6 % facing a bet, otherwise calls or raises at random (reference player)",
)

EQUITY = PlayerKind(
    name="equity",
    build=lambda cfg, seed, name: EquityPlayer(name=name or "equity"),
    spec=lambda cfg: "equity",
    description="raises with equity > 0.5 against one random holding, else calls, never folds (reference player)",
)
