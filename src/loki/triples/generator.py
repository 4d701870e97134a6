"""Loki-2 probability triples (PT) and the Triple Generator (AAAI99 §4; PENA99 pena/node30-39).

A **probability triple** ``[f, c, r]`` gives the probabilities that the next action is a fold, a
check/call or a bet/raise (:class:`ProbabilityTriple`; non-negative, summing to 1 within 1e-9).

The **Triple Generator** (pena/node31: "translate the Loki-1 Bettor into pure triples, then smooth
the boundaries between actions by linear interpolation") is the soft priority chain of
:mod:`loki.triples.rule_chain`, the one place where the betting rules are written: every rule of the Bettor
becomes a gate that fires with a linear ramp around its threshold instead of a step.  This module
holds the PT type and the generator's configuration (:class:`TripleConfig`: the Bettor's thresholds
plus the ramp half-widths) and applies the chain to our hand (feature B, :func:`generate_triple`) and
to every holding of an opponent (feature R, :func:`triples_all`, :func:`opponent_triples`).  The
Simulator calls the same kernel, :func:`pt_kernel`, for every player of its play-outs (feature S).

**DEFAULT widths** (UNKNOWN in the sources, reference §5.2): ``make_width = 0.05`` around make1/make2
(and the aggressive-raise threshold), ``odds_width = 0.05`` around the pot-odds, Pot_Odds2 and
showdown-odds thresholds.  The reference's sketch composes the gates with ``max``; the soft chain
differs from it only where two ramps overlap, and it keeps Make2's *call* when a strong hand faces
2+ bets (the sketch would fold it), i.e. it stays consistent with the Bettor.  With both widths 0 the
generator is the Bettor: pure triples.

>>> cfg = TripleConfig()
>>> spot = BettingSpot(street=1, pot=20.0, to_call=0.0, bet_size=10.0, bets_this_round=0)
>>> generate_triple(HandValues(ehs_prime=0.95, ehs=0.9, hs_n=0.9, ppot=0.2), spot, cfg)
ProbabilityTriple(f=0.0, c=0.0, r=1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from pydantic import Field

from loki.config import LokiModel, tunable
from loki.engine import Action
from loki.errors import InputError
from loki.triples.bettor import BettorConfig
from loki.triples.rule_chain import N_RULES, TripleParams, chain_all, chain_spot, spot_args
from loki.triples.spot import BettingSpot, HandValues

__all__ = [
    "ProbabilityTriple",
    "GeneratorForm",
    "TripleConfig",
    "DEFAULT_MAKE_WIDTH",
    "DEFAULT_ODDS_WIDTH",
    "validate_triples",
    "opponent_hand_values",
    "generate_triple",
    "generate_triple_with_rules",
    "triples_all",
    "triples_from_potentials",
    "board_values",
    "opponent_triples",
]

#: DEFAULT interpolation half-width around the make1/make2 (and aggressive-raise) EHS' thresholds.
DEFAULT_MAKE_WIDTH = 0.05
#: DEFAULT interpolation half-width around the pot-odds, Pot_Odds2 and showdown-odds thresholds.
DEFAULT_ODDS_WIDTH = 0.05
_TOL = 1e-9


@dataclass(frozen=True)
class ProbabilityTriple:
    """``[f, c, r]``: probabilities of fold, check/call, bet/raise (AAAI99 §4).

    Raises:
        InputError: a negative or non-finite entry, or a sum differing from 1 by more than 1e-9.

    >>> ProbabilityTriple(0.1, 0.65, 0.25).action(0.8).name
    'RAISE'
    >>> ProbabilityTriple(0.5, 0.6, 0.0)
    Traceback (most recent call last):
    ...
    loki.errors.InputError: probability triple [0.5, 0.6, 0.0] sums to 1.1, expected 1 (within 1e-09)
    """

    f: float
    c: float
    r: float

    def __post_init__(self):
        vals = (self.f, self.c, self.r)
        for name, v in zip("fcr", vals):
            if isinstance(v, bool) or not isinstance(v, (int, float, np.floating, np.integer)):
                raise InputError(f"probability triple entry {name}={v!r} is not a number")
            if not math.isfinite(v) or v < 0:
                raise InputError(f"probability triple entry {name}={v!r} must be finite and non-negative")
        s = float(sum(vals))
        if abs(s - 1.0) > _TOL:
            raise InputError(
                f"probability triple [{self.f}, {self.c}, {self.r}] sums to {s:.12g}, expected 1 (within 1e-09)"
            )
        for name, v in zip("fcr", vals):
            object.__setattr__(self, name, float(v))

    @classmethod
    def from_array(cls, a) -> ProbabilityTriple:
        a = np.asarray(a, dtype=np.float64)
        if a.shape != (3,):
            raise InputError(f"a probability triple has 3 entries, got shape {a.shape}")
        return cls(float(a[0]), float(a[1]), float(a[2]))

    def as_array(self) -> np.ndarray:
        return np.array([self.f, self.c, self.r])

    def action(self, u: float) -> Action:
        """The Action Selector's rule (pena/node33): fold if u < f, call if u < f + c, else raise."""
        if u < self.f:
            return Action.FOLD
        if u < self.f + self.c:
            return Action.CALL
        return Action.RAISE


def validate_triples(t, name: str = "triples") -> np.ndarray:
    """Check a ``(k, 3)`` (or ``(3,)``) array of triples; return it as float64.

    Raises:
        ValueError: wrong shape, negative/non-finite entries, or a row not summing to 1 (1e-9).
    """
    a = np.asarray(t, dtype=np.float64)
    if a.ndim not in (1, 2) or a.shape[-1] != 3:
        raise InputError(f"{name}: expected shape (3,) or (k, 3), got {a.shape}")
    if not np.all(np.isfinite(a)) or np.any(a < 0):
        raise InputError(f"{name}: entries must be finite and non-negative")
    s = a.sum(axis=-1)
    if np.any(np.abs(s - 1.0) > _TOL):
        bad = np.flatnonzero(np.abs(np.atleast_1d(s) - 1.0) > _TOL)
        raise InputError(
            f"{name}: {len(bad)} triple(s) do not sum to 1 (first at {int(bad[0])}: {float(np.atleast_1d(s)[bad[0]])!r})"
        )
    return a


class GeneratorForm(LokiModel):
    """Forms of the Triple Generator beyond the paper's symmetric ramps (B alone loses with them, the loss
    sits in the form, not the thresholds).  Every default reproduces the paper's form exactly; each field is a
    DEFAULT that ``loki tune`` may search.

    Attributes:
        make_above: the half-width of the make1/make2 ramps *above* their thresholds; None: the width below
            (``make_width``, symmetric).  ``make_width > 0`` with ``make_above = 0`` mixes the more aggressive action
            into hands just below a threshold only, never the more passive one into hands above it.
        odds_above: the same for the pot-odds, semi-bluff and showdown-odds ramps (``odds_width`` below).
        implied: implied odds: next-street bets added to the pot of a flop or turn pot-odds call (0: PAPP98 Eq. 6.6).
        bluff: the chance that a hand no rule bets bets when nobody has bet this round (0: never; a bluff).

    Raises:
        ConfigError: a value out of range.
    """

    make_above: float | None = tunable(
        None, 0.0, 0.2, source="DEFAULT (the paper's ramps are symmetric)", ge=0.0, le=0.5
    )
    odds_above: float | None = tunable(
        None, 0.0, 0.2, source="DEFAULT (the paper's ramps are symmetric)", ge=0.0, le=0.5
    )
    implied: float = tunable(0.0, 0.0, 2.0, source="DEFAULT (PAPP98 Eq. 6.6 has none)", ge=0.0, le=4.0)
    bluff: float = tunable(0.0, 0.0, 0.3, source="DEFAULT (not in the paper's rules)", ge=0.0, le=1.0)


class TripleConfig(LokiModel):
    """The Triple Generator: the Bettor's thresholds plus the DEFAULT interpolation half-widths.

    Attributes:
        bettor: the thresholds and style knobs (:class:`loki.triples.bettor.BettorConfig`; a Loki-1 style preset
            drives the generator through it).
        make_width: ramp half-width around make1/make2 and the aggressive-raise threshold (DEFAULT 0.05).
        odds_width: ramp half-width around Pot_Odds, Pot_Odds2 and the showdown odds (DEFAULT 0.05).
        form: the generator's form beyond the paper's (:class:`GeneratorForm`; the default is the paper's).

    With both widths 0 and the default form the generator is the Bettor (pure triples).

    Raises:
        ConfigError: a width outside [0, 0.5], or bad Bettor thresholds.
    """

    bettor: BettorConfig = BettorConfig()
    make_width: float = Field(DEFAULT_MAKE_WIDTH, ge=0.0, le=0.5)
    odds_width: float = Field(DEFAULT_ODDS_WIDTH, ge=0.0, le=0.5)
    form: GeneratorForm = GeneratorForm()

    @classmethod
    def from_bettor(
        cls, b: BettorConfig, make_width: float = DEFAULT_MAKE_WIDTH, odds_width: float = DEFAULT_ODDS_WIDTH
    ) -> TripleConfig:
        """The generator of a Bettor configuration (e.g. a style preset's) with the given widths."""
        return cls(bettor=b, make_width=make_width, odds_width=odds_width)

    def params(self) -> TripleParams:
        """The typed record the kernels read (:class:`loki.triples.rule_chain.TripleParams`)."""
        return self.bettor.params(self.make_width, self.odds_width, self.form)


def triples_all(
    ehs_prime,
    ehs,
    hs_n,
    ppot,
    spot: BettingSpot,
    config: TripleConfig = TripleConfig(),
    check_raise_flag: bool = False,
    semi_bluffing: bool | None = None,
) -> np.ndarray:
    """The Triple Generator for many holdings at once (the rule chain's :func:`~loki.triples.rule_chain.chain_all`).

    Args:
        ehs_prime, ehs, hs_n, ppot: ``(k,)`` arrays (or floats) of the holdings' values.
        spot: the public situation of the player to act (:class:`loki.triples.spot.BettingSpot`).
        config: thresholds and widths.
        check_raise_flag: the check-raise rule applies (first to act, an aggressor of the last round behind).
        semi_bluffing: defaults to ``spot.semi_bluffing``.

    Returns:
        ``(k, 3) float64`` triples [f, c, r] (rows sum to 1).
    """
    e = np.ascontiguousarray(np.atleast_1d(np.asarray(ehs_prime, dtype=np.float64)))
    shape = e.shape
    eh, hn, pp = (
        np.ascontiguousarray(np.broadcast_to(np.asarray(x, dtype=np.float64), shape)) for x in (ehs, hs_n, ppot)
    )
    sb = spot.semi_bluffing if semi_bluffing is None else semi_bluffing
    out = np.empty((shape[0], 3))
    chain_all(e, eh, hn, pp, *spot_args(spot), config.params(), bool(check_raise_flag), bool(sb), out)
    return out


def generate_triple_with_rules(
    values: HandValues, spot: BettingSpot, config: TripleConfig = TripleConfig(), check_raise_flag: bool = False
) -> tuple[ProbabilityTriple, np.ndarray]:
    """:func:`generate_triple` and each rule's share of each action, ``(N_RULES, 3) float64`` (rows in the order
    of :data:`loki.triples.rule_chain.RULES`), for explanations and for attributing a sampled action to its rule."""
    contrib = np.zeros((N_RULES, 3))
    f, c, r = chain_spot(values, spot, config.params(), check_raise_flag, contrib)
    t = np.clip(np.array([f, c, r]), 0.0, 1.0)
    t /= t.sum()
    return ProbabilityTriple(float(t[0]), float(t[1]), float(t[2])), contrib


def generate_triple(
    values: HandValues, spot: BettingSpot, config: TripleConfig = TripleConfig(), check_raise_flag: bool = False
) -> ProbabilityTriple:
    """The PT of one hand (our own, feature B; AAAI99 §4).

    ``check_raise_flag`` is the check-raise rule's condition (``spot.first_to_act and spot.aggressor_behind``).
    """
    return generate_triple_with_rules(values, spot, config, check_raise_flag)[0]


def triples_from_potentials(
    hs_n, ppot, npot, spot: BettingSpot, config: TripleConfig = TripleConfig(), check_raise_flag: bool = False
) -> np.ndarray:
    """:func:`triples_all` from per-holding HS_n, PPot, NPot arrays (EHS' and EHS derived as in §1.4)."""
    hs_n = np.asarray(hs_n, dtype=np.float64)
    ppot = np.asarray(ppot, dtype=np.float64)
    npot = np.asarray(npot, dtype=np.float64)
    e = hs_n + (1.0 - hs_n) * ppot
    eh = hs_n * (1.0 - npot) + (1.0 - hs_n) * ppot
    return triples_all(e, eh, hs_n, ppot, spot, config, check_raise_flag)


# ------------------------------------------------------------------------------ opponents (feature R)
def board_values(board: Sequence[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(HS_1, PPot1, NPot1)`` of every holding on ``board`` against a uniform range, ``(1326,)`` each.

    The opponent's view of its own hand (it cannot see our cards), exact (one-card look-ahead), cached
    per board (≈ 2.5 ms per new board); 0 for holdings that clash with the board; PPot = NPot = 0 on
    the river.
    """
    from loki.assessment import uniform_board_values

    return uniform_board_values(board)


def opponent_triples(
    board: Sequence[int],
    spot: BettingSpot,
    n_opponents: int,
    config: TripleConfig = TripleConfig(),
    check_raise_flag: bool = False,
) -> np.ndarray:
    """``(1326, 3)`` PT of every holding in an opponent's situation (feature R, pena/node34).

    Hand values: :func:`board_values` (HS_1, PPot1, NPot1 against a uniform range), with
    ``HS_n = HS_1 ** n_opponents`` where ``n_opponents`` is the number of other players still in the
    hand when the opponent acted (``ActionTaken.n_active − 1``), as the Bettor uses HS_n.
    ``check_raise_flag`` is the check-raise rule's public condition in the opponent's situation (it acts first
    in the round, an aggressor of the previous round is behind it); no semi-bluff continuation (its past intent
    is not known).  Holdings clashing with the board get the triple of a zero hand (never used).
    """
    hs_n, pp, nn = opponent_hand_values(board, n_opponents)
    return triples_from_potentials(hs_n, pp, nn, spot, config, check_raise_flag)


def opponent_hand_values(board: Sequence[int], n_opponents: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(HS_n, PPot1, NPot1)`` of every holding on ``board`` as an opponent facing ``n_opponents`` others rates its
    hand: :func:`board_values` with ``HS_n = HS_1 ** max(1, n_opponents)``, ``(1326,) float64`` each (feature R,
    pena/node34; the values :func:`opponent_triples` uses)."""
    return _opponent_hand_values(tuple(board), max(1, int(n_opponents)))


@lru_cache(maxsize=256)
def _opponent_hand_values(board: tuple, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # kept per (board, n): every observer with feature R reads the same arrays (read-only) on a board
    hs1, pp, nn = board_values(board)
    hs_n = hs1**n
    hs_n.setflags(write=False)
    return hs_n, pp, nn
