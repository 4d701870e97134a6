"""Configuration that cannot lie: a setting derived from another is refused, not silently overwritten, and the
kernels' positional parameter rows are tied to :class:`loki.triples.TripleParams` field by field."""

from __future__ import annotations

import numpy as np
import pytest

from loki.errors import LokiError
from loki.players.loki import Loki2Config
from loki.players.registry import make_player, parse_player
from loki.simulator import SimConfig
from loki.triples import TripleConfig
from loki.triples.rule_chain import TripleParams, params_row


@pytest.mark.parametrize(
    "spec",
    [
        'loki2{"features": "BRS", "sim": {"triple": {"make_width": 0.19}}}',
        'loki2{"features": "S", "sim": {"trials": 100, "triple": {"odds_width": 0.01}}}',
        'loki2{"features": "BRS", "sim": {"triple": {}}}',
    ],
)
def test_the_simulators_triple_generator_is_refused_not_overwritten(spec):
    """The Simulator's play-outs use the player's own Triple Generator (bettor.*, make_width, odds_width, form):
    ``sim.triple`` given explicitly was accepted and overwritten (the Simulator played make_width 0.05, not 0.19);
    now it is refused with a message naming the field and what to set instead."""
    with pytest.raises(LokiError, match=r"sim\.triple.*make_width"):
        make_player(spec)


def test_the_player_s_widths_reach_the_simulator():
    """What one sets instead reaches the Simulator: the play-outs' generator is the player's."""
    cfg = parse_player('loki2{"features": "BRS", "make_width": 0.19, "odds_width": 0.01}')
    assert isinstance(cfg, Loki2Config)
    t = cfg.sim_config.triple
    assert (t.make_width, t.odds_width) == (0.19, 0.01)
    assert t.params() == cfg.triple.params()


def test_round_trips_of_a_player_still_validate():
    """A player dumped and read back (loki tune's trials, spec_of) does not carry the derived field."""
    cfg = parse_player("loki2:BRS:tuned=BRS3")
    assert "triple" not in cfg.model_dump(mode="json")["sim"]
    assert parse_player(cfg.model_dump(mode="json")) == cfg


def test_the_simulator_alone_still_takes_its_generator():
    """``SimConfig`` is the Simulator's own API: outside a player its Triple Generator is an argument."""
    t = TripleConfig(make_width=0.12)
    assert SimConfig(triple=t).triple == t


def test_the_kernels_row_layout_is_triple_params_field_by_field():
    """The play-out kernels read a player's rule-chain parameters from a float row by position
    (:func:`loki.simulator.playout._row_params`); the row is written by :func:`params_row`.  With a distinct value in
    every field, reading the written row gives back every field by name, so a reordered or added field fails here."""
    from loki.simulator.playout import _row_params

    fields = TripleParams._fields
    values = {f: 0.01 * (i + 1) for i, f in enumerate(fields)}
    values["semi_bluff"] = True
    p = TripleParams(**values)
    row = params_row(p)
    assert row.shape == (len(fields),) and row.dtype == np.float64
    back = _row_params(np.ascontiguousarray(row[None, :]), 0)
    for f in fields:
        assert getattr(back, f) == pytest.approx(getattr(p, f)), f
    off = _row_params(np.ascontiguousarray(params_row(p._replace(semi_bluff=False))[None, :]), 0)
    assert off.semi_bluff is False or off.semi_bluff == 0


@pytest.mark.parametrize(
    "table",
    [
        # a tuned set turns the field on; the configuration turns it back off (the class default)
        {"kind": "loki2", "features": "BRS", "opponent_model": "adaptive", "tuned": "A5",
         "sim": {"card_blind_values": False}},
        {"kind": "loki2", "features": "BRS", "opponent_model": "adaptive", "tuned": "A5", "preflop_model": "auto"},
    ],
)  # fmt: skip
def test_a_field_set_back_to_its_default_over_a_tuned_set_survives_the_spec_string(table, tmp_path):
    """The spec string of a configuration dropped every field equal to its class default, so a field a tuned set
    changes and the configuration set back read back as the tuned set's (A5's ``sim.card_blind_values`` came back
    true): a tournament played another player than its file said.  Now the string reads back as the same player,
    also through a tournament configuration."""
    from loki.players.registry import spec_of
    from loki.tournament.config import config_from_dict

    cfg = parse_player(table)
    assert parse_player(spec_of(cfg)) == cfg
    assert cfg != parse_player("loki2:BRS:adaptive")  # the override is real
    # the same table in a tournament configuration (the parsed TOML a tournament file gives)
    tour = config_from_dict(
        {"name": "t", "deals": 2, "players": [{"config": table, "label": "x"}, {"type": "calling"}]}
    )
    assert parse_player(tour.players[0].type) == cfg
