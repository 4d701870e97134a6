"""The betting rules of Loki, written once: the Triple Generator's soft priority chain (numba kernels).

Loki-1's Bettor (PAPP98 papp/node45-48; PENA99 pena/node24; loki-algorithms.md §3) is a priority
chain of rules on EHS'.  Loki-2's Triple Generator (pena/node31: "translate the Bettor into pure
triples, then smooth the boundaries between actions by linear interpolation") turns every rule into a
*gate* that fires with a probability in [0, 1] given by a linear ramp around its threshold, a rule
getting only the probability left over by the rules before it::

    ramp(x, t, w) = clip((x − (t − w)) / (2w), 0, 1)          (the step x ≥ t when w = 0)
    P(rule i fires) = g_i · Π_{j<i} (1 − g_j)

This module is the **single source** of those rules.  The Bettor (:func:`loki.triples.bettor.decide`) is the
chain with zero widths (a pure triple, plus the check-raise coin); the Triple Generator
(:mod:`loki.triples`) is the chain with the DEFAULT widths, for our own hand (feature B), for every
holding of an opponent (feature R, :func:`chain_all`) and for every player inside the Simulator's
play-outs (:func:`pt_kernel`).

The rules, in chain order (e = EHS', chance = PPot on the flop/turn and HS_n on the river); each row
of :data:`RULES` is one (rule, action) outcome of the chain:

checking is free (never folds)
    0. ``check-raise`` (only with ``check_raise_flag``: first to act, an aggressor of the previous
       round behind us; DEFAULT rule 6): ``p_cr · ramp(e, make2)`` → check;
    1. ``make2``: ``ramp(e, make2)`` → bet (check if betting is capped);
    2. ``make1``: ``ramp(e, make1)`` → bet if nobody has bet and betting is allowed, else check;
    4. ``semi-bluff`` (if enabled and betting allowed): ``ramp(PPot, Pot_Odds2, odds_width)`` → bet,
       Pot_Odds2 = 2B / ((pot + 4B) + 2B) (PAPP98 Eq. 6.5);
    5. ``semi-bluff continuation``: we semi-bluffed earlier and nobody has bet → bet;
    9. ``check``: the rest.
facing a bet
    1. ``make2``: raise if fewer than 2 bets this round and raising is allowed, else call;
    2./3. ``make1``: call, unless facing 2+ bets without having put chips in voluntarily this round
       (Make1's fold rule: the gate stays closed); with ``aggressive_call_raise`` set, the part
       ``ramp(e, aggressive_call_raise)`` of the call raises instead (``make1 (aggressive raise)``);
    6./7. ``pot odds``: ``ramp(chance, to_call / (pot + to_call), odds_width)`` → call (PAPP98 Eq. 6.6,
       RECONSTRUCTED), the aggressive part raising (``pot odds (aggressive raise)``);
    8. ``showdown odds`` (turn and river; DEFAULT formula): ``ramp(EHS, (to_call + B_next) /
       (pot + to_call + 2·B_next), odds_width)`` → call;
    10. ``fold``: the rest.

The aggressive-raise gate is a strict step ``e > t`` at zero width (the Bettor's rule: a call turns
into a raise only *above* the threshold); every other gate is ``x ≥ t`` at zero width.

Kernels take the configuration as a typed record, :class:`TripleParams` (a named tuple numba
compiles as a struct), built by :meth:`loki.triples.TripleConfig.params`.

>>> p = TripleParams(0.5, 0.85, 0.0, 0.0, True, -1.0, 0.5, 0.0, 0.0, 0.0, 0.0)
>>> f, c, r = pt_kernel(0.9, 0.9, 0.9, 0.1, 1, 40.0, 0.0, 10.0, 0, False, True, 20.0, p, False, False)
>>> (f, c, r)
(0.0, 0.0, 1.0)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from loki._jit import njit

__all__ = [
    "TripleParams",
    "ramp",
    "ramp2",
    "ramp_above",
    "implied_pot_odds",
    "pot_odds",
    "pot_odds2",
    "showdown_odds",
    "semi_bluff_gate",
    "bets_to_call_bucket",
    "RULES",
    "RULE_ACTIONS",
    "N_RULES",
    "pt_kernel",
    "chain_rules",
    "chain_all",
    "attribute",
    "spot_args",
    "chain_spot",
    "params_row",
]


class TripleParams(NamedTuple):
    """The Triple Generator's parameters as the kernels read them (all thresholds on the 0..1 scale).

    Attributes:
        make1: EHS' to bet/call (PAPP98 papp/node76: 0.50).
        make2: EHS' to raise (papp/node76: 0.85).
        make_width: ramp half-width around make1/make2 and the aggressive-raise threshold (0 = Bettor).
        odds_width: ramp half-width around Pot_Odds, Pot_Odds2 and the showdown odds (0 = Bettor).
        semi_bluff: rule 4 enabled.
        aggressive_call_raise: EHS' above which a call facing a bet raises instead; < 0 = off.
        check_raise_probability: chance of checking a strong hand to check-raise (DEFAULT 0.5).
        make_above, odds_above: the ramps' half-widths *above* their thresholds (the widths above are the ones
            below unless a generator form says otherwise: :class:`loki.triples.GeneratorForm`); a ramp reaches the
            aggressive action at ``t + above`` and starts at ``t − width``.
        implied: next-street bets added to the pot of a flop or turn pot-odds call (implied odds; 0 = Eq. 6.6).
        bluff: the chance that a hand no other rule bets bets when nobody has bet (0 = never).
    """

    make1: float
    make2: float
    make_width: float
    odds_width: float
    semi_bluff: bool
    aggressive_call_raise: float
    check_raise_probability: float
    make_above: float
    odds_above: float
    implied: float
    bluff: float


def params_row(p: TripleParams) -> np.ndarray:
    """``(11,) float64``: ``p`` as the row the play-out kernels read by position, one column per field of
    :class:`TripleParams` in its order (``semi_bluff`` as 1.0 / 0.0); the reader is
    :func:`loki.simulator.playout._row_params`, and a test ties the two field by field.

    >>> params_row(TripleParams(0.5, 0.85, 0.05, 0.05, True, -1.0, 0.5, 0.05, 0.05, 0.0, 0.0))[:5].tolist()
    [0.5, 0.85, 0.05, 0.05, 1.0]
    """
    return np.array([float(getattr(p, f)) for f in TripleParams._fields], dtype=np.float64)


#: Rule outcomes of the chain, in chain order (index = rule id reported by the kernels).
RULES = (
    "check-raise",
    "make2",
    "make1",
    "make1 (aggressive raise)",
    "semi-bluff",
    "semi-bluff continuation",
    "pot odds",
    "pot odds (aggressive raise)",
    "showdown odds",
    "check",
    "fold",
    "bluff",
)
N_RULES = len(RULES)
#: The action column (0 fold, 1 check/call, 2 bet/raise) a rule's mass goes to when it is fixed by the
#: rule itself; ``make2`` and ``make1`` go to call or raise depending on the spot (-1 here).
RULE_ACTIONS = (1, -1, -1, 2, 2, 2, 1, 2, 1, 1, 0, 2)

_CR, _MAKE2, _MAKE1, _MAKE1_AGG, _SB, _SB_CONT, _PO, _PO_AGG, _SD, _CHECK, _FOLD, _BLUFF = range(N_RULES)


@njit(cache=True, inline="always")
def ramp(x, t, w):
    """The soft gate: ``clip((x − (t − w)) / (2w), 0, 1)``, the step ``x ≥ t`` when ``w = 0`` (pena/node31)."""
    if w <= 0.0:
        return 1.0 if x >= t else 0.0
    v = (x - (t - w)) / (2.0 * w)
    if v < 0.0:
        return 0.0
    if v > 1.0:
        return 1.0
    return v


@njit(cache=True, inline="always")
def ramp2(x, t, below, above):
    """The soft gate with its own half-widths below and above the threshold: ``clip((x − (t − below)) / (below +
    above), 0, 1)``, the step ``x ≥ t`` when both are 0; :func:`ramp` when they are equal (the same floats)."""
    if below <= 0.0 and above <= 0.0:
        return 1.0 if x >= t else 0.0
    v = (x - (t - below)) / (below + above)
    if v < 0.0:
        return 0.0
    if v > 1.0:
        return 1.0
    return v


@njit(cache=True, inline="always")
def ramp_above(x, t, w):
    """The aggressive-raise gate: :func:`ramp`, but a strict step ``x > t`` at zero width (the Bettor "raises above
    EHS' t")."""
    if w <= 0.0:
        return 1.0 if x > t else 0.0
    return ramp(x, t, w)


@njit(cache=True, inline="always")
def pot_odds(pot, to_call):
    """Pot_Odds = to_call / (pot + to_call), PAPP98 Eq. 6.6 (RECONSTRUCTED from the $20 pot / $4 call example); ``pot``
    includes the opponent's bet; 0 when checking is free.  Chips in, a probability out.

    >>> round(pot_odds(20.0, 4.0), 4)
    0.1667
    """
    return to_call / (pot + to_call) if to_call > 0 else 0.0


@njit(cache=True, inline="always")
def implied_pot_odds(pot, to_call, next_bet, implied):
    """Pot_Odds with implied odds (a generator form, DEFAULT): ``to_call / (pot + to_call + implied · B_next)``, the
    price of a call when ``implied`` more bets of the next street are expected to be won; :func:`pot_odds` at 0."""
    return to_call / (pot + to_call + implied * next_bet) if to_call > 0 else 0.0


@njit(cache=True, inline="always")
def pot_odds2(pot, bet_size):
    """Pot_Odds2 = 2B / ((pot + 4B) + 2B), PAPP98 Eq. 6.5: the odds a semi-bluff needs (we could call a bet and a
    raise).  Chips in (``bet_size`` = B), a probability out.

    >>> round(pot_odds2(40.0, 10.0), 4)
    0.2
    """
    return 2.0 * bet_size / ((pot + 4.0 * bet_size) + 2.0 * bet_size)


@njit(cache=True, inline="always")
def showdown_odds(pot, to_call, next_bet):
    """DEFAULT showdown odds (loki-algorithms.md §3 rule 5): (to_call + B_next) / (pot + to_call + 2·B_next), one more
    bet of the next street that the opponent also calls.  Chips in, a probability out."""
    return (to_call + next_bet) / (pot + to_call + 2.0 * next_bet)


@njit(cache=True, inline="always")
def semi_bluff_gate(e, ppot, pot, bet_size, params):
    """Whether a bet with EHS' ``e`` and PPot ``ppot`` is a semi-bluff (rule 4, PAPP98 Eq. 6.5), so that the player
    keeps betting in later rounds while nobody else bets (rule 5): semi-bluffs enabled, ``e`` below the Make1 ramp
    (``make1 − make_width``) and ``ppot`` at least ``Pot_Odds2 − odds_width``.  DEFAULT: only such a bet counts (the
    Action Selector's players and the believed play-out track it the same way).

    >>> p = TripleParams(0.5, 0.85, 0.05, 0.05, True, -1.0, 0.5, 0.05, 0.05, 0.0, 0.0)
    >>> semi_bluff_gate(0.3, 0.3, 40.0, 10.0, p), semi_bluff_gate(0.6, 0.3, 40.0, 10.0, p)
    (True, False)
    """
    return (
        params.semi_bluff
        and e < params.make1 - params.make_width
        and ppot >= pot_odds2(pot, bet_size) - params.odds_width
    )


@njit(cache=True, inline="always")
def bets_to_call_bucket(to_call_bets):
    """Context bucket of an amount to call, in bets: 0, 1 or 2 (= 2 or more); the small blind's half bet counts as 1.
    The frequencies of the Opponent Modeler and of the play-out's frequency expert are kept by it (papp/node56).

    >>> [int(bets_to_call_bucket(x)) for x in (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)]
    [0, 1, 1, 1, 2, 2]
    """
    if to_call_bets <= 1e-9:
        return 0
    return 1 if to_call_bets < 2.0 - 1e-9 else 2


@njit(cache=True, inline="always")
def _give(contrib, rule, raise_it, mass, c, r):
    # one rule's probability mass goes to the raise (or else the call) column
    if raise_it:
        r += mass
    else:
        c += mass
    if contrib is not None:
        contrib[rule, 2 if raise_it else 1] += mass
    return c, r


@njit(cache=True, inline="always")
def _split(contrib, rule_call, rule_raise, mass, ga, c, r):
    # a call rule whose part ``ga`` raises instead (aggressive styles)
    r += mass * ga
    c += mass * (1.0 - ga)
    if contrib is not None:
        contrib[rule_raise, 2] += mass * ga
        contrib[rule_call, 1] += mass * (1.0 - ga)
    return c, r


@njit(cache=True)
def chain_rules(e, ehs_, hs_n, ppot, street, pot, to_call, bet_size, bets, vol_in, can_raise, next_bet, params,
                check_raise_flag, semi_bluffing, contrib):  # fmt: skip
    """The soft priority chain for one hand; optionally records each rule's share of each action.

    Args:
        e, ehs_, hs_n, ppot: EHS', EHS, HS_n and PPot of the hand (0..1).
        street: 1 flop, 2 turn, 3 river.
        pot: chips in the pot (this round's bets included); to_call: chips to call; bet_size: B (chips).
        bets: bets/raises this round; vol_in: the player put chips in voluntarily this round.
        can_raise: a bet/raise is legal; next_bet: next street's bet size in chips (0 on the river).
        params: :class:`TripleParams`.
        check_raise_flag: first to act with an aggressor of the previous round behind (rule 0).
        semi_bluffing: the player semi-bluffed earlier in the hand (rule 5).
        contrib: ``(N_RULES, 3) float64`` zeroed array that receives ``P(rule fires and action)``, or
            ``None`` to skip the bookkeeping (numba then compiles it away).

    Returns:
        ``(f, c, r)`` floats, non-negative, summing to 1.
    """
    mw = params.make_width
    ow = params.odds_width
    ma = params.make_above
    oa = params.odds_above
    c = 0.0
    r = 0.0
    left = 1.0
    p2 = ramp2(e, params.make2, mw, ma)
    p1 = ramp2(e, params.make1, mw, ma)
    if to_call <= 1e-9:  # checking is free: never folds
        if check_raise_flag:
            g = params.check_raise_probability * p2
            c, r = _give(contrib, _CR, False, left * g, c, r)
            left *= 1.0 - g
        c, r = _give(contrib, _MAKE2, can_raise, left * p2, c, r)
        left *= 1.0 - p2
        c, r = _give(contrib, _MAKE1, bets == 0 and can_raise, left * p1, c, r)
        left *= 1.0 - p1
        if params.semi_bluff and can_raise:
            g = ramp2(ppot, pot_odds2(pot, bet_size), ow, oa)
            c, r = _give(contrib, _SB, True, left * g, c, r)
            left *= 1.0 - g
            if semi_bluffing and bets == 0:
                c, r = _give(contrib, _SB_CONT, True, left, c, r)
                left = 0.0
        if params.bluff > 0.0 and bets == 0 and can_raise:
            c, r = _give(contrib, _BLUFF, True, left * params.bluff, c, r)
            left *= 1.0 - params.bluff
        c, r = _give(contrib, _CHECK, False, left, c, r)
        return 0.0, c, r
    # facing a bet
    c, r = _give(contrib, _MAKE2, bets < 2 and can_raise, left * p2, c, r)
    left *= 1.0 - p2
    acr = params.aggressive_call_raise
    ga = ramp_above(e, acr, mw) if acr >= 0.0 and can_raise else 0.0  # symmetric: a style knob, not a form
    if not (to_call / bet_size >= 2.0 - 1e-9 and not vol_in):  # Make1's fold rule closes the gate
        c, r = _split(contrib, _MAKE1, _MAKE1_AGG, left * p1, ga, c, r)
        left *= 1.0 - p1
    chance = hs_n if street == 3 else ppot
    po = pot_odds(pot, to_call) if street == 3 else implied_pot_odds(pot, to_call, next_bet, params.implied)
    g = ramp2(chance, po, ow, oa)
    c, r = _split(contrib, _PO, _PO_AGG, left * g, ga, c, r)
    left *= 1.0 - g
    if street >= 2:
        g = ramp2(ehs_, showdown_odds(pot, to_call, next_bet), ow, oa)
        c, r = _give(contrib, _SD, False, left * g, c, r)
        left *= 1.0 - g
    if contrib is not None:
        contrib[_FOLD, 0] += left
    return left, c, r


@njit(cache=True)
def pt_kernel(e, ehs_, hs_n, ppot, street, pot, to_call, bet_size, bets, vol_in, can_raise, next_bet, params,
              check_raise_flag, semi_bluffing):  # fmt: skip
    """The Triple Generator for one hand, ``(f, c, r)`` (:func:`chain_rules` without the bookkeeping).

    Used by every player inside the Simulator's play-outs (AAAI99 §5).  Arguments as :func:`chain_rules`.
    """
    return chain_rules(e, ehs_, hs_n, ppot, street, pot, to_call, bet_size, bets, vol_in, can_raise, next_bet,
                       params, check_raise_flag, semi_bluffing, None)  # fmt: skip


@njit(cache=True)
def chain_all(e, ehs_, hs_n, ppot, street, pot, to_call, bet_size, bets, vol_in, can_raise, next_bet, params,
              check_raise_flag, semi_bluffing, out):  # fmt: skip
    """The chain over many holdings: ``out[i] = (f, c, r)`` of holding ``i``.

    Args:
        e, ehs_, hs_n, ppot: ``(k,) float64`` hand values of the holdings.
        out: ``(k, 3) float64`` output.
        the rest: the public spot, as :func:`chain_rules` (the same for every holding).
    """
    for i in range(e.shape[0]):
        f, c, r = chain_rules(e[i], ehs_[i], hs_n[i], ppot[i], street, pot, to_call, bet_size, bets, vol_in,
                              can_raise, next_bet, params, check_raise_flag, semi_bluffing, None)  # fmt: skip
        out[i, 0] = f
        out[i, 1] = c
        out[i, 2] = r


def spot_args(spot) -> tuple:
    """The public spot's arguments of the kernels, ``(street, pot, to_call, bet_size, bets, vol_in, can_raise,
    next_bet)``, from a :class:`loki.triples.spot.BettingSpot`."""
    return (
        int(spot.street),
        float(spot.pot),
        float(spot.to_call),
        float(spot.bet_size),
        int(spot.bets_this_round),
        bool(spot.voluntarily_in),
        bool(spot.can_raise),
        float(spot.next_bet),
    )


def chain_spot(values, spot, params: TripleParams, check_raise_flag: bool, contrib: np.ndarray | None = None):
    """:func:`chain_rules` for one hand given as a :class:`loki.triples.spot.HandValues` in a
    :class:`loki.triples.spot.BettingSpot` (its ``semi_bluffing`` flag included); returns ``(f, c, r)``."""
    return chain_rules(
        values.ehs_prime,
        values.ehs,
        values.hs_n,
        values.ppot,
        *spot_args(spot),
        params,
        bool(check_raise_flag),
        bool(spot.semi_bluffing),
        contrib,
    )


def attribute(contrib: np.ndarray, action: int, u: float, f: float, c: float) -> int:
    """The rule that produced ``action`` when the Action Selector drew ``u`` (AAAI99 §4).

    The selector maps ``u`` to fold on ``[0, f)``, call on ``[f, f + c)``, raise on ``[f + c, 1)``; inside the
    chosen action's interval the rules' shares of that action are laid out in chain order, and the rule
    whose share contains ``u`` is the one that fired.  For a pure triple this is the single rule that gives
    the action (the Bettor's rule).

    Args:
        contrib: ``(N_RULES, 3)`` shares from :func:`chain_rules`.
        action: 0 fold, 1 check/call, 2 bet/raise (the action taken, possibly after legalising).
        u: the selector's uniform number in [0, 1).
        f, c: the triple's fold and call probabilities.

    Returns:
        the rule id (index into :data:`RULES`); the last rule with a share of ``action`` when ``u`` falls
        outside its interval (e.g. a fold turned into a check), -1 if no rule gives ``action``.
    """
    start = (0.0, f, f + c)[action]
    x = u - start
    last = -1
    for rule in range(N_RULES):
        m = float(contrib[rule, action])
        if m <= 0.0:
            continue
        last = rule
        if x < m:
            return rule
        x -= m
    return last
