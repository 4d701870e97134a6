"""Feature R's opponent models by name: what ``Loki2Config.opponent_model`` may say (AAAI99 §4).

Each entry builds the modeler of a Loki-2 player with feature R from its configuration (any object with ``triple``,
the player's :class:`loki.triples.TripleConfig`, and the model's own settings) and the pre-flop modeler (Loki-1's).
A new built-in model is its module in this package plus one line here.

>>> sorted(FEATURE_R_MODELS)
['adaptive', 'blind', 'observer', 'specific']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from loki.errors import ConfigError
from loki.modeler.adaptive import AdaptiveModeler
from loki.modeler.blind import BlindModeler
from loki.modeler.model import OpponentModeler
from loki.modeler.specific import SpecificModeler
from loki.modeler.triple_model import TripleModeler

__all__ = ["FEATURE_R_MODELS", "feature_r_modeler", "candidate_modeler", "resolve_modeler"]

#: name -> factory ``(config, preflop) -> modeler``.
FEATURE_R_MODELS: dict[str, Callable[[Any, OpponentModeler], OpponentModeler]] = {
    # the paper's Loki-2: the observer's own Triple Generator models everybody (pena/node34)
    "observer": lambda cfg, preflop: TripleModeler(cfg.triple, preflop),
    # opponent-specific triples: a per-opponent mixture learned at showdowns
    "specific": lambda cfg, preflop: SpecificModeler(cfg.triple, cfg.specific_model, preflop),
    # the card-blind hypothesis: actions by the opponent's own frequencies whatever it holds (a candidate of "adaptive")
    "blind": lambda cfg, preflop: BlindModeler(),
    # the candidates above (and plug-ins) weighed by how well each predicts the opponent
    "adaptive": lambda cfg, preflop: AdaptiveModeler(
        [(n, candidate_modeler(n, cfg, preflop)) for n in cfg.adaptive_model.candidates], cfg.adaptive_model
    ),
}


def candidate_modeler(name: str, config: Any, preflop: OpponentModeler) -> OpponentModeler:
    """A candidate of the adaptive model: a registered name, or an import path ``"package.module:name"`` of a plug-in
    modeler (:func:`resolve_modeler`)."""
    return resolve_modeler(name) if ":" in name else feature_r_modeler(name, config, preflop)


def resolve_modeler(path: str) -> OpponentModeler:
    """Import ``"package.module:name"`` and call it with no arguments (a class or factory) to get a modeler.

    Raises:
        ConfigError: the module or name cannot be imported, or the result has no ``reweight`` method.
    """
    import importlib

    mod, _, attr = path.partition(":")
    try:
        obj = getattr(importlib.import_module(mod), attr)
    except (ImportError, AttributeError, ValueError) as e:
        raise ConfigError(f"modeler {path!r}: cannot import it ({e})") from None
    m = obj() if isinstance(obj, type) or (callable(obj) and not hasattr(obj, "reweight")) else obj
    if not callable(getattr(m, "reweight", None)):
        raise ConfigError(f"modeler {path!r}: expected an object with reweight(model, event, bucket, context)")
    return m


def feature_r_modeler(name: str, config: Any, preflop: OpponentModeler) -> OpponentModeler:
    """The feature-R modeler registered as ``name``, built for ``config``.

    Raises:
        ConfigError: an unknown name (the message lists the known ones).
    """
    try:
        factory = FEATURE_R_MODELS[name]
    except KeyError:
        raise ConfigError(f"opponent_model={name!r}: expected one of {', '.join(sorted(FEATURE_R_MODELS))}") from None
    return factory(config, preflop)
