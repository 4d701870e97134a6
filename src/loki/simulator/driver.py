"""Loki-2's selective-sampling Simulator (feature S; AAAI99 §5; PENA99 pena/node40-46; reference §6).

For one decision it estimates EV(check/call) and EV(bet/raise); EV(fold) = 0.  Money is counted from
the decision point on (chips already in the pot are sunk).  Up to ``trials`` (default 500) trials:

1. **Selective sampling**: each live opponent, one after another in acting order, gets a holding
   drawn in proportion to its weight table among the holdings that share no card with our hand,
   the board or the holdings already drawn (roulette wheel: rejection from the cumulative weights,
   exact, with a linear-scan fallback; a table with no live weight falls back to uniform).
2. The rest of the board is dealt uniformly from the remaining deck.
3. The trial is **played out twice** from the decision point, our first action forced to
   check/call, then to bet/raise, with the *same* cards and the same per-player random numbers
   (common random numbers).  Afterwards every player, us included, acts by sampling its PT
   (:func:`loki.triples.pt_kernel`) with one uniform number per player per trial, reused for all its
   decisions of the trial (the Action Selector's rule); or, in the **always-call** variant
   (pena/node46), everyone just checks/calls to the showdown.

The play-out is a numba kernel (:mod:`loki.simulator.playout`; this module is the Python driver) whose betting
(acting order, cap, legal actions, pot, payoff with the ``"split"`` rule) is the :mod:`loki.betting`
core the rules engine uses too; :func:`spot_state` turns a :class:`SimSpot` into its state vector.
Hand values inside the play-out (the paper recomputes HS and potential for every active hand at
every new card, too slow here) use these **DEFAULT approximations**:

* on the street of the decision: exact HS_1, PPot1, NPot1 of each sampled holding against a uniform
  range (:func:`loki.triples.board_values`, computed once per board and shared with feature R);
* on later streets of the play-out: HS_1 against a uniform range from one ranking of all
  holdings on the sampled board (exact for that board, with card removal of the holding's own
  cards; shared by the call and raise branches), and the cheap outs potential
  :func:`~loki.assessment.outs.ppot_outs` (reference §4.4 DEFAULT PPOT_c); NPot = 0 there (so EHS = EHS');
* HS_n = HS_1 ** (active players − 1); no check-raise or semi-bluff continuation in the play-out;
  unlimited stacks; bet sizes and the cap from the game.

**Obvious-move cut-off** (checked every ``check_every`` trials once ``min_trials`` are done):

* ``"paper"``: ``EV_best − EV_second > sd_best + sd_second`` with per-trial standard deviations
  (fold: EV 0, sd 0), as in AAAI99 §5 / pena/node44;
* ``"paired"``: the more liberal, statistically sound rule: the best action beats every other
  legal action on the paired per-trial differences (common random numbers make call and raise
  outcomes strongly correlated) by a one-sided z-test, ``mean(d) − z·sd(d)/√n > 0`` with
  ``z = 3`` (per-look error 0.00135; the default 500 trials look 18 times, first at 50 and then every 25, and with
  2 comparisons a look the overall error is at most 18 · 2 · 0.00135 = 0.049 by Bonferroni; more trials look more
  often and the bound grows with the looks: 5,000 trials, 198 looks, 0.53);
* ``"none"``.

Decision: the highest EV, ties going to the more aggressive action (call over fold, raise over call).
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Literal

import numpy as np
from pydantic import Field

from loki import betting as bt
from loki.cards import N_HOLDINGS, live_holdings
from loki.config import LokiModel, derived, tunable
from loki.engine import Action
from loki.errors import CardError, InputError, RangeError
from loki.evaluator import kernel_tables
from loki.simulator.playout import (
    RULE_NONE,
    RULE_PAIRED,
    RULE_PAPER,
    PlayoutPolicies,
    PlayoutRanges,
    PlayoutSpot,
    board_cache,
    sampling_wheel,
    sim_decision,
)
from loki.triples import TripleConfig, board_values
from loki.triples.rule_chain import TripleParams, params_row

__all__ = [
    "SimSpot",
    "spot_state",
    "SimConfig",
    "SimResult",
    "simulate",
    "decide_from_evs",
    "softmax_choice",
    "playout_policies",
    "CUTOFF_RULES",
    "PlayoutBeliefs",
]

CUTOFF_RULES = ("paper", "paired", "none")


class SimConfig(LokiModel):
    """Simulator settings.

    Attributes:
        trials: maximum trials (AAAI99: 500), 1 to 100,000 (a cap: every trial is played twice per decision).
        cutoff: "paper", "paired" or "none" (module docstring).
        z: the paired rule's z (DEFAULT 3.0), > 0.
        min_trials: trials before the first cut-off check (DEFAULT 50), ≥ 2.
        check_every: trials between cut-off checks (DEFAULT 25, the kernel's batch size), ≥ 1.
        always_call: the fast variant, everyone checks/calls after our first action (pena/node46).
        triple: the Triple Generator used by every player in the play-out (ours; in the believed play-out the
            opponents' own, from their models).  Derived in a player (:attr:`loki.players.loki.Loki2Config.sim_config`
            sets it from the player's own generator; a player refuses it given explicitly) and never serialised.
        play_outs: ``"uniform"``: the paper's play-out (every simulated hand rated against a uniform range, one
            Triple Generator for everybody); ``"believed"``: each simulated player rated against the weight
            tables of the others and played by the model Loki has of it (:class:`PlayoutBeliefs`);
            ``"auto"``: believed when the model of a live opponent asks for it (:attr:`PlayoutBeliefs.wanted`; the
            adaptive model does once the models that are not the paper's weigh enough), else uniform.
        believed_values: the hand values of the believed play-out: ``"field"``, each simulated player's HS_1 against
            the weight tables of the others (its field) and its frequency expert's percentile in the range it ranks
            in, computed per trial and street; ``"uniform"``, both against a uniform range as in the paper's play-out
            (HS_1 against every holding alike, the percentile among all the holdings), read from the process's board
            cache: the believed play-out keeps its players' policies (their rules, frequencies and card-blindness) at
            about the paper's play-out's cost; ``"own"``, our own hand against the others' weight tables (as Loki rates
            it at the table) and every other player's HS_1 against a uniform range, each percentile in the range its
            model ranks it in as with ``"field"`` (heads-up ``"field"`` itself: the opponent's field is our own row,
            uniform).  DEFAULT beyond the sources.
        oracle: **CHEAT, for experiments only** (what limits B and S): ``"perfect"`` replaces each live opponent's
            weight table by its true holding, ``"mixed"`` by the true holding mixed half and half with the table
            (each normalised); ``"none"`` (the default) is the honest Simulator.  An oracle player needs the table to
            reveal the hole cards, which only ``loki tournament`` and ``loki tune`` do.
        choice: ``"argmax"``: the action of greatest EV (AAAI99 §5); ``"softmax"``: an action drawn with probabilities
            ``∝ exp(EV / (temperature · B))`` over the legal actions (B the street's bet; EVs in chips), so that close
            EVs are randomised (the thesis's suggestion) and the decision reports the distribution it drew from
            (:func:`softmax_choice`; AIVAT can correct it).
        temperature: the softmax's temperature in bets of the street (DEFAULT 0.5; tunable).
        card_blind_values: average the Simulator's EVs with the contest valuation's (:mod:`loki.modeler.contest`)
            by the probability that every live opponent is card-blind (:class:`loki.simulator.SimulatorPolicy`;
            DEFAULT beyond the sources, the adaptive Loki's).

    Raises:
        ConfigError: a value out of range (one line naming the field).
    """

    trials: int = tunable(500, 50, 5000, source="AAAI99 §5", log=True, ge=1, le=100_000)
    cutoff: Literal["paper", "paired", "none"] = "paper"
    z: float = tunable(3.0, 1.0, 5.0, source="DEFAULT", gt=0.0)
    min_trials: int = tunable(50, 10, 400, source="DEFAULT", log=True, ge=2)
    check_every: int = Field(25, ge=1)
    always_call: bool = False
    triple: TripleConfig = derived(TripleConfig(), exclude=True)
    play_outs: Literal["uniform", "believed", "auto"] = "uniform"
    believed_values: Literal["field", "uniform", "own"] = "field"
    oracle: Literal["none", "perfect", "mixed"] = "none"
    choice: Literal["argmax", "softmax"] = "argmax"
    temperature: float = tunable(
        0.5, 0.02, 5.0, source="DEFAULT (PENA99 suggests randomising close EVs)", log=True, gt=0.0
    )
    card_blind_values: bool = False


@dataclass(frozen=True)
class PlayoutBeliefs:
    """Who each simulated player is believed to be, in post-flop acting order (the believed play-out): the
    rows of :class:`loki.simulator.playout.PlayoutPolicies`, from each opponent's model
    (:meth:`loki.modeler.PlayoutPolicy`, via :func:`loki.simulator.policy.beliefs_of`).

    Attributes:
        params: ``(m, 11) float64``: each player's rule-chain parameters (:class:`loki.triples.TripleParams` as a row).
        mix: ``(m, 3) float64``: mixture weights of (rules, frequency expert, card-blind frequencies); ``(1, 0, 0)``
            plays by the rules alone.
        freqs: ``(m, 4, 3, 3) float64``: context frequencies [round][bets to call 0/1/2+][fold, call, raise].
        rho: ``(m,) float64``: check-raise propensities; softness: ``(m,) float64`` the frequency expert's ramp
            half-widths.
        semi: ``(m,) bool``: semi-bluffs in progress at the decision (ours; the opponents' are not known).
        raised_last: ``(m,) bool``: who bet or raised in the previous round; actions_this_round: actions taken this
            round before our decision (the check-raise condition in the play-out).
        labels: ``(m,)`` what each player is believed to be, for explanations (e.g. ``"specific mixture"``).
        wanted: a live opponent's model asks for the believed play-out (:attr:`loki.modeler.PlayoutPolicy.believed`;
            read with ``play_outs = "auto"``).
        deck: ``(m,) bool`` or None (none): the players whose frequency expert places a holding among all the
            holdings alike, not within their range (:attr:`loki.modeler.PlayoutPolicy.ranking` ``"deck"``).
    """

    params: np.ndarray
    mix: np.ndarray
    freqs: np.ndarray
    rho: np.ndarray
    softness: np.ndarray
    semi: np.ndarray
    raised_last: np.ndarray
    actions_this_round: int = 0
    labels: tuple[str, ...] = ()
    wanted: bool = True
    deck: np.ndarray | None = None


@dataclass(frozen=True)
class SimSpot:
    """The public situation at our decision, in **post-flop acting order** (index 0 acts first).

    Attributes:
        hole: our two cards.
        board: the visible board, 3..5 cards.
        me: our index in the order.
        active: ``(m,) bool`` players not folded (us included).
        round_bets: ``(m,)`` chips each player has put in this round.
        acted: ``(m,) bool`` players who have acted this round (they need not act again unless raised).
        vol_in: ``(m,) bool`` players who put chips in voluntarily this round (Make1's fold rule).
        weights: ``(m, 1326)`` weight tables (our row and folded rows are ignored).
        pot: chips in the pot now, this round's bets included.
        bets_this_round: bets/raises this round.
        max_bets: the cap (bets per round, a bet and 3 raises = 4).
        bet_sizes: ``(4,)`` bet size per round (pre-flop, flop, turn, river).
        beliefs: who the simulated players are believed to be (the believed play-out), or None.
    """

    hole: tuple[int, int]
    board: tuple[int, ...]
    me: int
    active: np.ndarray
    round_bets: np.ndarray
    acted: np.ndarray
    vol_in: np.ndarray
    weights: np.ndarray
    pot: float
    bets_this_round: int
    max_bets: int = 4
    bet_sizes: tuple = (10, 10, 20, 20)
    beliefs: PlayoutBeliefs | None = None

    def __post_init__(self):
        m = len(self.active)
        if not 2 <= m <= 10 or not 0 <= self.me < m or not self.active[self.me]:
            raise InputError(f"bad table: {m} players, me={self.me}, active={list(self.active)}")
        if len(self.board) not in (3, 4, 5):
            raise InputError(f"the Simulator plays post-flop: board of {len(self.board)} cards")
        cards = list(self.hole) + list(self.board)
        if len(set(cards)) != len(cards) or not all(0 <= c < 52 for c in cards):
            raise CardError(f"bad or overlapping cards {cards}")
        for name in ("round_bets", "acted", "vol_in"):
            if len(getattr(self, name)) != m:
                raise InputError(f"{name} must have {m} entries")
        if np.shape(self.weights) != (m, N_HOLDINGS):
            raise InputError(f"weights must have shape ({m}, 1326), got {np.shape(self.weights)}")
        if int(np.sum(self.active)) < 2:
            raise InputError("need at least one live opponent")
        if self.beliefs is not None:
            b = self.beliefs
            shapes = {"params": (m, len(TripleParams._fields)), "mix": (m, 3), "freqs": (m, 4, 3, 3), "rho": (m,),
                      "softness": (m,), "semi": (m,), "raised_last": (m,)}  # fmt: skip
            if b.deck is not None:
                shapes["deck"] = (m,)
            for name, want in shapes.items():
                got = np.shape(getattr(b, name))
                if got != want:
                    raise InputError(f"beliefs.{name} must have shape {want} (one row per player), got {got}")

    @cached_property
    def state(self) -> np.ndarray:
        """``(SIZE,) int64`` the betting state vector of the spot (:func:`spot_state`), built once and kept (the spot
        is frozen; :func:`simulate`, :attr:`to_call` and :attr:`can_raise` read it, none writes it)."""
        return spot_state(self)

    @property
    def street(self) -> int:
        return len(self.board) - 2

    @property
    def to_call(self) -> float:
        """Chips we must add to call (:func:`loki.betting.to_call` on :func:`spot_state`)."""
        return float(bt.to_call(self.state, self.me))

    @property
    def can_raise(self) -> bool:
        """Whether we may bet/raise (:func:`loki.betting.can_raise` on :func:`spot_state`: the cap)."""
        return bool(bt.can_raise(self.state, self.me))


@dataclass(frozen=True)
class SimResult:
    """The Simulator's answer for one decision.

    Attributes:
        action: the chosen action (highest EV, ties to the more aggressive).
        ev_call, ev_raise: mean chips won from the decision point on (EV(fold) = 0).
        sd_call, sd_raise: per-trial standard deviations of the outcomes.
        trials: trials used.
        cutoff: True if the obvious-move rule stopped the simulation early.
        rule: the cut-off rule in use.
    """

    action: Action
    ev_call: float
    ev_raise: float
    sd_call: float
    sd_raise: float
    trials: int
    cutoff: bool
    rule: str


# ---------------------------------------------------------------------------------------- driver
def decide_from_evs(ev_call: float, ev_raise: float, to_call: float, can_raise: bool) -> Action:
    """The simulator's decision: the highest EV among the legal actions, ties to the more aggressive.

    Args:
        ev_call: EV of checking/calling, in chips (mean net chips won over the trials, from the
            moment of the decision).
        ev_raise: EV of betting/raising, in chips (ignored when ``can_raise`` is False).
        to_call: chips to call; folding (EV 0) is a candidate only when it is > 0 (a free check is
            never folded).
        can_raise: False when the betting is capped.

    Returns:
        ``Action.FOLD``, ``Action.CALL`` or ``Action.RAISE``; on equal EVs call beats fold and raise
        beats call.

    Source: AAAI99 §5 (take the action of greatest expected value); PENA99 pena/node45 (ties go to
    the more aggressive action).

    >>> decide_from_evs(-3.0, -5.0, to_call=10, can_raise=True).name
    'FOLD'
    >>> decide_from_evs(0.0, 0.0, to_call=10, can_raise=True).name
    'RAISE'
    >>> decide_from_evs(-3.0, -5.0, to_call=0, can_raise=True).name
    'CALL'
    """
    best, best_ev = Action.CALL, ev_call
    if to_call > 1e-9 and 0.0 > best_ev:
        best, best_ev = Action.FOLD, 0.0
    if can_raise and ev_raise >= best_ev:
        best = Action.RAISE
    return best


def softmax_choice(
    ev_call: float, ev_raise: float, to_call: float, can_raise: bool, temperature: float, bet_size: float, u: float
) -> tuple[Action, tuple[float, float, float]]:
    """A randomised choice between the Simulator's EVs (SimConfig ``choice = "softmax"``; DEFAULT, the tuning lab).

    Args:
        ev_call, ev_raise: EVs in chips (EV(fold) = 0, a candidate only when ``to_call`` > 0).
        to_call: chips to call; can_raise: False when betting is capped.
        temperature: in bets of the street (> 0); bet_size: the street's bet in chips (> 0).
        u: a uniform number in [0, 1) (the decision's draw).

    Returns:
        ``(action, (p_fold, p_call, p_raise))``: the action ``u`` picks (fold on ``[0, p_fold)``, call next, raise
        last) and the probabilities over the legal actions.

    >>> softmax_choice(0.0, 10.0, 0.0, True, 0.5, 10.0, 0.5)[0].name
    'RAISE'
    >>> [round(p, 4) for p in softmax_choice(0.0, 0.0, 10.0, True, 0.5, 10.0, 0.1)[1]]
    [0.3333, 0.3333, 0.3333]
    """
    scale = temperature * bet_size
    evs = [0.0 if to_call > 1e-9 else -math.inf, ev_call, ev_raise if can_raise else -math.inf]
    top = max(evs)
    w = [math.exp((e - top) / scale) if e > -math.inf else 0.0 for e in evs]
    total = w[0] + w[1] + w[2]
    p = (w[0] / total, w[1] / total, w[2] / total)
    if u < p[0]:
        return Action.FOLD, p
    if u < p[0] + p[1]:
        return Action.CALL, p
    return (Action.RAISE if p[2] > 0.0 else Action.CALL), p


def _mean_sd(x: np.ndarray) -> tuple[float, float]:
    """``(x.mean(), x.std(ddof=1))`` with the same floating-point operations as numpy's (pairwise sums, then the
    squared deviations from the mean summed and divided by ``n − 1``), without the per-call overhead of
    ``numpy._core._methods``; ``sd`` is infinite for one value."""
    n = x.shape[0]
    m = float(_add_reduce(x) / n)
    if n < 2:
        return m, math.inf
    d = x - m
    d *= d
    return m, math.sqrt(float(_add_reduce(d) / (n - 1)))


_add_reduce = np.add.reduce


def _cutoff(rule: str, z: float, oc: np.ndarray, orr: np.ndarray, to_call: float, can_raise: bool) -> bool:
    """The obvious-move cut-off in numpy (module docstring): True to stop.  In play the kernel's
    ``loki.simulator.playout._cutoff`` decides; this is the reference the tests hold it to."""
    n = len(oc)
    cands = {Action.CALL: oc}
    if can_raise:
        cands[Action.RAISE] = orr
    if to_call > 1e-9:
        cands[Action.FOLD] = np.zeros(n)
    if len(cands) < 2:
        return True
    if rule == "paper":
        stats = {a: _mean_sd(x) for a, x in cands.items()}
        order = sorted(cands, key=lambda a: (stats[a][0], int(a)), reverse=True)
        best, sec = order[0], order[1]
        return stats[best][0] - stats[sec][0] > stats[best][1] + stats[sec][1]
    evs = {a: float(x.mean()) for a, x in cands.items()}
    order = sorted(cands, key=lambda a: (evs[a], int(a)), reverse=True)
    best = order[0]
    if rule == "paired":
        for a in order[1:]:
            d = cands[best] - cands[a]
            se = float(d.std(ddof=1)) / math.sqrt(n)
            if not float(d.mean()) - z * se > 0.0:
                return False
        return True
    return False


def _chips(x, what: str) -> int:
    v = float(x)
    if not v.is_integer():
        raise InputError(f"SimSpot.{what} = {x!r}: the Simulator plays whole chips")
    return int(v)


def spot_state(spot: SimSpot) -> np.ndarray:
    """The :mod:`loki.betting` state vector of ``spot``: the play-out's starting point.

    Players in post-flop acting order are seats ``0..m-1`` (so the button is seat ``m - 1``), round
    ``spot.street``, unlimited stacks, every bet/raise ``bet_sizes[round]``, at most ``max_bets`` per
    round, the ``"split"`` pot rule; this round's bets are ``round_bets``, the chips in the pot from
    before are ``DEAD`` (they belong to the main pot); ``spot.me`` is to act, and a player still needs
    to act this round if it has not acted yet or faces a bet.

    Returns:
        ``(SIZE,) int64``.

    Raises:
        ValueError: amounts (``round_bets``, ``pot``, ``bet_sizes``) that are not whole chips, or a pot
            smaller than this round's bets.
    """
    m = len(spot.active)
    rb = [_chips(x, "round_bets") for x in spot.round_bets]
    pot = _chips(spot.pot, "pot")
    sizes = [_chips(x, "bet_sizes") for x in spot.bet_sizes]
    if pot < sum(rb):
        raise InputError(f"SimSpot.pot = {spot.pot} is less than this round's bets {rb}")
    st = bt.new_state(m, m - 1, 0, 0, sizes, (spot.max_bets,) * 4, None, split=True)
    maxbet = max(rb)
    st[bt.ROUND] = spot.street
    st[bt.POT] = pot
    st[bt.DEAD] = pot - sum(rb)
    st[bt.MAX_BET] = maxbet
    st[bt.N_RAISES] = st[bt.BETS] = spot.bets_this_round
    active = np.asarray(spot.active, dtype=np.bool_)
    acted = np.asarray(spot.acted, dtype=np.bool_)
    rb_a = np.asarray(rb, dtype=np.int64)
    st[bt.N_IN] = int(np.count_nonzero(active))
    st[bt.BET : bt.BET + m] = rb_a
    st[bt.TOTAL : bt.TOTAL + m] = rb_a
    st[bt.FOLDED : bt.FOLDED + m] = ~active
    st[bt.ACTED : bt.ACTED + m] = acted
    st[bt.VOLUNTARY : bt.VOLUNTARY + m] = np.asarray(spot.vol_in, dtype=np.bool_)
    need = active & (~acted | (rb_a < maxbet))
    need[spot.me] = active[spot.me]
    st[bt.NEED : bt.NEED + m] = need
    st[bt.CUR] = spot.me
    b = spot.beliefs
    if b is not None:  # the public facts the believed play-out's check-raise condition reads
        st[bt.N_ACTIONS] = int(b.actions_this_round)
        for i in range(m):
            st[bt.RAISED_LAST + i] = bool(b.raised_last[i])
    return st


def playout_policies(b: PlayoutBeliefs | None, m: int, believed: bool, params=None) -> PlayoutPolicies:
    """The play-out kernels' :class:`~loki.simulator.playout.PlayoutPolicies`: from the beliefs ``b`` (the believed
    play-out), or everybody on the one Triple Generator ``params`` (:class:`loki.triples.TripleParams`; the paper's
    play-out, ``b`` None).

    Args:
        b: the beliefs, or None.
        m: players in the play-out.
        believed: the believed play-out's rules (ignored, and False, when ``b`` is None).
        params: the Triple Generator of the paper's play-out (when ``b`` is None).
    """
    if b is None:
        return _uniform_policies(m, tuple(params))
    return PlayoutPolicies(
        believed,
        np.ascontiguousarray(b.params, dtype=np.float64),
        np.ascontiguousarray(b.mix, dtype=np.float64),
        np.ascontiguousarray(b.freqs, dtype=np.float64),
        np.ascontiguousarray(b.rho, dtype=np.float64),
        np.ascontiguousarray(b.softness, dtype=np.float64),
        np.ascontiguousarray(b.semi, dtype=np.bool_),
    )


@lru_cache(maxsize=32)
def _uniform_policies(m: int, params: tuple) -> PlayoutPolicies:
    # everybody on the one Triple Generator `params` (the paper's play-out): made once per table size and generator and
    # shared by the decisions (the kernels only read it)
    row = params_row(TripleParams(*params))
    mix = np.zeros((m, 3))
    mix[:, 0] = 1.0
    return PlayoutPolicies(
        False,
        np.ascontiguousarray(np.tile(row, (m, 1))),
        mix,
        np.zeros((m, 4, 3, 3)),
        np.zeros(m),
        np.full(m, 0.1),
        np.zeros(m, dtype=np.bool_),
    )


def _mixed_row(mix: np.ndarray) -> bool:
    """A player whose triple is not the rules alone (the frequency expert reads its percentile in its range)."""
    return not (mix[0] == 1.0 and mix[1] == 0.0 and mix[2] == 0.0)


def _believed_values(
    spot: SimSpot, w: np.ndarray, rank_w: np.ndarray, others_uniform: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(field_w, hs_now, q_now)``, each ``(m, 1326) float64``: every player's field (the other live players'
    weight tables, ours uniform, combined by :func:`loki.assessment.weights.field_array`), HS_1 of every holding against it on
    the board, and every holding's percentile in the range its frequency expert ranks it in, ``rank_w[p]``
    (:func:`_rank_rows`: its own range, or all ones; HS_1 against that table; players the frequency expert plays
    only, else 0.5).  With ``others_uniform`` (``believed_values = "own"``) only our own hand is rated against its
    field: every other live player's field is all ones and its HS_1 the board's uniform HS_1
    (:func:`loki.triples.board_values`, the floats of HS_1 against a table of ones).

    The floats of :func:`loki.assessment.weights.field_array` and :func:`loki.assessment.hand_strength_all` per
    player (:func:`_believed_values_plain`), with the checks done once (``w`` is checked by :func:`simulate`), the
    holdings ranked on the board once per board (:func:`~loki.assessment.strength.rank_holdings_kernel`; ranks are
    integers, so the sums that follow are unchanged) and sorted by rank once per call
    (:func:`~loki.assessment.strength.hs_all_rows_into`), the fields of all the players in one compiled call
    (:func:`~loki.assessment.weights_kernels.fields_of_others_into`)."""
    from loki.assessment.strength import hs_all_rows_into
    from loki.assessment.weights_kernels import fields_of_others_into

    m = len(spot.active)
    live = [p for p in range(m) if spot.active[p]]
    board = tuple(int(c) for c in spot.board)  # 3 to 5 distinct cards (SimSpot checked them)
    clash, keep, ranks = _board_ranks(board)
    if len(live) < 2 or any(not w[o][keep].sum() > 0 for o in live if o != spot.me):
        return _believed_values_plain(spot, w, rank_w)  # raises field_array's error
    b = spot.beliefs
    players = np.asarray(live, dtype=np.int64)
    # the rated players' fields and HS_1 against them: two compiled calls for all of them (the holdings sorted by rank
    # once); with others_uniform ours alone, the others' rows the board's uniform HS_1
    rated = np.array([spot.me], dtype=np.int64) if others_uniform else players
    field_w = np.ones((m, N_HOLDINGS))
    fields_of_others_into(w, players, rated, int(spot.me), clash, field_w)
    hs_now = np.zeros((m, N_HOLDINGS))
    hs_all_rows_into(ranks, field_w, rated, 0.0, hs_now)
    if others_uniform:
        hs_now[[p for p in live if p != spot.me]] = board_values(board)[0]
    q_now = np.full((m, N_HOLDINGS), 0.5)
    deck = None if b is None else b.deck
    own = []  # the players the frequency expert ranks in their own range
    for p in live:
        if b is not None and _mixed_row(b.mix[p]):
            if deck is not None and deck[p]:  # ranked among all the holdings: rank_w[p] is all ones
                q_now[p] = _deck_percentiles(board)
            else:
                own.append(p)
    if own:
        hs_all_rows_into(ranks, rank_w, np.asarray(own, dtype=np.int64), 0.5, q_now)
    return field_w, hs_now, q_now


@lru_cache(maxsize=16)
def _board_ranks(board: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # (clash, keep, ranks): the holdings sharing a card with the board ((1326,) bool) and the others, and every
    # holding's rank on the board ((1326,) int64, 0 where it clashes; rank_holdings_kernel), kept per board: the
    # decisions of a street (and of every seating of a duplicate deal) meet the same board.  Shared, never written
    # (not flagged read-only: the kernels that read them would be compiled again for read-only arrays)
    from loki.assessment.strength import dead_array, rank_holdings_kernel

    keep = live_holdings(board)
    ranks = rank_holdings_kernel(np.asarray(board, dtype=np.int64), dead_array(board), kernel_tables())
    return ~keep, keep, ranks


@lru_cache(maxsize=16)
def _deck_percentiles(board: tuple[int, ...]) -> np.ndarray:
    # (1326,) float64 read-only: every holding's percentile among all the holdings on the board (HS_1 against a table
    # of ones, hand_strength_all(board, ones, fill=0.5)), the same for every deck-ranked player of every decision on
    # that board: the board's uniform HS_1 (board_values, kept per board and computed for the decision's triples
    # already; the same floats: both divide the same whole counts), 0.5 where a holding clashes with the board
    q = np.where(_board_ranks(board)[0], 0.5, board_values(board)[0])
    q.setflags(write=False)
    return q


def _believed_values_plain(
    spot: SimSpot, w: np.ndarray, rank_w: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_believed_values` by the public functions, player by player (its reference in the tests, and the
    path that raises their errors)."""
    from loki.assessment import hand_strength_all
    from loki.assessment.weights import field_array

    m = len(spot.active)
    board = list(spot.board)
    b = spot.beliefs
    field_w = np.ones((m, N_HOLDINGS))
    hs_now = np.zeros((m, N_HOLDINGS))
    q_now = np.full((m, N_HOLDINGS), 0.5)
    for p in range(m):
        if not spot.active[p]:
            continue
        tables = [w[o] if o != spot.me else np.ones(N_HOLDINGS) for o in range(m) if o != p and spot.active[o]]
        field_w[p] = field_array(tables, board)
        hs_now[p] = hand_strength_all(board, field_w[p], fill=0.0)
        if b is not None and _mixed_row(b.mix[p]):
            q_now[p] = hand_strength_all(board, rank_w[p], fill=0.5)
    return field_w, hs_now, q_now


def _rank_rows(w: np.ndarray, deck: np.ndarray | None) -> np.ndarray:
    """``(m, 1326) float64``: the ranges the frequency expert ranks each player's holdings in: its weight table
    ``w[p]``, or all ones for the players of ``deck`` (``w`` itself when there are none)."""
    if deck is None or not np.any(deck):
        return w
    out = w.copy()
    out[np.asarray(deck, dtype=bool)] = 1.0
    return out


_BOARDS: list = []
_UNIFORM: dict[int, tuple[np.ndarray, np.ndarray]] = {}


def _uniform_rows(m: int) -> tuple[np.ndarray, np.ndarray]:
    """``(field, q)``, ``(m, 1326) float64``: the uniform play-out's fields (all ones) and percentiles (0.5), made
    once per table size and shared (the kernels only read them)."""
    if m not in _UNIFORM:
        _UNIFORM[m] = (np.ones((m, N_HOLDINGS)), np.full((m, N_HOLDINGS), 0.5))
    return _UNIFORM[m]


@lru_cache(maxsize=16)
def _uniform_hs_rows(board: tuple[int, ...], m: int) -> np.ndarray:
    # (m, 1326) float64: every player's row of the uniform play-out's HS_1 on the decision's board (board_values's,
    # the same for all), made once per board and table size: a duplicate deal's decisions meet the same boards in
    # every seating (the kernels only read it)
    return np.ascontiguousarray(np.broadcast_to(board_values(board)[0], (m, N_HOLDINGS)))


@lru_cache(maxsize=16)
def _uniform_deck_rows(board: tuple[int, ...], m: int) -> np.ndarray:
    # (m, 1326) float64: every player's percentile among all the holdings on the decision's board (_deck_percentiles,
    # the same for all), made once per board and table size (the kernels only read it)
    return np.ascontiguousarray(np.broadcast_to(_deck_percentiles(board), (m, N_HOLDINGS)))


_SCRATCH = threading.local()


def _outputs(n: int, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    # the kernel's per-trial outputs (oc, orr, holes) for a decision whose samples are not returned: reused by the
    # thread's decisions (the kernel writes the entries it reads; the results are its returned EVs)
    key = (n, m)
    if getattr(_SCRATCH, "key", None) != key:
        _SCRATCH.key = key
        _SCRATCH.arrays = (np.zeros(n), np.zeros(n), np.full((n, m), -1, dtype=np.int64))
    return _SCRATCH.arrays


def _boards():
    """The process's :class:`~loki.simulator.playout.BoardCache` (made on first use; its rows are pure functions of
    their boards, so sharing it between decisions, players and hands never changes play)."""
    if not _BOARDS:
        _BOARDS.append(board_cache())
    return _BOARDS[0]


def simulate(spot: SimSpot, config: SimConfig = SimConfig(), seed: int = 0, return_samples: bool = False):
    """Run the Simulator for one decision.

    Args:
        spot: the situation (:class:`SimSpot`).
        config: :class:`SimConfig` (trials, cut-off rule, always-call variant, Triple Generator).
        seed: seeds the kernel's random numbers (each batch of ``check_every`` trials gets ``seed`` and
            its batch number mixed in), so a decision is reproducible.
        return_samples: also return ``(out_call, out_raise, holdings)`` per trial (tests).

    Returns:
        :class:`SimResult` (and the samples if asked).
    """
    m = len(spot.active)
    st0 = spot.state
    w = np.ascontiguousarray(np.asarray(spot.weights, dtype=np.float64))
    drawn = np.array(spot.active, dtype=np.bool_)  # the rows the sampler reads: the live opponents
    drawn[spot.me] = False
    cum = np.empty((m, N_HOLDINGS))
    totals = np.empty(m)
    if not sampling_wheel(w, drawn, cum, totals):
        raise RangeError("weights must be finite and non-negative")
    hs_uniform, pp_now, nn_now = board_values(spot.board)
    believed = (config.play_outs == "believed" or (config.play_outs == "auto" and spot.beliefs is not None)) and not (
        config.always_call
    )
    if believed:
        if spot.beliefs is None:
            raise InputError("the believed play-out needs SimSpot.beliefs (who each player is believed to be)")
        if config.believed_values == "uniform":  # every hand rated against a uniform range (the board cache's)
            field_w = rank_w = _uniform_rows(m)[0]
            hs_now = _uniform_hs_rows(tuple(spot.board), m)
            q_now = _uniform_deck_rows(tuple(spot.board), m)
        else:
            rank_w = _rank_rows(w, spot.beliefs.deck)
            field_w, hs_now, q_now = _believed_values(spot, w, rank_w, config.believed_values == "own")
        policies = playout_policies(spot.beliefs, m, True)
    else:
        rank_w = w
        field_w, q_now = _uniform_rows(m)
        hs_now = _uniform_hs_rows(tuple(spot.board), m)
        policies = playout_policies(None, m, False, config.triple.params())
    pspot = PlayoutSpot(
        spot.me,
        st0,
        np.asarray(spot.bet_sizes, dtype=np.float64),
        np.asarray(spot.hole, dtype=np.int64),
        np.asarray(spot.board, dtype=np.int64),
        config.always_call,
    )
    ranges = PlayoutRanges(
        w, cum, totals, field_w, hs_now, q_now, np.ascontiguousarray(pp_now), np.ascontiguousarray(nn_now), rank_w
    )
    tables = kernel_tables()
    n = config.trials
    if return_samples:
        oc, orr, holes = np.zeros(n), np.zeros(n), np.full((n, m), -1, dtype=np.int64)
    else:
        oc, orr, holes = _outputs(n, m)
    to_call = float(bt.to_call(st0, spot.me))
    can_raise = bool(bt.can_raise(st0, spot.me))
    rule = {"none": RULE_NONE, "paper": RULE_PAPER, "paired": RULE_PAIRED}[config.cutoff]
    seed31 = int(seed) % (2**31 - 1)  # the batch seeds are taken mod 2^31 - 1: the same ones, no int64 overflow
    done, cut, ev_c, sd_c, ev_r, sd_r = sim_decision(
        seed31, n, int(config.check_every), int(config.min_trials), rule, float(config.z), to_call, can_raise,
        pspot, ranges, policies, oc, orr, holes, _boards(), tables,
    )  # fmt: skip
    oc, orr, holes = oc[:done], orr[:done], holes[:done]
    if done < 2:
        sd_c = sd_r = 0.0
    res = SimResult(decide_from_evs(ev_c, ev_r, to_call, can_raise), ev_c, ev_r, sd_c, sd_r, done, cut, config.cutoff)
    if return_samples:
        return res, (oc, orr, holes)
    return res
