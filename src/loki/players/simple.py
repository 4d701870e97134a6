"""Reference players: :class:`RandomPlayer` (uniform over the legal actions) and
:class:`CallingStation` (always checks or calls)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from loki.engine import CALL, Action, PlayerView
from loki.players.base import Player
from loki.players.registry import PlayerKind

__all__ = ["RandomPlayer", "CallingStation", "RANDOM", "CALLING"]


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
        return legal_actions[int(self.rng.integers(len(legal_actions)))]


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
