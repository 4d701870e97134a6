"""Computing explanations: :func:`explain_decision` and the :class:`ExplainedPlayer` wrapper.

An :class:`ExplainedPlayer` wraps any player.  It forwards every call unchanged and, after each
:meth:`~loki.players.base.Player.act`, reads the decision record the player left (``last_decision``: a
:class:`~loki.preflop.PreflopDecision`, :class:`~loki.triples.bettor.Decision`, :class:`~loki.selector.TripleDecision`
or :class:`~loki.simulator.SimDecision`) together with its opponent models, and builds a
:class:`~loki.explain.records.DecisionExplanation`.  Around each opponent action it forwards to the player, it
keeps the weight table before and after (and, for Loki-1's ramp, the μ/σ the modeler used).

**Decision-neutral.**  Everything here only reads: :func:`loki.assessment.assess` and the rule chain are pure
functions, no random generator of the player is touched, and the player's calls happen in the same order with
the same arguments, so a wrapped player plays exactly as the bare one (tests/test_explain.py plays sessions both
ways and compares them).  An explanation that cannot be computed carries ``error`` instead of failing the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from loki.cards import CLASS_NAMES, HOLDING_CLASS, HOLDING_INDEX, format_cards
from loki.engine import Action, ActionTaken, BoardDealt, GameConfig, PlayerView, legalise
from loki.explain.grids import class_grid, likely_classes
from loki.explain.records import (
    CardBlindRecord,
    ContestOpponentRecord,
    ContestRecord,
    DecisionExplanation,
    HandValuesRecord,
    HeadsUpRecord,
    OpponentRecord,
    PreflopRecord,
    ReweightRecord,
    RuleShare,
    RulesRecord,
    SimulationRecord,
    SpotRecord,
    ThresholdsRecord,
)
from loki.modeler import ReweightDetails, Situation, reweight_details_of
from loki.players.base import Player, decider_of
from loki.preflop import GROUP_TABLE, PreflopDecision, expected_players
from loki.preflop.strategies import Strategy
from loki.triples import TripleConfig, generate_triple_with_rules
from loki.triples.rule_chain import RULES, bets_to_call_bucket, pot_odds, pot_odds2, showdown_odds
from loki.triples.spot import BettingSpot

__all__ = [
    "ExplainedPlayer",
    "ReweightNote",
    "explain_decision",
    "action_word",
    "STRATEGY_TEXT",
    "PREFLOP_MODEL_TEXT",
    "EXPLAINERS",
]

#: What each pre-flop strategy does (PAPP98 papp/node44; loki-algorithms.md §2.2).
STRATEGY_TEXT = {
    Strategy.MAKE0: "Make0: check if free, else fold",
    Strategy.CALL1: "Call1: call up to half a bet (small blind), else fold",
    Strategy.MAKE1: "Make1: bet if nobody has, call one bet; fold to two bets unless already in",
    Strategy.CALL2: "Call2: call up to a bet and a half (small blind)",
    Strategy.MAKE2: "Make2: raise while fewer than two bets, then call",
    Strategy.MAKE4: "Make4: raise to the cap",
}
_NEXT = {
    Strategy.MAKE0: Strategy.MAKE1,
    Strategy.CALL1: Strategy.MAKE1,
    Strategy.MAKE1: Strategy.MAKE2,
    Strategy.CALL2: Strategy.MAKE2,
    Strategy.MAKE2: Strategy.MAKE4,
}


def action_word(action: Action, to_call: float, bets_this_round: int) -> str:
    """The action as a person says it: fold / check / call / bet / raise.

    >>> action_word(Action.CALL, 0, 0), action_word(Action.RAISE, 0, 0), action_word(Action.RAISE, 10, 1)
    ('check', 'bet', 'raise')
    """
    if action == Action.FOLD:
        return "fold"
    if action == Action.CALL:
        return "check" if to_call <= 1e-9 else "call"
    return "bet" if bets_this_round == 0 else "raise"


@dataclass
class ReweightNote:
    """What one opponent action did to the observer's table of that opponent (kept by :class:`ExplainedPlayer`).

    Attributes:
        event: the ``ActionTaken`` event.
        before, after: ``(1326,)`` weights before and after the modeler ran.
        method: the re-weighting rule (:class:`loki.modeler.ReweightDetails`): ``"loki1"``, ``"triple"``,
            ``"specific"`` or a plug-in modeler's name.
        mu, sigma, lo, hi, frequencies: the Loki-1 ramp's parameters (None for other methods).
        model_weights: the adaptive model's candidates and their weights before the action (None otherwise).
        board: the board when the action was taken (dead cards for the grids).
    """

    event: ActionTaken
    before: np.ndarray
    after: np.ndarray
    method: str
    board: tuple[int, ...]
    mu: float | None = None
    sigma: float | None = None
    lo: float | None = None
    hi: float | None = None
    frequencies: tuple[float, float, float] | None = None
    model_weights: tuple[tuple[str, float], ...] | None = None


def _r(x: float, d: int = 6) -> float:
    return round(float(x), d)


def _spot_record(spot: BettingSpot) -> SpotRecord:
    return SpotRecord(
        street=spot.street,
        pot=float(spot.pot),
        to_call=float(spot.to_call),
        bet_size=float(spot.bet_size),
        bets_this_round=int(spot.bets_this_round),
        voluntarily_in=bool(spot.voluntarily_in),
        can_raise=bool(spot.can_raise),
        first_to_act=bool(spot.first_to_act),
        aggressor_behind=bool(spot.aggressor_behind),
        semi_bluffing=bool(spot.semi_bluffing),
    )


def _rules_record(
    values, spot: BettingSpot, cfg: TripleConfig, rule: str, triple, u: float | None, generator: str = "rules"
) -> RulesRecord:
    """The chain's per-rule shares for the record (recomputed: pure; none for the EV generator)."""
    _, contrib = generate_triple_with_rules(
        values, spot, cfg, check_raise_flag=spot.first_to_act and spot.aggressor_behind
    )
    if generator == "ev":
        contrib = np.zeros_like(contrib)
    shares = [
        RuleShare(rule=RULES[k], fold=_r(contrib[k, 0]), call=_r(contrib[k, 1]), raise_=_r(contrib[k, 2]))
        for k in range(len(RULES))
        if float(np.abs(contrib[k]).sum()) > 1e-12
    ]
    b = cfg.bettor
    th = ThresholdsRecord(
        make1=float(b.make1),
        make2=float(b.make2),
        make_width=float(cfg.make_width),
        odds_width=float(cfg.odds_width),
        pot_odds=_r(pot_odds(spot.pot, spot.to_call)),
        pot_odds2=_r(pot_odds2(spot.pot, spot.bet_size)),
        showdown_odds=_r(showdown_odds(spot.pot, spot.to_call, spot.next_bet)) if spot.to_call > 0 else 0.0,
        aggressive_call_raise=b.aggressive_call_raise,
        semi_bluff=bool(b.semi_bluff),
    )
    t = (float(triple[0]), float(triple[1]), float(triple[2]))
    return RulesRecord(
        rule=rule,
        generator=generator,
        triple=(_r(t[0]), _r(t[1]), _r(t[2])),
        u=u,
        shares=shares,
        thresholds=th,
        spot=_spot_record(spot),
    )


#: What the adaptive model does in a heads-up contest (:meth:`loki.preflop.PreflopPolicy.heads_up`).
HEADS_UP_TEXT = (
    "heads-up: raise when IR2 against the opponent's range reaches Make4 (or Make2 with fewer than two bets in); "
    "else check when free, call when the equity reaches pot odds x realization, fold otherwise"
)
#: Who decides pre-flop, as the explanations name it (:meth:`loki.preflop.PreflopPolicy.model_for`).
PREFLOP_MODEL_TEXT = {
    "expert": "the expert system",
    "adaptive": "the adaptive pre-flop model",
    "contest": "the contest valuation",
}
#: What the contest valuation does (:mod:`loki.modeler.contest`).
CONTEST_TEXT = (
    "the contest against the modelled opponents: raise when EV(raise) beats EV(call) by the margin; else check when "
    "free, call when our share of the pot reaches the pot odds x realization, fold otherwise"
)


def _contest_record(spot: Any, label: Callable[[int], int]) -> ContestRecord:
    """The :class:`ContestRecord` of a :class:`loki.modeler.contest.ContestSpot`."""
    return ContestRecord(
        opponents=[
            ContestOpponentRecord(
                seat=label(o.seat),
                play_call=_r(o.play_call),
                play_raise=_r(o.play_raise),
                reraise=_r(o.reraise),
                card_blindness=_r(o.card_blindness),
                modelled=o.modelled,
            )
            for o in spot.opponents
        ],
        equity_call=_r(spot.equity_call),
        se_call=_r(spot.se_call),
        equity_raise=_r(spot.equity_raise),
        se_raise=_r(spot.se_raise),
        pot=float(spot.pot),
        to_call=float(spot.to_call),
        bet=float(spot.bet),
        added_call=_r(spot.added_call),
        added_raise=_r(spot.added_raise),
        ev_call=_r(spot.ev_call),
        ev_raise=None if spot.ev_raise is None else _r(spot.ev_raise),
        required=_r(spot.required),
        raise_margin=float(spot.config.raise_margin),
    )


def _contest_reason(d: PreflopDecision, c: ContestRecord) -> str:
    """Why the contest valuation's decision is what it is, in one sentence (:mod:`loki.modeler.contest`)."""
    opp = ", ".join(f"seat {o.seat} (in {o.play_call:.2f}, card-blind {o.card_blindness:.2f})" for o in c.opponents)
    head = f"against {opp}, our share of the pot is {c.equity_call:.3f} if we call"
    if c.ev_raise is not None:
        gap = (c.ev_raise - c.ev_call) / c.bet if c.bet > 0 else 0.0
        head += f", {c.equity_raise:.3f} if we raise; EV(raise) − EV(call) = {gap:+.2f} bets"
        if d.action is Action.RAISE:
            return f"{head}, at least the margin {c.raise_margin:+.2f}, so it raises"
        head += f", below the margin {c.raise_margin:+.2f}"
    else:
        head += " (the betting is capped)"
    if c.to_call <= 0:
        return f"{head}; checking is free"
    if d.action is Action.CALL:
        return f"{head}; {c.equity_call:.3f} reaches the {c.required:.3f} a call needs, so it calls"
    return f"{head}; {c.equity_call:.3f} is below the {c.required:.3f} a call needs, so it folds"


def _heads_up_reason(d: PreflopDecision, th: dict[str, float], label: Callable[[int], int], can_raise: bool) -> str:
    """Why the adaptive model's heads-up decision is what it is, in one sentence (``PreflopPolicy.heads_up``)."""
    ch = d.choice
    hu = ch.heads_up
    assert hu is not None
    t2, t4 = th["MAKE2"], th["MAKE4"]
    head = (
        f"heads-up against seat {label(hu.opponent)}, the adaptive pre-flop model values the hand at "
        f"IR2 {ch.ir:.0f} against that player's {'modelled' if hu.modelled else 'uniform'} range "
        f"(equity {hu.equity:.3f})"
    )
    if d.action is Action.RAISE:
        if ch.strategy is Strategy.MAKE4:
            return f"{head}: at least the Make4 threshold {t4:.0f}, so it raises"
        return f"{head}: at least the Make2 threshold {t2:.0f} with fewer than two bets in, so it raises"
    if not can_raise:
        no_raise = "the betting is capped"
    elif ch.ir >= t2:
        no_raise = f"two bets are in and it is below the Make4 threshold {t4:.0f}"
    else:
        no_raise = f"it is below the Make2 threshold {t2:.0f}"
    if d.action is Action.CALL and hu.price <= 0:
        return f"{head}: no raise ({no_raise}), and checking is free"
    need = f"{hu.required:.3f} (pot odds {hu.price:.3f} x {hu.required / hu.price:.2f})" if hu.price > 0 else "0"
    if d.action is Action.CALL:
        return f"{head}: no raise ({no_raise}); equity {hu.equity:.3f} is at least the {need} a call needs, so it calls"
    return f"{head}: no raise ({no_raise}); equity {hu.equity:.3f} is below the {need} a call needs, so it folds"


def _strategy_reason(
    ch: Any, s: Strategy, own: float | None, nxt: Strategy | None, nxt_t: float | None, model: str
) -> str:
    """Why Figure 6.1 chose strategy ``s`` (the expert system, or the adaptive model's multi-way group)."""
    where = (
        f"IR{GROUP_TABLE[ch.group]} table for {ch.group} expected players"
        + (" as the opponents' observed play counts them" if model == "adaptive" else "")
        + f", position {ch.position}"
    )
    if own is None:
        first = "Call1" if ch.small_blind else "Make1"
        t1 = nxt_t if nxt_t is not None else float("nan")
        why = f"IR {ch.ir:.0f} is below the {first} threshold {t1:.0f}"
    else:
        why = f"IR {ch.ir:.0f} is at least the {s.name.title()} threshold {own:.0f}"
        if nxt is not None and nxt_t is not None:
            why += f" and below the {nxt.name.title()} threshold {nxt_t:.0f}"
    return f"{PREFLOP_MODEL_TEXT[model]} plays {s.name.title()}: {why} ({where})"


def _preflop_record(
    d: PreflopDecision,
    hole: tuple[int, int],
    tightness: str | None,
    model: str = "expert",
    label: Callable[[int], int] = lambda s: s + 1,
    can_raise: bool = True,
) -> PreflopRecord:
    ch = d.choice
    th = {Strategy(s).name: float(v) for s, v in ch.thresholds.items()}
    s = Strategy(ch.strategy)
    sb_extra = {}
    if ch.small_blind:  # the small blind's Call1/Call2 thresholds (DEFAULT: 100 below Make1/Make2)
        from loki.preflop import SB_CALL_MARGIN

        sb_extra = {"CALL1": th["MAKE1"] - SB_CALL_MARGIN, "CALL2": th["MAKE2"] - SB_CALL_MARGIN}
    own = {**th, **sb_extra}.get(s.name)
    nxt = _NEXT.get(s)
    if ch.small_blind and s is Strategy.MAKE0:
        nxt = Strategy.CALL1
    elif ch.small_blind and s is Strategy.MAKE1:
        nxt = Strategy.CALL2
    nxt_t = None if nxt is None else {**th, **sb_extra}.get(nxt.name)
    hu = ch.heads_up
    hu_rec = None
    contest = None
    if ch.contest is not None:
        model = "contest"
        contest = _contest_record(ch.contest, label)
        reason = _contest_reason(d, contest)
        plays = CONTEST_TEXT
    elif hu is not None:
        model = "adaptive"
        hu_rec = HeadsUpRecord(
            seat=label(hu.opponent),
            equity=_r(hu.equity),
            price=_r(hu.price),
            required=_r(hu.required),
            modelled=hu.modelled,
        )
        reason = _heads_up_reason(d, th, label, can_raise)
        plays = HEADS_UP_TEXT
    else:
        reason = _strategy_reason(ch, s, own, nxt, nxt_t, model)
        plays = STRATEGY_TEXT[s]
    return PreflopRecord(
        hand_class=CLASS_NAMES[int(HOLDING_CLASS[HOLDING_INDEX[hole[0], hole[1]]])],
        strategy=s.name,
        group=ch.group,
        expected_players=_r(
            float(ch.expected) if ch.expected == ch.expected else expected_players(ch.num_inpot, ch.num_yet_to_act), 4
        ),
        ir_table=GROUP_TABLE[ch.group],
        ir=float(ch.ir),
        thresholds=th,
        threshold=own,
        next_strategy=None if nxt is None else nxt.name,
        next_threshold=nxt_t,
        num_inpot=ch.num_inpot,
        num_yet_to_act=ch.num_yet_to_act,
        position=ch.position,
        tightness=tightness,
        small_blind=ch.small_blind,
        call_limit=ch.call_limit,
        plays=plays,
        heads_up=hu_rec,
        contest=contest,
        model=model,  # type: ignore[arg-type]
        reason=reason,
    )


def _values(view: PlayerView, models: Any, lookahead: int) -> HandValuesRecord:
    """Our hand against the field of the live opponents, as the decision saw it
    (:meth:`loki.modeler.Situation.assessment`)."""
    a = Situation(view, (), models).assessment(lookahead)
    return HandValuesRecord(
        hs=a.hs,
        hs_n=a.hs_n,
        ppot=a.ppot,
        npot=a.npot,
        ehs=a.ehs,
        ehs_prime=a.ehs_prime,
        n_opponents=a.n_opponents,
        lookahead=a.lookahead,
        ahead=a.ahead,
        tied=a.tied,
        behind=a.behind,
    )


def _opponents(
    view: PlayerView,
    models: Any,
    notes: dict[int, ReweightNote],
    names: Sequence[str] | None,
    label: Callable[[int], int] = lambda s: s + 1,
) -> list[OpponentRecord]:
    seat = view.seat
    dead = list(view.hole_cards) + list(view.board)
    out = []
    for s in range(view.n_players):
        if s == seat or s not in models:
            continue
        w = models[s].weights
        note = notes.get(s)
        rw = None
        if note is not None:
            ev = note.event
            ndead = list(view.hole_cards) + list(note.board)
            rw = ReweightRecord(
                action=action_word(Action(ev.action), ev.to_call, ev.bets),
                street=int(ev.round),
                method=note.method,  # type: ignore[arg-type]
                mu=note.mu,
                sigma=note.sigma,
                lo=note.lo,
                hi=note.hi,
                frequencies=note.frequencies,
                model_weights=None if note.model_weights is None else {k: _r(v, 4) for k, v in note.model_weights},
                changed=not np.array_equal(note.before, note.after),
                before=class_grid(note.before, ndead),
                after=class_grid(note.after, ndead),
            )
        out.append(
            OpponentRecord(
                seat=label(s),
                name=names[s] if names and s < len(names) else f"seat {label(s)}",
                live=not view.folded[s],
                weights=class_grid(w, dead),
                likely=likely_classes(w, dead),
                reweight=rw,
            )
        )
    return out


def _summary(exp: dict) -> str:
    a = exp["action"]
    pf: PreflopRecord | None = exp.get("preflop")
    if pf is not None:  # one sentence: which pre-flop model decided, and why (PreflopRecord.reason)
        return f"{a}: {pf.hand_class}: {pf.reason}"
    sim: SimulationRecord | None = exp.get("simulation")
    if sim is not None:
        cut = ", cut off early" if sim.cutoff else ""
        evs = f"{a}: EV(call) {sim.ev_call:+.1f}, EV(raise) {sim.ev_raise:+.1f} chips, EV(fold) 0"
        if sim.contest is not None and sim.trials == 0:  # the contest valuation decided alone
            return (
                f"{evs} by the contest valuation (every live opponent card-blind with probability "
                f"{sim.blind_weight:.2f})"
            )
        if sim.contest is not None:  # averaged values: no standard deviation
            return (
                f"{evs}: {1 - sim.blind_weight:.2f} x the play-outs' over {sim.trials} trials{cut} + "
                f"{sim.blind_weight:.2f} x the contest valuation's"
            )
        return (
            f"{a}: EV(call) {sim.ev_call:+.1f} ± {sim.sd_call:.1f}, EV(raise) {sim.ev_raise:+.1f} ± {sim.sd_raise:.1f}"
            f" chips, EV(fold) 0 over {sim.trials} trials{cut}"
        )
    cb: CardBlindRecord | None = exp.get("card_blind")
    if cb is not None:
        margin = f" × {cb.call_margin:.2f}" if cb.call_margin != 1.0 else ""
        why = f"above {cb.raise_equity:.2f}" if a in ("bet", "raise") else f"pot odds {cb.pot_odds:.3f}{margin}"
        seen = (
            cb.passive_text()
            if cb.passive
            else f"at {cb.actions} actions seen at showdowns its aggression and hand strength covary by "
            f"{cb.covariance:+.3f}"
        )
        return (
            f"{a}: seat {cb.opponent} is card-blind ({seen}), so the hand plays its equity against a random holding, "
            f"{cb.equity:.3f} ({why})"
        )
    rules: RulesRecord | None = exp.get("rules")
    v: HandValuesRecord | None = exp.get("values")
    if rules is not None and v is not None:
        f, c, r = rules.triple
        gen = "" if rules.generator == "rules" else f" ({rules.generator} generator)"
        return (
            f"{a}: rule '{rules.rule}'{gen} on EHS' {v.ehs_prime:.3f} (HS_n {v.hs_n:.3f}, PPot {v.ppot:.3f}); "
            f"triple [{f:.2f}, {c:.2f}, {r:.2f}]"
        )
    probs = exp.get("probabilities")
    how = f"; it draws from fold {probs[0]:.2f}, call {probs[1]:.2f}, raise {probs[2]:.2f}" if probs else ""
    return f"{a}: {exp['player']} is not made of Loki's parts, so only its action is known{how}"


def _explain_preflop(d: Any, player: Any, view: PlayerView, models: Any, exp: dict) -> bool:
    if view.round != 0:
        return False
    policy = getattr(player, "preflop", None)
    tight = getattr(policy, "tightness", None)
    try:
        model = str(policy.model_for(view)) if policy is not None else "expert"
    except Exception:  # noqa: BLE001 - a plug-in pre-flop policy without models
        model = "expert"
    if model not in PREFLOP_MODEL_TEXT:
        model = "expert"
    label = exp["_label"]
    exp["preflop"] = _preflop_record(d, view.hole_cards, tight, model, label, Action.RAISE in exp["_legal"])
    return True


def _postflop(player: Any, view: PlayerView, models: Any, exp: dict) -> Any:
    """The post-flop policy, after recording our hand's values (None: no post-flop record can be made)."""
    if view.round == 0 or models is None:
        return None
    post = getattr(player, "postflop", None)
    exp["values"] = _values(view, models, int(getattr(post, "lookahead", 1)))
    return post if post is not None else object()


def _explain_selector(d: Any, player: Any, view: PlayerView, models: Any, exp: dict) -> bool:
    post = _postflop(player, view, models, exp)
    if post is None:
        return False
    cfg = getattr(post, "triple", TripleConfig())
    gen = str(getattr(post, "generator", "rules"))
    exp["rules"] = _rules_record(d.values, d.spot, cfg, d.rule, (d.triple.f, d.triple.c, d.triple.r), d.u, gen)
    return True


def _explain_bettor(d: Any, player: Any, view: PlayerView, models: Any, exp: dict) -> bool:
    post = _postflop(player, view, models, exp)
    if post is None or d.values is None or d.spot is None:
        return False
    bcfg = getattr(post, "config", None)
    cfg = TripleConfig(make_width=0.0, odds_width=0.0, **({} if bcfg is None else {"bettor": bcfg}))
    exp["rules"] = _rules_record(d.values, d.spot, cfg, d.rule, d.triple, None)
    return True


def _explain_simulator(d: Any, player: Any, view: PlayerView, models: Any, exp: dict) -> bool:
    post = _postflop(player, view, models, exp)
    if post is None:
        return False
    res = d.result
    sc = getattr(post, "config", None)
    beliefs = d.spot.beliefs
    exp["simulation"] = SimulationRecord(
        ev_call=res.ev_call,
        ev_raise=res.ev_raise,
        sd_call=res.sd_call,
        sd_raise=res.sd_raise,
        trials=res.trials,
        max_trials=int(getattr(sc, "trials", res.trials)),
        cutoff=res.cutoff,
        cutoff_rule=res.rule,
        always_call=bool(getattr(sc, "always_call", False)),
        to_call=float(d.spot.to_call),
        can_raise=bool(d.spot.can_raise),
        play_outs="uniform" if beliefs is None else "believed",
        played_as=[] if beliefs is None else [x for x in beliefs.labels if x not in ("us", "out")],
        believed_values="field" if beliefs is None else getattr(sc, "believed_values", "field"),
        blind_weight=_r(float(getattr(d, "blind_weight", 0.0))),
        contest=None if getattr(d, "contest", None) is None else _contest_record(d.contest, exp["_label"]),
    )
    return True


def _explain_card_blind(d: Any, player: Any, view: PlayerView, models: Any, exp: dict) -> bool:
    exp["card_blind"] = CardBlindRecord(
        opponent=exp["_label"](int(d.opponent)),
        actions=int(d.evidence.actions),
        covariance=_r(d.evidence.covariance),
        strength=_r(d.evidence.strength),
        equity=_r(d.equity),
        pot_odds=_r(d.pot_odds),
        raise_equity=float(d.config.raise_equity),
        call_margin=float(d.config.call_margin),
        passive=bool(d.passive),
        answers=int(d.answers),
    )
    return True


#: How each kind of decision record is explained, by its ``kind`` (:class:`loki.players.loki.DecisionRecord`): the
#: function fills the explanation's parts and returns True, or False when the record cannot be explained here.  A
#: record of another kind is explained as ``"other"`` (its action and probabilities); a plug-in policy may add its own.
EXPLAINERS: dict[str, Callable[[Any, Any, PlayerView, Any, dict], bool]] = {
    "preflop": _explain_preflop,
    "selector": _explain_selector,
    "bettor": _explain_bettor,
    "simulator": _explain_simulator,
    "card_blind": _explain_card_blind,
}


def explain_decision(
    player: Any,
    view: PlayerView,
    legal: Sequence[Action],
    action: Action,
    hand: int | str = 1,
    names: Sequence[str] | None = None,
    notes: dict[int, ReweightNote] | None = None,
    seat_numbers: Sequence[int] | None = None,
) -> DecisionExplanation:
    """The explanation of the decision ``player`` just made in ``view`` (call it before the action is applied).

    Args:
        player: the player that acted (a :class:`~loki.players.loki.LokiPlayer` gives the full record; any other
            player an ``"other"`` record with its action and probabilities).
        view: its view at the decision (live: read now).
        legal: the legal actions it was offered.
        action: what it returned.
        hand: the hand number or id for the record; names: display names per seat.
        notes: the last re-weighting per opponent seat (:class:`ExplainedPlayer` keeps them).
        seat_numbers: the 1-based seat number shown for each engine seat (default ``seat + 1``; a log's own
            numbering, e.g. the ACPC rotation, when explaining a hand history).

    Returns:
        :class:`~loki.explain.records.DecisionExplanation`.

    Raises:
        LokiError, ValueError: inconsistent inputs (the wrapper turns them into the record's ``error``).
    """
    to_call = float(view.to_call())
    played = legalise(action, legal)
    word = action_word(played, to_call, view.bets_this_round)
    seat = view.seat

    def label(s: int) -> int:
        return int(seat_numbers[s]) if seat_numbers is not None and 0 <= s < len(seat_numbers) else s + 1

    d = getattr(player, "last_decision", None)
    models = getattr(player, "models", None)
    exp: dict[str, Any] = {
        "_label": label,
        "_legal": tuple(legal),
        "hand": hand,
        "seat": label(seat),
        "player": getattr(player, "name", type(player).__name__),
        "street": int(view.round),
        "hole": format_cards(view.hole_cards),
        "board": format_cards(view.board),
        "legal": [action_word(a, to_call, view.bets_this_round) for a in legal],
        "action": word,
        "pot": float(view.pot),
        "to_call": to_call,
    }
    probs = player.action_probabilities() if hasattr(player, "action_probabilities") else None
    if probs is not None:
        exp["probabilities"] = tuple(_r(p) for p in probs)
    explainer = EXPLAINERS.get(getattr(d, "kind", "other"))
    kind = "other"
    if explainer is not None and d is not None and explainer(d, player, view, models, exp):
        kind = d.kind
    if models is not None and len(models):
        exp["opponents"] = _opponents(view, models, notes or {}, names, label)
    exp["kind"] = kind
    exp["summary"] = _summary(exp)
    del exp["_label"], exp["_legal"]
    return DecisionExplanation(**exp)


class ExplainedPlayer(Player):
    """Any player, with an explanation of each of its decisions (module docstring: decision-neutral).

    Args:
        inner: the player to wrap.
        names: display names per seat (for the opponents' records); may be set later (``names`` attribute).
        on_explain: called with each new :class:`~loki.explain.records.DecisionExplanation` (e.g. a live view).
        keep: keep at most this many explanations in :attr:`explanations` (oldest dropped; None: all).

    Attributes:
        explanations: the explanations so far (every hand), oldest first.
        hand_explanations: this hand's explanations.
        hand_no: hands begun (1-based number of the current hand).
        hand_id: the id used in the records (default ``hand_no``; set it after ``begin_hand`` to use a log's
            hand id).
        seat_numbers: the 1-based seat number the records show for each engine seat (None: ``seat + 1``; set it
            after ``begin_hand`` to follow a log's numbering, as :func:`loki.explain.sources.explain_log` does).
    """

    def __init__(
        self,
        inner: Player,
        names: Sequence[str] | None = None,
        on_explain: Callable[[Any], None] | None = None,
        keep: int | None = None,
    ):
        self.inner = inner
        self.names = list(names) if names else None
        self.on_explain = on_explain
        self.keep = keep
        self.explanations: list[DecisionExplanation] = []
        self.hand_explanations: list[DecisionExplanation] = []
        self.hand_no = 0
        self.hand_id: int | str | None = None
        self._notes: dict[int, ReweightNote] = {}
        self._board: tuple[int, ...] = ()
        self._pending: list[int] = []  # indexes into hand_explanations waiting for their applied action
        self.seat = -1
        self.seat_numbers: Sequence[int] | None = None

    @property
    def name(self) -> str:  # type: ignore[override]
        return getattr(self.inner, "name", type(self.inner).__name__)

    def __getattr__(self, item: str) -> Any:
        if item == "inner":
            raise AttributeError(item)
        return getattr(self.inner, item)

    def begin_hand(self, seat: int, config: GameConfig, hole_cards, button: int) -> None:
        """Forwarded; a new hand of records starts."""
        self.hand_no += 1
        self.hand_id = None
        self.seat_numbers = None
        self.seat = seat
        self._notes = {}
        self._board = ()
        self._pending = []
        self.hand_explanations = []
        self.inner.begin_hand(seat, config, hole_cards, button)

    def observe(self, event) -> None:
        """Forwarded; around an opponent's action the weight table is kept before and after."""
        decider = decider_of(self.inner)
        models = getattr(decider, "models", None)
        if isinstance(event, BoardDealt):
            self._board = tuple(event.board)
        if (
            isinstance(event, ActionTaken)
            and event.seat != self.seat
            and models is not None
            and event.seat in models
            and event.action != Action.FOLD
        ):
            model = models[event.seat]
            before = np.array(model.weights, copy=True)
            modeler = getattr(decider, "modeler", None)
            game = getattr(decider, "_game", None)
            try:  # what the modeler is about to use (read before it runs)
                bucket = bets_to_call_bucket(event.to_call / game.bet_sizes[event.round]) if game is not None else 0
                details = reweight_details_of(modeler, model, event, int(bucket))
                if game is None:  # the bucket is unknown: the method only
                    details = ReweightDetails(details.method)
            except Exception:  # noqa: BLE001 - an explanation detail must never stop the game
                details = ReweightDetails(type(modeler).__name__)
            self.inner.observe(event)
            note = ReweightNote(
                event,
                before,
                np.array(models[event.seat].weights, copy=True),
                details.method,
                self._board,
                details.mu,
                details.sigma,
                details.lo,
                details.hi,
                details.frequencies,
                details.model_weights,
            )
            self._notes[event.seat] = note
            return
        self.inner.observe(event)
        if isinstance(event, ActionTaken) and event.seat == self.seat and self._pending:
            i = self._pending.pop(0)
            e = self.hand_explanations[i]
            word = action_word(Action(event.action), event.to_call, event.bets)
            self.hand_explanations[i] = e.model_copy(update={"played": word})
            for k in range(len(self.explanations) - 1, -1, -1):
                if self.explanations[k] is e:
                    self.explanations[k] = self.hand_explanations[i]
                    break

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """The wrapped player's action, unchanged; its explanation is recorded."""
        action = self.inner.act(view, legal_actions)
        hand = self.hand_id if self.hand_id is not None else self.hand_no
        try:
            decider = decider_of(self.inner)
            exp = explain_decision(
                decider, view, legal_actions, action, hand, self.names, self._notes, self.seat_numbers
            )
            if decider is not self.inner:  # a frozen player's restored copy: the record keeps the player's name
                exp = exp.model_copy(update={"player": self.name})
        except Exception as e:  # noqa: BLE001 - never let an explanation change or stop the game
            sn = self.seat_numbers
            exp = DecisionExplanation(
                hand=hand,
                seat=int(sn[view.seat]) if sn is not None and view.seat < len(sn) else view.seat + 1,
                player=self.name,
                kind="other",
                street=int(view.round),
                hole=format_cards(view.hole_cards),
                board=format_cards(view.board),
                legal=[a.name.lower() for a in legal_actions],
                action=Action.parse(action).name.lower(),
                pot=float(view.pot),
                to_call=float(view.to_call()),
                error=f"{type(e).__name__}: {e}",
            )
        self.hand_explanations.append(exp)
        self._pending.append(len(self.hand_explanations) - 1)
        self.explanations.append(exp)
        if self.keep is not None and len(self.explanations) > self.keep:
            del self.explanations[: len(self.explanations) - self.keep]
        if self.on_explain is not None:
            self.on_explain(exp)
        return action

    def end_hand(self, view: PlayerView) -> None:
        """Forwarded."""
        self.inner.end_hand(view)

    def action_probabilities(self) -> tuple[float, float, float] | None:
        """Forwarded."""
        return self.inner.action_probabilities()

    def reseat(self, mapping: dict[int, int]) -> None:
        """Forwarded."""
        self.inner.reseat(mapping)

    def __repr__(self) -> str:
        return f"<ExplainedPlayer {self.inner!r}>"
