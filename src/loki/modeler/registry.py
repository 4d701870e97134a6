"""Feature R's opponent models by name: what ``Loki2Config.opponent_model`` may say (AAAI99 §4; issue 23).

Each entry builds the modeler of a Loki-2 player with feature R from its configuration (any object with ``triple``,
the player's :class:`loki.triples.TripleConfig`, and the model's own settings) and the pre-flop modeler (Loki-1's).
A new built-in model is its module in this package plus one line here.

>>> sorted(FEATURE_R_MODELS)
['observer', 'specific']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from loki.errors import ConfigError
from loki.modeler.loki1 import Loki1Modeler
from loki.modeler.model import OpponentModeler
from loki.modeler.specific import SpecificModeler
from loki.modeler.triple_model import TripleModeler

__all__ = ["FEATURE_R_MODELS", "feature_r_modeler"]

#: name -> factory ``(config, preflop) -> modeler``.
FEATURE_R_MODELS: dict[str, Callable[[Any, Loki1Modeler], OpponentModeler]] = {
    # the paper's Loki-2: the observer's own Triple Generator models everybody (pena/node34)
    "observer": lambda cfg, preflop: TripleModeler(cfg.triple, preflop),
    # opponent-specific triples: a per-opponent mixture learned at showdowns (issue 11)
    "specific": lambda cfg, preflop: SpecificModeler(cfg.triple, cfg.specific_model, preflop),
}


def feature_r_modeler(name: str, config: Any, preflop: Loki1Modeler) -> OpponentModeler:
    """The feature-R modeler registered as ``name``, built for ``config``.

    Raises:
        ConfigError: an unknown name (the message lists the known ones).
    """
    try:
        factory = FEATURE_R_MODELS[name]
    except KeyError:
        raise ConfigError(f"opponent_model={name!r}: expected one of {', '.join(sorted(FEATURE_R_MODELS))}") from None
    return factory(config, preflop)
