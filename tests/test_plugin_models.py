"""Opponent models as plug-ins: a model outside loki plays inside the Simulator as itself, is labelled by its
own name in explanations, and a built-in model is one registration line."""

from __future__ import annotations

import numpy as np
import pytest

from loki.engine import Action, ActionTaken, GameConfig, new_hand
from loki.errors import ConfigError
from loki.modeler import (
    Loki1Modeler,
    ModelStore,
    PlayoutPolicy,
    Situation,
    TripleModeler,
    playout_policy_of,
    reweight_details_of,
)
from loki.modeler.registry import FEATURE_R_MODELS, feature_r_modeler
from loki.players.loki import Loki2Config, build_loki2
from loki.simulator import SimConfig, SimulatorPolicy
from loki.triples import TripleConfig


class FoldsToBets:
    """A plug-in model: Loki-1's re-weighting, and the belief that the opponent folds to every bet and checks
    otherwise, whatever its cards (card-blind frequencies)."""

    name = "folds-to-bets"

    def __init__(self):
        self.loki1 = Loki1Modeler()

    def reweight(self, model, event, bucket, context):
        return self.loki1.reweight(model, event, bucket, context)

    def playout_policy(self, model):
        freqs = np.zeros((4, 3, 3))
        freqs[:, 0] = (0.0, 1.0, 0.0)  # nothing to call: check
        freqs[:, 1:] = (1.0, 0.0, 0.0)  # facing a bet: fold
        return PlayoutPolicy(label="folds to bets", mix=(0.0, 0.0, 1.0), frequencies=freqs)


def _flop_situation(modeler):
    """Three players saw the flop for one bet each; the first to act on the flop decides."""
    s = new_hand(GameConfig(n_players=3), button=0, rng=1)
    while s.round == 0:
        s.apply(Action.CALL)
    seat = s.current_player
    models = ModelStore()
    models.begin_hand(seat, 3)
    return Situation(s.view(seat), s.legal_actions(), models, modeler), float(s.pot)


def test_a_plugin_model_plays_inside_the_simulator_as_itself():
    cfg = SimConfig(play_outs="believed", trials=200, cutoff="none")
    sit, pot = _flop_situation(FoldsToBets())
    d = SimulatorPolicy(cfg, seed=3).decide(sit)
    # every simulated opponent folds to our bet: betting wins the pot in every trial, exactly
    assert d.result.ev_raise == pot and d.result.sd_raise == 0.0
    assert d.spot.beliefs is not None and d.spot.beliefs.labels.count("folds to bets") == 2
    # the same spot with the paper's model of the opponents: some of them call, so betting does not always win the pot
    sit2, _ = _flop_situation(TripleModeler(TripleConfig()))
    d2 = SimulatorPolicy(cfg, seed=3).decide(sit2)
    assert d2.result.sd_raise > 0.0 and d2.spot.beliefs.labels.count("triples") == 2


def test_a_modeler_without_the_optional_methods_gets_the_defaults():
    class Bare:
        def reweight(self, model, event, bucket, context):
            return None

    sit, _ = _flop_situation(Bare())
    pol = playout_policy_of(Bare(), sit.models[(sit.seat + 1) % 3])
    assert pol.rules is None and pol.mix == (1.0, 0.0, 0.0) and "Bare" in pol.label
    ev = ActionTaken(seat=1, action=Action.RAISE, amount=10, round=1, pot=30, n_active=3)
    assert reweight_details_of(Bare(), sit.models[(sit.seat + 1) % 3], ev, 0).method == "Bare"


def test_playout_policy_rejects_a_mixture_that_is_not_a_distribution():
    with pytest.raises(Exception, match="mix"):
        PlayoutPolicy(mix=(0.5, 0.6, 0.0))
    with pytest.raises(Exception, match="frequencies"):
        PlayoutPolicy(mix=(0.0, 0.0, 1.0), frequencies=np.zeros((3, 3)))


def test_feature_r_models_come_from_the_registry():
    cfg = Loki2Config(features="BR", opponent_model="specific")
    p = build_loki2(cfg, seed=1)
    assert type(p.modeler).__name__ == "SpecificModeler"
    assert set(FEATURE_R_MODELS) == {"observer", "specific", "blind", "adaptive"}
    with pytest.raises(ConfigError, match="opponent_model"):
        Loki2Config(features="BR", opponent_model="psychic")
    with pytest.raises(ConfigError, match="expected one of"):
        feature_r_modeler("psychic", cfg, Loki1Modeler())


def test_explanations_name_a_plugin_model_and_how_the_simulator_played_it(tmp_path, monkeypatch):
    """A Loki-2 B+R+S player whose modeler is the plug-in: its re-weightings are labelled by the plug-in's name and its
    Simulator decisions say how the opponents were played."""
    import sys

    from loki.explain import ExplainedPlayer
    from loki.players.registry import make_player
    from loki.players.table import play_session

    (tmp_path / "plugin_model.py").write_text(
        "from loki.modeler import Loki1Modeler\n"
        "class Plain:\n"
        "    name = 'plain-plugin'\n"
        "    def __init__(self):\n"
        "        self.loki1 = Loki1Modeler()\n"
        "    def reweight(self, model, event, bucket, context):\n"
        "        return self.loki1.reweight(model, event, bucket, context)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "plugin_model", raising=False)
    spec = {
        "kind": "loki2",
        "features": "BRS",
        "modeler": "plugin_model:Plain",
        "sim": {"play_outs": "believed", "trials": 30},
    }
    me = ExplainedPlayer(make_player(spec, seed=1))
    others = [make_player("calling", seed=2), make_player("loki1", seed=3)]
    play_session(GameConfig(n_players=3), [me, *others], 12, seed=5)
    methods = {o.reweight.method for e in me.explanations for o in (e.opponents or []) if o.reweight is not None}
    assert "plain-plugin" in methods and "other" not in methods
    sims = [e.simulation for e in me.explanations if e.simulation is not None]
    assert sims and all(s.play_outs == "believed" for s in sims)
    assert any("plain-plugin (played by the observer's triples)" in s.played_as for s in sims)


class RaisesItsTop:
    """A plug-in model whose opponents play by the frequency expert alone: the top fifth of their holdings raise,
    ranked within their range or among all the holdings alike (``ranking``)."""

    def __init__(self, ranking):
        self.ranking = ranking

    def reweight(self, model, event, bucket, context):
        return None

    def playout_policy(self, model):
        freqs = np.zeros((4, 3, 3))
        freqs[:] = (0.0, 0.8, 0.2)
        return PlayoutPolicy(label="top raises", mix=(0.0, 1.0, 0.0), frequencies=freqs, ranking=self.ranking)


@pytest.mark.parametrize("narrow", [False, True])
def test_deck_ranked_opponents_are_placed_among_all_the_holdings_in_play_outs(narrow):
    """A policy's ``ranking = "deck"`` reaches the play-out: on a uniform range it plays as ``"range"`` (the same
    EVs, trial for trial, on the same seed); on a narrowed range (the opponents' strong half) it does not, since the
    range's percentiles then differ from the deck's."""
    cfg = SimConfig(play_outs="believed", trials=120, cutoff="none")
    out = {}
    for ranking in ("range", "deck"):
        sit, _ = _flop_situation(RaisesItsTop(ranking))
        if narrow:
            from loki.assessment import uniform_board_values

            hs1 = np.nan_to_num(uniform_board_values(tuple(sit.view.board))[0], nan=0.0)
            for s in range(3):
                if s != sit.seat:
                    sit.models[s].weights = np.where(hs1 > 0.5, 1.0, 0.02)
        d = SimulatorPolicy(cfg, seed=5).decide(sit)
        assert d.spot.beliefs is not None
        deck = d.spot.beliefs.deck
        assert (deck is None) if ranking == "range" else (int(deck.sum()) == 2 and not deck[d.spot.me])
        out[ranking] = (d.result.ev_call, d.result.ev_raise)
    if narrow:
        assert out["deck"] != out["range"]
    else:
        assert out["deck"] == out["range"]


def test_beliefs_of_the_wrong_shape_are_refused():
    """Every array of ``PlayoutBeliefs`` has one row per player of the spot (``deck`` too, when given); any other shape
    is an InputError naming the array and the shape expected."""
    import dataclasses

    from loki.errors import InputError

    sit, _ = _flop_situation(RaisesItsTop("deck"))
    spot = SimulatorPolicy(SimConfig(play_outs="believed", trials=10, cutoff="none"), seed=1).decide(sit).spot
    assert spot.beliefs is not None
    b = spot.beliefs
    with pytest.raises(InputError, match=r"beliefs.deck must have shape \(3,\)"):
        dataclasses.replace(spot, beliefs=dataclasses.replace(b, deck=np.ones(4, dtype=bool)))
    with pytest.raises(InputError, match=r"beliefs.mix must have shape \(3, 3\)"):
        dataclasses.replace(spot, beliefs=dataclasses.replace(b, mix=b.mix[:2]))
    with pytest.raises(InputError, match=r"beliefs.freqs must have shape \(3, 4, 3, 3\)"):
        dataclasses.replace(spot, beliefs=dataclasses.replace(b, freqs=b.freqs[:, 1:]))
    assert dataclasses.replace(spot, beliefs=dataclasses.replace(b)).beliefs is not None  # the right shapes pass
