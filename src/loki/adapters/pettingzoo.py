"""Loki in PettingZoo's ``texas_holdem_v4``, and PettingZoo's random agent at Loki's table (optional extra:
``pip install "loki-poker[pettingzoo]"``; the environment is ``pettingzoo.classic.texas_holdem_v4``, RLCard's
``limit-holdem`` under PettingZoo's AEC API).

**The mappings** (``pettingzoo/classic/rlcard_envs/texas_holdem.py`` and ``rlcard_base.py``, PettingZoo 1.24-1.27).
The game is RLCard's (:mod:`loki.adapters.rlcard`: its rules, cards and action names); agents ``player_0`` and
``player_1`` are RLCard's players 0 and 1; actions are ids ``0 call, 1 raise, 2 fold, 3 check`` (RLCard's order,
:data:`loki.adapters.rlcard.RLCARD_ACTIONS`); an observation is ``{"observation": (72,) float32, "action_mask": (4,)
int8}``: 52 card flags (hole cards and board together, card ``suit·13 + rank`` in RLCard's ``S H D C``, ``A 2 ... K``
order) then for each of the 4 rounds a one-hot of its raises (0..4).  That observation does not tell the hole cards
from the board nor the order of the actions, which Loki needs: :class:`LokiPettingZooAgent` reads them from the
RLCard game under the environment (``env.unwrapped.env``: its raw state and action record, what a human interface
of RLCard shows a player) and checks that they agree with the observation it was given (the cards, the mask); a
disagreement or an observation of another shape is an :class:`~loki.errors.InputError`.  The decision is
:class:`loki.adapters.rlcard.LokiRLCardAgent`'s.

The player kind ``pettingzoo`` (``pettingzoo:random``) is PettingZoo's random agent at a Loki table: at each
decision the environment's action space (``Discrete(4)``, seeded) samples under the mask of the legal actions at
Loki's table (``action_space.sample(mask)``, the policy of PettingZoo's AEC examples).  That mask is PettingZoo's but
for one action: RLCard's game lets a player fold when checking is free, Loki's does not (the ACPC dealer plays such a
fold as a check), so where PettingZoo's agent would fold, check or raise a third of the time each, this one checks
or raises half of the time each.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from loki.engine import Action, PlayerView
from loki.errors import ConfigError, InputError
from loki.players.base import Player
from loki.players.registry import PlayerConfig, PlayerKind

__all__ = ["texas_holdem_env", "LokiPettingZooAgent", "PettingZooRandom", "PETTINGZOO", "ACTION_IDS"]

#: PettingZoo's action ids of ``texas_holdem_v4`` by name (RLCard's order).
ACTION_IDS = {"call": 0, "raise": 1, "fold": 2, "check": 3}


def texas_holdem_env(**kw: Any) -> Any:
    """``pettingzoo.classic.texas_holdem_v4.env(**kw)``.

    Raises:
        ConfigError: PettingZoo (with its classic environments' needs: RLCard, pygame) is not installed.
    """
    try:
        from pettingzoo.classic import texas_holdem_v4
    except ImportError as e:
        raise ConfigError(
            f'PettingZoo\'s texas_holdem_v4 is not installed ({e}): pip install "loki-poker[pettingzoo]"'
        ) from None
    return texas_holdem_v4.env(**kw)


class LokiPettingZooAgent:
    """A Loki player as a PettingZoo agent of one ``texas_holdem_v4`` environment (module docstring).

    Args:
        env: the environment (AEC; ``env.unwrapped.env`` is its RLCard game).
        player: a loki player, or a spec (built with ``seed``).
        seed: the seed of a player given as a spec.

    ``agent.act(observation, agent_name)`` returns the action id for the observation ``env.last()`` gave
    ``agent_name``.
    """

    def __init__(self, env: Any, player: Any, seed: int = 0):
        from loki.adapters.rlcard import LokiRLCardAgent

        self.env = env
        self.inner = LokiRLCardAgent(player, seed)

    @property
    def player(self) -> Any:
        return self.inner.player

    def act(self, observation: Any, agent: str) -> int:
        """The action id for ``observation`` of ``agent`` (module docstring).

        Raises:
            InputError: an observation that is not texas_holdem_v4's, or that disagrees with the game under it.
        """
        from loki.adapters.rlcard import RLCARD_ACTIONS, from_rlcard_card

        if not isinstance(observation, dict) or set(observation) != {"observation", "action_mask"}:
            raise InputError("texas_holdem_v4 observation: expected a dict with 'observation' and 'action_mask'")
        obs = np.asarray(observation["observation"])
        mask = np.asarray(observation["action_mask"])
        if (
            obs.shape != (72,)
            or mask.shape != (4,)
            or not np.all(np.isin(obs, (0, 1)))
            or not np.all(np.isin(mask, (0, 1)))
        ):
            raise InputError(
                f"texas_holdem_v4 observation of shapes {obs.shape} and {mask.shape}: expected (72,) and (4,) of 0s and 1s"
            )
        game = self.env.unwrapped.env
        agents = list(self.env.unwrapped.possible_agents)
        if agent not in agents:
            raise InputError(f"agent {agent!r}: expected one of {agents}")
        state = game.get_state(agents.index(agent))
        raw = state["raw_obs"]
        cards = raw["hand"] + raw["public_cards"]
        flags = np.zeros(52)
        for c in cards:
            k = from_rlcard_card(c)
            flags["SHDC".index("CDHS"[k % 4]) * 13 + "A23456789TJQK".index("23456789TJQKA"[k // 4])] = 1
        if not np.array_equal(flags, obs[:52]):
            raise InputError(f"texas_holdem_v4 observation's cards do not agree with the game's ({cards})")
        legal = {RLCARD_ACTIONS[i] for i in np.flatnonzero(mask)}
        if legal != set(state["raw_legal_actions"]):
            raise InputError(f"texas_holdem_v4 action mask {mask.tolist()} does not agree with the legal actions")
        return ACTION_IDS[self.inner.step(state)]


class PettingZooRandomConfig(PlayerConfig):
    """``pettingzoo:random``: PettingZoo's random agent (the action space sampled under the mask)."""

    kind: Literal["pettingzoo"] = "pettingzoo"
    agent: Literal["random"] = "random"


class PettingZooRandom(Player):
    """PettingZoo's random agent at a Loki table (module docstring).

    Args:
        seed: seeds the action space's sampler.
        name: display name.

    Raises:
        ConfigError: PettingZoo is not installed.
    """

    def __init__(self, seed: int = 0, name: str | None = None):
        env = texas_holdem_env()
        self.space = env.action_space(env.possible_agents[0])
        self.space.seed(int(seed) % (2**32))
        self.name = name or "PettingZoo random"

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """A sample of the action space under the mask of ``legal_actions`` (in RLCard's names)."""
        mask = np.zeros(4, dtype=np.int8)
        free = view.to_call() == 0
        for a in legal_actions:
            name = "fold" if a is Action.FOLD else "raise" if a is Action.RAISE else "check" if free else "call"
            mask[ACTION_IDS[name]] = 1
        i = int(self.space.sample(mask))
        self._legal = tuple(legal_actions)
        return {0: Action.CALL, 1: Action.RAISE, 2: Action.FOLD, 3: Action.CALL}[i]

    def action_probabilities(self) -> tuple[float, float, float] | None:
        """Uniform over the legal actions of the last decision (what the masked sample draws from)."""
        legal = getattr(self, "_legal", None)
        if not legal:
            return None
        p = 1.0 / len(legal)
        return tuple(p if a in legal else 0.0 for a in (Action.FOLD, Action.CALL, Action.RAISE))  # type: ignore[return-value]


PETTINGZOO = PlayerKind(
    name="pettingzoo",
    build=lambda cfg, seed, name: PettingZooRandom(seed, name),
    config=PettingZooRandomConfig,
    options=lambda opts: {"agent": opts[0].lower()} if opts else {},
    spec=lambda cfg: f"pettingzoo:{cfg.agent}",
    description="PettingZoo's random agent for texas_holdem_v4 (optional extra: loki-poker[pettingzoo])",
)
