"""Play hands between :class:`loki.players.Player` objects on the rules engine.

>>> from loki.engine import GameConfig
>>> from loki.players import CallingStation, RandomPlayer
>>> cfg = GameConfig(n_players=3)
>>> totals = play_session(cfg, [RandomPlayer(1), CallingStation(), RandomPlayer(2)], n_hands=20, seed=7)
>>> len(totals), sum(totals)
(3, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

from loki.engine import Action, GameConfig, HandState, IllegalActionError, new_hand
from loki.errors import ConfigError
from loki.modeler import ModelStore

__all__ = ["PlayerActionError", "play_hand", "play_session", "share_opponent_models"]


class PlayerActionError(IllegalActionError):
    """A player returned an action that is not legal (or not an action at all).

    Attributes (besides ``seat``, ``action``, ``legal``): ``player`` (the player object).
    """

    def __init__(self, message: str, player, seat: int, action, legal: tuple):
        super().__init__(message, seat, action, legal)
        self.player = player


def play_hand(
    config: GameConfig,
    players: Sequence,
    button: int = 0,
    rng=None,
    *,
    hole_cards=None,
    board=None,
    stacks=None,
    on_action: Callable[[HandState, int, Action, Any], None] | None = None,
    oracles: bool = False,
) -> HandState:
    """Play one hand and return the finished :class:`~loki.engine.HandState`.

    Args:
        config: the rules; ``len(players)`` must equal ``config.n_players`` (player ``i`` sits in
            seat ``i``).
        players: :class:`~loki.players.Player` objects.
        button: button seat for this hand.
        rng: ``numpy.random.Generator`` or int seed dealing the cards not given.
        hole_cards, board: fixed cards (replays, duplicate deals); see
            :meth:`loki.engine.HandState.deal`.
        stacks: per-hand stacks overriding ``config.stacks``.
        on_action: optional hook called at each decision, after the player's ``act`` and before the
            action is applied, as ``on_action(state, seat, action, player)``: the live state *before*
            the action (read it during the call, do not keep it), the seat that acted, the legal
            :class:`~loki.engine.Action` it chose and the player object (whose
            ``action_probabilities()`` describes that choice; :class:`loki.aivat.ActionRecorder` reads
            it).  None (the default) costs nothing.
        oracles: show an oracle player (``player.cheats``: a cheat of the experiments on what limits B and S) every seat's hole
            cards (``player.reveal``); only the tournament runner does.  Without it an oracle player is refused.

    Raises:
        ConfigError: wrong number of players.
        ValueError: bad cards/button (the engine's :class:`~loki.errors.CardError`, ...).
        PlayerActionError: a player returned an illegal action; the message names the player.
    """
    n = config.n_players
    if len(players) != n:
        raise ConfigError(f"{len(players)} players for a {n}-player game: expected one per seat")
    state = new_hand(config, button, hole_cards, board, rng, stacks=stacks)
    for seat, pl in enumerate(players):
        pl.begin_hand(seat, config, state.hole_cards(seat), button)
        if getattr(pl, "cheats", False):
            if not oracles:
                raise ConfigError(
                    f"seat {seat + 1}: {getattr(pl, 'name', pl)} is an oracle (a cheat for experiments): only loki "
                    "tournament and loki tune play it"
                )
            pl.reveal([state.hole_cards(s) for s in range(n)])
    events = state.events
    seen = 0
    while True:
        while seen < len(events):
            ev = events[seen]
            seen += 1
            for pl in players:
                pl.observe(ev)
        actor = state.current_player
        if actor is None:
            break
        legal = state.legal_actions()
        pl = players[actor]
        action = pl.act(state.view(actor), legal)
        if action.__class__ is not Action:
            try:
                action = Action.parse(action)
            except ValueError:
                action = None
        if action is None or action not in legal:
            name = getattr(pl, "name", type(pl).__name__)
            raise PlayerActionError(
                f"player {name!r} ({type(pl).__name__}) in seat {actor} returned the illegal action {action!r} "
                f"on the {state.street_name}; legal: {', '.join(a.name for a in legal)} (history {state.history!r})",
                pl,
                actor,
                action,
                legal,
            )
        if on_action is not None:
            on_action(state, actor, action, pl)
        state.apply(action)
    for seat, pl in enumerate(players):
        pl.end_hand(state.view(seat))
    return state


def play_session(config: GameConfig, players: Sequence, n_hands: int, seed=None) -> list:
    """Play ``n_hands`` hands, the button moving one seat left each hand (starting at seat 0).

    Stacks (if finite) are reset to ``config.stacks`` at every hand.

    Args:
        seed: int seed or ``numpy.random.Generator`` for the deal.

    Returns:
        Net chips per seat over the session (list of ``config.n_players`` numbers; sum 0).
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    n = config.n_players
    totals = [0] * n
    for h in range(n_hands):
        st = play_hand(config, players, h % n, rng)
        for i, x in enumerate(st.payoffs):
            totals[i] += x
    return totals


def share_opponent_models(players: Sequence) -> int:
    """Let the players of one table that would hold the same opponent models hold them once (:meth:`loki.modeler.
    ModelStore.share`): those with equal ``model_sharing_key()`` (e.g. every Loki-1 of a Figure 3 table; a player
    without the method shares nothing).  Their play, their decisions' records and their model quality stay what
    they were; only the work of updating the models is done once per event instead of once per player.  Call it
    before the players' first hand; the players must then sit at one table and hear every seating change.

    Returns:
        The number of players who share their models with another.
    """
    groups: dict[Hashable, list] = {}
    for p in players:
        key_of = getattr(p, "model_sharing_key", None)
        key = None if key_of is None else key_of()
        if key is not None:
            groups.setdefault(key, []).append(p.models)
    shared = 0
    for stores in groups.values():
        if len(stores) > 1:
            ModelStore.share(stores)
            shared += len(stores)
    return shared
