"""A decision valued against the modelled opponents: the contest valuation (DEFAULT, beyond the sources).

Loki-1's pre-flop expert system (:mod:`loki.preflop.expert`) values a hand by income rates against *random* hands
and calls raises only with the strategies Make2 and Make4, whoever raised; the Simulator values post-flop decisions
by play-outs in which every player acts by probability triples.  Against players whose actions say little about
their cards (a maniac, a calling station, a random player) the first folds most hands to the first raise, the
second plays its own future by rules made for Loki-style opponents and, with a hundred trials, decides close spots
by noise.  The opponent models know better, so this module reads them directly, at any street and any number of
opponents (the same weight tables, frequencies and card-blindness every decision reads):

* **Who takes part.**  Each live opponent takes part in the pot with a probability: 1 for one that has already put
  in what we face (it acted at this bet level, or it is the big blind facing no raise); for one still to act, its
  modelled probability of playing on facing that bet (:func:`continue_probability`).  If we raise, every live
  opponent faces the raise and takes part with its probability of playing on facing one more bet, raising again
  with its modelled re-raise probability.
* **With what.**  An opponent that takes part holds a holding of its weight table (the modeller's posterior over
  its 1,326 holdings after its actions so far).  How its decision to take part narrows that range depends on how
  much its actions follow its cards: the top ``q`` of its current range by hand value (IR7 before the flop, HS_1
  against a uniform range after it) if its cards drive its actions, its whole range if they do not, in the
  proportion of its card-blindness ``c`` (``w'(h) = w(h)·(c + (1 − c)·[h in the top q])``, :func:`continuing_range`;
  ``c`` is the modeller's ``card_blindness``, 0 when it has none).
* **What it is worth.**  Our share ``e`` of the contested pot (exact against one opponent who takes part for sure:
  the class-equity matrix before the flop, :func:`loki.assessment.equity` after it; sampled otherwise,
  :func:`loki.assessment.contest_equity`; the whole pot when nobody takes part) gives, in chips, with ``P`` the pot,
  ``C`` what we must call, ``B`` the bet of the street and ``M`` what the others are expected to add::

      EV(call)  = e_c · (P + C + M_c) − C + β_c · B · max(e_c · (1 + m_c) − 1, 0)
      EV(raise) = e_r · (P + C + B + M_r) − (C + B) + β_r · B · (e_r · (1 + m_r) − 1)

  (one betting round: ``β_c`` is the chance that an opponent still to act bets or raises after our check or call,
  which we answer only when our share pays for it; ``β_r`` the chance that our raise is raised again, which we
  call; ``m`` the expected opponents taking part: against opponents who call anything the extra bets of a raise are
  worth ``B·(e·(1 + m) − 1)``, the fair-share rule of an income rate.)
* **The decision.**  Raise when ``EV(raise) − EV(call) ≥ raise_margin · B``; else check when free; call when
  ``e_c · (P + C + M_c) ≥ r · C`` with ``r`` the realization margin (``realization`` against one opponent,
  ``realization_multi`` against two or more, before the flop; ``realization_post`` after it), fold otherwise.

Against card-blind opponents this plays their ranges as wide as the deck and calls and raises by fair share (against
a calling station it bets exactly the hands that are ahead of a random holding, as a best response does); against
tight ones a raise narrows the raiser's range and the same rule folds.  Nothing switches: every quantity moves with
the evidence the models gather.  Its users: the ``"contest"`` pre-flop model (:meth:`loki.preflop.PreflopPolicy.
contest`) and the Simulator's card-blind values (:class:`loki.simulator.SimulatorPolicy`).  :class:`ContestSpot`
keeps every number of a decision for ``loki explain``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import numpy as np
from pydantic import Field

from loki.assessment import LOW_WEIGHT, contest_equity, holding_equity, holding_ir, range_equity, uniform_board_values
from loki.cards import HOLDING_INDEX, live_holdings
from loki.config import LokiModel, tunable
from loki.engine import Action, PlayerView
from loki.modeler.model import (
    DEFAULT_FREQUENCIES,
    OpponentModel,
    bayesian_mean,
    bets_to_call_bucket,
    pooled_counts_all,
)

__all__ = [
    "table_card_blindness",
    "ContestConfig",
    "ContestOpponent",
    "ContestSpot",
    "SeatModels",
    "continue_probability",
    "continuing_range",
    "contest_spot",
    "contest_action",
]

#: ``(model) -> card-blindness in [0, 1]`` (an opponent modeller's optional ``card_blindness``).
CardBlindness = Callable[[OpponentModel], float]


class SeatModels(Protocol):
    """The opponent models by seat: ``seat in models`` and ``models[seat]`` (a :class:`~loki.modeler.ModelStore` or
    a plain mapping)."""

    def __contains__(self, seat: object) -> bool: ...

    def __getitem__(self, seat: int) -> OpponentModel: ...


class ContestConfig(LokiModel):
    """The DEFAULTs of the contest valuation (module docstring; all beyond the sources).

    Attributes:
        realization: before the flop, the pot-odds margin of a call against one opponent (1: bare pot odds; the
            heads-up value of the adaptive pre-flop model, :class:`loki.preflop.AdaptiveSettings`).
        realization_multi: before the flop, the margin against two or more opponents taking part (interpolated
            between one and two expected opponents): a multi-way pot pays a hand that hits more than its share.
        realization_post: after the flop, the margin of a call (the best response to card-blind opponents called
            from 0.813 x the pot odds, tuned heads-up).
        raise_margin: raise when ``EV(raise) − EV(call)`` is at least this many bets.
        prior_weight: pseudo-observations of the prior of an opponent's frequencies (:func:`continue_probability`).
        pool: weight of an observation facing the other number of bets (one bet, or two or more).
        default_play: before the flop, the prior probability of playing on facing one bet (PAPP98 Eq. 6.2's 0.60).
        default_play_raised: before the flop, the prior probability of playing on facing two or more bets.
        default_reraise: before the flop, the prior share of raises among the plays (after it: Table B.2's).
        samples: samples of a multi-way share (:func:`loki.assessment.contest_equity`; one opponent: exact).
        preflop_players: before the flop, at tables of at most this many players the contest values every decision;
            at larger tables (up to the player's ``preflop_short_handed``) only in hands where the other players'
            average card-blindness (:func:`table_card_blindness`) is at least ``preflop_card_blind`` at the hand's
            first decision, Loki-1's expert system in the others.
        preflop_card_blind: that threshold (0: the contest in every hand, the set A5's play; the sets A6
            to A8, the default: 0.15).
        possible_range: an opponent's continuing range is the top of the holdings it can hold with our hole cards
            and the board (:func:`continuing_range` with ``live``); off (the sets A5 to A8), the top of its whole
            weight table, impossible holdings included (measured on A8: no difference seen).
    """

    realization: float = tunable(1.3, 0.6, 2.0, source="DEFAULT (the adaptive pre-flop model's)", gt=0.0, le=10.0)
    realization_multi: float = tunable(0.8, 0.4, 1.6, source="DEFAULT", gt=0.0, le=10.0)
    realization_post: float = tunable(
        0.813, 0.5, 1.5, source="DEFAULT (the tuned set A1's call margin)", gt=0.0, le=10.0
    )
    raise_margin: float = tunable(0.0, -0.5, 1.0, source="DEFAULT", ge=-10.0, le=10.0)
    prior_weight: float = tunable(2.0, 0.5, 20.0, source="DEFAULT", log=True, gt=0.0, le=1000.0)
    pool: float = Field(0.5, ge=0.0, le=1.0)
    default_play: float = Field(0.6, ge=0.0, le=1.0)
    default_play_raised: float = tunable(0.75, 0.3, 0.95, source="DEFAULT", ge=0.0, le=1.0)
    default_reraise: float = Field(0.2, ge=0.0, le=1.0)
    samples: int = Field(300, ge=1, le=100_000)
    preflop_players: int = Field(3, ge=2, le=10)
    preflop_card_blind: float = Field(0.0, ge=0.0, le=1.0)
    possible_range: bool = False


@dataclass(frozen=True)
class ContestOpponent:
    """One live opponent as the contest valuation sees it.

    Attributes:
        seat: its seat.
        play_call: its probability of taking part if we call (1 when it has already put in what we face).
        bet_after: its probability of betting or raising after our check or call (0 when it has acted already).
        play_raise: its probability of taking part if we raise; reraise: of raising again then.
        card_blindness: how little its actions follow its cards, in [0, 1] (the modeller's ``card_blindness``).
        modelled: whether a model of it was read (False: the prior frequencies and a uniform range).
    """

    seat: int
    play_call: float
    bet_after: float
    play_raise: float
    reraise: float
    card_blindness: float
    modelled: bool


@dataclass(frozen=True)
class ContestSpot:
    """Every number of one contest decision (module docstring), chips unless said otherwise.

    Attributes:
        street: 0 pre-flop … 3 river.
        opponents: the live opponents.
        equity_call, equity_raise: our share of the pot if we call / raise (0..1), with their standard errors
            ``se_call``, ``se_raise`` (0 when exact).
        pot, to_call, bet: ``P``, ``C``, ``B``.
        added_call, added_raise: ``M_c``, ``M_r``: what the others are expected to add.
        ev_call, ev_raise: the estimates (``ev_raise`` None when raising is not legal).
        required: the share a call needs, ``r · C / (P + C + M_c)`` (0 when checking is free).
        config: the DEFAULTs that decided.
    """

    street: int
    opponents: tuple[ContestOpponent, ...]
    equity_call: float
    se_call: float
    equity_raise: float
    se_raise: float
    pot: float
    to_call: float
    bet: float
    added_call: float
    added_raise: float
    ev_call: float
    ev_raise: float | None
    required: float
    config: ContestConfig

    @property
    def decision_values(self) -> tuple[float | None, float, float | None]:
        """``(fold, call, raise)`` in chips, the values the decision compares: 0 for a fold (None when checking is
        free), ``EV(call) − (r − 1)·C`` (the realization margin as a cost on the call we face, so that a call beats a
        fold exactly when ``e_c·(P + C + M_c) ≥ r·C``, up to the later-street term) and ``EV(raise) − (r − 1)·C −
        raise_margin·B`` (the same cost: the margin compares continuing with folding, not calling with raising;
        None when raising is not legal)."""
        r = self.required * (self.pot + self.to_call + self.added_call) / self.to_call if self.to_call > 1e-9 else 1.0
        cost = (r - 1.0) * self.to_call
        call = self.ev_call - cost
        raise_ = None if self.ev_raise is None else self.ev_raise - cost - self.config.raise_margin * self.bet
        return (0.0 if self.to_call > 1e-9 else None), call, raise_

    @property
    def action(self) -> Action:
        """The decision (module docstring, "The decision"): the greatest of :attr:`decision_values`, ties to the
        more aggressive action."""
        fold, call, raise_ = self.decision_values
        if raise_ is not None and raise_ >= call and (fold is None or raise_ >= fold):
            return Action.RAISE
        if fold is None or call >= fold:
            return Action.CALL
        return Action.FOLD


@lru_cache(maxsize=1)
def _ir7() -> np.ndarray:
    """``(1326,) float64``: every holding's IR7, the pre-flop hand value a card-driven player ranks by."""
    v = holding_ir(7).astype(np.float64)
    v.setflags(write=False)
    return v


@lru_cache(maxsize=256)
def _values(board: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The hand value a card-driven opponent ranks its holdings by (IR7 before the flop, HS_1 against a uniform
    range after it) and the holdings in its order (a stable argsort), kept per board."""
    values = _ir7() if not board else uniform_board_values(board)[0]
    order = np.argsort(values, kind="stable")
    order.setflags(write=False)
    return values, order


def continuing_range(
    weights: np.ndarray,
    play: float,
    card_blindness: float,
    values: np.ndarray,
    order: np.ndarray | None = None,
    live: np.ndarray | None = None,
) -> np.ndarray:
    """The range of an opponent that takes part with probability ``play``: each holding's weight times
    ``c + (1 − c)·[h in the top play of the range by value]`` (module docstring; the excluded holdings keep the
    :data:`loki.assessment.LOW_WEIGHT` floor's share, as re-weighting does).

    "The range" is the whole weight table, the holdings that share a card with our hole cards or the board included,
    unless ``live`` is given (the sets A5 to A8 were fitted and measured without it: ``ContestConfig.possible_range``
    off).  Without it the cut deviates from "the top ``play`` of the holdings it can hold": re-weighting after the flop
    leaves the impossible holdings at their weight, so they can carry much of the table, and the share kept of the
    possible holdings is then more than ``play`` (AsKs on QsJd2c, the opponent's table narrowed by a flop bet, 44 % of
    its weight impossible: 0.84 of the possible range kept where ``play`` is 0.50, our equity against it 0.352 where
    the top half gives 0.335).  With ``live`` the cut counts the possible holdings only, and the impossible ones get
    weight 0.  Measured on A8 (experiments/exploitation, History, "The contest's continuing ranges of the possible
    holdings only"): no difference the 13-table panel or fig3-BRS can see, so the default keeps the whole table.

    Args:
        weights: ``(1326,) float64`` its weight table.
        play: its probability of taking part, in [0, 1].
        card_blindness: ``c`` in [0, 1].
        values: ``(1326,) float64`` the hand values it ranks its holdings by (higher is better).
        order: ``(1326,) int64`` the holdings by ascending value, ``np.argsort(values, kind="stable")`` (computed
            when None; a caller valuing many ranges on one board passes it once).
        live: ``(1326,) bool`` the holdings possible with our hole cards and the board
            (:func:`loki.cards.live_holdings`), or None: every holding of the table counts.

    Returns:
        ``(1326,) float64`` (a new array).

    >>> v = np.arange(1326.0)
    >>> w = continuing_range(np.ones(1326), 0.1, 0.0, v)
    >>> round(float((w > 0.5).mean()), 2), bool(w[-1] == 1.0 and w[0] < 0.5)  # the top tenth by value
    (0.1, True)
    >>> bool(np.all(continuing_range(np.ones(1326), 0.1, 1.0, v) == 1.0))  # a card-blind player's range stays whole
    True
    >>> live = np.arange(1326) % 2 == 0  # half the holdings possible: the top tenth of those
    >>> w = continuing_range(np.ones(1326), 0.1, 0.0, v, live=live)
    >>> round(float((w > 0.5).sum() / live.sum()), 2), bool(np.all(w[~live] == 0.0))
    (0.1, True)
    """
    w = np.asarray(weights, dtype=np.float64)
    if live is not None:
        w = np.where(live, w, 0.0)
    c = min(max(float(card_blindness), 0.0), 1.0)
    q = min(max(float(play), 0.0), 1.0)
    if c >= 1.0 or q >= 1.0:
        return w.copy()
    if order is None:
        order = np.argsort(values, kind="stable")
    ws = w[order]
    total = float(ws.sum())
    if total <= 0.0:
        return w.copy()
    above = total - np.cumsum(ws) + 0.5 * ws  # the range's weight above each holding (mid-point)
    keep = np.empty_like(w)
    keep[order] = np.where(above <= q * total, 1.0, LOW_WEIGHT)
    return w * (c + (1.0 - c) * keep)


def table_card_blindness(view: PlayerView, models: SeatModels | None, blindness: CardBlindness | None) -> float:
    """The average card-blindness of the other players dealt in (0 for a player without a model, and without
    ``blindness``): how much of the table acts whatever it holds, in [0, 1].

    >>> from loki.engine import GameConfig, new_hand
    >>> v = new_hand(GameConfig(n_players=3), button=0, rng=0).view(0)
    >>> table_card_blindness(v, None, None)
    0.0
    """
    others = [s for s in range(view.n_players) if s != view.seat]
    if models is None or blindness is None or not others:
        return 0.0
    return sum(float(blindness(models[s])) if s in models else 0.0 for s in others) / len(others)


def continue_probability(
    model: OpponentModel | None, street: int, bucket: int, config: ContestConfig, pooled: np.ndarray | None = None
) -> tuple[float, float]:
    """An opponent's probabilities of playing on (checking, calling or raising) and of raising, facing ``bucket``
    bets (0, 1 or 2 for two or more) on ``street``: Bayesian means of its counts in that context, its counts in the
    neighbour contexts weighing ``config.pool`` each (:func:`loki.modeler.model.pooled_counts`), under a prior of
    ``config.prior_weight`` observations: before the flop ``default_play`` (one bet) or ``default_play_raised`` (two or
    more), raising a ``default_reraise`` share of them; after it Table B.2's frequencies (papp/node76).

    ``pooled``: the model's :func:`loki.modeler.model.pooled_counts_all` at ``config.pool``, ``(4, 3, 3) float64``,
    when the caller has it (computed otherwise).

    DEFAULT (beyond the sources): the linear blending of :func:`loki.preflop.adaptive.play_probability` (PAPP98
    Eq. 7.4, 20 observations) moves too slowly for a 50-hand session; a few pseudo-observations move after a hand or
    two.

    >>> from loki.engine import Action
    >>> m = OpponentModel()
    >>> for _ in range(6): m.frequencies.record(0, 1, Action.RAISE)
    >>> [round(x, 2) for x in continue_probability(m, 0, 2, ContestConfig())]  # raised every time facing one bet
    [0.9, 0.66]
    """
    if street == 0:
        p0 = config.default_play if bucket <= 1 else config.default_play_raised
        r0 = p0 * config.default_reraise
    else:
        f = DEFAULT_FREQUENCIES[bucket]
        p0, r0 = 1.0 - float(f[0]), float(f[2])
    w0 = config.prior_weight
    if model is None:
        return p0, r0
    if pooled is None:
        pooled = pooled_counts_all(model.frequencies.counts, config.pool)
    obs = pooled[street, bucket]
    n = float(obs.sum())
    return bayesian_mean(float(obs[1] + obs[2]), n, p0, w0), bayesian_mean(float(obs[2]), n, r0, w0)


def _opponents(
    view: PlayerView, models: SeatModels | None, blindness: CardBlindness | None, config: ContestConfig
) -> list[ContestOpponent]:
    level = int(view.max_bet)
    committed, acted, folded = view.committed, view.acted_this_round, view.folded
    street = int(view.round)
    bet = float(view.bet_size)

    def bucket(chips: float) -> int:  # the bets-to-call bucket of the frequency counts (the small blind's half bet: 1)
        return int(bets_to_call_bucket(max(chips, 0.0) / bet))

    out = []
    for s in range(view.n_players):
        if s == view.seat or folded[s]:
            continue
        model = models[s] if models is not None and s in models else None
        pooled = None if model is None else pooled_counts_all(model.frequencies.counts, config.pool)
        owed = level - int(committed[s])
        if owed <= 0 and acted[s]:
            play_call, bet_after = 1.0, 0.0
        elif owed <= 0:  # the big blind's option: it is in, and may raise
            play_call, bet_after = 1.0, continue_probability(model, street, 0, config, pooled)[1]
        else:
            play_call, bet_after = continue_probability(model, street, bucket(owed), config, pooled)
        play_raise, reraise = continue_probability(model, street, bucket(owed + bet), config, pooled)
        c = 0.0 if model is None or blindness is None else float(blindness(model))
        out.append(ContestOpponent(s, play_call, bet_after, play_raise, reraise, c, model is not None))
    return out


def _seed(view: PlayerView) -> int:
    # the same spot, the same sample: a duplicate deal's seatings share the estimate (common random numbers)
    c0, c1 = view.hole_cards
    x = int(HOLDING_INDEX[c0, c1]) * 1_000_003 + int(view.pot) * 7_919 + int(view.seat) * 104_729
    for c in view.board:
        x = x * 53 + int(c)
    x += int(view.bets_this_round) * 15_485_863 + int(view.actions_this_round) * 32_452_843
    return x & 0x7FFFFFFF


def _share(
    view: PlayerView, tables: list[np.ndarray], play: Sequence[float], samples: int, seed: int
) -> tuple[float, float]:
    # exact against one opponent, sampled otherwise
    if not tables:
        return 1.0, 0.0
    if len(tables) == 1:
        board = tuple(view.board)
        e = holding_equity(view.hole_cards, tables[0]) if not board else range_equity(view.hole_cards, board, tables[0])
        return play[0] * e + (1.0 - play[0]), 0.0
    board = tuple(int(c) for c in view.board)
    return contest_equity(view.hole_cards, board, np.array(tables), np.array(play, dtype=np.float64), samples, seed)


def contest_spot(
    view: PlayerView,
    legal: Sequence[Action],
    models: SeatModels | None,
    blindness: CardBlindness | None = None,
    config: ContestConfig = ContestConfig(),
) -> ContestSpot:
    """Value a decision against the modelled opponents (module docstring).

    Args:
        view: our view; legal: the legal actions.
        models: the opponent models by seat (None: every opponent unmodelled: the prior frequencies, a uniform
            range).
        blindness: the modeller's ``card_blindness`` (None: every opponent's actions follow its cards).
        config: the DEFAULTs (:class:`ContestConfig`).

    Returns:
        the :class:`ContestSpot`; its ``action`` is the decision.

    Raises:
        RangeError: an opponent's weight table with no weight on a holding live with our cards and the board.
    """
    opps = _opponents(view, models, blindness, config)
    level = int(view.max_bet)
    committed = view.committed
    street = int(view.round)
    pot, to_call, bet = float(view.pot), float(view.to_call()), float(view.bet_size)
    values, order = _values(tuple(int(c) for c in view.board))
    ones = np.ones(1326)
    w0 = [models[o.seat].weights if models is not None and o.seat in models else ones for o in opps]
    seed = _seed(view)
    n = config.samples
    live = live_holdings((*view.hole_cards, *view.board)) if config.possible_range else None
    tab_c = [
        continuing_range(w, o.play_call, o.card_blindness, values, order, live) if o.play_call < 1.0 else w
        for w, o in zip(w0, opps, strict=True)
    ]
    e_c, se_c = _share(view, tab_c, [o.play_call for o in opps], n, seed)
    added_c = sum(o.play_call * max(level - int(committed[o.seat]), 0) for o in opps)
    callers_c = sum(o.play_call for o in opps)
    after = 1.0 - float(np.prod([1.0 - o.bet_after for o in opps]))
    ev_call = e_c * (pot + to_call + added_c) - to_call + after * bet * max(e_c * (1.0 + callers_c) - 1.0, 0.0)
    ev_raise = None
    e_r = se_r = added_r = 0.0
    if Action.RAISE in legal:
        tab_r = [
            continuing_range(w, o.play_raise, o.card_blindness, values, order, live)
            for w, o in zip(w0, opps, strict=True)
        ]
        e_r, se_r = _share(view, tab_r, [o.play_raise for o in opps], n, seed + 1)
        added_r = sum(o.play_raise * max(level + bet - float(committed[o.seat]), 0.0) for o in opps)
        again = 1.0 - float(np.prod([1.0 - o.reraise for o in opps]))
        callers = sum(o.play_raise for o in opps)
        ev_raise = e_r * (pot + to_call + bet + added_r) - (to_call + bet) + again * bet * (e_r * (1.0 + callers) - 1.0)
    if street == 0:
        r = config.realization + (config.realization_multi - config.realization) * min(max(callers_c - 1.0, 0.0), 1.0)
    else:
        r = config.realization_post
    required = r * to_call / (pot + to_call + added_c) if to_call > 1e-9 else 0.0
    return ContestSpot(
        street, tuple(opps), e_c, se_c, e_r, se_r, pot, to_call, bet, added_c, added_r, ev_call, ev_raise, required,
        config,
    )  # fmt: skip


def contest_action(
    view: PlayerView,
    legal: Sequence[Action],
    models: SeatModels | None,
    blindness: CardBlindness | None = None,
    config: ContestConfig = ContestConfig(),
) -> tuple[Action, ContestSpot]:
    """:func:`contest_spot` and its decision."""
    spot = contest_spot(view, legal, models, blindness, config)
    return spot.action, spot
