"""Reference implementations of the betting rules, kept as independent oracles for the tests.

These are the project's earlier, separately written versions of the rules (the Bettor as a Python
priority chain of ``if`` statements, PAPP98 papp/node45-48; the Triple Generator vectorised in numpy),
before the rules were written once in :mod:`loki.triples.rule_chain`.  The tests check the single rule chain
against them on random spots; nothing in ``src/`` may import this module.
"""

from __future__ import annotations

import numpy as np

from loki.engine import Action
from loki.preflop.strategies import Strategy, strategy_action
from loki.triples.bettor import Decision
from loki.triples.rule_chain import pot_odds, pot_odds2, showdown_odds
from loki.triples.spot import BettingSpot, HandValues


def reference_decide(values: HandValues, spot: BettingSpot, config, u: float = 1.0) -> Decision:
    """Run the priority chain (module docstring) and return the action with the rule that fired.

    Args:
        values: EHS', EHS, HS_n, PPot of our hand.
        spot: the betting situation.
        config: thresholds and style knobs.
        u: a uniform random number in [0, 1) for the check-raise coin (DEFAULT rule 1); the default 1.0
            never check-raises, so the chain is deterministic unless the caller passes a draw.

    Returns:
        :class:`Decision`; never folds when checking is free, never raises when ``can_raise`` is False.
    """
    c = config
    e = values.ehs_prime
    facing = spot.to_call > 1e-9
    # aggressive styles: a call facing a bet (Make1's or pot odds') becomes a raise above this EHS'
    call_raises = facing and spot.can_raise and c.aggressive_call_raise is not None and e > c.aggressive_call_raise
    make2 = strategy_action(Strategy.MAKE2, 0.0, spot.bets_this_round, spot.voluntarily_in, spot.can_raise)
    # 1. check-raise
    if not facing and spot.first_to_act and spot.aggressor_behind and e >= c.make2 and u < c.check_raise_probability:
        return Decision(Action.CALL, "check-raise")
    # 2. strong hand: Make2
    if e >= c.make2:
        return Decision(make2, "make2")
    # 3. medium hand: Make1
    if e >= c.make1:
        to_call_bets = spot.to_call / spot.bet_size
        a = strategy_action(Strategy.MAKE1, to_call_bets, spot.bets_this_round, spot.voluntarily_in, spot.can_raise)
        if a is not Action.FOLD:
            if a is Action.CALL and call_raises:
                return Decision(Action.RAISE, "make1 (aggressive raise)")
            return Decision(a, "make1")
    # 4. semi-bluff
    if not facing and spot.can_raise and c.semi_bluff:
        if values.ppot >= pot_odds2(spot.pot, spot.bet_size):
            return Decision(Action.RAISE, "semi-bluff")
        if spot.semi_bluffing and spot.bets_this_round == 0:
            return Decision(Action.RAISE, "semi-bluff continuation")
    if facing:
        # 5. pot odds
        po = pot_odds(spot.pot, spot.to_call)
        chance = values.hs_n if spot.street == 3 else values.ppot
        if chance >= po:
            if call_raises:
                return Decision(Action.RAISE, "pot odds (aggressive raise)")
            return Decision(Action.CALL, "pot odds")
        # 6. showdown odds
        if spot.street >= 2:
            nb = spot.next_bet_size if spot.next_bet_size is not None else (spot.bet_size if spot.street == 2 else 0.0)
            if values.ehs >= showdown_odds(spot.pot, spot.to_call, nb):
                return Decision(Action.CALL, "showdown odds")
        return Decision(Action.FOLD, "fold")
    return Decision(Action.CALL, "check")


def _ramp_np(x, t, w):
    x = np.asarray(x, dtype=np.float64)
    if w <= 0.0:
        return (x >= t).astype(np.float64)
    return np.clip((x - (t - w)) / (2.0 * w), 0.0, 1.0)


def reference_triples_all(
    ehs_prime,
    ehs,
    hs_n,
    ppot,
    spot: BettingSpot,
    config,
    check_raise_flag: bool = False,
    semi_bluffing: bool | None = None,
) -> np.ndarray:
    """The Triple Generator for many holdings at once (vectorised numpy; same rules as :func:`pt_kernel`).

    Args:
        ehs_prime, ehs, hs_n, ppot: ``(k,)`` arrays (or floats) of the holdings' values.
        spot: the public situation of the player to act (:class:`loki.triples.spot.BettingSpot`).
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
    p2 = _ramp_np(e, cfg.bettor.make2, cfg.make_width)
    p1 = _ramp_np(e, cfg.bettor.make1, cfg.make_width)
    can = spot.can_raise
    if spot.to_call <= 1e-9:
        if check_raise_flag:
            g = cfg.bettor.check_raise_probability * p2
            c += left * g
            left *= 1.0 - g
        (r if can else c)[:] += left * p2
        left *= 1.0 - p2
        (r if (spot.bets_this_round == 0 and can) else c)[:] += left * p1
        left *= 1.0 - p1
        if cfg.bettor.semi_bluff and can:
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
        _ramp_np(e, cfg.bettor.aggressive_call_raise, cfg.make_width)
        if cfg.bettor.aggressive_call_raise is not None and can
        else 0.0
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


def reference_ppot_outs(c0: int, c1: int, board, nb: int) -> float:
    """The outs-count potential PPOT_c as first written (count arrays and a window loop rebuilt per rank), in
    plain Python: the oracle of the bit-mask kernel :func:`loki.assessment.outs.ppot_outs`."""
    from loki.evaluator import kernel_tables
    from loki.evaluator.kernels import hand_category, rank_from_key

    if nb >= 5:
        return 0.0
    tables = kernel_tables()
    card_key, card_bit = tables[0], tables[1]
    key = int(card_key[c0]) + int(card_key[c1])
    bits = int(card_bit[c0]) | int(card_bit[c1])
    rcnt = [0] * 13
    scnt = [0] * 4
    bmax = -1
    for i in range(nb):
        c = int(board[i])
        key += int(card_key[c])
        bits |= int(card_bit[c])
        rcnt[c >> 2] += 1
        scnt[c & 3] += 1
        bmax = max(bmax, c >> 2)
    r0, r1 = c0 >> 2, c1 >> 2
    board_rcnt = list(rcnt)
    rcnt[r0] += 1
    rcnt[r1] += 1
    scnt[c0 & 3] += 1
    scnt[c1 & 3] += 1
    cat = hand_category(rank_from_key(key, bits, tables))
    outs = 0.0
    if cat < 5:
        for s in range(4):
            if scnt[s] == 4:
                hs0, hs1 = (c0 & 3) == s, (c1 & 3) == s
                if hs0 and hs1:
                    outs += 9.0
                elif hs0 or hs1:
                    hr = r0 if hs0 else r1
                    outs += 9.0 * (0.5 + 0.5 * hr / 12.0)
    if cat < 4:
        present = sum(1 << r for r in range(13) if rcnt[r] > 0)
        n_ranks = 0
        for x in range(13):
            if (present >> x) & 1:
                continue
            m = present | (1 << x)
            ok = False
            for lo in range(-1, 9):
                win = 0
                for j in range(5):
                    rr = lo + j
                    win |= 1 << (12 if rr < 0 else rr)
                if (m & win) == win and (
                    ((win >> r0) & 1 and board_rcnt[r0] == 0)
                    or ((win >> r1) & 1 and board_rcnt[r1] == 0)
                    or x in (r0, r1)
                ):
                    ok = True
                    break
            n_ranks += ok
        outs += 4.0 * min(n_ranks, 2)
    if cat == 0:
        outs += 1.5 * (r0 > bmax) + 1.5 * (r1 > bmax)
    elif cat == 1:
        if r0 == r1 or board_rcnt[r0] > 0 or board_rcnt[r1] > 0:
            outs += 2.0
    elif cat == 2:
        if r0 != r1 and board_rcnt[r0] > 0 and board_rcnt[r1] > 0:
            outs += 4.0
    return min(outs, 20.0) / (52.0 - 2.0 - nb)


# ----------------------------------------------------------------------------------- Loki-1's modelling (numpy)
# The opponent modeler's rules as first written with numpy (PAPP98 papp/node56-60; pena/node27), before they
# were compiled into loki.modeler.kernels: the oracles of the kernels.
def reference_blended(counts: np.ndarray, round_: int, bucket: int, specific: bool = True) -> np.ndarray:
    """``(3,)`` blended [f, c, r] of a context from ``(4, 3, 3)`` counts (RECONSTRUCTED Eq. 7.4)."""
    from loki.modeler.model import BLEND_OBSERVATIONS, DEFAULT_FREQUENCIES

    d = DEFAULT_FREQUENCIES[bucket].copy()
    if not specific:
        return d
    for r in range(round_ + 1):
        cnt = counts[r, bucket]
        n = int(cnt.sum())
        if n == 0:
            continue
        f = cnt / n
        a = min(n, BLEND_OBSERVATIONS) / BLEND_OBSERVATIONS
        d = a * f + (1.0 - a) * d
    return d


def reference_mu_sigma(action: int, freqs) -> tuple[float, float]:
    """μ = f (check/call) or f + c (bet/raise), clipped; σ = max(0.05, 0.5·min(μ, 1 − μ))."""
    f, c, _ = (float(x) for x in freqs)
    mu = f if action == 1 else f + c
    mu = min(max(mu, 0.0), 1.0)
    return mu, max(0.05, 0.5 * min(mu, 1.0 - mu))


def reference_ramp_factors(values: np.ndarray, lo: float, hi: float) -> np.ndarray:
    """0.01 below ``lo``, 1 above ``hi``, linear between (numpy)."""
    v = np.asarray(values, dtype=np.float64)
    out = np.where(v >= hi, 1.0, 0.01) if hi <= lo else (v - lo) / (hi - lo)
    return np.clip(out, 0.01, 1.0)


def reference_ramp_bounds(mu: float, sigma: float, sorted_values=None) -> tuple[float, float]:
    """μ ∓ σ, or on the scale of ``sorted_values`` by nearest-point indexing (Python's round)."""
    lo, hi = mu - sigma, mu + sigma
    if sorted_values is None:
        return lo, hi
    n = len(sorted_values) - 1
    return tuple(float(sorted_values[int(round(min(max(p, 0.0), 1.0) * n))]) for p in (lo, hi))  # type: ignore[return-value]


def reference_loki1_reweight(
    round_start: np.ndarray, applied_mu: float, values: np.ndarray, action: int, freqs, sorted_values=None
) -> tuple[np.ndarray | None, float]:
    """Loki-1's re-weighting from the stored copy: ``(new weights or None if unchanged, applied μ after)``."""
    mu, sigma = reference_mu_sigma(action, freqs)
    if mu <= applied_mu or mu <= 0.0:
        return None, applied_mu
    lo, hi = reference_ramp_bounds(mu, sigma, sorted_values)
    return np.maximum(0.01, round_start * reference_ramp_factors(values, lo, hi)), mu
