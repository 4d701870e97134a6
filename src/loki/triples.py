"""Loki-2 probability triples (PT) and the Triple Generator (AAAI99 §4; PENA99 pena/node30-39).

A **probability triple** ``[f, c, r]`` gives the probabilities that the next action is a fold, a
check/call or a bet/raise (:class:`ProbabilityTriple`; non-negative, summing to 1 within 1e-9).

The **Triple Generator** (pena/node31: "translate the Loki-1 Bettor into pure triples, then smooth
the boundaries between actions by linear interpolation") is, here, a *soft priority chain*: every
rule of :func:`loki.bettor.decide` becomes a gate that fires with a probability in [0, 1] given by a
linear ramp around the rule's threshold instead of a step, and a rule only gets the probability mass
left over by the rules before it::

    ramp(x, t, w) = clip((x − (t − w)) / (2w), 0, 1)          (a step x ≥ t when w = 0)
    P(rule i fires) = g_i · Π_{j<i} (1 − g_j)

With all widths 0 the triple is "pure" and its action is exactly the Bettor's (a test checks this
on random spots).  The gates, in the Bettor's order (e = EHS', chance = PPot on the flop/turn and
HS_n on the river):

checking is free (never folds: f = 0)
    1. check-raise (only when ``check_raise_flag``): ``p_cr · ramp(e, make2)`` → check;
    2. Make2: ``ramp(e, make2)`` → bet (check if betting is capped);
    3. Make1: ``ramp(e, make1)`` → bet if nobody has bet and betting is allowed, else check;
    4. semi-bluff (if enabled and betting allowed): ``ramp(PPot, Pot_Odds2, odds_width)`` → bet;
       continuing a semi-bluff (``semi_bluffing`` and no bet yet) → bet;
    5. the rest → check.
facing a bet
    2. Make2: ``ramp(e, make2)`` → raise if fewer than 2 bets this round and raising is allowed, else call;
    3. Make1: ``ramp(e, make1)`` → call, unless facing 2+ bets without having put money in
       voluntarily this round (Make1's fold rule: the gate is closed and we fall through);
    5. pot odds: ``ramp(chance, Pot_Odds, odds_width)`` → call (with ``aggressive_call_raise`` set,
       the part ``ramp(e, aggressive_call_raise)`` of it raises, as does that part of a Make1 call);
    6. showdown odds (turn/river): ``ramp(EHS, Showdown_Odds, odds_width)`` → call;
    7. the rest → fold.

**DEFAULT widths** (UNKNOWN in the sources, reference §5.2): ``make_width = 0.05`` around make1/make2
(and the aggressive-raise threshold), ``odds_width = 0.05`` around the pot-odds, Pot_Odds2 and
showdown-odds thresholds.  The reference's sketch composes the gates with ``max``; the soft chain
differs from it only where two ramps overlap, and it keeps Make2's *call* when a strong hand faces
2+ bets (the sketch would fold it), i.e. it stays consistent with ``bettor.py``.

Two implementations compute the same numbers:

* :func:`triples_all`, vectorised numpy over holdings (input arrays of HS_n, PPot, EHS', EHS of the
  1,326 holdings; used by triple re-weighting, feature R);
* :func:`pt_kernel`, a numba scalar function (used by the Simulator's play-out, feature S), with the
  configuration packed in a float array by :meth:`TripleConfig.params`.

>>> cfg = TripleConfig()
>>> spot = BettingSpot(street=1, pot=20.0, to_call=0.0, bet_size=10.0, bets_this_round=0)
>>> generate_triple(HandValues(ehs_prime=0.95, ehs=0.9, hs_n=0.9, ppot=0.2), spot, cfg)
ProbabilityTriple(f=0.0, c=0.0, r=1.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from loki._jit import njit
from loki.bettor import BettingSpot, BettorConfig, HandValues, pot_odds, pot_odds2, showdown_odds
from loki.engine import Action

__all__ = [
    "ProbabilityTriple",
    "TripleConfig",
    "DEFAULT_MAKE_WIDTH",
    "DEFAULT_ODDS_WIDTH",
    "validate_triples",
    "generate_triple",
    "triples_all",
    "triples_from_potentials",
    "pt_kernel",
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
        ValueError: a negative or non-finite entry, or a sum differing from 1 by more than 1e-9.

    >>> ProbabilityTriple(0.1, 0.65, 0.25).action(0.8).name
    'RAISE'
    >>> ProbabilityTriple(0.5, 0.6, 0.0)
    Traceback (most recent call last):
    ...
    ValueError: probability triple [0.5, 0.6, 0.0] sums to 1.1, expected 1 (within 1e-09)
    """

    f: float
    c: float
    r: float

    def __post_init__(self):
        vals = (self.f, self.c, self.r)
        for name, v in zip("fcr", vals):
            if isinstance(v, bool) or not isinstance(v, (int, float, np.floating, np.integer)):
                raise ValueError(f"probability triple entry {name}={v!r} is not a number")
            if not math.isfinite(v) or v < 0:
                raise ValueError(f"probability triple entry {name}={v!r} must be finite and non-negative")
        s = float(sum(vals))
        if abs(s - 1.0) > _TOL:
            raise ValueError(
                f"probability triple [{self.f}, {self.c}, {self.r}] sums to {s:.12g}, expected 1 (within 1e-09)"
            )
        for name, v in zip("fcr", vals):
            object.__setattr__(self, name, float(v))

    @classmethod
    def from_array(cls, a) -> ProbabilityTriple:
        a = np.asarray(a, dtype=np.float64)
        if a.shape != (3,):
            raise ValueError(f"a probability triple has 3 entries, got shape {a.shape}")
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
        raise ValueError(f"{name}: expected shape (3,) or (k, 3), got {a.shape}")
    if not np.all(np.isfinite(a)) or np.any(a < 0):
        raise ValueError(f"{name}: entries must be finite and non-negative")
    s = a.sum(axis=-1)
    if np.any(np.abs(s - 1.0) > _TOL):
        bad = np.flatnonzero(np.abs(np.atleast_1d(s) - 1.0) > _TOL)
        raise ValueError(
            f"{name}: {len(bad)} triple(s) do not sum to 1 (first at {int(bad[0])}: {float(np.atleast_1d(s)[bad[0]])!r})"
        )
    return a


@dataclass(frozen=True)
class TripleConfig:
    """Thresholds and interpolation widths of the Triple Generator.

    The thresholds mirror :class:`loki.bettor.BettorConfig` (use :meth:`from_bettor` so a Loki-1 style
    preset drives the generator too); ``make_width`` and ``odds_width`` are the DEFAULT ramp half-widths.
    """

    make1: float = 0.50
    make2: float = 0.85
    semi_bluff: bool = True
    check_raise_probability: float = 0.5
    aggressive_call_raise: float | None = None
    make_width: float = DEFAULT_MAKE_WIDTH
    odds_width: float = DEFAULT_ODDS_WIDTH

    def __post_init__(self):
        if not 0.0 <= self.make1 <= self.make2 <= 1.0:
            raise ValueError(f"need 0 ≤ make1 ≤ make2 ≤ 1, got make1={self.make1!r}, make2={self.make2!r}")
        if not (0.0 <= self.make_width <= 0.5 and 0.0 <= self.odds_width <= 0.5):
            raise ValueError(
                f"widths must be in [0, 0.5], got make_width={self.make_width!r}, odds_width={self.odds_width!r}"
            )
        if not 0.0 <= self.check_raise_probability <= 1.0:
            raise ValueError(f"check_raise_probability={self.check_raise_probability!r}: expected 0..1")

    @classmethod
    def from_bettor(
        cls, b: BettorConfig, make_width: float = DEFAULT_MAKE_WIDTH, odds_width: float = DEFAULT_ODDS_WIDTH
    ) -> TripleConfig:
        return cls(
            b.make1, b.make2, b.semi_bluff, b.check_raise_probability, b.aggressive_call_raise, make_width, odds_width
        )

    def params(self) -> np.ndarray:
        """The config packed for :func:`pt_kernel`: ``[make1, make2, make_width, odds_width, semi_bluff,
        aggressive_call_raise (−1 = off), check_raise_probability]``."""
        acr = -1.0 if self.aggressive_call_raise is None else float(self.aggressive_call_raise)
        return np.array(
            [
                self.make1,
                self.make2,
                self.make_width,
                self.odds_width,
                float(self.semi_bluff),
                acr,
                self.check_raise_probability,
            ]
        )


# ------------------------------------------------------------------------------ numba scalar
@njit(cache=True, inline="always")
def _ramp(x, t, w):
    if w <= 0.0:
        return 1.0 if x >= t else 0.0
    v = (x - (t - w)) / (2.0 * w)
    if v < 0.0:
        return 0.0
    if v > 1.0:
        return 1.0
    return v


@njit(cache=True)
def pt_kernel(
    e,
    ehs_,
    hs_n,
    ppot,
    street,
    pot,
    to_call,
    bet_size,
    bets,
    vol_in,
    can_raise,
    next_bet,
    params,
    check_raise_flag,
    semi_bluffing,
):
    """The Triple Generator for one hand (numba scalar; see the module docstring for the rules).

    Args:
        e, ehs_, hs_n, ppot: EHS', EHS, HS_n and PPot of the hand.
        street: 1 flop, 2 turn, 3 river.
        pot: chips in the pot (this round's bets included); to_call: chips to call; bet_size: B.
        bets: bets/raises this round; vol_in: the player put chips in voluntarily this round.
        can_raise: a bet/raise is legal; next_bet: next street's bet size (0 on the river).
        params: :meth:`TripleConfig.params`.
        check_raise_flag: first to act with an aggressor of the previous round behind (Bettor rule 1).
        semi_bluffing: the player semi-bluffed earlier in the hand.

    Returns:
        ``(f, c, r)`` floats, non-negative, summing to 1.
    """
    make1 = params[0]
    make2 = params[1]
    mw = params[2]
    ow = params[3]
    sb_on = params[4] > 0.5
    acr = params[5]
    pcr = params[6]
    f = 0.0
    c = 0.0
    r = 0.0
    left = 1.0
    p2 = _ramp(e, make2, mw)
    p1 = _ramp(e, make1, mw)
    if to_call <= 1e-9:
        if check_raise_flag:
            g = pcr * p2
            c += left * g
            left *= 1.0 - g
        if can_raise:
            r += left * p2
        else:
            c += left * p2
        left *= 1.0 - p2
        if bets == 0 and can_raise:
            r += left * p1
        else:
            c += left * p1
        left *= 1.0 - p1
        if sb_on and can_raise:
            g = _ramp(ppot, 2.0 * bet_size / ((pot + 4.0 * bet_size) + 2.0 * bet_size), ow)
            r += left * g
            left *= 1.0 - g
            if semi_bluffing and bets == 0:
                r += left
                left = 0.0
        c += left
        return 0.0, c, r
    # facing a bet
    if bets < 2 and can_raise:
        r += left * p2
    else:
        c += left * p2
    left *= 1.0 - p2
    # aggressive styles: this fraction of a call facing a bet (Make1 or pot odds) raises instead
    ga = _ramp(e, acr, mw) if acr >= 0.0 and can_raise else 0.0
    if not (to_call / bet_size >= 2.0 - 1e-9 and not vol_in):
        r += left * p1 * ga
        c += left * p1 * (1.0 - ga)
        left *= 1.0 - p1
    chance = hs_n if street == 3 else ppot
    g = _ramp(chance, to_call / (pot + to_call), ow)
    r += left * g * ga
    c += left * g * (1.0 - ga)
    left *= 1.0 - g
    if street >= 2:
        nb = next_bet
        g = _ramp(ehs_, (to_call + nb) / (pot + to_call + 2.0 * nb), ow)
        c += left * g
        left *= 1.0 - g
    f = left
    return f, c, r


# ------------------------------------------------------------------------------ numpy vectorised
def _ramp_np(x, t, w):
    x = np.asarray(x, dtype=np.float64)
    if w <= 0.0:
        return (x >= t).astype(np.float64)
    return np.clip((x - (t - w)) / (2.0 * w), 0.0, 1.0)


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
    """The Triple Generator for many holdings at once (vectorised numpy; same rules as :func:`pt_kernel`).

    Args:
        ehs_prime, ehs, hs_n, ppot: ``(k,)`` arrays (or floats) of the holdings' values.
        spot: the public situation of the player to act (:class:`loki.bettor.BettingSpot`).
        config: thresholds and widths.
        check_raise_flag: Bettor rule 1 applies (first to act, an aggressor of the last round behind).
        semi_bluffing: defaults to ``spot.semi_bluffing``.

    Returns:
        ``(k, 3) float64`` triples [f, c, r] (rows sum to 1).
    """
    e = np.atleast_1d(np.asarray(ehs_prime, dtype=np.float64))
    eh = np.broadcast_to(np.asarray(ehs, dtype=np.float64), e.shape)
    hn = np.broadcast_to(np.asarray(hs_n, dtype=np.float64), e.shape)
    pp = np.broadcast_to(np.asarray(ppot, dtype=np.float64), e.shape)
    cfg = config
    sb = spot.semi_bluffing if semi_bluffing is None else semi_bluffing
    k = e.shape[0]
    f = np.zeros(k)
    c = np.zeros(k)
    r = np.zeros(k)
    left = np.ones(k)
    p2 = _ramp_np(e, cfg.make2, cfg.make_width)
    p1 = _ramp_np(e, cfg.make1, cfg.make_width)
    can = spot.can_raise
    if spot.to_call <= 1e-9:
        if check_raise_flag:
            g = cfg.check_raise_probability * p2
            c += left * g
            left *= 1.0 - g
        (r if can else c)[:] += left * p2
        left *= 1.0 - p2
        (r if (spot.bets_this_round == 0 and can) else c)[:] += left * p1
        left *= 1.0 - p1
        if cfg.semi_bluff and can:
            g = _ramp_np(pp, pot_odds2(spot.pot, spot.bet_size), cfg.odds_width)
            r += left * g
            left *= 1.0 - g
            if sb and spot.bets_this_round == 0:
                r += left
                left = np.zeros(k)
        c += left
        return np.stack([f, c, r], axis=1)
    (r if (spot.bets_this_round < 2 and can) else c)[:] += left * p2
    left *= 1.0 - p2
    # aggressive styles: this fraction of a call facing a bet (Make1 or pot odds) raises instead
    ga = (
        _ramp_np(e, cfg.aggressive_call_raise, cfg.make_width) if cfg.aggressive_call_raise is not None and can else 0.0
    )
    if not (spot.to_call / spot.bet_size >= 2.0 - 1e-9 and not spot.voluntarily_in):
        r += left * p1 * ga
        c += left * p1 * (1.0 - ga)
        left *= 1.0 - p1
    chance = hn if spot.street == 3 else pp
    g = _ramp_np(chance, pot_odds(spot.pot, spot.to_call), cfg.odds_width)
    r += left * g * ga
    c += left * g * (1.0 - ga)
    left *= 1.0 - g
    if spot.street >= 2:
        nb = spot.next_bet_size if spot.next_bet_size is not None else (spot.bet_size if spot.street == 2 else 0.0)
        g = _ramp_np(eh, showdown_odds(spot.pot, spot.to_call, nb), cfg.odds_width)
        c += left * g
        left *= 1.0 - g
    f = left
    return np.stack([f, c, r], axis=1)


def generate_triple(
    values: HandValues, spot: BettingSpot, config: TripleConfig = TripleConfig(), check_raise_flag: bool = False
) -> ProbabilityTriple:
    """The PT of one hand (our own, feature B): :func:`triples_all` on one row.

    ``check_raise_flag`` is Bettor rule 1's condition (``spot.first_to_act and spot.aggressor_behind``).
    """
    t = triples_all(values.ehs_prime, values.ehs, values.hs_n, values.ppot, spot, config, check_raise_flag)[0]
    t = np.clip(t, 0.0, 1.0)
    t /= t.sum()
    return ProbabilityTriple(float(t[0]), float(t[1]), float(t[2]))


def triples_from_potentials(hs_n, ppot, npot, spot: BettingSpot, config: TripleConfig = TripleConfig()) -> np.ndarray:
    """:func:`triples_all` from per-holding HS_n, PPot, NPot arrays (EHS' and EHS derived as in §1.4)."""
    hs_n = np.asarray(hs_n, dtype=np.float64)
    ppot = np.asarray(ppot, dtype=np.float64)
    npot = np.asarray(npot, dtype=np.float64)
    e = hs_n + (1.0 - hs_n) * ppot
    eh = hs_n * (1.0 - npot) + (1.0 - hs_n) * ppot
    return triples_all(e, eh, hs_n, ppot, spot, config)


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
    board: Sequence[int], spot: BettingSpot, n_opponents: int, config: TripleConfig = TripleConfig()
) -> np.ndarray:
    """``(1326, 3)`` PT of every holding in an opponent's situation (feature R, pena/node34).

    Hand values: :func:`board_values` (HS_1, PPot1, NPot1 against a uniform range), with
    ``HS_n = HS_1 ** n_opponents`` where ``n_opponents`` is the number of other players still in the
    hand when the opponent acted (``ActionTaken.n_active − 1``), as the Bettor uses HS_n.  No
    check-raise and no semi-bluff continuation for opponents (their past intent is not known).
    Holdings clashing with the board get the triple of a zero hand (never used).
    """
    hs1, pp, nn = board_values(board)
    hs_n = hs1 ** max(1, int(n_opponents))
    return triples_from_potentials(hs_n, pp, nn, spot, config)
