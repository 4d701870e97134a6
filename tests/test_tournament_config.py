"""Tests of the typed tournament configuration (pydantic) and of the typed summary record."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from loki.errors import TournamentConfigError
from loki.tournament import config_from_dict, load_config, load_preset, run_tournament
from loki.tournament.config import PlayerEntry, TournamentConfig
from loki.tournament.results import TournamentSummary, write_results
from loki.tournament.stats import summarize

BASE = {"name": "t", "deals": 4, "block_deals": 2, "histories": False}


def cfg(*players, **kw):
    return config_from_dict({**BASE, **kw, "players": list(players)}, "t.toml")


def test_a_player_config_table_is_reported_under_its_canonical_spec():
    table = {"kind": "loki2", "features": "BR", "style": "LA"}
    a = cfg({"config": table, "count": 2}, {"type": "loki1"})
    b = cfg({"type": "loki2:BR:LA", "count": 2}, {"type": "loki1"})
    assert a.players[0] == PlayerEntry(type="loki2:BR:LA", count=2, label="loki2:BR:LA", config=table)
    assert [s.spec for s in a.seats] == [s.spec for s in b.seats] == ["loki2:BR:LA", "loki2:BR:LA", "loki1"]
    assert [s.player for s in a.seats] == [table, table, "loki1"]
    # to_dict keeps the table (the players are built from it) and reads back to the same config
    assert a.to_dict()["players"][0] == {"count": 2, "label": "loki2:BR:LA", "config": table}
    assert b.to_dict()["players"][0] == {"type": "loki2:BR:LA", "count": 2, "label": "loki2:BR:LA"}
    assert config_from_dict(a.to_dict(), check_players=False) == a
    sim = cfg({"config": {"kind": "loki2", "features": "BRS", "sim": {"trials": 100}}}, {"type": "calling"})
    assert sim.players[0].type == "loki2:BRS:trials=100"


def test_a_table_no_shorthand_expresses_still_plays(tmp_path):
    table = {"kind": "loki1", "style": "TA", "bettor": {"make1": 0.45}}
    c = cfg({"config": table, "label": "custom"}, {"type": "calling"})
    assert c.players[0].type.startswith("loki1{")  # the JSON form of registry.spec_of
    run = run_tournament(c, workers=1, out=tmp_path / "o")  # the players are built from the table
    assert len(run.chips) == 4
    header = json.loads((tmp_path / "o" / "journal.jsonl").read_text().splitlines()[0])
    assert header["config"]["players"][0]["config"] == table


def test_a_player_config_table_in_toml(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text(
        "deals = 2\nblock_deals = 1\nhistories = false\n"
        '[[players]]\nconfig = { kind = "loki1", style = "TA" }\nlabel = "TA"\n'
        '[[players]]\nconfig = { kind = "calling" }\n'
    )
    c = load_config(f)
    assert c.name == "mine" and [(p.type, p.label) for p in c.players] == [("loki1:TA", "TA"), ("calling", "calling")]
    run = run_tournament(c, workers=1)  # workers rebuild the players from the spec of to_dict()
    assert len(run.chips) == 2


@pytest.mark.parametrize(
    "entry, needle",
    [
        ({"type": "random", "config": {"kind": "random"}}, "players[0]: give either 'type' or 'config', not both"),
        ({"count": 2}, "players[0]: give 'type'"),
        ({"config": {"kind": "loki2", "colour": "red"}}, "players[0]: 'config': player configuration of kind 'loki2'"),
        ({"config": {"features": "BR"}}, "players[0]: 'config':"),
        ({"config": "loki1"}, "players[0]: 'config' must be a table"),
        ({"config": {"kind": "loki2", "features": "XYZ"}, "count": 2}, "XYZ"),
    ],
)
def test_bad_player_entries_are_one_line_errors(entry, needle):
    with pytest.raises(TournamentConfigError) as e:
        cfg(entry, {"type": "calling"})
    assert needle in str(e.value) and "\n" not in str(e.value) and str(e.value).startswith("t.toml")


@pytest.mark.parametrize(
    "extra, needle",
    [
        ({"deals": 0}, "t.toml: 'deals' = 0 must be >= 1"),
        ({"seed": "1"}, "t.toml: 'seed' must be an integer, got '1'"),
        ({"histories": "yes"}, "t.toml: 'histories' must be true or false, got 'yes'"),
        ({"game": {"max_bets": True}}, "t.toml [game]: 'max_bets' must be an integer, got True"),
        ({"game": {"ante": 1}}, "t.toml [game]: unknown key 'ante'"),
        ({"compare": [{"enhanced": ["random"]}]}, "t.toml compare[0]: missing key 'control'"),
        (
            {"compare": [{"enhanced": 3, "control": "random"}]},
            "t.toml compare[0]: 'enhanced' must be a list of player labels",
        ),
        ({"compare": "x"}, "t.toml: 'compare' must be an array of tables"),
        ({"name": "a/b"}, "'name' must be printable text without '/'"),
    ],
)
def test_shape_errors_name_file_key_and_problem(extra, needle):
    with pytest.raises(TournamentConfigError) as e:
        cfg({"type": "random", "count": 2}, **extra)
    assert needle in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize(
    "players, needle",
    [
        (
            [{"type": "calling", "count": 2, "label": "x"}, {"type": "random", "label": "x #1"}],
            "t.toml: seats 1 and 3 are both named 'x #1'",
        ),
        (
            [{"type": "random", "label": "x #2"}, {"type": "calling", "count": 2, "label": "x"}],
            "t.toml: seats 1 and 3 are both named 'x #2'",
        ),
        (
            [{"type": "calling", "label": "x"}, {"type": "random"}, {"type": "calling", "label": "x"}],
            "t.toml: seats 1 and 3 are both named 'x'",
        ),
    ],
)
def test_two_seats_never_share_a_name(tmp_path, players, needle):
    """A label "x" of count 2 (seats "x #1", "x #2") beside a label "x #1" gave two seats one name in deals.csv and
    the hand histories."""
    with pytest.raises(TournamentConfigError) as e:
        cfg(*players)
    assert str(e.value).startswith(needle) and "change a label" in str(e.value) and "\n" not in str(e.value)
    ok = cfg({"type": "calling", "count": 2, "label": "x"}, {"type": "random", "label": "x #3"})
    assert [s.name for s in ok.seats] == ["x #1", "x #2", "x #3"]


def test_configs_are_frozen_and_round_trip():
    c = load_preset("fig4", check_players=False)
    with pytest.raises(ValidationError):
        c.deals = 5  # type: ignore[misc]
    assert list(c.to_dict()) == [
        "name",
        "players",
        "deals",
        "seed",
        "block_deals",
        "histories",
        "description",
        "game",
        "compare",
    ]
    again = config_from_dict(json.loads(json.dumps(c.to_dict())), check_players=False)
    assert again == c and again.fingerprint() == c.fingerprint()
    assert isinstance(c, TournamentConfig) and c.with_overrides(seed=3).seed == 3
    # a [game] table keeps the keys as written, in their order
    g = cfg({"type": "random", "count": 3}, game={"max_bets": 3, "small_bet": 2, "big_bet": 4})
    assert list(g.to_dict()["game"]) == ["max_bets", "small_bet", "big_bet"]


def test_the_summary_record_writes_the_bytes_of_the_plain_dict(tmp_path):
    c = cfg(
        {"type": "random", "count": 2},
        {"type": "calling", "label": "caller"},
        compare=[{"enhanced": "random", "control": "caller"}],
    )
    run = run_tournament(c, workers=1)
    record = write_results(run, tmp_path, plots=False)
    plain = summarize(c, run.chips, run.counters)
    plain["config"] = c.to_dict()
    assert (tmp_path / "summary.json").read_text() == json.dumps(plain, indent=2) + "\n" == record.to_json()
    back = TournamentSummary.model_validate_json((tmp_path / "summary.json").read_text())
    assert back.to_json() == record.to_json() and back.players[1].type == "random"
    with pytest.raises(ValidationError):  # an int where a float belongs is refused, not re-typed
        TournamentSummary.model_validate({**record.to_dict(), "confidence": 1})


def test_a_player_whose_table_sizes_leave_out_the_table_is_refused_before_any_deal(monkeypatch):
    # heads-up-only players (the LBR's look-ahead, a frozen player warmed up heads-up) at a table of three, and a
    # plug-in kind that says it needs three or more at a heads-up table: refused by the configuration, naming the
    # player, before a results folder exists
    from loki.players import registry
    from loki.players.base import Player

    with pytest.raises(
        TournamentConfigError, match=r"^t\.toml: lbr:random plays heads-up only, and this table seats 3"
    ):
        cfg({"type": "lbr:random"}, {"type": "random", "count": 2})
    warmed = 'frozen{"player": "calling", "warmup": 2}'
    with pytest.raises(TournamentConfigError, match="plays heads-up only, and this table seats 3"):
        cfg({"type": warmed}, {"type": "random", "count": 2})
    assert cfg({"type": warmed}, {"type": "random"}).seats  # heads-up: played
    assert cfg({"type": 'frozen{"player": "calling"}'}, {"type": "random", "count": 2}).seats  # no warm-up: any table

    class Ring(Player):
        table_sizes = (3, 10)

        def act(self, view, legal_actions):  # never asked: the configuration is only checked
            return legal_actions[0]

    registry.player_kinds()  # discover the installed kinds first
    monkeypatch.setitem(registry._KINDS, "ring-only", registry.PlayerKind("ring-only", lambda c, seed, name: Ring()))
    with pytest.raises(
        TournamentConfigError, match="ring-only plays at tables of 3 to 10 players, and this table seats 2"
    ):
        cfg({"type": "ring-only"}, {"type": "random"})
    assert cfg({"type": "ring-only"}, {"type": "random", "count": 2}).seats

    class Plain:  # a plug-in's player need not be a Player: it plays at every table the engine deals
        name = "plain"

        def act(self, view, legal_actions):
            return legal_actions[0]

    monkeypatch.setitem(registry._KINDS, "plain", registry.PlayerKind("plain", lambda c, seed, name: Plain()))
    assert cfg({"type": "plain"}, {"type": "random", "count": 9}).seats
