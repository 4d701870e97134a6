"""Loki, composed from parts: a pre-flop policy, a post-flop policy and an opponent modeler (AAAI99 Figure 2).

A :class:`LokiPlayer` is

- a :class:`~loki.preflop.PreflopPolicy` (income-rate tables and the strategies Make0…Make4, PAPP98 §6.1),
- a post-flop policy: the Loki-1 Bettor (:class:`~loki.triples.bettor.BettorPolicy`), the Action Selector on
  probability triples (:class:`~loki.selector.SelectorPolicy`, feature B) or the Simulator
  (:class:`~loki.simulator.SimulatorPolicy`, feature S), any object with ``begin_hand()`` and
  ``decide(situation) -> record with .action``;
- an opponent modeler: Loki-1's μ/σ re-weighting (:class:`~loki.modeler.Loki1Modeler`) or triple
  re-weighting (:class:`~loki.modeler.TripleModeler`, feature R), any object with
  ``reweight(model, event, bucket, context)``, over a seat-keyed :class:`~loki.modeler.ModelStore`.

Loki-1, the paper's Loki-2 variants B, R, B+R, S, B+R+S and the style presets TC, TA, LC, LA are choices of
parts, made from a typed configuration (:class:`Loki1Config`, :class:`Loki2Config`; frozen pydantic
records) by :func:`build_loki1` / :func:`build_loki2`.  The player itself only routes: events to the
modeler, decisions to the policy of the street, and the wished action through
:func:`loki.engine.legalise`.  Every public fact it needs is on the engine's :class:`~loki.engine.PlayerView`.

Random streams (all seeded by the player's seed): the Bettor's check-raise coin ``default_rng(seed)``, the
Action Selector's per-hand numbers ``default_rng([seed, 2])``, the Simulator's seeds ``default_rng([seed, 3])``.

>>> p = build_loki2(Loki2Config(features="BR", style="LA"), seed=1)
>>> type(p.postflop).__name__, type(p.modeler).__name__, p.name
('SelectorPolicy', 'TripleModeler', 'Loki-2 BR LA')
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Literal, Protocol

from pydantic import Field, field_serializer, field_validator, model_validator

from loki.config import TunableParam, tunable, tunable_params
from loki.engine import (
    Action,
    ActionTaken,
    BlindPosted,
    BoardDealt,
    GameConfig,
    HandEnded,
    HandStarted,
    PlayerView,
    Showdown,
    legalise,
)
from loki.errors import ConfigError
from loki.modeler import (
    Loki1Modeler,
    ModelingContext,
    ModelStore,
    OpponentModeler,
    SpecificModelConfig,
)
from loki.modeler.adaptive import AdaptiveModelConfig
from loki.modeler.contest import ContestConfig
from loki.modeler.registry import FEATURE_R_MODELS, feature_r_modeler, resolve_modeler
from loki.modeler.situation import Situation
from loki.players.base import Player, legal_probabilities
from loki.players.exploit import CardBlindEvidence, ExploitConfig, card_blind_decision
from loki.players.registry import PlayerConfig
from loki.players.tuned import TUNED_SETS, apply_tuned, merge_config
from loki.preflop import AdaptiveSettings, PreflopPolicy
from loki.preflop.reweighting import DEFAULT_LEAK, StrategyReweighting
from loki.selector import SelectorPolicy
from loki.simulator import SimConfig, SimulatorPolicy
from loki.triples import DEFAULT_MAKE_WIDTH, DEFAULT_ODDS_WIDTH, GeneratorForm, TripleConfig
from loki.triples.bettor import BettorConfig, BettorPolicy
from loki.triples.ev import EVGeneratorConfig

__all__ = [
    "DecisionRecord",
    "PostflopPolicy",
    "LokiPlayer",
    "LokiOptions",
    "Loki1Config",
    "Loki2Config",
    "STYLES",
    "STYLE_VALUES",
    "build_loki1",
    "build_loki2",
]


class DecisionRecord(Protocol):
    """What a policy's ``decide`` returns (:class:`loki.preflop.PreflopDecision`, :class:`loki.triples.Decision`,
    :class:`loki.selector.TripleDecision`, :class:`loki.simulator.SimDecision`, or your own): the ``action`` it wants,
    and optionally ``probabilities`` (the ``(fold, call, raise)`` it drew the action from, None when it cannot say)
    and a ``kind`` naming the explanation that reads it (:mod:`loki.explain`; ``"other"`` if absent)."""

    @property
    def action(self) -> Action: ...


class PostflopPolicy(Protocol):
    """A post-flop decision maker: ``begin_hand()`` each hand, ``decide(situation)`` returning a
    :class:`DecisionRecord` (Bettor, Action Selector, Simulator, or your own)."""

    def begin_hand(self) -> None: ...

    def decide(self, sit: Situation) -> DecisionRecord: ...


class LokiPlayer(Player):
    """A Loki player made of parts (module docstring).

    Args:
        preflop: the pre-flop policy.
        postflop: the post-flop policy.
        modeler: the opponent modeler's re-weighting rule.
        name: display name.
        config: the configuration it was built from (kept for reports), or None.
        exploit: the best response to card-blind opponents (:mod:`loki.players.exploit`), decided before the
            policies at every decision of a heads-up contest; None (or ``card_blind`` off) never.

    Attributes:
        models: the :class:`~loki.modeler.ModelStore` (weight tables reset every hand, frequencies kept;
            re-keyed by :meth:`reseat`).
        last_decision: the record of the last decision (pre-flop choice, Bettor rule, triple, or simulation).
        last_postflop: the record of the last post-flop decision.
    """

    def __init__(
        self,
        preflop: PreflopPolicy,
        postflop: PostflopPolicy,
        modeler: OpponentModeler,
        name: str = "Loki",
        config: PlayerConfig | None = None,
        exploit: ExploitConfig | None = None,
    ):
        self.preflop = preflop
        self.postflop = postflop
        self.modeler = modeler
        self.name = name
        self.config = config
        self.exploit = exploit if exploit is not None and exploit.card_blind else None
        self._evidence = CardBlindEvidence(self.exploit) if self.exploit is not None else None
        self.models = ModelStore()
        self.last_decision: DecisionRecord | None = None
        self.last_postflop: DecisionRecord | None = None
        self._decided_by: object = None  # the policy of our last decision, until our action is observed
        self._ctx: ModelingContext  # set by begin_hand
        self._game: GameConfig

    def begin_hand(self, seat: int, config: GameConfig, hole_cards, button: int) -> None:
        """A hand starts: reset the weight tables (frequencies persist), the policies' per-hand state, and
        remember our seat and cards.

        Raises:
            TypeError, ValueError: a hole card that ``int()`` cannot convert.
        """
        self.seat = seat
        self._game = config
        hole = (int(hole_cards[0]), int(hole_cards[1]))
        self._ctx = ModelingContext(seat, hole, (), config, int(button))
        self._revealed: tuple[tuple[int, int], ...] | None = None
        self.models.begin_hand(seat, config.n_players)
        self.preflop.begin_hand()
        self.postflop.begin_hand()
        if self._evidence is not None:
            self._evidence.begin_hand()

    def observe(self, event) -> None:
        """Opponents' actions go to the opponent modeler (:meth:`ModelStore.observe`); a new board starts a round
        for the models.  Other events are ignored."""
        if self._evidence is not None:
            self._evidence.observe(event, self.models, self.seat)
        kind = type(event)
        if kind is ActionTaken:
            if event.seat != self.seat and event.seat in self.models.models:
                self.models.observe(event, self.modeler, self._game, self._ctx)
            elif event.seat == self.seat:
                self._taken(event.action)
            self._ctx.follow(event)
        elif kind is HandStarted or kind is BlindPosted or kind is HandEnded:
            return  # nothing to model (the blinds are not voluntary actions)
        elif isinstance(event, ActionTaken):  # a subclass
            if event.seat != self.seat and event.seat in self.models:
                self.models.observe(event, self.modeler, self._game, self._ctx)
            elif event.seat == self.seat:
                self._taken(event.action)
            self._ctx.follow(event)
        elif isinstance(event, BoardDealt):
            self._ctx.next_round(tuple(event.board))
            self.models.new_round(self._ctx.folded, event)
        elif isinstance(event, Showdown):
            self.models.showdown(event, self.modeler, self._ctx)

    def _taken(self, action: Action) -> None:
        """Our own action, as played: the post-flop policy that decided it follows it (``taken(action)``, where the
        policy has it: the Action Selector's per-hand number and semi-bluff).  In play it is the action the policy
        drew; a copy of the player asked what it would do with other cards (:mod:`loki.lbr`) is told the action
        really played instead of its own draw."""
        policy, self._decided_by = self._decided_by, None
        taken = getattr(policy, "taken", None)
        if taken is not None:
            taken(action)

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """The pre-flop policy in round 0, the post-flop policy after; the wish made legal by
        :func:`loki.engine.legalise`.

        Raises:
            IndexError: ``legal_actions`` empty (the table never asks then).
        """
        d: DecisionRecord
        blind = None if self.exploit is None else card_blind_decision(view, legal_actions, self.models, self.exploit)
        if blind is not None:
            d = blind
            if view.round > 0:
                self.last_postflop = d
        elif view.round == 0:
            d = self.preflop.decide(view, legal_actions, self.models, getattr(self.modeler, "card_blindness", None))
        else:
            if self.cheats and self._revealed is None:
                raise ConfigError(
                    f"{self.name} is an oracle (a cheat for experiments): only loki tournament and loki tune show it "
                    "the hole cards it needs"
                )
            sit = Situation(view, legal_actions, self.models, self.modeler, self._revealed)
            d = self.last_postflop = self.postflop.decide(sit)
            self._decided_by = self.postflop
        self.last_decision = d
        self._last_legal = legal_actions
        return legalise(d.action, legal_actions)

    @property
    def cheats(self) -> bool:
        """Whether this player is an oracle that must be shown every seat's hole cards (:meth:`reveal`)."""
        return bool(getattr(self.config, "cheats", False))

    def reveal(self, hole_cards: Sequence[tuple[int, int]]) -> None:
        """CHEAT, for the experiments on what limits B and S: every seat's hole cards for this hand (the table calls it for an
        oracle player, in ``loki tournament`` and ``loki tune`` only; :func:`loki.players.table.play_hand`)."""
        self._revealed = tuple((int(a), int(b)) for a, b in hole_cards)

    def action_probabilities(self) -> tuple[float, float, float] | None:
        """The distribution the last action was drawn from (given this hand's earlier actions): pre-flop strategies
        are pure; the Bettor is pure but for its check-raise coin; the Action Selector's triple, conditioned on
        what the hand's earlier actions revealed of its number ``u``; None for a Simulator decision (its randomness
        is a seed) or a policy that does not say."""
        d = self.last_decision
        probs = None if d is None else getattr(d, "probabilities", None)
        if probs is None:
            return None
        return legal_probabilities(probs, self._last_legal)

    def action_values(self) -> tuple[float, float, float] | None:
        """A Simulator decision's EVs ``(0, EV(call), EV(raise))`` in chips from the decision on
        (:attr:`loki.simulator.SimDecision.action_values`), computed before its action was drawn; None for other
        decisions."""
        d = self.last_decision
        return None if d is None else getattr(d, "action_values", None)

    def reseat(self, mapping: dict[int, int]) -> None:
        """The players changed seats: each opponent model follows its opponent."""
        self.models.reseat(mapping)

    def model_sharing_key(self) -> Hashable | None:
        """What a player must have in common with another to hold the same opponent models (its modeler, when that
        is ``public_only`` and nothing else of this player writes to the models), or None: the key by which
        :func:`loki.players.table.share_opponent_models` groups the players of a table."""
        m = self.modeler
        if not getattr(m, "public_only", False) or getattr(m, "learn", None) is not None or self._evidence is not None:
            return None
        if not isinstance(m, Hashable):  # a modeler that cannot be a key (not hashable) is shared with none
            return None
        return m


# ------------------------------------------------------------------------------------ configurations
Style = Literal["TC", "TA", "LC", "LA"]

#: Style presets (loki-algorithms.md §7, all DEFAULT): tight/loose × conservative/aggressive.  Tight: 'tight'
#: thresholds shifted up 50; loose: 'loose' thresholds shifted down 156 (targets ≈15 % / ≈35 % of hands; measured
#: VPIP 15.0 % / 35.3 %, docs/CALIBRATION.md); aggressive: make1 0.40, make2 0.75, semi-bluffs, pot-odds calls raise
#: above EHS' 0.65; conservative: make1 0.60, make2 0.92, no semi-bluffs.
STYLE_VALUES: dict[str, dict[str, Any]] = {
    "TC": {"tightness": "tight", "preflop_shift": 50.0, "bettor": {"make1": 0.60, "make2": 0.92, "semi_bluff": False}},
    "TA": {
        "tightness": "tight",
        "preflop_shift": 50.0,
        "bettor": {"make1": 0.40, "make2": 0.75, "semi_bluff": True, "aggressive_call_raise": 0.65},
    },
    "LC": {
        "tightness": "loose",
        "preflop_shift": -156.0,
        "bettor": {"make1": 0.60, "make2": 0.92, "semi_bluff": False},
    },
    "LA": {
        "tightness": "loose",
        "preflop_shift": -156.0,
        "bettor": {"make1": 0.40, "make2": 0.75, "semi_bluff": True, "aggressive_call_raise": 0.65},
    },
}


def _with_style(data: Any) -> Any:
    """Apply a ``style`` shorthand: its values first, the explicitly given fields over them (a ``bettor`` table
    is merged key by key)."""
    if not isinstance(data, dict) or data.get("style") is None:
        return data
    style = str(data["style"]).upper()
    if style not in STYLE_VALUES:
        return data  # the Literal check reports it
    return {**merge_config(STYLE_VALUES[style], data), "style": style}


class LokiOptions(PlayerConfig):
    """What every Loki player is configured by (PAPP98; loki-algorithms.md §2, §3, §4, §7).

    Attributes:
        style: a style preset (TC, TA, LC, LA) applied first; fields given explicitly override it.
        tightness: pre-flop "tight" / "moderate" / "loose" (PAPP98 default loose).
        preflop_shift: IR ×1000 added to every pre-flop threshold base (style presets; 0 = as calibrated).
        bettor: the post-flop thresholds (Bettor, and Triple Generator for Loki-2).
        modelling: "specific" (observed frequencies, SOM) or "generic" (Table B.2 defaults, GOM).
        lookahead: 1 (PPot1, DEFAULT) or 2 (PPot2 on the flop) for our hand's potential.
        modeler: import path ``"package.module:name"`` of your own opponent modeler (a class or factory called
            with no arguments, returning an object with ``reweight(model, event, bucket, context)``), replacing
            the default one; None for the default.
        preflop_model: ``"auto"`` (default: ``"adaptive"`` at tables of at most 6 players, ``"expert"`` at larger
            ones; :meth:`loki.preflop.PreflopPolicy.model_for`), ``"expert"`` (PAPP98's expert system) or
            ``"adaptive"`` (expected players and heads-up contests from the opponent models; DEFAULT beyond the
            sources, :class:`loki.preflop.AdaptiveSettings`).
            ``"contest"``: every decision values the contest against the modelled opponents at tables of at most 6
            players, the expert system at larger ones
            (:mod:`loki.modeler.contest`; DEFAULT beyond the sources, the adaptive Loki's).
        contest: the DEFAULTs of the contest valuation (:class:`loki.modeler.contest.ContestConfig`): the ``"contest"``
            pre-flop model's, and the Simulator's card-blind values (``sim.card_blind_values``).
        preflop_realization: the adaptive model's pot-odds margin for heads-up calls (DEFAULT).
        preflop_short_handed: the most players dealt in at which ``"auto"`` and ``"contest"`` use their short-handed
            pre-flop model (:attr:`loki.preflop.AdaptiveSettings.short_handed`, DEFAULT 6); the expert system above.
        preflop_reweighting: how an opponent's pre-flop actions re-weight its table: ``"ramp"`` (Loki-1's μ/σ ramp on
            IR7, PAPP98 and pena/node39; the default) or ``"strategy"`` (each holding kept where our own expert system
            would take the action with it, else multiplied by ``preflop_leak``:
            :class:`loki.preflop.reweighting.StrategyReweighting`; DEFAULT, beyond the sources).
        preflop_leak: the ``"strategy"`` rule's factor for a holding inconsistent with the action (DEFAULT 0.05).
        ramp_frequency_prior: how Loki-1's μ/σ ramp learns an opponent's frequencies
            (:attr:`loki.modeler.Loki1Modeler.frequency_prior`: 0, Loki-1's blend over 20 observations; ``k > 0`` a
            Bayesian mean with ``k`` pseudo-observations; DEFAULT 0).  The ramp re-weights every pre-flop action (and
            Loki-1's post-flop ones).
        ramp_ir: the IR table Loki-1's pre-flop ramp ranks an opponent's holdings by
            (:attr:`loki.modeler.Loki1Modeler.ir`): ``"IR7"`` (Loki-1's; the default) or ``"active"`` (IR2 heads-up,
            IR4 at three or four players still in, IR7 at more; DEFAULT, beyond the sources).
            With ``modeler`` given, that modeler replaces the default one entirely, these four options included.
    """

    kind: str = "loki"
    style: Style | None = None
    tightness: Literal["tight", "moderate", "loose"] = "loose"
    preflop_shift: float = 0.0
    bettor: BettorConfig = BettorConfig()
    modelling: Literal["specific", "generic"] = "specific"
    lookahead: Literal[1, 2] = 1
    modeler: str | None = None
    preflop_model: Literal["auto", "expert", "adaptive", "contest"] = "auto"
    contest: ContestConfig = ContestConfig()
    preflop_realization: float = Field(AdaptiveSettings().realization, gt=0.0, le=10.0)
    preflop_short_handed: int = Field(AdaptiveSettings().short_handed, ge=2, le=10)
    preflop_reweighting: Literal["ramp", "strategy"] = "ramp"
    preflop_leak: float = tunable(
        DEFAULT_LEAK, 0.005, 0.5, source="DEFAULT (pre-flop re-weighting by strategy)", log=True, gt=0.0, le=1.0
    )
    ramp_frequency_prior: float = Field(0.0, ge=0.0, le=1000.0)
    ramp_ir: Literal["IR7", "active"] = "IR7"

    @model_validator(mode="before")
    @classmethod
    def _apply_style(cls, data: Any) -> Any:
        return _with_style(data)

    @field_validator("modeler")
    @classmethod
    def _import_path(cls, v: str | None) -> str | None:
        if v is not None and (v.count(":") != 1 or not all(v.split(":"))):
            raise ValueError(f"expected an import path 'package.module:name', got {v!r}")
        return v

    @property
    def cheats(self) -> bool:
        """Whether this player is an oracle (sees every seat's hole cards; experiments only): never, but where a
        configuration says otherwise (:attr:`Loki2Config.cheats`).  Answered by the class, not by pydantic's lookup of
        a missing attribute: the table asks every player at every hand."""
        return False


class Loki1Config(LokiOptions):
    """Loki-1 (PAPP98): the pre-flop expert system, the Bettor, Loki-1's opponent modelling.

    >>> Loki1Config(style="TA").bettor.make1
    0.4
    >>> Loki1Config(style="TA", bettor={"make1": 0.45}).bettor.make2  # the rest of TA's bettor stays
    0.75
    """

    kind: Literal["loki1"] = "loki1"


class Loki2Config(LokiOptions):
    """Loki-2 (AAAI99; PENA99): Loki-1 plus features B (Action Selector on triples), R (triple re-weighting)
    and S (Simulator).

    Attributes:
        features: a non-empty subset of B, R, S (a string such as ``"BRS"`` is accepted).
        make_width, odds_width: the Triple Generator's DEFAULT ramp half-widths (its thresholds are ``bettor``'s).
        form: the generator's form beyond the paper's (:class:`loki.triples.GeneratorForm`; default: the paper's).
        sim: the Simulator's settings (feature S only); its play-outs use this player's Triple Generator, so
            ``sim.triple`` is refused (set ``bettor``, ``make_width``, ``odds_width`` or ``form``).
        opponent_model: how feature R models an opponent's action, a name of
            :data:`loki.modeler.registry.FEATURE_R_MODELS`: ``"observer"`` with our own Triple Generator (the paper's
            Loki-2), ``"specific"`` with opponent-specific triples (:mod:`loki.modeler.specific`).
        specific_model: the DEFAULTs of the ``"specific"`` model.
        adaptive_model: the DEFAULTs of the ``"adaptive"`` model (:mod:`loki.modeler.adaptive`: the candidate models
            weighed by how well each predicts the opponent; with feature S pair it with ``sim.play_outs = "auto"``).
        generator: feature B's Triple Generator: ``"rules"`` (the Bettor's rules with ramps, :mod:`loki.triples.rule_chain`)
            ``"ev"`` (one-step action values mixed by a softmax) or ``"calling"`` (the rules, with folds overruled by
            the call's value, slow-play and bluff frequencies), :mod:`loki.triples.ev`.
        ev: the DEFAULTs of the ``"ev"`` generator.
        tuned: a set of values found by ``loki tune`` (:data:`loki.players.tuned.TUNED_SETS`), applied under the
            fields given explicitly; None: the values used before (the paper's where it gives them).
        exploit: the best response to card-blind opponents in heads-up contests (:mod:`loki.players.exploit`; off
            by default, on with the ``adaptive`` spec option).
        ``generator = "oracle"`` and ``sim.oracle`` are **cheats for experiments only** (what limits B and S):
        the player is shown every seat's hole cards by the table, which only ``loki tournament`` and ``loki tune`` do
        (:attr:`cheats`); the other commands refuse such a player.

    Raises:
        ConfigError: no or unknown features, Simulator settings without feature S, ``sim.triple`` given (derived
            from the player's generator), or a bad value.
    """

    kind: Literal["loki2"] = "loki2"
    features: frozenset[str] = frozenset("BR")
    make_width: float = tunable(
        DEFAULT_MAKE_WIDTH, 0.0, 0.2, source="DEFAULT (pena/node31: widths not given)", ge=0.0, le=0.5
    )
    odds_width: float = tunable(
        DEFAULT_ODDS_WIDTH, 0.0, 0.2, source="DEFAULT (pena/node31: widths not given)", ge=0.0, le=0.5
    )
    form: GeneratorForm = GeneratorForm()
    sim: SimConfig = SimConfig()
    opponent_model: str = "observer"
    specific_model: SpecificModelConfig = SpecificModelConfig()
    adaptive_model: AdaptiveModelConfig = AdaptiveModelConfig()
    generator: Literal["rules", "ev", "calling", "oracle"] = "rules"
    ev: EVGeneratorConfig = EVGeneratorConfig()
    tuned: str | None = None
    exploit: ExploitConfig = ExploitConfig()

    @model_validator(mode="before")
    @classmethod
    def _apply_tuned(cls, data: Any) -> Any:
        return apply_tuned(data) if isinstance(data, dict) else data

    @field_validator("tuned")
    @classmethod
    def _known_tuned(cls, v: str | None) -> str | None:
        if v is not None and v not in TUNED_SETS:
            known = ", ".join(sorted(TUNED_SETS)) or "none shipped yet"
            raise ValueError(f"unknown tuned set {v!r} (known: {known})")
        return v

    @field_validator("features", mode="before")
    @classmethod
    def _features(cls, v: Any) -> Any:
        if isinstance(v, str):
            t = v.strip().upper()
            if not t or any(ch not in "BRS" for ch in t) or len(set(t)) != len(t):
                raise ValueError(f"expected a non-empty combination of B, R, S (e.g. 'BR', 'BRS'), got {v!r}")
            return frozenset(t)
        return v

    @field_validator("opponent_model")
    @classmethod
    def _known_model(cls, v: str) -> str:
        if v not in FEATURE_R_MODELS:
            raise ValueError(f"expected one of {', '.join(sorted(FEATURE_R_MODELS))}, got {v!r}")
        return v

    @field_serializer("features")
    def _features_out(self, v: frozenset[str]) -> str:
        # the paper's order: a set's own order follows string hashing, which changes from process to process
        return "".join(sorted(v, key="BRS".index))

    @model_validator(mode="after")
    def _check(self) -> Loki2Config:
        if not self.features or not self.features <= {"B", "R", "S"}:
            raise ValueError(f"Loki-2 needs a non-empty set of features among B, R, S, got {sorted(self.features)}")
        if "S" not in self.features and self.sim != SimConfig():
            raise ValueError("the Simulator settings (sim) need feature S")
        if "triple" in self.sim.model_fields_set:
            raise ValueError(
                "sim.triple is derived: the Simulator's play-outs use this player's own Triple Generator; set "
                "bettor.make1, bettor.make2, make_width, odds_width or form instead"
            )
        return self

    def search_space(self) -> list[TunableParam]:
        """The tunable fields (:func:`loki.config.tunable`) that matter for this player, for ``loki tune``: the
        Simulator's with feature S only, the opponent-specific model's with ``opponent_model = "specific"`` and
        feature R only, the EV designs' with their generator and feature B without S only, the ramp widths when some
        triples are made (B, R or S), ``preflop_leak`` with ``preflop_reweighting = "strategy"`` only, the best
        response to card-blind opponents' (``exploit.``) with ``exploit.card_blind`` only."""
        f = self.features
        skip = []
        if "S" not in f:
            skip.append("sim.")
        if "R" not in f or self.opponent_model not in ("specific", "adaptive"):
            skip.append("specific_model.")
        if "R" not in f or self.opponent_model != "adaptive":
            skip.append("adaptive_model.")
        if self.generator == "rules" or "B" not in f or "S" in f:
            skip.append("ev.")
        if self.preflop_reweighting != "strategy":
            skip.append("preflop_leak")
        if self.preflop_model != "contest":
            skip.append("contest.")
        if not self.exploit.card_blind:  # the player is built without the best response (LokiPlayer.exploit)
            skip.append("exploit.")
        return [p for p in tunable_params(self) if not any(p.path.startswith(k) for k in skip)]

    @property
    def cheats(self) -> bool:
        """Whether this player is an oracle (sees every seat's hole cards; experiments only)."""
        return self.generator == "oracle" or self.sim.oracle != "none"

    @property
    def features_text(self) -> str:
        """The features in the paper's order, e.g. ``"BRS"``."""
        return "".join(sorted(self.features, key="BRS".index))

    @property
    def triple(self) -> TripleConfig:
        """The Triple Generator: ``bettor``'s thresholds with this config's widths."""
        return TripleConfig(bettor=self.bettor, make_width=self.make_width, odds_width=self.odds_width, form=self.form)

    @property
    def sim_config(self) -> SimConfig:
        """``sim`` with this player's Triple Generator for every player of the play-outs."""
        return self.sim.model_copy(update={"triple": self.triple})


#: The style presets as Loki-1 configurations.
STYLES: dict[str, Loki1Config] = {name: Loki1Config(style=name) for name in STYLE_VALUES}


def _modeler(cfg: LokiOptions, default: OpponentModeler) -> OpponentModeler:
    return resolve_modeler(cfg.modeler) if cfg.modeler else default


def _opponent_preflop(cfg: LokiOptions) -> OpponentModeler:
    """The modeler of opponents' pre-flop actions (``preflop_reweighting``); after the flop it is Loki-1's ramp."""
    ramp = Loki1Modeler(cfg.modelling == "specific", cfg.ramp_frequency_prior, cfg.ramp_ir)
    if cfg.preflop_reweighting == "ramp":
        return ramp
    short_handed = _preflop_settings(cfg).short_handed  # where our own pre-flop play is the expert system's
    return StrategyReweighting(
        cfg.tightness, cfg.preflop_shift, cfg.preflop_model, short_handed, cfg.preflop_leak, ramp
    )


def _preflop_settings(cfg: LokiOptions) -> AdaptiveSettings:
    return AdaptiveSettings(realization=cfg.preflop_realization, short_handed=cfg.preflop_short_handed)


def _preflop(cfg: LokiOptions) -> PreflopPolicy:
    settings = _preflop_settings(cfg)
    specific = cfg.modelling == "specific"
    return PreflopPolicy(
        cfg.tightness,
        cfg.preflop_shift,
        model=cfg.preflop_model,
        settings=settings,
        specific=specific,
        contest=cfg.contest,
    )


def _label(base: str, cfg: LokiOptions) -> str:
    return f"{base} {cfg.style}" if cfg.style else base


def build_loki1(config: Loki1Config = Loki1Config(), seed: int = 0, name: str | None = None) -> LokiPlayer:
    """Loki-1: pre-flop expert system, the Bettor, Loki-1's opponent modelling (PAPP98).

    Args:
        config: :class:`Loki1Config`.
        seed: seeds the Bettor's check-raise coin.
        name: display name (default ``"Loki-1"`` plus the style).
    """
    return LokiPlayer(
        _preflop(config),
        BettorPolicy(config.bettor, config.lookahead, seed),
        _modeler(config, _opponent_preflop(config)),
        name=name or _label("Loki-1", config),
        config=config,
    )


def build_loki2(config: Loki2Config = Loki2Config(), seed: int = 0, name: str | None = None) -> LokiPlayer:
    """Loki-2 with the configured features: post-flop the Simulator if S, else the Action Selector if B, else the
    Bettor; triple re-weighting post-flop if R, else Loki-1's.  Pre-flop is Loki-1's expert system (pena/node21).

    Args:
        config: :class:`Loki2Config`.
        seed: seeds every random choice (module docstring).
        name: display name (default ``"Loki-2 <features>"`` plus the style).
    """
    f = config.features
    post: PostflopPolicy
    if "S" in f:
        post = SimulatorPolicy(config.sim_config, seed, config.contest)
    elif "B" in f:
        post = SelectorPolicy(config.triple, config.lookahead, seed, config.generator, config.ev)
    else:
        post = BettorPolicy(config.bettor, config.lookahead, seed)
    default = _opponent_preflop(config)
    if "R" in f:
        default = feature_r_modeler(config.opponent_model, config, default)
    return LokiPlayer(
        _preflop(config),
        post,
        _modeler(config, default),
        name=name
        or _label(
            f"Loki-2 {config.features_text}" + (" adaptive" if config.opponent_model == "adaptive" else ""), config
        ),
        config=config,
        exploit=config.exploit,
    )
