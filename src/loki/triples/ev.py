"""A Triple Generator that weighs what each action is worth (the EV-based generator; all **DEFAULT**).

AAAI99 §4 says Loki-2's generator "out-performs our previous best rule-based betting strategy"; the Bettor's rules
in triple form (:mod:`loki.triples.rule_chain`) barely differ from the Bettor.  This generator keeps the same inputs —
HS_n, PPot, NPot, EHS, EHS' against the field of the opponents' weight tables, pot odds, bets to call — adds what
the opponent models know (each live opponent's fold frequency facing a bet), and turns a one-step estimate of the
money each action wins from now on into a probability triple:

* ``p = EHS`` (our chance to win at the showdown against the believed field), ``P`` the pot, ``C`` the amount to
  call, ``B`` the bet, ``B'`` the next street's bet, ``k`` the streets still to come, ``n`` the live opponents;
* implied odds: ``I = k · β · B' · (2p − 1)`` (on each later street about ``β`` bets change hands, won with our
  chance ``p``);
* ``EV(fold) = 0`` (only when facing a bet); ``EV(call) = p · (P + C) − C + I``;
* ``EV(raise) = φ · P + (1 − φ) · [p' · (P + C + B + m · (B + C_o)) − (C + B) + I']`` where ``φ = Π φ_o`` is the
  chance every live opponent folds to the raise (``φ_o``: its blended fold frequency facing a bet in this round),
  ``m = Σ (1 − φ_o)`` the expected callers, ``C_o`` what each of them had to call before our raise (``≈ C``), and
  ``p' = p · δ`` our chance against the stronger range that calls a raise (``δ``; or measured against the callers'
  ranges), ``I'`` the implied odds with ``p'``;
* the triple is the softmax ``π(a) ∝ exp(EV(a) / (τ · B))`` over the legal actions: nearly pure when one action is
  worth much more, mixed when the estimates are close (the temperature is in bets of the street);
* slow play: with ``p ≥ slowplay_strength`` and nothing to call, the raise's share moves to a check with
  probability ``slowplay``; bluffs come out of the fold equity ``φ`` (a weak hand may bet when ``φ · P`` pays).

A second design, :func:`calling_triple` (``generator = "calling"``), keeps the rule chain's triple and only lets
the call estimate overrule its folds: facing a bet, the fold share moves to a call with probability
``logistic(EV(call) / (τ · B))``; it adds the same slow-play and a bluff frequency (``bluff``: a share of the
checks of hands below ``make1`` bet when the fold equity ``φ`` is at least ``bluff_fold_equity``).

The Bettor-like generator (:mod:`loki.triples.rule_chain`) stays selectable (``Loki2Config.generator = "rules"``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import Field

from loki.config import LokiModel, tunable
from loki.triples.generator import ProbabilityTriple
from loki.triples.spot import BettingSpot, HandValues

__all__ = ["EVGeneratorConfig", "ActionEVs", "action_evs", "ev_triple", "calling_triple"]


class EVGeneratorConfig(LokiModel):
    """DEFAULTs of the EV Triple Generator (module docstring; tuned on seeds ≥ 1000).

    Attributes:
        implied: β, bets changing hands per later street (implied odds).
        caller_discount: δ, our relative chance against a range that calls a raise.
        temperature: τ, the softmax temperature in bets of the street.
        slowplay: chance of checking a very strong hand when nothing is to call.
        slowplay_strength: EHS from which a hand counts as very strong.
        bluff: share of the checks of weak hands that bet when the fold equity is high (``"calling"`` design).
        bluff_fold_equity: the fold equity φ from which it bluffs.
    """

    implied: float = tunable(0.5, 0.0, 2.0, source="DEFAULT", ge=0.0, le=4.0)
    caller_discount: float = Field(0.85, gt=0.0, le=1.0)
    temperature: float = tunable(0.35, 0.05, 2.0, source="DEFAULT", log=True, gt=0.0, le=10.0)
    slowplay: float = tunable(0.15, 0.0, 0.5, source="DEFAULT", ge=0.0, le=1.0)
    slowplay_strength: float = tunable(0.9, 0.7, 1.0, source="DEFAULT", ge=0.0, le=1.0)
    bluff: float = tunable(0.10, 0.0, 0.5, source="DEFAULT", ge=0.0, le=1.0)
    bluff_fold_equity: float = tunable(0.4, 0.1, 0.9, source="DEFAULT", ge=0.0, le=1.0)


@dataclass(frozen=True)
class ActionEVs:
    """The estimates behind a triple, in chips won from now on: ``fold`` (None when checking is free), ``call``,
    ``raise_`` (None when capped), and the fold equity ``phi`` the raise assumed."""

    fold: float | None
    call: float
    raise_: float | None
    phi: float


def action_evs(
    values: HandValues,
    spot: BettingSpot,
    fold_frequencies: Sequence[float],
    config: EVGeneratorConfig,
    p_called: float | None = None,
) -> ActionEVs:
    """One-step EV estimates of fold, check/call and bet/raise (module docstring).

    Args:
        values: our hand against the field (EHS is the win chance ``p``).
        spot: the public betting situation (chips).
        fold_frequencies: each live opponent's fold frequency facing a bet this round (0..1).
        config: the DEFAULTs.
        p_called: our win chance against the ranges that call the raise (e.g. EHS against each opponent's table
            without its bottom ``φ_o``); default ``p · δ``.
    """
    p = min(max(values.ehs, 0.0), 1.0)
    P, C, B = spot.pot, spot.to_call, spot.bet_size
    k = 3 - spot.street
    implied = k * config.implied * spot.next_bet * (2.0 * p - 1.0) if k > 0 else 0.0
    ev_call = p * (P + C) - C + implied
    ev_raise = None
    phi = 1.0
    for f in fold_frequencies:
        phi *= min(max(float(f), 0.0), 1.0)
    if spot.can_raise:
        callers = sum(1.0 - min(max(float(f), 0.0), 1.0) for f in fold_frequencies)
        pp = p * config.caller_discount if p_called is None else min(max(p_called, 0.0), 1.0)
        showdown = pp * (P + C + B + callers * (B + C)) - (C + B)
        implied_called = k * config.implied * spot.next_bet * (2.0 * pp - 1.0) if k > 0 else 0.0
        ev_raise = phi * P + (1.0 - phi) * (showdown + implied_called)
    ev_fold = 0.0 if C > 1e-9 else None
    return ActionEVs(ev_fold, ev_call, ev_raise, phi)


def ev_triple(
    values: HandValues,
    spot: BettingSpot,
    fold_frequencies: Sequence[float],
    config: EVGeneratorConfig = EVGeneratorConfig(),
    p_called: float | None = None,
) -> tuple[ProbabilityTriple, ActionEVs]:
    """The EV generator's probability triple for our hand (module docstring), with the estimates behind it.

    >>> spot = BettingSpot(street=3, pot=100.0, to_call=20.0, bet_size=20.0, bets_this_round=1)
    >>> t, evs = ev_triple(HandValues(ehs_prime=0.05, ehs=0.05, hs_n=0.05, ppot=0.0), spot, [0.0])
    >>> t.f > 0.8 and evs.call < 0 and evs.raise_ < evs.call
    True
    """
    evs = action_evs(values, spot, fold_frequencies, config, p_called)
    scale = config.temperature * spot.bet_size
    cands = [(0, evs.fold), (1, evs.call), (2, evs.raise_)]
    live = [(a, v) for a, v in cands if v is not None]
    top = max(v for _, v in live)
    probs = [0.0, 0.0, 0.0]
    for a, v in live:
        probs[a] = math.exp((v - top) / scale)
    total = sum(probs)
    probs = [x / total for x in probs]
    if spot.to_call <= 1e-9 and values.ehs >= config.slowplay_strength and probs[2] > 0.0:
        moved = probs[2] * config.slowplay
        probs[2] -= moved
        probs[1] += moved
    s = sum(probs)
    return ProbabilityTriple(probs[0] / s, probs[1] / s, probs[2] / s), evs


def calling_triple(
    rules: ProbabilityTriple,
    values: HandValues,
    spot: BettingSpot,
    fold_frequencies: Sequence[float],
    make1: float,
    config: EVGeneratorConfig = EVGeneratorConfig(),
) -> tuple[ProbabilityTriple, ActionEVs]:
    """The ``"calling"`` design (module docstring): the rule chain's triple ``rules`` with its folds overruled by the
    call estimate, plus slow-play and bluff frequencies.

    >>> spot = BettingSpot(street=3, pot=200.0, to_call=20.0, bet_size=20.0, bets_this_round=1)
    >>> t, _ = calling_triple(ProbabilityTriple(1.0, 0.0, 0.0), HandValues(0.3, 0.3, 0.3, 0.0), spot, [0.3], 0.5)
    >>> t.c > 0.9  # 30 % to win a 200 pot for 20: call
    True
    """
    evs = action_evs(values, spot, fold_frequencies, config)
    f, c, r = rules.f, rules.c, rules.r
    scale = config.temperature * spot.bet_size
    if spot.to_call > 1e-9:
        x = max(-50.0, min(50.0, evs.call / scale))
        keep = 1.0 / (1.0 + math.exp(-x))
        c += f * keep
        f -= f * keep
    else:
        if values.ehs >= config.slowplay_strength and r > 0.0:
            moved = r * config.slowplay
            r -= moved
            c += moved
        elif spot.can_raise and values.ehs_prime < make1 and evs.phi >= config.bluff_fold_equity:
            moved = c * config.bluff
            c -= moved
            r += moved
    s = f + c + r
    return ProbabilityTriple(f / s, c / s, r / s), evs
