"""Decision explanations as data: typed, frozen, JSON-serialisable records.

One :class:`DecisionExplanation` per bot decision.  Every number is in the units the decision core uses:
probabilities in [0, 1], chips for pots and expected values, IR ×1000 for income rates.  Cards are text
(``"AhKs"``, ``"Qh7h2c"``), weight tables are 13×13 hand-class grids (:mod:`loki.explain.grids`: row 0 and
column 0 are aces; a suited class above the diagonal, an offsuit one below it; each cell the mean weight of
the class's holdings still possible, ``None`` where none is).

``DecisionExplanation.model_dump_json()`` gives the machine form; :func:`explanation_from_json` reads it back.

>>> v = HandValuesRecord(hs=0.8, hs_n=0.64, ppot=0.1, npot=0.05, ehs=0.644, ehs_prime=0.676, n_opponents=2,
...                      lookahead=1, ahead=800.0, tied=0.0, behind=200.0)
>>> HandValuesRecord.model_validate_json(v.model_dump_json()) == v
True
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from loki.errors import ConfigError

__all__ = [
    "Grid",
    "HandValuesRecord",
    "PreflopRecord",
    "HeadsUpRecord",
    "ContestRecord",
    "ContestOpponentRecord",
    "SpotRecord",
    "ThresholdsRecord",
    "RuleShare",
    "RulesRecord",
    "SimulationRecord",
    "CardBlindRecord",
    "ReweightRecord",
    "OpponentRecord",
    "DecisionExplanation",
    "explanation_from_json",
    "EXPLANATION_VERSION",
]

#: Version of the record layout (bumped when a field changes meaning): 2 numbers seats from 1 (seat numbers).
EXPLANATION_VERSION = 2

#: A 13×13 hand-class grid (rows/columns A, K, ..., 2); ``None`` for a class with no possible holding.
Grid = list[list[float | None]]


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class HandValuesRecord(_Record):
    """Our hand against the field of the live opponents' weight tables (:func:`loki.assessment.assess`).

    Attributes:
        hs: HS_1, hand strength now against the field array (PAPP98 papp/node62).
        hs_n: HS_1 ** n_opponents (Eq. 5.3).
        ppot, npot: positive / negative potential (PPot1/NPot1, or PPot2/NPot2 with lookahead 2 on the flop; 0
            on the river).
        ehs: HS_n·(1 − NPot) + (1 − HS_n)·PPot.
        ehs_prime: EHS' = HS_n + (1 − HS_n)·PPot (Eq. 6.4), what the Bettor's thresholds read.
        n_opponents: the n of HS_n (live opponents).
        lookahead: 1 or 2 (cards looked ahead for the potentials).
        ahead, tied, behind: weighted opponent holdings we beat / tie / lose to now.
    """

    hs: float
    hs_n: float
    ppot: float
    npot: float
    ehs: float
    ehs_prime: float
    n_opponents: int
    lookahead: int
    ahead: float
    tied: float
    behind: float


class PreflopRecord(_Record):
    """The pre-flop strategy (PAPP98 §6.1, Figure 6.1) and why it was chosen.

    Attributes:
        hand_class: the hole cards' class (``"AKs"``, ``"T9o"``, ``"77"``).
        strategy: the strategy kept for the pre-flop round (``"MAKE0"`` … ``"MAKE4"``, ``"CALL1"``, ``"CALL2"``).
        group: expected-players group ``"2"``, ``"3-4"`` or ``"5+"`` (Eq. 6.2).
        expected_players: E = num_inpot + 0.6 × num_yet_to_act (before rounding).
        ir_table: which income-rate table the group reads (2, 4 or 7 players).
        ir: income rate of the hand class in that table (IR ×1000).
        thresholds: ``{"MAKE1": t1, "MAKE2": t2, "MAKE4": t4}`` at our position (Eq. 6.1, IR ×1000).
        threshold: the chosen strategy's threshold (IR ≥ it), None for Make0.
        next_strategy, next_threshold: the next more aggressive strategy and the IR it would have needed (None
            at Make4).
        num_inpot, num_yet_to_act, position: the inputs of Eq. 6.1-6.2.
        tightness: the Table B.1 column (tight, moderate, loose).
        small_blind: the small blind's first decision (six strategies, Call1/Call2 thresholds 100 below).
        call_limit: the most the small blind's Call1/Call2 calls, in bets (None otherwise).
        plays: what the strategy does, in words.
        heads_up: the ``"adaptive"`` pre-flop model's valuation of a heads-up contest at a short-handed table
            (:class:`loki.preflop.HeadsUpSpot`): then ``ir`` is IR2 against the opponent's weight table,
            ``1000·(2·equity − 1)``, not the table's entry; None for the expert system's decisions.
        contest: the ``"contest"`` model's valuation (:class:`ContestRecord`), None otherwise.
        model: the pre-flop model that decided: ``"expert"`` (the sources' expert system, Figure 6.1),
            ``"adaptive"`` (its opponent-modelling variant: Figure 6.1 with modelled expected players, or the
            heads-up valuation when ``heads_up`` is set) or ``"contest"`` (the contest valued against the modelled
            opponents, :mod:`loki.modeler.contest`); :meth:`loki.preflop.PreflopPolicy.model_for`.
        reason: one sentence naming the model and why the action follows (the summary's pre-flop part).
    """

    hand_class: str
    strategy: str
    group: str
    expected_players: float
    ir_table: int
    ir: float
    thresholds: dict[str, float]
    threshold: float | None
    next_strategy: str | None
    next_threshold: float | None
    num_inpot: int
    num_yet_to_act: int
    position: int
    tightness: str | None
    small_blind: bool
    call_limit: float | None
    plays: str
    heads_up: HeadsUpRecord | None = None
    contest: ContestRecord | None = None
    model: Literal["expert", "adaptive", "contest"] = "expert"
    reason: str = ""


class ContestOpponentRecord(_Record):
    """One live opponent of a contest decision (:class:`loki.modeler.contest.ContestOpponent`): its ``seat``
    (1-based), its probabilities of taking part if we call (``play_call``) or raise (``play_raise``) and of raising
    again (``reraise``), how little its actions follow its cards (``card_blindness``, 0..1) and whether a model of it
    was read (``modelled``)."""

    seat: int
    play_call: float
    play_raise: float
    reraise: float
    card_blindness: float
    modelled: bool


class ContestRecord(_Record):
    """The contest valuation of a pre-flop decision (:class:`loki.modeler.contest.ContestSpot`): the opponents, our
    share of the pot if we call or raise (with standard errors, 0 when exact), pot, to_call and bet (chips), what the
    others are expected to add (``added_call``, ``added_raise``), the EVs (chips; ``ev_raise`` None when raising is
    not legal), the share a call needs (``required``) and the raise margin (bets)."""

    opponents: list[ContestOpponentRecord]
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
    raise_margin: float


class HeadsUpRecord(_Record):
    """The adaptive pre-flop model's heads-up valuation (:class:`loki.preflop.HeadsUpSpot`): the opponent's
    ``seat`` (1-based), our all-in ``equity`` against its weight table, the ``price`` of a call (to_call / (pot +
    to_call)), the ``required`` equity (realization × price) and whether the table came from a model
    (``modelled``)."""

    seat: int
    equity: float
    price: float
    required: float
    modelled: bool


class SpotRecord(_Record):
    """The public betting situation of a post-flop decision (:class:`loki.triples.spot.BettingSpot`), chips."""

    street: int
    pot: float
    to_call: float
    bet_size: float
    bets_this_round: int
    voluntarily_in: bool
    can_raise: bool
    first_to_act: bool
    aggressor_behind: bool
    semi_bluffing: bool


class ThresholdsRecord(_Record):
    """The thresholds the rule chain compared the hand values with (loki-algorithms.md §3).

    Attributes:
        make1, make2: EHS' thresholds of Make1 / Make2.
        make_width, odds_width: the Triple Generator's ramp half-widths (0 for the Bettor).
        pot_odds: to_call / (pot + to_call) (Eq. 6.6).
        pot_odds2: 2B / (pot + 6B), the semi-bluff's odds (Eq. 6.5).
        showdown_odds: (to_call + B_next) / (pot + to_call + 2·B_next) (DEFAULT).
        aggressive_call_raise: EHS' above which a call becomes a raise (None: off).
        semi_bluff: rule 4 switched on.
    """

    make1: float
    make2: float
    make_width: float
    odds_width: float
    pot_odds: float
    pot_odds2: float
    showdown_odds: float
    aggressive_call_raise: float | None
    semi_bluff: bool


class RuleShare(_Record):
    """One rule's share of each action in the triple (rows of :func:`loki.triples.generate_triple_with_rules`)."""

    rule: str
    fold: float
    call: float
    raise_: float = Field(alias="raise")

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, serialize_by_alias=True)


class RulesRecord(_Record):
    """The rule chain's verdict (Bettor: a pure triple; Action Selector: a mixed one).

    Attributes:
        rule: the rule that fired (a name of :data:`loki.triples.rule_chain.RULES`; ``"ev"`` for the EV generator).
        generator: the Triple Generator of feature B: ``"rules"`` (the rule chain, the paper's), ``"calling"`` (the
            chain with folds overruled by EV(call)) or ``"ev"`` (one-step EVs, :mod:`loki.triples.ev`).
        triple: ``[f, c, r]``, the probability triple of the decision.
        u: the Action Selector's number for this hand (None for the Bettor, whose only draw is the
            check-raise coin).
        shares: each rule's share of fold / call / raise (rules with no share are left out); for the
            ``"calling"`` generator the chain's before its overrule, none for ``"ev"``.
        thresholds: what the values were compared with.
        spot: the betting situation.
    """

    rule: str
    generator: str = "rules"
    triple: tuple[float, float, float]
    u: float | None
    shares: list[RuleShare]
    thresholds: ThresholdsRecord
    spot: SpotRecord


class SimulationRecord(_Record):
    """The Simulator's estimate (AAAI99 §5): chips won from the decision on; EV(fold) = 0.

    Attributes:
        ev_call, ev_raise: mean outcome of checking/calling and of betting/raising (chips).
        sd_call, sd_raise: per-trial standard deviations (chips).
        trials: trials run; max_trials: the budget.
        cutoff: True when the obvious-move rule stopped early; cutoff_rule: ``"paper"``, ``"paired"``, ``"none"``.
        always_call: the fast always-call play-out variant.
        to_call, can_raise: whether folding and raising were candidates.
        play_outs: ``"uniform"`` (the paper's play-out) or ``"believed"`` (each opponent played by its model).
        played_as: in the believed play-out, what each live opponent was played as, in acting order (its modeler's
            :class:`loki.modeler.PlayoutPolicy` label, e.g. ``"specific mixture"`` or a plug-in's own).
        believed_values: in the believed play-out, what its hands were rated against
            (:attr:`loki.simulator.SimConfig.believed_values`): ``"field"``, the other players' weight tables;
            ``"uniform"``, a uniform range; ``"own"``, ours the others' tables, theirs a uniform range.
        blind_weight: with the card-blind values (``sim.card_blind_values``), the probability that every live
            opponent is card-blind, which weighed the contest valuation's values against the play-outs' (0 otherwise).
        contest: the contest valuation of the spot (:class:`ContestRecord`), None when it was not asked.
    """

    ev_call: float
    ev_raise: float
    sd_call: float
    sd_raise: float
    trials: int
    max_trials: int
    cutoff: bool
    cutoff_rule: str
    always_call: bool
    to_call: float
    can_raise: bool
    play_outs: Literal["uniform", "believed"] = "uniform"
    played_as: list[str] = Field(default_factory=list, max_length=10)
    believed_values: Literal["field", "uniform", "own"] = "field"
    blind_weight: float = 0.0
    contest: ContestRecord | None = None


class CardBlindRecord(_Record):
    """The best response to a card-blind opponent (:mod:`loki.players.exploit`): the opponent's showdowns
    say its actions do not follow its cards, so Loki plays its equity against a random holding.

    Attributes:
        opponent: the opponent's seat as the record numbers seats (from 1).
        actions: its post-flop actions seen at showdowns; covariance: of their aggression (1 bet/raise, 0 check/call)
            and ``HS_1``; strength: their mean ``HS_1``.
        equity: our equity against one random holding; pot_odds: to_call / (pot + to_call).
        raise_equity: the equity above which it raises; call_margin: it calls at equity ≥ call_margin × pot odds.
        passive: the opponent counts as card-blind because it has only checked and called (its showdowns not yet
            showing it); answers: its answers to bets then (:func:`loki.players.exploit.passive`).
    """

    opponent: int
    actions: int = Field(ge=0)
    covariance: float
    strength: float = Field(ge=0.0, le=1.0)
    equity: float = Field(ge=0.0, le=1.0)
    pot_odds: float = Field(ge=0.0, le=1.0)
    raise_equity: float
    call_margin: float
    passive: bool = False
    answers: int = Field(0, ge=0)

    def passive_text(self) -> str:
        """What the passive verdict saw, in words (the summary and the rendered explanation say it alike)."""
        return f"it has answered {self.answers} bets and never folded, bet or raised"


class ReweightRecord(_Record):
    """How the opponent's last action re-weighted its table (PAPP98 papp/node58-60; AAAI99 §4).

    Attributes:
        action: ``"fold"``, ``"check"``, ``"call"``, ``"bet"`` or ``"raise"``; street: 0..3.
        method: ``"loki1"`` (μ/σ ramp on IR7 pre-flop, on EHS' post-flop), ``"triple"`` (each holding's
            weight times its probability triple's entry for the action), ``"specific"`` (the same with
            opponent-specific triples, :mod:`loki.modeler.specific`), ``"preflop strategy"`` (our own pre-flop expert
            system, :mod:`loki.preflop.reweighting`), or a plug-in modeler's own name
            (:class:`loki.modeler.ReweightDetails`).
        mu, sigma: the ramp's centre and half-width on the percentile scale (Loki-1 only).
        lo, hi: the ramp's ends on the value scale (IR ×1000 pre-flop, EHS' post-flop; Loki-1 only).
        frequencies: the blended ``[f, c, r]`` the thresholds came from (Loki-1 only).
        model_weights: the adaptive model's candidate models and their weights before the action (``"adaptive"``
            only; :mod:`loki.modeler.adaptive`).
        changed: whether the table changed (Loki-1 re-weights once per round, when μ rises).
        before, after: the grids before and after.
    """

    action: str
    street: int
    method: str = Field(max_length=80)
    mu: float | None = None
    sigma: float | None = None
    lo: float | None = None
    hi: float | None = None
    frequencies: tuple[float, float, float] | None = None
    model_weights: dict[str, float] | None = None
    changed: bool
    before: Grid
    after: Grid


class OpponentRecord(_Record):
    """One opponent as the deciding bot models it.

    Attributes:
        seat: the seat, numbered from 1; name: display name.
        live: still in the hand (folded opponents are not in the field).
        weights: the weight table now, as a 13×13 class grid (mean weight of the possible holdings).
        likely: the most likely hand classes, ``[class, share of the table's mass]``, largest first.
        reweight: the last re-weighting this hand (None before the opponent's first action).
    """

    seat: int
    name: str
    live: bool
    weights: Grid
    likely: list[tuple[str, float]]
    reweight: ReweightRecord | None


class DecisionExplanation(_Record):
    """Why one bot decision was made.

    Attributes:
        version: :data:`EXPLANATION_VERSION`.
        hand: hand number in the session or log (1-based) or the log's hand id; seat: the seat, numbered from 1
            (in a log: the log's own numbering, the ACPC position + 1 of that hand or the PHH seat); player: name.
        kind: ``"preflop"``, ``"bettor"``, ``"selector"``, ``"simulator"``, ``"card_blind"`` or ``"other"`` (a player whose
            decisions are not Loki's parts).
        street: 0 pre-flop … 3 river; hole, board: cards as text.
        legal: the legal actions (``"fold"``, ``"call"``, ``"raise"``); action: the action chosen (as played
            when legal: ``"check"``/``"call"``/``"bet"``/``"raise"``/``"fold"``).
        played: the action that was then applied (differs from ``action`` only in a replayed log).
        played_why: when ``played`` differs from ``action`` in a replayed log, why they may differ (another player
            played it, a sampled action, the replay's bot in another state), one sentence.
        pot, to_call: chips.
        probabilities: ``(fold, call, raise)`` the action was drawn from, or None (Simulator, humans).
        values: our hand against the field (post-flop; None pre-flop).
        preflop: the pre-flop strategy (pre-flop only).
        rules: the rule chain (Bettor, Action Selector).
        simulation: the Simulator's EVs (Simulator only).
        card_blind: the best response to a card-blind opponent (its decisions only).
        opponents: every opponent as modelled (Loki players).
        summary: one sentence of why.
        error: set when the explanation could not be computed (the decision itself is unaffected).
    """

    version: int = EXPLANATION_VERSION
    hand: int | str
    seat: int
    player: str
    kind: Literal["preflop", "bettor", "selector", "simulator", "card_blind", "other"]
    street: int
    hole: str
    board: str
    legal: list[str]
    action: str
    played: str | None = None
    played_why: str | None = None
    pot: float
    to_call: float
    probabilities: tuple[float, float, float] | None = None
    values: HandValuesRecord | None = None
    preflop: PreflopRecord | None = None
    rules: RulesRecord | None = None
    simulation: SimulationRecord | None = None
    card_blind: CardBlindRecord | None = None
    opponents: list[OpponentRecord] = []
    summary: str = ""
    error: str | None = None


def explanation_from_json(text: str | bytes) -> DecisionExplanation:
    """Read a :class:`DecisionExplanation` back from its JSON.

    Raises:
        ConfigError: not JSON of an explanation (the message names the first bad field).
    """
    try:
        return DecisionExplanation.model_validate_json(text)
    except ValidationError as e:
        first = e.errors(include_url=False)[0]
        loc = ".".join(str(x) for x in first["loc"])
        raise ConfigError(f"explanation JSON: {loc or 'document'}: {first['msg']}") from None
