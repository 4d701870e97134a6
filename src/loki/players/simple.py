"""Reference players: the floors any Loki should beat.

- :class:`RandomPlayer` (``random``): uniform over the legal actions;
- :class:`CallingStation` (``calling``): always checks or calls;
- :class:`Maniac` (``maniac``): card-blind aggression: facing a bet it folds 6 % of the time and otherwise calls or
  raises at random; with nothing to call it checks or bets at random (the opponent of the heads-up test of opponent-specific models);
- :class:`EquityPlayer` (``equity``): raises when its all-in equity against one random holding is over 0.5,
  otherwise calls, never folds (a 20-line "equity" bot; pre-flop the equity is the IR2 table's showdown share,
  post-flop the exact :func:`loki.assessment.equity`);
- :class:`FoldingPlayer` (``folding``): folds whenever it faces a bet, checks otherwise (it loses 0.75 sb/hand
  heads-up to a player who bets or raises every hand: its blind);
- :class:`RaisingPlayer` (``raising``): bets or raises whenever it may, otherwise calls.

Each says how it would act with every holding (:meth:`~loki.players.base.Player.holding_probabilities`): their
actions depend on nothing but their cards and the public state.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from loki.engine import CALL, FOLD, RAISE, Action, PlayerView
from loki.players.base import Player
from loki.players.registry import PlayerKind

__all__ = [
    "RandomPlayer",
    "CallingStation",
    "Maniac",
    "EquityPlayer",
    "FoldingPlayer",
    "RaisingPlayer",
    "RANDOM",
    "CALLING",
    "MANIAC",
    "EQUITY",
    "FOLDING",
    "RAISING",
]


def _same_for_all(probs: tuple[float, float, float]) -> np.ndarray:
    """``(1326, 3)``: the same distribution for every holding (a card-blind player)."""
    return np.broadcast_to(np.array(probs, dtype=np.float64), (1326, 3))


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

    def holding_probabilities(self, view: PlayerView, legal_actions: Sequence[Action]) -> np.ndarray:
        """Uniform over ``legal_actions`` for every holding."""
        p = 1.0 / len(legal_actions)
        return _same_for_all(tuple(p if a in legal_actions else 0.0 for a in (FOLD, CALL, RAISE)))  # type: ignore[arg-type]


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

    def holding_probabilities(self, view: PlayerView, legal_actions: Sequence[Action]) -> np.ndarray:
        """A check/call with every holding."""
        return _same_for_all((0.0, 1.0, 0.0))


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

    def holding_probabilities(self, view: PlayerView, legal_actions: Sequence[Action]) -> np.ndarray:
        """The same distribution as :meth:`act` draws from, for every holding (card-blind)."""
        fold = self.fold if FOLD in legal_actions else 0.0
        raise_ = (1.0 - fold) * self.aggression if RAISE in legal_actions else 0.0
        return _same_for_all((fold, 1.0 - fold - raise_, raise_))


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

    def holding_probabilities(self, view: PlayerView, legal_actions: Sequence[Action]) -> np.ndarray:
        """One-hot for every holding: a raise where its equity (as :meth:`act` computes it:
        :func:`loki.assessment.equity_all` post-flop, the same numbers as :func:`loki.assessment.equity`) is over 0.5
        and raising is legal, else a call; rows of holdings that clash with the board are calls."""
        from loki.assessment import equity_all
        from loki.assessment.income_rate import load_tables
        from loki.cards import HOLDING_CLASS

        if view.round == 0:
            eq = (load_tables()[2][HOLDING_CLASS] / 1000.0 + 1.0) / 2.0
        else:
            eq = np.nan_to_num(equity_all(view.board), nan=0.0)
        out = np.zeros((1326, 3))
        up = (eq > 0.5) & (RAISE in legal_actions)
        out[up, 2] = 1.0
        out[~up, 1] = 1.0
        return out


class FoldingPlayer(Player):
    """Folds whenever it faces a bet; checks when checking is free (folding then is illegal)."""

    def __init__(self, name: str = "folding"):
        self.name = name

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """FOLD if legal, else CALL (a check)."""
        self._last = FOLD if FOLD in legal_actions else CALL
        return self._last

    def action_probabilities(self) -> tuple[float, float, float] | None:
        """A pure policy: one-hot on the last action."""
        last = getattr(self, "_last", None)
        return None if last is None else ((1.0, 0.0, 0.0) if last is FOLD else (0.0, 1.0, 0.0))

    def holding_probabilities(self, view: PlayerView, legal_actions: Sequence[Action]) -> np.ndarray:
        """A fold with every holding when folding is legal, else a check."""
        return _same_for_all((1.0, 0.0, 0.0) if FOLD in legal_actions else (0.0, 1.0, 0.0))


class RaisingPlayer(Player):
    """Bets or raises whenever it may; calls when the betting is capped; never folds."""

    def __init__(self, name: str = "raising"):
        self.name = name

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """RAISE if legal, else CALL."""
        self._last = RAISE if RAISE in legal_actions else CALL
        return self._last

    def action_probabilities(self) -> tuple[float, float, float] | None:
        """A pure policy: one-hot on the last action."""
        last = getattr(self, "_last", None)
        return None if last is None else ((0.0, 0.0, 1.0) if last is RAISE else (0.0, 1.0, 0.0))

    def holding_probabilities(self, view: PlayerView, legal_actions: Sequence[Action]) -> np.ndarray:
        """A raise with every holding when raising is legal, else a call."""
        return _same_for_all((0.0, 0.0, 1.0) if RAISE in legal_actions else (0.0, 1.0, 0.0))


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

FOLDING = PlayerKind(
    name="folding",
    build=lambda cfg, seed, name: FoldingPlayer(name=name or "folding"),
    spec=lambda cfg: "folding",
    description="folds whenever it faces a bet, checks otherwise (reference player: loses 0.75 sb/hand to any bet)",
)

RAISING = PlayerKind(
    name="raising",
    build=lambda cfg, seed, name: RaisingPlayer(name=name or "raising"),
    spec=lambda cfg: "raising",
    description="bets or raises whenever it may, else calls (reference player)",
)

EQUITY = PlayerKind(
    name="equity",
    build=lambda cfg, seed, name: EquityPlayer(name=name or "equity"),
    spec=lambda cfg: "equity",
    description="raises with equity > 0.5 against one random holding, else calls, never folds (reference player)",
)
