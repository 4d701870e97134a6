"""Loki-1's post-flop Bettor: a rule-based priority chain on EHS' (PAPP98 papp/node45-48, node76; PENA99 pena/node24).

The chain, first rule that applies wins (loki-algorithms.md §3):

1. **Check-raise** (rule UNKNOWN; **DEFAULT**): first to act with ``EHS' ≥ make2`` and a live
   opponent behind us who bet or raised in the previous round → check with probability
   :attr:`BettorConfig.check_raise_probability` (0.5).  If someone then bets, rule 2 raises.
2. **Strong hand**: ``EHS' ≥ make2`` (0.85) → Make2 (bet/raise while fewer than 2 bets this round, then call).
3. **Medium hand**: ``EHS' ≥ make1`` (0.50) → Make1 (bet if nobody has bet; otherwise call, except
   facing 2+ bets without having voluntarily put money in this round, where Make1 would fold: we then
   fall through to the odds rules below rather than folding at once — our reading of a priority chain).
4. **Semi-bluff** (Eq. 6.5): facing no bet and ``PPot ≥ Pot_Odds2 = 2B / ((pot + 4B) + 2B)``
   → bet; once we have semi-bluffed, keep betting in later rounds while nobody else bets.
5. **Pot odds** (Eq. 6.6, RECONSTRUCTED from the $20 pot / $4 call example):
   ``Pot_Odds = to_call / (pot + to_call)`` with ``pot`` including the opponent's bet; call if
   ``PPot ≥ Pot_Odds`` on the flop/turn or ``HS_n ≥ Pot_Odds`` on the river.
6. **Showdown odds** (formula UNKNOWN; **DEFAULT**): on the turn, facing a bet, call if
   ``EHS ≥ (to_call + B_next) / (pot + to_call + 2·B_next)`` (one more big bet on the river that the
   opponent also calls); on the river this is the pot-odds test.
7. Otherwise check if free, else fold.

Style knobs (loki-algorithms.md §7 DEFAULT): ``aggressive_call_raise`` turns calls facing a bet (the Make1
call of rule 3 and the pot-odds call of rule 5) into raises when ``EHS'`` exceeds it (aggressive styles:
0.65; with their make1 = 0.40 every such hand reaches rule 3 first, so applying it to the pot-odds call alone
would never fire), ``semi_bluff`` switches rule 4.

>>> spot = BettingSpot(street=1, pot=20.0, to_call=4.0, bet_size=4.0, bets_this_round=1)
>>> decide(HandValues(ehs_prime=0.3, ehs=0.25, hs_n=0.2, ppot=0.2), spot).rule
'pot odds'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from pydantic import Field, model_validator

from loki.config import LokiModel, tunable
from loki.engine import Action
from loki.triples.rule_chain import N_RULES, RULES, TripleParams, attribute, chain_spot
from loki.triples.spot import BettingSpot, HandValues

__all__ = [
    "BettorConfig",
    "Decision",
    "decide",
    "pick_action",
    "BettorPolicy",
]


class BettorConfig(LokiModel):
    """Thresholds and style knobs of the Bettor (and, with ramp widths, of the Triple Generator).

    Attributes:
        make1: EHS' needed to bet / call (PAPP98 papp/node76: 0.50).
        make2: EHS' needed to raise (papp/node76: 0.85); ``make1 ≤ make2``.
        semi_bluff: allow rule 4.
        check_raise_probability: DEFAULT 0.5 (rule 1).
        aggressive_call_raise: if set, a call facing a bet (Make1 or pot odds) becomes a raise when EHS' exceeds
            it (DEFAULT style knob, loki-algorithms.md §7).

    Raises:
        ConfigError: a value outside [0, 1] or ``make1 > make2`` (one line naming the field).

    >>> BettorConfig(make1=0.6, make2=0.5)
    Traceback (most recent call last):
    ...
    loki.errors.ConfigError: BettorConfig: need make1 ≤ make2, got make1=0.6, make2=0.5
    """

    make1: float = tunable(0.50, 0.30, 0.70, source="PAPP98 papp/node76", ge=0.0, le=1.0)
    make2: float = tunable(0.85, 0.65, 0.97, source="PAPP98 papp/node76", ge=0.0, le=1.0)
    semi_bluff: bool = True
    check_raise_probability: float = tunable(0.5, 0.0, 1.0, source="DEFAULT (rule 1)", ge=0.0, le=1.0)
    aggressive_call_raise: float | None = Field(None, ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _ordered(self) -> BettorConfig:
        if self.make1 > self.make2:
            raise ValueError(f"need make1 ≤ make2, got make1={self.make1!r}, make2={self.make2!r}")
        return self

    def params(self, make_width: float = 0.0, odds_width: float = 0.0, form: Any = None) -> TripleParams:
        """The rule-chain record (:class:`loki.triples.rule_chain.TripleParams`) of these thresholds with the given ramp
        half-widths (0, 0: the Bettor itself) and generator form (:class:`loki.triples.GeneratorForm`; None: the
        paper's symmetric ramps)."""
        key = (id(self), make_width, odds_width, id(form))
        hit = _PARAMS_BY_ID.get(key)
        if hit is not None and hit[0] is self and hit[1] is form:  # the entry holds both: their ids are not reused
            return hit[2]
        p = _params(self, float(make_width), float(odds_width), form)
        if len(_PARAMS_BY_ID) >= 256:
            _PARAMS_BY_ID.clear()
        _PARAMS_BY_ID[key] = (self, form, p)
        return p


#: params() by the config's identity (cleared when full): a decision asks for them every time, and hashing a
#: configuration (all its fields) would cost more than building the record.
_PARAMS_BY_ID: dict = {}


def _params(b: BettorConfig, make_width: float, odds_width: float, form: Any) -> TripleParams:
    acr = -1.0 if b.aggressive_call_raise is None else float(b.aggressive_call_raise)
    ma = make_width if form is None or form.make_above is None else float(form.make_above)
    oa = odds_width if form is None or form.odds_above is None else float(form.odds_above)
    return TripleParams(
        float(b.make1),
        float(b.make2),
        make_width,
        odds_width,
        bool(b.semi_bluff),
        acr,
        float(b.check_raise_probability),
        ma,
        oa,
        0.0 if form is None else float(form.implied),
        0.0 if form is None else float(form.bluff),
    )


@dataclass(frozen=True)
class Decision:
    """The Bettor's choice and the rule that produced it (a name from :data:`loki.triples.rule_chain.RULES`); a
    :class:`BettorPolicy` also records the hand values and the spot it decided on.  ``triple`` is the chain's
    ``(f, c, r)`` at zero width: one-hot, except ``[0, p_cr, 1 − p_cr]`` when the check-raise coin decided; it is the
    distribution the action was drawn from (``probabilities``)."""

    kind: ClassVar[str] = "bettor"

    action: Action
    rule: str
    values: HandValues | None = None
    spot: BettingSpot | None = None
    triple: tuple[float, float, float] = (0.0, 1.0, 0.0)

    @property
    def probabilities(self) -> tuple[float, float, float]:
        return self.triple


def decide(values: HandValues, spot: BettingSpot, config: BettorConfig = BettorConfig(), u: float = 1.0) -> Decision:
    """Run the priority chain (module docstring) and return the action with the rule that fired.

    The rules are those of :mod:`loki.triples.rule_chain` with zero ramp widths: the chain gives a pure triple
    (or, when the check-raise rule applies, ``[0, p_cr, 1 − p_cr]``), and ``u`` picks the action as the
    Action Selector would (fold if ``u < f``, call if ``u < f + c``, else raise).

    Args:
        values: EHS', EHS, HS_n, PPot of our hand.
        spot: the betting situation.
        config: thresholds and style knobs.
        u: a uniform random number in [0, 1) for the check-raise coin (DEFAULT rule 1); the default 1.0 picks the
            last action with mass (:func:`pick_action`), so the chain is deterministic unless the caller passes a
            draw: where the check-raise rule applies it bets out, or checks to raise with ``check_raise_probability``
            1.

    Returns:
        :class:`Decision`; never folds when checking is free, never raises when ``can_raise`` is False.
    """
    contrib = np.zeros((N_RULES, 3))
    f, c, r = chain_spot(values, spot, config.params(), spot.first_to_act and spot.aggressor_behind, contrib)
    a = pick_action(u, f, c, r)
    return Decision(Action(a), RULES[attribute(contrib, a, u, f, c)], triple=(f, c, r))


def pick_action(u: float, f: float, c: float, r: float) -> int:
    """The Action Selector's rule (PENA99 pena/node33) as an int: 0 fold if ``u < f``, 1 call if ``u < f + c``,
    else 2 raise; a ``u`` at or beyond 1 (the Bettor's "no coin" default) picks the last action with mass.

    >>> pick_action(0.3, 0.0, 0.5, 0.5), pick_action(1.0, 1.0, 0.0, 0.0)
    (1, 0)
    """
    if u < f:
        return 0
    if u < f + c:
        return 1
    if r > 0.0:
        return 2
    return 1 if c > 0.0 else 0


class BettorPolicy:
    """Loki-1's post-flop decision (PAPP98 §6.2): assess our hand against the field of the live opponents, then
    the Bettor's rule chain (:func:`decide`), with a seeded coin for the check-raise rule.

    Args:
        config: thresholds and style knobs.
        lookahead: 1 (PPot1, DEFAULT) or 2 (PPot2 on the flop) for the potential the rules read.
        seed: seeds the check-raise coin (one draw per decision).

    Attributes:
        semi_bluffing: we semi-bluffed earlier in this hand (rule 4 keeps betting while nobody else bets).
    """

    def __init__(self, config: BettorConfig = BettorConfig(), lookahead: int = 1, seed: int | np.random.Generator = 0):
        self.config = config
        self.lookahead = lookahead
        self.rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        self.semi_bluffing = False

    def begin_hand(self) -> None:
        """A new hand: no semi-bluff in progress."""
        self.semi_bluffing = False

    def decide(self, sit) -> Decision:
        """The Bettor's action for the :class:`loki.modeler.situation.Situation` ``sit``, with the rule that fired."""
        values = sit.hand_values(self.lookahead)
        spot = sit.betting_spot(self.semi_bluffing)
        d = decide(values, spot, self.config, u=float(self.rng.random()))
        if d.rule == "semi-bluff":
            self.semi_bluffing = True
        return Decision(d.action, d.rule, values, spot, d.triple)
