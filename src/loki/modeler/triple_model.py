"""Loki-2's re-weighting by probability triples (feature R, AAAI99 §4; PENA99 pena/node34, node39).

Each holding's weight is multiplied by its probability-triple entry for the observed action, the triples computed in
the opponent's situation; pre-flop stays Loki-1's (pena/node39).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from loki.assessment.weights import LOW_WEIGHT
from loki.cards import HOLDING_MASKS, N_HOLDINGS
from loki.engine import Action, ActionTaken, GameConfig
from loki.errors import InputError
from loki.modeler.kernels import reweight_row, reweight_row_live, triple_column
from loki.modeler.loki1 import Loki1Modeler
from loki.modeler.model import (
    ModelingContext,
    OpponentModel,
    OpponentModeler,
    PlayoutPolicy,
    ReweightDetails,
    reweight_details_of,
)
from loki.triples import TripleConfig, opponent_hand_values
from loki.triples.spot import BettingSpot

__all__ = ["triple_reweight", "TripleModeler", "ColumnLikelihood", "opponent_spot", "action_column"]


def triple_reweight(model: OpponentModel, triples: np.ndarray, action: Action, live: np.ndarray | None = None) -> None:
    """Loki-2 feature R: ``w[h] ← max(0.01, w[h] × PT_h[action])`` (AAAI99 §4; pena/node34).

    DEFAULT (reference §5.4): cumulative on every observed action, floor 0.01, no stored-copy rule.

    Args:
        model: the opponent's model (weights updated in place).
        triples: ``(1326, 3) float64`` the PT of every holding in the opponent's situation.
        action: observed action (FOLD is ignored: the player leaves the hand).
        live: optional ``(1326,) bool``; holdings outside it are left unchanged.

    Raises:
        ValueError: ``triples`` not of shape ``(1326, 3)`` (checked only for a non-fold action).

    >>> m = OpponentModel(); m.weights[:] = 0.7
    >>> pt = np.tile([0.0, 0.2, 0.8], (1326, 1))
    >>> triple_reweight(m, pt, Action.CALL); round(float(m.weights[0]), 10)
    0.14
    """
    if action == Action.FOLD:
        return
    t = np.asarray(triples, dtype=np.float64)
    if t.shape != (N_HOLDINGS, 3):
        raise InputError(f"triples must have shape (1326, 3), got {t.shape}")
    live_h = np.ones(N_HOLDINGS, dtype=np.bool_) if live is None else np.ascontiguousarray(live, dtype=np.bool_)
    model.tables.touch(model.row)
    reweight_row(model.tables.weights, model.row, np.ascontiguousarray(t[:, int(action)]), live_h, LOW_WEIGHT)


def opponent_spot(ev: ActionTaken, game: GameConfig) -> BettingSpot:
    """The betting spot an opponent faced when it took the action ``ev`` (post-flop), from the event's record of
    the situation before the action: pot, amount to call, bets this round, its voluntary money (chips)."""
    return BettingSpot(
        street=ev.round,
        pot=float(ev.pot),
        to_call=float(ev.to_call),
        bet_size=float(game.bet_sizes[ev.round]),
        bets_this_round=int(ev.bets),
        voluntarily_in=ev.voluntary,
        can_raise=int(ev.bets) < game.max_bets,
        next_bet_size=float(game.bet_sizes[ev.round + 1]) if ev.round < 3 else 0.0,
    )


@dataclass(frozen=True)
class ColumnLikelihood:
    """``P(action | holding)`` read from the column of the modelling triples used for the re-weighting."""

    column: np.ndarray

    def __call__(self, h: int) -> float:
        return float(self.column[h])

    def probabilities(self) -> np.ndarray:
        """``(1326,) float64`` ``P(action | holding)`` of every holding."""
        return self.column


@dataclass(frozen=True)
class TripleModeler:
    """Loki-2 feature R (AAAI99 §4; pena/node34): post-flop, each holding's weight times its probability
    triple's entry for the observed action, the triples computed in the opponent's situation with
    ``triple``; pre-flop, Loki-1's re-weighting (``preflop``; pena/node39).

    Attributes:
        triple: the Triple Generator that models the opponents (:class:`loki.triples.TripleConfig`).
        preflop: the pre-flop re-weighting (Loki-1's).
    """

    triple: TripleConfig
    preflop: OpponentModeler = Loki1Modeler()
    #: after the flop the triples re-weight the current table (the round's stored copy is the pre-flop rule's)
    reads_round_start = False

    @cached_property
    def _params(self):
        return self.triple.params()

    def reweight(self, model: OpponentModel, ev: ActionTaken, bucket: int, ctx: ModelingContext) -> bool | None:
        """Triple re-weighting after the flop (holdings sharing a card with our hand or the board are left
        as they are); Loki-1's method before it.  After the flop the action's column of the triples of
        :func:`loki.triples.opponent_triples` (:func:`~loki.modeler.kernels.triple_column`) re-weights the model's
        row (:func:`~loki.modeler.kernels.reweight_row_live`) and is kept for the trace.  The column depends on the
        action and the board only, so every observer with the same Triple Generator reads one column per action
        (:func:`action_column`)."""
        if ev.round == 0:
            return self.preflop.reweight(model, ev, bucket, ctx)  # Loki-1's, which reports a collapse
        if ev.action == Action.FOLD:
            return None
        column = action_column(ev, ctx, self._params)
        model.tables.touch(model.row)
        reweight_row_live(model.tables.weights, model.row, column, ctx.dead_mask(), HOLDING_MASKS, LOW_WEIGHT)
        model.trace.append((ev.round, ev.action, ColumnLikelihood(column)))
        return None  # the store tests the table for a collapse

    def playout_policy(self, model: OpponentModel) -> PlayoutPolicy:
        """The believed play-out plays the opponent by this modeler's Triple Generator."""
        return PlayoutPolicy(label="triples", rules=self._params)

    def reweight_details(self, model: OpponentModel, ev: ActionTaken, bucket: int) -> ReweightDetails:
        """Pre-flop the pre-flop modeler's details; after the flop ``"triple"``."""
        if ev.round == 0:
            return reweight_details_of(self.preflop, model, ev, bucket)
        return ReweightDetails("triple")


#: Columns :func:`action_column` computed, by everything they depend on (read-only arrays; cleared when full).  In a
#: duplicate tournament a deal's public actions recur in every seating: about 5 of 6 columns of ``fig3-BR`` are
#: read here.
_COLUMNS: dict = {}
_COLUMNS_MAX = 256


def action_column(ev: ActionTaken, ctx: ModelingContext, params, check_raise_flag: bool = False) -> np.ndarray:
    """Every holding's probability of the post-flop action ``ev`` in the actor's situation on ``ctx.board``, by the
    rule chain with ``params`` (:func:`~loki.modeler.kernels.triple_column`): the column of
    :func:`loki.triples.opponent_triples` for the action, the same floats.

    Args:
        check_raise_flag: the check-raise rule's public condition in the actor's situation (the observer's feature R
            leaves it off; the specific mixture's rules expert reads it, :mod:`loki.modeler.specific`).

    Returns:
        ``(1326,) float64``, read-only.  The column is a function of the board, the rules, ``params``, the flag and
        the event's round, pot, amount to call, bets, voluntary money, action and number of players in the hand only
        (not of who observes, nor of the actor's seat), so it is kept by those values: the observers of one action
        (and the candidate models of an adaptive one), and the same action in another seating of the deal, read one
        array.
    """
    game = ctx.game
    r = int(ev.round)
    n_opp = max(1, int(ev.n_active) - 1)
    key = (
        ctx.board, game, params, n_opp, r, float(ev.pot), float(ev.to_call), int(ev.bets), bool(ev.voluntary),
        int(ev.action), bool(check_raise_flag),
    )  # fmt: skip
    column = _COLUMNS.get(key)
    if column is not None:
        return column
    hs_n, pp, nn = ctx.per_board(("triple_model", n_opp), lambda board: opponent_hand_values(board, n_opp))
    column = np.empty(N_HOLDINGS)
    triple_column(
        hs_n, pp, nn,
        r, key[5], key[6], float(game.bet_sizes[r]), key[7],
        key[8], key[7] < game.max_bets,
        float(game.bet_sizes[r + 1]) if r < 3 else 0.0,
        params, key[10], key[9], column,
    )  # fmt: skip
    column.setflags(write=False)
    if len(_COLUMNS) >= _COLUMNS_MAX:
        _COLUMNS.clear()
    _COLUMNS[key] = column
    return column
