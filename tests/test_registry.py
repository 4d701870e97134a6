"""The player registry: specs and configuration tables, canonical specs, plug-in kinds through entry points."""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Iterator

import pytest

from loki.errors import ConfigError, PlayerSpecError
from loki.players import registry
from loki.players.loki import Loki1Config, Loki2Config, LokiPlayer
from loki.players.registry import make_player, parse_player, spec_of
from loki.tournament import config_from_dict, run_tournament


@pytest.mark.parametrize(
    "spec",
    ["loki1", "loki1:TA", "loki2:BR", "loki2:BRS:LA:trials=100", "loki2:S:cutoff=paired:fast", "random", "calling"],
)
def test_spec_and_table_give_the_same_config(spec):
    cfg = parse_player(spec)
    assert parse_player(spec_of(cfg)) == cfg  # the canonical spec says the same thing
    table = {"kind": cfg.kind, **cfg.model_dump(exclude={"kind"})}
    assert parse_player(table) == cfg  # ... and so does the full table
    assert type(make_player(table, seed=3)) is type(make_player(spec, seed=3))


def test_tables_override_a_style_field_by_field():
    cfg = parse_player(
        {"kind": "loki2", "features": "BRS", "style": "LA", "bettor": {"make1": 0.45}, "sim": {"trials": 50}}
    )
    assert isinstance(cfg, Loki2Config)
    assert (cfg.bettor.make1, cfg.bettor.make2, cfg.bettor.aggressive_call_raise) == (0.45, 0.75, 0.65)
    assert (cfg.tightness, cfg.preflop_shift, cfg.sim.trials) == ("loose", -156.0, 50)
    assert spec_of(cfg).startswith("loki2{")  # no shorthand says this; the JSON table does
    assert parse_player(spec_of(cfg)) == cfg  # the JSON form reads back too
    p = make_player(cfg, seed=1)
    assert (
        isinstance(p, LokiPlayer) and p.postflop.config.trials == 50 and p.postflop.config.triple.bettor.make1 == 0.45
    )


@pytest.mark.parametrize(
    "table, needle",
    [
        ({"features": "BR"}, "needs a 'kind'"),
        ({"kind": "loki9"}, "unknown player type 'loki9'"),
        ({"kind": "loki1", "bettor": {"make1": 1.5}}, "bettor.make1 = 1.5"),
        ({"kind": "loki1", "tightness": "medium"}, "tightness = 'medium'"),
        ({"kind": "loki1", "colour": "red"}, "colour"),
        ({"kind": "loki2", "features": "BX"}, "B, R, S"),
        ({"kind": "loki2", "features": "BR", "sim": {"trials": 10}}, "need feature S"),
        ({"kind": "loki2", "features": "S", "sim": {"cutoff": "maybe"}}, "sim.cutoff"),
        ({"kind": "loki1", "modeler": "no-colon"}, "import path"),
    ],
)
def test_bad_tables_are_one_line_player_spec_errors(table, needle):
    with pytest.raises(PlayerSpecError) as ei:
        parse_player(table)
    assert needle in str(ei.value) and "\n" not in str(ei.value)


def test_configs_are_frozen_and_validated_by_pydantic():
    cfg = Loki1Config(style="TC")
    with pytest.raises(Exception):
        cfg.tightness = "loose"
    with pytest.raises(ConfigError, match="lookahead"):
        Loki1Config(lookahead=3)
    with pytest.raises(ConfigError, match="modeler 'nowhere.at.all:Thing': cannot import"):
        make_player({"kind": "loki1", "modeler": "nowhere.at.all:Thing"})


PLUGIN = '''
from loki.engine import Action
from loki.players.base import Player
from loki.players.registry import PlayerKind


class Folder(Player):
    """Folds whenever it faces a bet, checks otherwise."""

    def __init__(self, name):
        self.name = name

    def act(self, view, legal):
        return Action.FOLD if Action.FOLD in legal else Action.CALL


KIND = PlayerKind("folder", lambda cfg, seed, name: Folder(name or "folder"), description="test plug-in")
'''


def _installed(tmp_path, monkeypatch, package: str, source: str, kind: str) -> Iterator[None]:
    """A tiny third-party package ``package`` (its ``__init__.py`` is ``source``) installed into a folder on sys.path:
    its dist-info declares the entry point ``kind = package:KIND`` in the group ``loki.players``."""
    (tmp_path / package).mkdir()
    (tmp_path / package / "__init__.py").write_text(textwrap.dedent(source))
    info = tmp_path / f"{package}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package.replace('_', '-')}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[loki.players]\n{kind} = {package}:KIND\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.reload_kinds()
    yield
    monkeypatch.undo()
    sys.modules.pop(package, None)
    registry.reload_kinds()


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """The plug-in kind ``folder`` (entry point ``folder = loki_test_plugin:KIND``)."""
    yield from _installed(tmp_path, monkeypatch, "loki_test_plugin", PLUGIN, "folder")


def test_plugin_kind_plays_in_tournament_worker_processes(plugin):
    assert "folder" in registry.player_kinds() and make_player("folder").name == "folder"
    cfg = config_from_dict(
        {"name": "plug", "deals": 4, "block_deals": 2, "histories": False,
         "players": [{"type": "folder"}, {"type": "calling"}, {"type": "loki1"}]}
    )  # fmt: skip
    run = run_tournament(cfg, workers=2)  # two worker processes: they find the kind through the entry point
    assert len(run.chips) == 4 and sum(row[0] for row in run.chips) < 0  # it only folds to bets: loses its blinds


def test_unknown_kind_lists_the_known_ones():
    with pytest.raises(PlayerSpecError, match=r"expected one of \[.*'loki1', 'loki2'.*\]"):
        make_player("gto-wizard")


def test_spec_of_a_loki2_config_does_not_depend_on_string_hashing():
    """Features are a set; their spec text is in the paper's order in every process (a set's iteration order
    follows PYTHONHASHSEED, and specs end up in summary.json and journal fingerprints)."""
    import os
    import subprocess
    import sys

    code = (
        "from loki.players.registry import parse_player, spec_of;"
        'print(spec_of(parse_player(\'loki2{"features": "SRB", "generator": "calling"}\')))'
    )
    outs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={**os.environ, "PYTHONHASHSEED": str(h)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for h in range(1, 6)
    }
    assert outs == {'loki2{"features":"BRS","generator":"calling"}'}


BROKEN = """
raise ImportError("this plug-in's module cannot be imported")
"""


@pytest.fixture
def broken_plugin(tmp_path, monkeypatch):
    """A plug-in whose entry point ``broken = loki_broken_plugin:KIND`` fails to load."""
    yield from _installed(tmp_path, monkeypatch, "loki_broken_plugin", BROKEN, "broken")


def test_a_plugin_that_fails_to_load_is_named_at_every_lookup(broken_plugin):
    # the failed discovery is not taken for a finished one: the second lookup looks again and names the plug-in again
    # (not "unknown player type" from a half-filled table)
    for _ in range(2):
        with pytest.raises(
            PlayerSpecError, match=r"player kind 'broken' \(entry point 'loki_broken_plugin:KIND'\) failed"
        ):
            make_player("loki1")


@pytest.mark.parametrize(
    "spec",
    [
        "lbr:" * 300 + "random",  # an LBR of an LBR of ... (300 deep): was a RecursionError
        "frozen:" * 40 + "random",
        "table form",  # frozen{"player": "frozen{\"player\": ...}"}, 20 deep
    ],
)
def test_specs_nested_too_deep_are_refused_with_that_reason_alone(spec):
    if spec == "table form":
        spec = "random"
        for _ in range(20):
            spec = "frozen" + json.dumps({"player": spec})
    with pytest.raises(PlayerSpecError) as e:
        parse_player(spec)
    msg = str(e.value)
    assert f"nested more than {registry.MAX_SPEC_DEPTH} deep" in msg
    assert len(msg) < 200 and "\n" not in msg  # one line, not the chain of wrapped messages


def test_the_deepest_sensible_spec_of_the_built_in_kinds_is_within_the_limit(tmp_path):
    # an LBR against a frozen, warmed-up Loki-2 given as JSON in a player file: the deepest nesting the kinds use
    inner = spec_of(parse_player({"kind": "frozen", "player": "loki2:BR", "warmup": 2, "warmup_opponent": "calling"}))
    f = tmp_path / "best.toml"
    f.write_text(f"[player]\nkind = 'lbr'\nopponent = {json.dumps(inner)}\n")
    cfg = parse_player(str(f))
    assert cfg.kind == "lbr" and parse_player(cfg.opponent).player == "loki2:BR"


def test_a_player_file_that_names_itself_is_refused_at_once(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "self.toml").write_text("[player]\nkind = 'lbr'\nopponent = 'self.toml'\n")
    (tmp_path / "a.toml").write_text("[player]\nkind = 'frozen'\nplayer = 'b.toml'\n")
    (tmp_path / "b.toml").write_text(f"[player]\nkind = 'lbr'\nopponent = {str(tmp_path / 'a.toml')!r}\n")
    for name, looping in (("self.toml", "self.toml"), ("a.toml", "a.toml")):
        with pytest.raises(PlayerSpecError) as e:
            parse_player(name)
        msg = str(e.value)
        assert "names itself" in msg and looping in msg and len(msg) < 300, msg
    # the same file twice side by side is no loop
    (tmp_path / "pair.toml").write_text("[player]\nkind = 'frozen'\nplayer = 'calling'\nwarmup_opponent = 'c.toml'\n")
    (tmp_path / "c.toml").write_text("[player]\nkind = 'calling'\n")
    assert parse_player("pair.toml").warmup_opponent == "calling"


@pytest.mark.parametrize("spec", ["lbr:lbr:random", "lbr:frozen:lbr:random", 'lbr{"opponent": "lbr:calling"}'])
def test_an_lbr_cannot_measure_an_lbr(spec):
    # each LBR keeps a copy of the measured player per holding: an LBR inside would multiply them (~1.7 M a hand)
    with pytest.raises(PlayerSpecError, match="an LBR cannot measure an LBR"):
        parse_player(spec)
    assert parse_player("lbr:frozen:loki1").kind == "lbr"  # one level is the measurement itself


def test_a_refused_player_file_is_not_even_resolved_on_disk(monkeypatch):
    # within built_in_specs_only (a web page's specs) a player file's path is refused before anything looks at it
    def no_disk(path):
        raise AssertionError(f"resolved {path!r}")

    monkeypatch.setattr(registry.os.path, "realpath", no_disk)
    with registry.built_in_specs_only(), pytest.raises(PlayerSpecError, match="not opened: built-in player specs"):
        parse_player('lbr{"opponent": "/x/y.toml"}')


def test_a_style_and_a_tuned_set_together_take_the_sets_values_where_both_give_one():
    """As documented in loki.players.tuned: BRS3's Bettor thresholds over LA's, LA's other values kept."""
    from loki.players.loki import STYLE_VALUES
    from loki.players.tuned import TUNED_SETS

    both = make_player("loki2:BRS:LA:tuned=BRS3").config
    style, tuned = STYLE_VALUES["LA"], TUNED_SETS["BRS3"]
    assert both.bettor.make1 == tuned["bettor"]["make1"] != style["bettor"]["make1"]
    assert both.bettor.make2 == tuned["bettor"]["make2"] != style["bettor"]["make2"]
    assert "preflop_shift" not in tuned and both.preflop_shift == style["preflop_shift"]
    assert "aggressive_call_raise" not in tuned.get("bettor", {})
    assert both.bettor.aggressive_call_raise == style["bettor"]["aggressive_call_raise"]
