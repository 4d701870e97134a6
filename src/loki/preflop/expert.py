"""Loki-1's pre-flop strategy selection (PAPP98 §6.1, papp/node44 and node76; PENA99 pena/node21).

Pipeline (loki-algorithms.md §2.2–§2.5):

1. Expected number of players, Eq. 6.2 (RECONSTRUCTED):
   ``E = num_inpot + probability_play × num_yet_to_act`` with ``probability_play = 0.6``,
   rounded to the nearest integer; group "2" (E ≤ 2), "3-4" (E ≤ 4) or "5+".
2. The group picks the income-rate table (IR2, IR4, IR7: inferred, PENA99's example
   value 338 for A♥8♥ with 4 players is IR4).
3. Thresholds, Eq. 6.1: ``threshold(strategy) = base + increment × position`` with one
   ``[base, increment]`` pair per (group, tightness, strategy) (Table B.1).
4. The most aggressive strategy whose threshold ≤ IR is chosen (Figure 6.1), and kept for
   the whole pre-flop round.

Table B.1 is mostly unknown.  Published entries used as published: tight/3-4/Make2 =
[200, 50]; moderate/3-4 bases Make1 50, Make2 200, Make4 580.  Everything else is a
**DEFAULT** (reference §2.5): the group 3-4 rows of the reference's table, groups 2 and
5+ derived by *percentile matching* against IR2/IR7 (same fraction of the 1,326 holdings
above the position-0 threshold; increments scaled by the ratio of IR standard
deviations), then the unpublished Make1 bases shifted by :data:`MAKE1_CALIBRATION` (measured in
10-handed self-play to give ≈18 / 21 / 24 % of hands played; see docs/CALIBRATION.md).

The small blind (PENA99: six strategies) has fixed Call1/Call2 thresholds, UNKNOWN in
the sources; **DEFAULT**: ``Call1_SB = T(Make1) − 100`` and ``Call2_SB = T(Make2) − 100``
at the small blind's position.

**Adaptive model** (``PreflopPolicy(model="adaptive")``; DEFAULT, beyond the sources: short-handed pre-flop): the opponent
modelling the sources leave for later ("until some amount of opponent modeling is implemented into the pre-flop",
papp/node44): Eq. 6.2 with each opponent's observed playing probability instead of 0.60, and, at short-handed tables,
heads-up contests valued against the opponent's weight table with pot-odds calls (:class:`AdaptiveSettings`).
``model="expert"`` is the system above, unchanged.

>>> th = PreflopThresholds.default()
>>> th.pair("3-4", "moderate", Strategy.MAKE2)
(200.0, 50.0)
>>> group_for(expected_players(num_inpot=3, num_yet_to_act=1))
'3-4'
>>> choose_strategy(338, th.thresholds("3-4", "moderate", position=0)).name
'MAKE2'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from loki.assessment.income_rate import holding_equity, load_tables
from loki.cards import CLASS_SIZES, HOLDING_CLASS, HOLDING_INDEX
from loki.engine import Action, PlayerView
from loki.errors import ConfigError, InputError
from loki.modeler.contest import CardBlindness, ContestConfig, ContestSpot, contest_action, table_card_blindness
from loki.preflop.adaptive import (
    PREFLOP_MODELS,
    PROBABILITY_PLAY,
    AdaptiveSettings,
    HeadsUpSpot,
    SeatModels,
    model_of,
    modelled_expected_players,
)
from loki.preflop.strategies import Strategy, strategy_action

__all__ = [
    "GROUPS",
    "TIGHTNESS",
    "GROUP_TABLE",
    "MAKE1_CALIBRATION",
    "expected_players",
    "group_for",
    "PreflopThresholds",
    "choose_strategy",
    "table_model",
    "SB_CALL_LIMIT",
    "SB_CALL_MARGIN",
    "PreflopChoice",
    "PreflopDecision",
    "PreflopPolicy",
]

GROUPS = ("2", "3-4", "5+")
TIGHTNESS = ("tight", "moderate", "loose")
#: Which IR table a group reads (inferred from PENA99's example; loki-algorithms.md §2.3).
GROUP_TABLE = {"2": 2, "3-4": 4, "5+": 7}
_THRESHOLD_STRATEGIES = (Strategy.MAKE1, Strategy.MAKE2, Strategy.MAKE4)

#: DEFAULT group 3-4 rows (reference §2.5); published: tight Make2 [200, 50], moderate bases 50/200/580.
_BASE_34 = {
    "loose": {Strategy.MAKE1: (0.0, 40.0), Strategy.MAKE2: (150.0, 50.0), Strategy.MAKE4: (550.0, 50.0)},
    "moderate": {Strategy.MAKE1: (50.0, 40.0), Strategy.MAKE2: (200.0, 50.0), Strategy.MAKE4: (580.0, 50.0)},
    "tight": {Strategy.MAKE1: (100.0, 40.0), Strategy.MAKE2: (200.0, 50.0), Strategy.MAKE4: (620.0, 50.0)},
}

#: DEFAULT: shift (IR ×1000 units) added to every unpublished Make1 base (groups 2 and 5+ after percentile
#: matching, and the tight/loose 3-4 rows), calibrated by 10-handed self-play towards 18 / 21 / 24 % of hands
#: played (``scripts/calibrate_preflop.py``; figures in docs/CALIBRATION.md).
MAKE1_CALIBRATION = {"tight": 19.0, "moderate": 43.0, "loose": 29.0}

#: DEFAULT: the small blind's Call1/Call2 thresholds sit this far below T(Make1)/T(Make2).
SB_CALL_MARGIN = 100.0
#: The small blind's Call1 is really "call 0.5 bet" and its Call2 "call 1.5 bets" (PENA99; loki-algorithms.md
#: §2.2): the most it calls, in bets, before it has voluntarily put money in.
SB_CALL_LIMIT = {Strategy.CALL1: 0.5, Strategy.CALL2: 1.5}


def expected_players(num_inpot: int, num_yet_to_act: int, probability_play: float = PROBABILITY_PLAY) -> float:
    """Expected number of players to see the flop, PAPP98 Eq. 6.2 (RECONSTRUCTED).

    Args:
        num_inpot: players who have already put money in (blinds, callers, raisers), ourselves included.
        num_yet_to_act: players after us who have not acted yet this round (blinds excluded: they have posted).
        probability_play: fraction of those expected to play (default 0.6).

    Raises:
        ValueError: negative counts.

    >>> expected_players(3, 1)
    3.6
    """
    if num_inpot < 1 or num_yet_to_act < 0:
        raise InputError(f"num_inpot={num_inpot!r} must be ≥ 1 and num_yet_to_act={num_yet_to_act!r} ≥ 0")
    return num_inpot + probability_play * num_yet_to_act


def group_for(expected: float) -> str:
    """Player-count group of an expected number of players, rounded half up: "2", "3-4" or "5+"."""
    e = int(np.floor(expected + 0.5))
    return "2" if e <= 2 else ("3-4" if e <= 4 else "5+")


def _holding_weighted(values_by_class: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(-values_by_class, kind="stable")
    return values_by_class[order], CLASS_SIZES[order].astype(float)


def _fraction_at_least(values_by_class: np.ndarray, t: float) -> float:
    return float(CLASS_SIZES[values_by_class >= t].sum()) / 1326.0


def _value_at_fraction(values_by_class: np.ndarray, frac: float) -> float:
    """The IR value v such that about ``frac`` of the holdings have IR ≥ v (nearest class boundary)."""
    vals, sizes = _holding_weighted(values_by_class)
    cum = np.cumsum(sizes) / 1326.0
    i = int(np.searchsorted(cum, frac - 1e-12))
    if i >= len(vals):
        return float(vals[-1])
    return float(vals[i])


def _weighted_std(values_by_class: np.ndarray) -> float:
    w = CLASS_SIZES / 1326.0
    m = float((w * values_by_class).sum())
    return float(np.sqrt((w * (values_by_class - m) ** 2).sum()))


@dataclass(frozen=True)
class PreflopThresholds:
    """Table B.1: ``[base, increment]`` per (group, tightness, strategy), IR ×1000 units.

    ``pairs[group][tightness][strategy] = (base, increment)``; thresholds are
    ``base + increment × position`` (Eq. 6.1).  Build the DEFAULT with :meth:`default`,
    or pass your own (e.g. for the tight/loose style presets, see :meth:`shifted`).
    """

    pairs: dict = field(repr=False)
    _memo: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def default(cls, make1_calibration: dict | None = None) -> PreflopThresholds:
        """The DEFAULT Table B.1 (module docstring): 3-4 rows as given, 2 and 5+ by percentile matching."""
        tables = load_tables()
        cal = MAKE1_CALIBRATION if make1_calibration is None else make1_calibration
        ir4 = tables[4]
        sd4 = _weighted_std(ir4)
        pairs: dict = {g: {} for g in GROUPS}
        for t in TIGHTNESS:
            pairs["3-4"][t] = dict(_BASE_34[t])
            if t != "moderate":  # the moderate 3-4 Make1 base (50) is published: never shifted
                b, i = pairs["3-4"][t][Strategy.MAKE1]
                pairs["3-4"][t][Strategy.MAKE1] = (b + cal.get(t, 0.0), i)
            for g in ("2", "5+"):
                irg = tables[GROUP_TABLE[g]]
                scale = _weighted_std(irg) / sd4
                row = {}
                for s, (base, inc) in _BASE_34[t].items():
                    b = _value_at_fraction(irg, _fraction_at_least(ir4, base))
                    if s is Strategy.MAKE1:
                        b += cal.get(t, 0.0)
                    row[s] = (round(b, 1), round(inc * scale, 1))
                pairs[g][t] = row
        for g in GROUPS:  # keep tight ≥ moderate ≥ loose after the shifts (never moves a published entry)
            for s in _THRESHOLD_STRATEGIES:
                bt, it = pairs[g]["tight"][s]
                bm, im = pairs[g]["moderate"][s]
                pairs[g]["moderate"][s] = (min(bm, bt), im)
                bm = pairs[g]["moderate"][s][0]
                bl, il = pairs[g]["loose"][s]
                pairs[g]["loose"][s] = (min(bl, bm), il)
        for g in GROUPS:  # keep Make1 ≤ Make2 ≤ Make4 after the calibration shift (DEFAULT)
            for t in TIGHTNESS:
                row = pairs[g][t]
                b1, i1 = row[Strategy.MAKE1]
                b2, i2 = row[Strategy.MAKE2]
                row[Strategy.MAKE1] = (min(b1, b2), min(i1, i2))
        return cls(pairs)

    def pair(self, group: str, tightness: str, strategy: Strategy) -> tuple[float, float]:
        """``(base, increment)`` of one entry.

        Raises:
            ValueError: unknown group, tightness or strategy without a threshold (Make0, Call1, Call2).
        """
        self._check(group, tightness)
        if strategy not in _THRESHOLD_STRATEGIES:
            raise ConfigError(f"strategy {strategy!r} has no threshold: expected Make1, Make2 or Make4")
        return self.pairs[group][tightness][Strategy(strategy)]

    def thresholds(self, group: str, tightness: str, position: int) -> dict:
        """``{Strategy: threshold}`` for Make1, Make2, Make4 at ``position`` (Eq. 6.1)."""
        key = (group, tightness, position)
        hit = self._memo.get(key)
        if hit is not None:
            return dict(hit)  # a copy: the caller may keep or change it
        self._check(group, tightness)
        if position < 0:
            raise InputError(f"position={position!r}: expected ≥ 0")
        t = {s: b + i * position for s, (b, i) in self.pairs[group][tightness].items()}
        self._memo[key] = t
        return dict(t)

    def shifted(self, delta: float) -> PreflopThresholds:
        """A copy with every base raised by ``delta`` (IR ×1000 units): > 0 tighter, < 0 looser."""
        return PreflopThresholds(
            {
                g: {t: {s: (b + delta, i) for s, (b, i) in row.items()} for t, row in tr.items()}
                for g, tr in self.pairs.items()
            }
        )

    @staticmethod
    def _check(group: str, tightness: str) -> None:
        if group not in GROUPS:
            raise ConfigError(f"unknown group {group!r}: expected one of {GROUPS}")
        if tightness not in TIGHTNESS:
            raise ConfigError(f"unknown tightness {tightness!r}: expected one of {TIGHTNESS}")


def choose_strategy(ir: float, thresholds: dict, small_blind: bool = False) -> Strategy:
    """Figure 6.1: the most aggressive strategy whose threshold ≤ ``ir``.

    Args:
        ir: income rate of our hand class in the group's table (×1000).
        thresholds: ``{Strategy.MAKE1: t1, Strategy.MAKE2: t2, Strategy.MAKE4: t4}`` at our position.
        small_blind: the small blind's special case (six strategies; DEFAULT Call1/Call2 thresholds
            ``T(Make1) − 100`` and ``T(Make2) − 100``).

    Returns:
        the chosen :class:`Strategy` (Make0 when no threshold is met).
    """
    t1, t2, t4 = thresholds[Strategy.MAKE1], thresholds[Strategy.MAKE2], thresholds[Strategy.MAKE4]
    if ir >= t4:
        return Strategy.MAKE4
    if ir >= t2:
        return Strategy.MAKE2
    if small_blind:
        if ir >= t2 - SB_CALL_MARGIN:
            return Strategy.CALL2
        if ir >= t1:
            return Strategy.MAKE1
        if ir >= t1 - SB_CALL_MARGIN:
            return Strategy.CALL1
        return Strategy.MAKE0
    if ir >= t1:
        return Strategy.MAKE1
    return Strategy.MAKE0


def table_model(model: str, n_players: int, short_handed: int) -> str:
    """The pre-flop model in use at a table of ``n_players`` dealt in: ``"auto"`` is ``"adaptive"`` at tables of at
    most ``short_handed`` players and ``"expert"`` at larger ones (DEFAULT, short-handed pre-flop: tuned heads-up on seeds
    1000-1001, where the adaptive model won more against ``equity`` and ``maniac``; the 10-player calibration stays
    exactly the expert system's); ``"contest"`` likewise is the contest valuation (:mod:`loki.modeler.contest`) at
    tables of at most ``short_handed`` players and the expert system at larger ones (DEFAULT, the adaptive Loki's:
    at ten-handed tables of Loki-1 the contest valuation lost to the expert system, experiments/exploitation);
    ``"expert"`` and ``"adaptive"`` are themselves everywhere.

    >>> table_model("auto", 10, 6), table_model("auto", 6, 6), table_model("expert", 2, 6)
    ('expert', 'adaptive', 'expert')
    >>> table_model("contest", 10, 6), table_model("contest", 3, 6)
    ('expert', 'contest')
    """
    if model in ("auto", "contest"):
        return ("adaptive" if model == "auto" else "contest") if n_players <= short_handed else "expert"
    return model


# ------------------------------------------------------------------------------ the pre-flop policy
@dataclass(frozen=True)
class PreflopChoice:
    """The strategy Figure 6.1 chose for this hand (at our first pre-flop decision) and why.

    Attributes:
        strategy: the chosen :class:`Strategy`, kept for the whole pre-flop round (the ``"adaptive"`` model's
            heads-up decisions: the strategy of this decision's action, Make4/Make2 for a raise, Call2 for a call,
            Make0 for a check or a fold).
        group: "2", "3-4" or "5+" from the expected number of players (Eq. 6.2).
        ir: income rate of our hand class in the group's table (IR ×1000).
        thresholds: ``{Strategy: threshold}`` of Make1/Make2/Make4 at our position (Eq. 6.1).
        num_inpot, num_yet_to_act, position: the inputs of Eq. 6.1-6.2 (:func:`loki.engine.preflop_situation`).
        small_blind: the small blind's first decision (six strategies, fixed Call1/Call2 thresholds).
        call_limit: the most the small blind's Call1/Call2 calls, in bets, before voluntary money (or None).
        expected: the expected number of players the group came from (Eq. 6.2; modelled in the ``"adaptive"`` model).
        heads_up: the ``"adaptive"`` model's heads-up valuation (None otherwise).
    """

    strategy: Strategy
    group: str
    ir: float
    thresholds: dict
    num_inpot: int
    num_yet_to_act: int
    position: int
    small_blind: bool
    call_limit: float | None
    expected: float = float("nan")
    heads_up: HeadsUpSpot | None = None
    contest: ContestSpot | None = None


@dataclass(frozen=True)
class PreflopDecision:
    """One pre-flop action: the action the hand's strategy takes now, and the :class:`PreflopChoice`.

    ``probabilities`` is the pure choice's one-hot ``(fold, call, raise)`` (a decision record's distribution)."""

    kind: ClassVar[str] = "preflop"

    action: Action
    choice: PreflopChoice

    @property
    def probabilities(self) -> tuple[float, float, float]:
        out = [0.0, 0.0, 0.0]
        out[int(self.action)] = 1.0
        return out[0], out[1], out[2]


class PreflopPolicy:
    """Loki's pre-flop expert system (PAPP98 §6.1, papp/node44; PENA99 pena/node21): at the first decision of a
    hand, choose a strategy from the income rate of the hole cards and the Table B.1 thresholds of the
    expected-players group and position (Figure 6.1), then play it for the whole pre-flop round.

    With ``model="adaptive"`` the expected players and heads-up contests follow the opponent models
    (:class:`AdaptiveSettings`; DEFAULT, beyond the sources).

    Args:
        tightness: "tight", "moderate" or "loose" (the Table B.1 column; PAPP98 default loose).
        preflop_shift: IR ×1000 added to every threshold base (style presets; > 0 tighter).
        thresholds: Table B.1 (default :meth:`PreflopThresholds.default`).
        model: "expert" (the sources' expert system), "adaptive", or "auto" (adaptive at short-handed tables, expert
            at larger ones: :meth:`model_for`; the players' default).
        settings: the adaptive model's DEFAULTs.
        specific: the adaptive model reads each opponent's observed frequencies (False: generic modelling, the
            0.60 default for everyone; the weight tables are whatever the modeller made of them).

    Attributes:
        choice: this hand's :class:`PreflopChoice` (None before the first pre-flop decision; the adaptive model's
            heads-up decisions replace it at every decision).

    Raises:
        ConfigError: an unknown tightness or model.
    """

    def __init__(
        self,
        tightness: str = "loose",
        preflop_shift: float = 0.0,
        thresholds: PreflopThresholds | None = None,
        model: str = "expert",
        settings: AdaptiveSettings | None = None,
        specific: bool = True,
        contest: ContestConfig | None = None,
    ):
        if tightness not in TIGHTNESS:
            raise ConfigError(f"unknown tightness {tightness!r}: expected one of {TIGHTNESS}")
        if model not in PREFLOP_MODELS:
            raise ConfigError(f"unknown pre-flop model {model!r}: expected one of {PREFLOP_MODELS}")
        self.tightness = tightness
        self.thresholds = (thresholds if thresholds is not None else PreflopThresholds.default()).shifted(preflop_shift)
        self.model = model
        self.settings = settings if settings is not None else AdaptiveSettings()
        self.specific = specific
        self.contest_config = contest if contest is not None else ContestConfig()
        self._ir_tables = load_tables()
        self.choice: PreflopChoice | None = None
        self._strategy_choice: PreflopChoice | None = None
        self._hand_contest: bool | None = None  # this hand's pre-flop decisions by the contest valuation

    @property
    def strategy(self) -> Strategy | None:
        """This hand's strategy (None before the first pre-flop decision)."""
        return None if self.choice is None else self.choice.strategy

    def begin_hand(self) -> None:
        """Forget the last hand's strategy."""
        self.choice = None
        self._strategy_choice = None
        self._hand_contest = None

    def model_for(self, view: PlayerView) -> str:
        """The model in use at this table (:func:`table_model` with ``settings.short_handed``)."""
        return table_model(self.model, view.n_players, self.settings.short_handed)

    def choose(self, view: PlayerView, models: SeatModels | None = None) -> PreflopChoice:
        """Figure 6.1 for the player of ``view`` (its first pre-flop decision of the hand); the adaptive model's
        group comes from :func:`modelled_expected_players` with ``models``."""
        seat = view.seat
        inpot, yet, pos = view.preflop_situation()
        if self.model_for(view) == "adaptive":
            expected = modelled_expected_players(view, models if self.specific else None, self.settings)
        else:
            expected = expected_players(inpot, yet)
        group = group_for(expected)
        c0, c1 = view.hole_cards
        ir = float(self._ir_tables[GROUP_TABLE[group]][HOLDING_CLASS[HOLDING_INDEX[c0, c1]]])
        t = self.thresholds.thresholds(group, self.tightness, pos)
        sb_first = seat == view.small_blind_seat and not view.acted_this_round[seat]
        strategy = choose_strategy(ir, t, small_blind=sb_first)
        limit = SB_CALL_LIMIT.get(strategy) if sb_first else None
        return PreflopChoice(strategy, group, ir, t, inpot, yet, pos, sb_first, limit, expected)

    def decide(
        self,
        view: PlayerView,
        legal: Sequence[Action],
        models: SeatModels | None = None,
        blindness: CardBlindness | None = None,
    ) -> PreflopDecision:
        """The action of this hand's strategy now (:func:`loki.preflop.strategies.strategy_action`), the strategy being
        chosen at the first call of the hand; the adaptive model decides heads-up contests at every decision
        at short-handed tables (:meth:`heads_up`) from ``models`` (the player's :class:`~loki.modeler.ModelStore`; None: no models)."""
        model = self.model_for(view)
        if model == "contest":
            if self._hand_contest is None:  # at the hand's first decision: the contest, or the expert system
                self._hand_contest = self.contest_config.preflop_players >= view.n_players or (
                    table_card_blindness(view, models if self.specific else None, blindness)
                    >= self.contest_config.preflop_card_blind
                )
            if self._hand_contest:
                return self.contest(view, legal, models, blindness)
        if model == "adaptive":
            live = [s for s, f in enumerate(view.folded) if not f and s != view.seat]
            if len(live) == 1 and view.n_players <= self.settings.short_handed:
                return self.heads_up(view, legal, live[0], models)
            if self._strategy_choice is None:
                self._strategy_choice = self.choose(view, models)
            self.choice = self._strategy_choice
        elif self.choice is None:
            self.choice = self.choose(view)
        ch = self.choice
        a = strategy_action(
            ch.strategy,
            view.to_call_bets(),
            view.bets_this_round,
            view.voluntary_this_round[view.seat],
            Action.RAISE in legal,
            max_call_bets=ch.call_limit,
        )
        return PreflopDecision(a, ch)

    def contest(
        self,
        view: PlayerView,
        legal: Sequence[Action],
        models: SeatModels | None = None,
        blindness: CardBlindness | None = None,
    ) -> PreflopDecision:
        """The adaptive model's decision at a short-handed table: the contest valued against the modelled opponents
        (:mod:`loki.modeler.contest`), at every decision."""
        action, spot = contest_action(view, legal, models if self.specific else None, blindness, self.contest_config)
        inpot, yet, pos = view.preflop_situation()
        strategy = {Action.RAISE: Strategy.MAKE2, Action.CALL: Strategy.CALL2, Action.FOLD: Strategy.MAKE0}[action]
        if action is Action.CALL and spot.to_call <= 1e-9:
            strategy = Strategy.MAKE0
        sb_first = view.seat == view.small_blind_seat and not view.acted_this_round[view.seat]
        n = 1 + len(spot.opponents)
        value = 1000.0 * (n * spot.equity_call - 1.0)
        t = self.thresholds.thresholds(group_for(float(n)), self.tightness, pos)
        ch = PreflopChoice(
            strategy, group_for(float(n)), value, t, inpot, yet, pos, sb_first, None, float(n), None, spot
        )
        self.choice = ch
        return PreflopDecision(action, ch)

    def heads_up(
        self,
        view: PlayerView,
        legal: Sequence[Action],
        opponent: int,
        models: SeatModels | None = None,
    ) -> PreflopDecision:
        """The adaptive model's decision in a heads-up contest (:class:`AdaptiveSettings` point 2): value the hand
        against ``opponent``'s weight table (uniform without a model), raise on Table B.1's group-2 Make4 / Make2
        thresholds, else check, call on pot odds × ``realization``, or fold."""
        inpot, yet, pos = view.preflop_situation()
        model = model_of(models, opponent)
        weights = model.weights if model is not None else np.ones(len(HOLDING_CLASS))
        eq = holding_equity(view.hole_cards, weights)
        value = 1000.0 * (2.0 * eq - 1.0)
        t = self.thresholds.thresholds("2", self.tightness, pos)
        to_call = view.to_call_bets()
        pot = view.pot / view.bet_size
        price = to_call / (pot + to_call) if to_call > 1e-9 else 0.0
        spot = HeadsUpSpot(opponent, eq, value, price, self.settings.realization * price, model is not None)
        can_raise = Action.RAISE in legal
        if can_raise and (value >= t[Strategy.MAKE4] or (value >= t[Strategy.MAKE2] and view.bets_this_round < 2)):
            strategy, action = (Strategy.MAKE4 if value >= t[Strategy.MAKE4] else Strategy.MAKE2), Action.RAISE
        elif to_call <= 1e-9:
            strategy, action = Strategy.MAKE0, Action.CALL
        elif eq >= spot.required:
            strategy, action = Strategy.CALL2, Action.CALL
        else:
            strategy, action = Strategy.MAKE0, Action.FOLD
        sb_first = view.seat == view.small_blind_seat and not view.acted_this_round[view.seat]
        ch = PreflopChoice(strategy, "2", value, t, inpot, yet, pos, sb_first, None, float(inpot), spot)
        self.choice = ch
        return PreflopDecision(action, ch)
