"""The ``loki1`` and ``loki2`` player kinds: their spec syntax and how they are built (:mod:`loki.players.registry`).

``loki1[:<style>]`` and ``loki2:<features>[:<style>][:trials=N][:cutoff=paper|paired|none][:fast][:adaptive]``
(``fast`` = the Simulator's always-call variant, pena/node46; ``adaptive`` = the adaptive Loki: the adaptive opponent
model, :mod:`loki.modeler.adaptive`, which needs feature R, and the design of the set :data:`ADAPTIVE_SET` (the
card-blind hypothesis among its candidates, the contest valuation before the flop and in the Simulator's values,
:mod:`loki.modeler.contest`), with the Simulator's ``auto`` play-outs and :data:`ADAPTIVE_TRIALS` trials (unless
``trials=N``) when S is on).  The
Simulator options need feature S: without it they would do nothing, so they are refused, as are unknown or repeated
options.

>>> LOKI2.options(["brs", "la", "trials=100"])
{'features': 'BRS', 'style': 'LA', 'sim': {'trials': 100}}
>>> from loki.players.registry import spec_of
>>> spec_of(parse_player({"kind": "loki2", "features": "SB", "sim": {"always_call": True}}))
'loki2:BS:fast'
"""

from __future__ import annotations

from typing import Any

from loki.io.limits import digits
from loki.players.loki import STYLE_VALUES, Loki1Config, Loki2Config, build_loki1, build_loki2
from loki.players.registry import PlayerKind, parse_player
from loki.players.tuned import SETS, TUNED_SETS, merge_config
from loki.simulator import CUTOFF_RULES

__all__ = ["LOKI1", "LOKI2", "ADAPTIVE_TRIALS", "ADAPTIVE_SET"]

_STYLE_NAMES = sorted(STYLE_VALUES)

#: The Simulator's trials under the ``adaptive`` option, unless ``trials=N`` is given: DEFAULT (the adaptive Loki's CPU
#: budget, a decision <= 1.3x the paper's B+R+S; chosen by CPU per decision alone, benchmarks/bench_adaptive.py,
#: before any game was played; the rule and its check on seeds 0 and 1 are in experiments/adaptive-loki/trials-100/
#: and experiments/adaptive-loki, "The adaptive Loki within its CPU budget").  The paper's 500 (AAAI99 §5) cost 2.15x.
ADAPTIVE_TRIALS = 100

#: The set (:data:`loki.players.tuned.SETS`) whose design the ``adaptive`` option plays (its ``adaptive_model``,
#: ``specific_model``, ``ramp_frequency_prior``, ``ramp_ir``, ``exploit``, ``preflop_model``, ``contest`` and ``sim``
#: values): A8, the card-blind hypothesis weighed by evidence apart from which card-driven model explains the
#: opponent, the card-driven candidates learning frequencies fast and placing a holding among all the holdings, every
#: decision valued against the models, the believed play-outs rating the opponents' hands against a uniform range,
#: the pre-flop contest at four to six players only where the table is card-blind (experiments/exploitation; its plan
#: and figures).  A7 is A8 with every believed play-out hand rated against the other players' weight tables (heads-up
#: the same play); A6 is A7 without the first three; A5 is A6 with the pre-flop contest at every table up to six
#: players.  A1-A4 (experiments/adaptive-loki/tune/hu-adaptive*) played a best response to card-blind opponents
#: switched on by verdicts; each stays playable by name, as it was:
#: ``loki2:BRS:adaptive:tuned=A3`` plays A3.  The hand-set values are the classes' own defaults, e.g.
#: ``loki2{"features": "BRS", "opponent_model": "adaptive", "sim": {"play_outs": "auto", "trials": 100}}``.
ADAPTIVE_SET = "A8"


#: The fields the ``adaptive`` option takes from its set (:data:`ADAPTIVE_SET`): the opponent model (with how Loki-1's
#: pre-flop ramp learns frequencies and ranks holdings), the pre-flop decision, the contest valuation, the Simulator's
#: settings and the card-blind best response of the older sets.
_DESIGN_KEYS = (
    "adaptive_model",
    "specific_model",
    "ramp_frequency_prior",
    "ramp_ir",
    "exploit",
    "preflop_model",
    "contest",
)


def _adaptive_set(tuned: object) -> str:
    """The set whose design the ``adaptive`` option plays: ``tuned`` when it names a set fitted for the adaptive
    Loki (e.g. ``loki2:BRS:adaptive:tuned=A3``, a superseded one), else :data:`ADAPTIVE_SET`."""
    s = SETS.get(str(tuned))
    return s.name if s is not None and s.player == "loki2:BRS:adaptive" else ADAPTIVE_SET


def _loki1_options(opts: list[str]) -> dict[str, Any]:
    if not opts:
        return {}
    if len(opts) > 1 or opts[0].upper() not in STYLE_VALUES:
        raise ValueError(f"unknown Loki-1 style {':'.join(opts)!r}: expected one of {_STYLE_NAMES}")
    return {"style": opts[0].upper()}


def _loki1_spec(cfg: Loki1Config) -> str | None:
    for short in ["loki1"] + [f"loki1:{s}" for s in _STYLE_NAMES]:
        if parse_player(short) == cfg:
            return short
    return None


def _loki2_options(opts: list[str]) -> dict[str, Any]:
    if not opts:
        raise ValueError("give the features, e.g. 'loki2:BR' or 'loki2:BRS'")
    data: dict[str, Any] = {"features": opts[0].strip().upper()}
    sim: dict[str, Any] = {}
    for o in opts[1:]:
        key, eq, val = o.partition("=")
        k = key.strip().lower()
        if not eq and key.strip().upper() in STYLE_VALUES and "style" not in data:
            data["style"] = key.strip().upper()
        elif k == "trials" and eq and "trials" not in sim:
            v = val.strip()
            if not digits(v) or int(v) < 1:
                raise ValueError(f"option trials={val!r}: expected a positive integer (e.g. trials=500)")
            sim["trials"] = int(v)
        elif k == "cutoff" and eq and "cutoff" not in sim:
            if val.strip().lower() not in CUTOFF_RULES:
                raise ValueError(f"option cutoff={val!r}: expected one of {', '.join(CUTOFF_RULES)}")
            sim["cutoff"] = val.strip().lower()
        elif k in ("fast", "always_call") and not eq and "always_call" not in sim:
            sim["always_call"] = True
        elif k == "adaptive" and not eq and "opponent_model" not in data:
            data["opponent_model"] = "adaptive"
        elif k == "tuned" and eq and "tuned" not in data:
            data["tuned"] = val.strip()
        else:
            raise ValueError(
                f"unknown or repeated option {o!r} "
                f"(one style of {_STYLE_NAMES}, trials=N, cutoff=paper|paired|none, fast, adaptive, tuned=NAME)"
            )
    if data.get("opponent_model") == "adaptive":
        # the design of ADAPTIVE_SET (or of the adaptive set named by tuned=NAME, e.g. a superseded one): its model,
        # pre-flop decision, Simulator values and best-response settings, given explicitly (with the values of any
        # other set named by tuned=NAME over them: apply_tuned would merge that set under explicit fields)
        own = _adaptive_set(data.get("tuned"))
        named = {} if own == data.get("tuned") else TUNED_SETS.get(str(data.get("tuned")), {})
        design = merge_config(TUNED_SETS[own], named)  # a named set's own values win, as over any default
        for key in _DESIGN_KEYS:
            if key in design:
                data[key] = design[key]
        if "S" in data["features"]:
            sim = merge_config({"sim": design.get("sim", {})}, {"sim": sim})["sim"]
        if "R" not in data["features"]:
            raise ValueError("the adaptive opponent model re-weights: it needs feature R (e.g. 'loki2:BRS:adaptive')")
        if "S" in data["features"]:
            sim["play_outs"] = "auto"
            sim.setdefault("trials", ADAPTIVE_TRIALS)
    if sim and any(k != "play_outs" for k in sim) and "S" not in data["features"]:
        given = ", ".join("fast" if k == "always_call" else k for k in sim if k != "play_outs")
        raise ValueError(f"the Simulator options ({given}) need feature S (e.g. 'loki2:BRS:trials=100')")
    if sim:
        data["sim"] = sim
    return data


def _loki2_spec(cfg: Loki2Config) -> str | None:
    parts = ["loki2", cfg.features_text]
    if cfg.style:
        parts.append(cfg.style)
    default = Loki2Config().sim
    adaptive_s = cfg.opponent_model == "adaptive" and "S" in cfg.features_text
    if cfg.sim.trials != (ADAPTIVE_TRIALS if adaptive_s else default.trials):
        parts.append(f"trials={cfg.sim.trials}")
    if cfg.sim.cutoff != default.cutoff:
        parts.append(f"cutoff={cfg.sim.cutoff}")
    if cfg.sim.always_call:
        parts.append("fast")
    if cfg.opponent_model == "adaptive":
        parts.append("adaptive")
    if cfg.tuned:
        parts.append(f"tuned={cfg.tuned}")
    short = ":".join(parts)
    try:
        return short if parse_player(short) == cfg else None
    except ValueError:
        return None


LOKI1 = PlayerKind(
    name="loki1",
    build=build_loki1,
    config=Loki1Config,
    options=_loki1_options,
    spec=_loki1_spec,
    description="Loki-1 (PAPP98): IR pre-flop tables, the rule-based Bettor, the Opponent Modeler; styles TC TA LC LA",
)


def _loki2_fitted(cfg: Loki2Config) -> str | None:
    """The set a Loki-2 configuration plays: its ``tuned`` set, or :data:`ADAPTIVE_SET` under the ``adaptive``
    option (whose DEFAULTs it is); none for a configuration table that asks for the adaptive opponent model without
    being what a spec with the ``adaptive`` option plays (the model's hand-set values, the Simulator's 500 trials and
    uniform play-outs: it plays no fitted set as it was fitted)."""
    if cfg.opponent_model == "adaptive" and _loki2_spec(cfg) is None:
        return None
    if cfg.tuned:
        return cfg.tuned
    return ADAPTIVE_SET if cfg.opponent_model == "adaptive" else None


#: The most Simulator trials a player may use at a live table (:func:`loki.players.registry.live_table_specs`, the
#: web table): DEFAULT, the top of the trials' tuning range (``SimConfig.trials``), a decision of some tens of
#: milliseconds; the configuration allows 100,000, seconds a decision.
LIVE_MAX_TRIALS = 5000


def _loki2_live_table(cfg: Loki2Config) -> str | None:
    if "S" in cfg.features_text and cfg.sim.trials > LIVE_MAX_TRIALS:
        return (
            f"trials={cfg.sim.trials}: at most {LIVE_MAX_TRIALS} Simulator trials at a live table (a person waits "
            "for every decision); more in loki play, tournaments and matches"
        )
    return None


LOKI2 = PlayerKind(
    name="loki2",
    build=build_loki2,
    config=Loki2Config,
    options=_loki2_options,
    spec=_loki2_spec,
    fitted=_loki2_fitted,
    live_table=_loki2_live_table,
    description="Loki-2 (AAAI99): Loki-1 plus B (triples), R (triple re-weighting), S (Simulator)",
)
