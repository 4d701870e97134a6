"""The Loki-1 player (Papp 1998): IR pre-flop strategies, the rule-based Bettor, the Opponent Modeler.

Wiring (AAAI99 Figure 2 without the Loki-2 parts):

- **observe**: every opponent action updates that opponent's frequencies and re-weights its weight
  table (:mod:`loki.modeler`): on IR7 before the flop, on EHS' (HS_1 + PPot1, measured against a
  uniform range on the board) after it; once per round from the stored copy.
- **act**: pre-flop, the strategy of Figure 6.1 (:mod:`loki.preflop`) chosen at our first decision and
  kept for the round; post-flop, :func:`loki.assessment.assess` against the field array of the live
  opponents' weight tables (HS_n, PPot1) feeding the Bettor (:mod:`loki.bettor`).

Configuration: :class:`Loki1Config` (tightness, Bettor thresholds, generic/specific modelling) and the
style presets TC, TA, LC, LA (:data:`STYLES`, loki-algorithms.md §7 DEFAULTs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from loki.assessment import assess, ehs_prime, uniform_board_values
from loki.bettor import BettingSpot, BettorConfig, HandValues, decide
from loki.cards import HOLDING_CLASS, HOLDING_INDEX
from loki.engine import Action, ActionTaken, BoardDealt, GameConfig, PlayerView
from loki.income_rate import holding_ir, load_tables
from loki.modeler import OpponentModel, bets_to_call_bucket, loki1_reweight
from loki.players.base import Player
from loki.preflop import (
    GROUP_TABLE,
    SB_CALL_LIMIT,
    PreflopThresholds,
    choose_strategy,
    expected_players,
    group_for,
    preflop_situation,
)
from loki.strategies import Strategy, strategy_action

__all__ = ["Loki1Config", "Loki1Player", "STYLES", "preflop_hand_values", "postflop_hand_values"]

#: DEFAULT: the IR table that gives opponents' pre-flop hand values for re-weighting (loki-algorithms.md §4.3).
REWEIGHT_IR_TABLE = 7


@dataclass(frozen=True)
class Loki1Config:
    """Loki-1's knobs.

    Attributes:
        tightness: pre-flop "tight" / "moderate" / "loose" (PAPP98 default loose).
        preflop_shift: IR ×1000 added to every pre-flop threshold base (style presets; 0 = as calibrated).
        bettor: post-flop Bettor thresholds (make1 0.50, make2 0.85, ...).
        modelling: "specific" (observed frequencies, SOM) or "generic" (Table B.2 defaults, GOM).
        lookahead: 1 (PPot1, DEFAULT) or 2 (PPot2 on the flop) for the Bettor's potential.
    """

    tightness: str = "loose"
    preflop_shift: float = 0.0
    bettor: BettorConfig = field(default_factory=BettorConfig)
    modelling: str = "specific"
    lookahead: int = 1

    def __post_init__(self):
        if self.tightness not in ("tight", "moderate", "loose"):
            raise ValueError(f"tightness={self.tightness!r}: expected 'tight', 'moderate' or 'loose'")
        if self.modelling not in ("specific", "generic"):
            raise ValueError(f"modelling={self.modelling!r}: expected 'specific' or 'generic'")
        if self.lookahead not in (1, 2):
            raise ValueError(f"lookahead={self.lookahead!r}: expected 1 or 2")


#: Style presets (loki-algorithms.md §7, all DEFAULT): tight/loose × conservative/aggressive.
#: Tight: 'tight' thresholds shifted up 50; loose: 'loose' thresholds shifted down 156 (targets ≈15 % / ≈35 % of
#: hands; measured VPIP 15.0 % / 35.3 %, docs/CALIBRATION.md); aggressive: make1 0.40, make2 0.75, semi-bluffs, pot-odds calls raise above
#: EHS' 0.65; conservative: make1 0.60, make2 0.92, no semi-bluffs.
STYLES = {
    "TC": Loki1Config("tight", 50.0, BettorConfig(make1=0.60, make2=0.92, semi_bluff=False)),
    "TA": Loki1Config("tight", 50.0, BettorConfig(make1=0.40, make2=0.75, semi_bluff=True, aggressive_call_raise=0.65)),
    "LC": Loki1Config("loose", -156.0, BettorConfig(make1=0.60, make2=0.92, semi_bluff=False)),
    "LA": Loki1Config(
        "loose", -156.0, BettorConfig(make1=0.40, make2=0.75, semi_bluff=True, aggressive_call_raise=0.65)
    ),
}


@lru_cache(maxsize=1)
def preflop_hand_values() -> tuple[np.ndarray, np.ndarray]:
    """``((1326,) IR of every holding, (1326,) the same sorted ascending)`` from IR7 (DEFAULT table)."""
    v = holding_ir(REWEIGHT_IR_TABLE).copy()
    s = np.sort(v)
    v.setflags(write=False)
    s.setflags(write=False)
    return v, s


@lru_cache(maxsize=256)
def _postflop_values_cached(board: tuple[int, ...]) -> np.ndarray:
    hs1, ppot1, _ = uniform_board_values(board)
    v = ehs_prime(hs1, ppot1)
    v.setflags(write=False)
    return v


def postflop_hand_values(board: Sequence[int]) -> np.ndarray:
    """``(1326,) float64`` EHS' (HS_1 + (1 − HS_1)·PPot1 vs a uniform range) of every holding on ``board``.

    The opponent's hand value for post-flop re-weighting (papp/node60, with exact PPot1 instead of the
    crude PPot_c: a documented deviation), from :func:`loki.assessment.uniform_board_values`.  It depends
    on the board only (not on the observer's cards), so it is cached per board and shared by every
    player in the process; holdings that clash with the board get 0.
    """
    return _postflop_values_cached(tuple(sorted(int(c) for c in board)))


class Loki1Player(Player):
    """Loki-1 behind the :class:`~loki.players.base.Player` protocol.

    Args:
        config: :class:`Loki1Config` (or a style name from :data:`STYLES`).
        seed: seeds the check-raise coin (every random choice is seeded).
        name: display name.

    Attributes:
        models: ``{seat: OpponentModel}`` for every other seat; frequencies persist across hands,
            weight tables are reset every hand; :meth:`reseat` re-keys them when the players move.
        last_decision: the Bettor's :class:`~loki.bettor.Decision` (or the pre-flop strategy) of the last act.
    """

    def __init__(self, config: Loki1Config | str = Loki1Config(), seed: int = 0, name: str = "Loki-1"):
        if isinstance(config, str):
            if config not in STYLES:
                raise ValueError(f"unknown Loki-1 style {config!r}: expected one of {sorted(STYLES)}")
            config = STYLES[config]
        self.config = config
        self.name = name
        self.rng = np.random.default_rng(seed)
        self.thresholds = PreflopThresholds.default().shifted(config.preflop_shift)
        self.models: dict[int, OpponentModel] = {}
        self.last_decision = None
        self._ir_tables = load_tables()

    # ------------------------------------------------------------------ hand bookkeeping
    def begin_hand(self, seat: int, config: GameConfig, hole_cards, button: int) -> None:
        """Start a hand: record seat, rules, hole cards (two card ints) and button; reset every
        per-hand state (board, folds, aggressors, voluntary money, semi-bluff, pre-flop strategy)
        and each opponent model's weight table (:meth:`OpponentModel.new_hand`; its action
        frequencies persist across hands).

        Raises:
            TypeError, ValueError: a hole card that ``int()`` cannot convert.
        """
        self.seat = seat
        self.game = config
        self.hole = tuple(int(c) for c in hole_cards)
        self.button = button
        n = config.n_players
        for s in range(n):
            if s != seat:
                self.models.setdefault(s, OpponentModel()).new_hand()
        self.board: tuple[int, ...] = ()
        self.round = 0
        self.folded: set[int] = set()
        self.acted: set[int] = set()
        self.actions_this_round = 0
        self.aggressors: set[int] = set()
        self.prev_aggressors: set[int] = set()
        self.voluntarily_in = False
        self.semi_bluffing = False
        self.preflop_strategy: Strategy | None = None
        self.preflop_call_limit: float | None = None

    def reseat(self, mapping: dict[int, int]) -> None:
        """The players changed seats: each opponent model follows its opponent (``models`` re-keyed).

        Everything else kept per seat (folds, aggressors, ...) is per hand and reset by :meth:`begin_hand`.

        >>> p = Loki1Player()
        >>> p.models = {1: "m1", 2: "m2"}
        >>> p.reseat({0: 2, 1: 0, 2: 1})
        >>> p.models
        {0: 'm1', 1: 'm2'}
        """
        self.models = {mapping[s]: m for s, m in self.models.items() if s in mapping}

    def observe(self, event) -> None:
        """Follow a public event of the hand (:mod:`loki.engine` events; others are ignored).

        ``ActionTaken``: update folds, who acted, aggressors, our voluntary money; an opponent's
        non-fold action re-weights its model (Loki-1's μ/σ method, pena/node27, with the
        frequencies before the action) and then its action frequencies are counted.
        ``BoardDealt``: new board and round (per-round state reset).  Raises nothing for
        well-formed events.
        """
        if isinstance(event, ActionTaken):
            s = event.seat
            self.actions_this_round += 1
            if event.action == Action.FOLD:
                self.folded.add(s)
            else:
                self.acted.add(s)
                if event.action == Action.RAISE:
                    self.aggressors.add(s)
            if s == self.seat:
                if event.action != Action.FOLD and event.amount > 0:
                    self.voluntarily_in = True
            elif s in self.models:
                self._observe_opponent(event)
        elif isinstance(event, BoardDealt):
            self.board = tuple(event.board)
            self.round = event.round
            self.acted = set()
            self.actions_this_round = 0
            self.prev_aggressors = self.aggressors
            self.aggressors = set()
            self.voluntarily_in = False
            for m in self.models.values():
                m.new_round()

    def _observe_opponent(self, ev: ActionTaken) -> None:
        model = self.models[ev.seat]
        bet = self.game.bet_sizes[ev.round]
        bucket = bets_to_call_bucket(ev.to_call / bet)
        if ev.action != Action.FOLD:
            self._reweight(model, ev, bucket)  # thresholds from the frequencies *before* this action
        model.frequencies.record(ev.round, bucket, ev.action)

    def _reweight(self, model: OpponentModel, ev: ActionTaken, bucket: int) -> None:
        """Loki-1's μ/σ re-weighting (IR pre-flop, EHS' post-flop); Loki-2 overrides the post-flop part."""
        freqs = model.frequencies.blended(ev.round, bucket, specific=self.config.modelling == "specific")
        if ev.round == 0:
            values, sorted_values = preflop_hand_values()
            loki1_reweight(model, values, ev.action, freqs, sorted_values)
        else:
            loki1_reweight(model, postflop_hand_values(self.board), ev.action, freqs)

    # ------------------------------------------------------------------ decisions
    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """Choose an action: the pre-flop expert system (PAPP98 §6.1, pena/node21) in
        round 0, the Bettor on EHS' after (PAPP98 papp/node45-48); the wish is mapped onto
        ``legal_actions`` (a fold when checking is free or a capped raise becomes a call).

        Raises:
            IndexError: ``legal_actions`` empty (the table never asks then).
        """
        if view.round == 0:
            action = self._act_preflop(view, legal_actions)
        else:
            action = self._act_postflop(view, legal_actions)
        return _legalise(action, legal_actions)

    def _act_preflop(self, view: PlayerView, legal) -> Action:
        if self.preflop_strategy is None:
            sb, bb = view.small_blind_seat, view.big_blind_seat
            order = view.preflop_order
            inpot, yet, pos = preflop_situation(order, self.seat, sb, bb, self.folded, self.acted)
            group = group_for(expected_players(inpot, yet))
            ir = float(self._ir_tables[GROUP_TABLE[group]][HOLDING_CLASS[HOLDING_INDEX[self.hole[0], self.hole[1]]]])
            t = self.thresholds.thresholds(group, self.config.tightness, pos)
            sb_first = self.seat == sb and self.seat not in self.acted
            self.preflop_strategy = choose_strategy(ir, t, small_blind=sb_first)
            self.preflop_call_limit = SB_CALL_LIMIT.get(self.preflop_strategy) if sb_first else None
        self.last_decision = self.preflop_strategy
        return strategy_action(
            self.preflop_strategy,
            view.to_call_bets(),
            view.bets_this_round,
            self.voluntarily_in,
            Action.RAISE in legal,
            max_call_bets=self.preflop_call_limit,
        )

    def hand_values(self, view: PlayerView) -> HandValues:
        """Assess our hand against the field array of the live opponents' weight tables."""
        opps = [s for s in range(self.game.n_players) if s != self.seat and not view.folded[s]]
        a = assess(
            self.hole,
            self.board,
            [self.models[s].weights for s in opps],
            n_opponents=len(opps),
            lookahead=self.config.lookahead if self.round == 1 else 1,
        )
        return HandValues(ehs_prime=a.ehs_prime, ehs=a.ehs, hs_n=a.hs_n, ppot=a.ppot)

    def betting_spot(self, view: PlayerView, legal) -> BettingSpot:
        """The public situation of our decision, for the Bettor."""
        n = self.game.n_players
        r = self.round
        after_us = [(self.seat + k) % n for k in range(1, n)]
        aggressor_behind = any(
            s in self.prev_aggressors and not view.folded[s] and s not in self.acted for s in after_us
        )
        return BettingSpot(
            street=r,
            pot=float(view.pot),
            to_call=float(view.to_call()),
            bet_size=float(view.bet_size),
            bets_this_round=view.bets_this_round,
            voluntarily_in=self.voluntarily_in,
            can_raise=Action.RAISE in legal,
            first_to_act=self.actions_this_round == 0,
            aggressor_behind=aggressor_behind,
            semi_bluffing=self.semi_bluffing,
            next_bet_size=float(self.game.bet_sizes[r + 1]) if r < 3 else 0.0,
        )

    def _act_postflop(self, view: PlayerView, legal) -> Action:
        values = self.hand_values(view)
        spot = self.betting_spot(view, legal)
        d = decide(values, spot, self.config.bettor, u=float(self.rng.random()))
        if d.rule == "semi-bluff":
            self.semi_bluffing = True
        self.last_decision = d
        return d.action


def _legalise(action: Action, legal: Sequence[Action]) -> Action:
    """Map a strategy's wish onto the legal set: no fold when checking is free, call when raising is capped."""
    if action in legal:
        return action
    if Action.CALL in legal:
        return Action.CALL
    return legal[0]
