"""Loki among other programs: adapters to OpenSpiel, PettingZoo and RLCard (each an optional extra).

Each module is small and imports its library only when used (a missing library is one ``ConfigError`` naming the
extra that installs it): :mod:`~loki.adapters.openspiel` (Loki as an OpenSpiel bot for ``universal_poker`` limit
hold'em; OpenSpiel's uniform random bot as the player kind ``openspiel:random``), :mod:`~loki.adapters.rlcard`
(RLCard's limit hold'em rule agent as ``rlcard:limit-holdem-rule-v1``) and :mod:`~loki.adapters.pettingzoo`
(PettingZoo's random agent for ``texas_holdem_v4`` as ``pettingzoo:random``).
"""
