"""Opponent models held once for the players of a table whose models would be equal (ModelStore.share,
loki.players.table.share_opponent_models): the same games, the same model quality, one model per opponent."""

from __future__ import annotations

import numpy as np
import pytest

import loki.players.table as table_module
from loki.engine import GameConfig
from loki.errors import InputError
from loki.modeler import ModelStore
from loki.players.loki import Loki1Config, Loki2Config, build_loki1, build_loki2
from loki.players.table import play_hand, share_opponent_models
from loki.tournament import load_preset, play_block


def _block(preset: str, deals: int, share: bool, monkeypatch) -> tuple[dict, list[int]]:
    cfg = load_preset(preset).with_overrides(deals=deals, block_deals=deals, histories=False)
    sharing: list[int] = []

    def counted(players):
        sharing.append(share_opponent_models(players) if share else 0)
        return sharing[-1]

    with monkeypatch.context() as m:
        m.setattr(table_module, "share_opponent_models", counted)
        return play_block(cfg, 0), sharing


@pytest.mark.parametrize("preset", ["fig3-BR", "fig3-B"])
def test_a_block_plays_the_same_games_with_shared_models(preset, monkeypatch):
    # duplicate seatings (every player reseated nine times a deal), Loki-1's models shared by its eight players (and
    # by the two Loki-2 B, whose modeler is Loki-1's): the same chips, hand counts and model quality as unshared
    shared, sharing = _block(preset, 4, True, monkeypatch)
    alone, _ = _block(preset, 4, False, monkeypatch)
    assert sharing[0] >= 8  # the block's players did share
    for key in ("chips", "counters", "quality", "hands"):
        assert shared[key] == alone[key], key
    assert any(q is not None and q["reweights"] > 0 for q in shared["quality"])


def test_players_with_equal_public_models_share_them_and_no_other():
    loki1 = [build_loki1(seed=s) for s in range(3)]
    generic = build_loki1(Loki1Config(modelling="generic"), seed=9)  # another modeler: not in their group
    br = [build_loki2(Loki2Config(features="BR"), seed=s) for s in range(2)]  # triple re-weighting: not public only
    players = loki1 + [generic] + br
    assert share_opponent_models(players) == 3
    group = loki1[0].models.shared
    assert group is not None and all(p.models.shared is group for p in loki1)
    assert generic.models.shared is None and all(p.models.shared is None for p in br)
    cfg = GameConfig(n_players=6)
    rng = np.random.default_rng(3)
    for h in range(6):
        play_hand(cfg, players, h % 6, rng)
    # one model per opponent, held by every member that models it (a member does not model itself)
    for s in range(6):
        holders = [p.models[s] for p in loki1 if s in p.models]
        assert len(holders) >= 2 and all(m is holders[0] for m in holders)
    for p in loki1:
        assert p.seat not in p.models and p.models.tables is group.tables
    # the players move: every model follows its player, in every member's view and in the group's
    players_at = list(players)
    mapping = {s: (s + 2) % 6 for s in range(6)}
    before = {id(p): {id(q): p.models[s] for s, q in enumerate(players_at) if s in p.models} for p in loki1}
    for p in players:
        p.reseat(dict(mapping))
    for p in loki1:
        for s, q in enumerate(players_at):
            if id(q) in before[id(p)]:
                assert p.models[mapping[s]] is before[id(p)][id(q)]
    for s, q in enumerate(players_at):  # the group's model of the player now at mapping[s] is every member's of it
        assert all(v[id(q)] is group.by_seat[mapping[s]] for v in before.values() if id(q) in v)
    rng = np.random.default_rng(4)
    moved = [None] * 6
    for s, q in enumerate(players_at):
        moved[mapping[s]] = q
    for h in range(3):
        play_hand(cfg, moved, h % 6, rng)
    for s in range(6):
        holders = [p.models[s] for p in loki1 if s in p.models]
        assert all(m is group.by_seat[s] for m in holders)
    # each member's model quality is its own (the same counts of re-weightings here: the same opponents' actions,
    # less its own)
    assert all(p.models.quality.reweights > 0 for p in loki1)


def test_only_fresh_stores_are_shared():
    a, b = ModelStore(), ModelStore()
    a.begin_hand(me=0, n_players=3)
    with pytest.raises(InputError, match="fresh"):
        ModelStore.share([a, b])
    c, d = ModelStore(), ModelStore()
    ModelStore.share([c, d])
    with pytest.raises(InputError, match="fresh"):
        ModelStore.share([c, ModelStore()])
    ModelStore.share([ModelStore()])  # a group of one is no group
