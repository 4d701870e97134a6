"""Inputs parsed strictly, each refused with one ``error:`` line naming it: host names a lookup cannot encode
(``a..b``, a 64-character label), a tuning target that cannot score its trials (no ``[[compare]]``, or the tuned type
not among the first comparison's enhanced types: refused before trial 0), game definitions (ASCII digits only, an
``END GAMEDEF``, the big bet at least the small bet), web seeds (at most 2**64 - 1) and web player specs (built-in
specs only: a path ending in ``.toml`` would let a page probe the server's files)."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from loki.cli import app
from loki.engine import GameConfig
from loki.errors import ConfigError
from loki.io.gamedef import GAMEDEF_2P, parse_gamedef

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

FUZZ = settings(max_examples=60, derandomize=True, database=None, deadline=None)
LABEL_64 = "x" * 64 + ".example"


def _one_error(r) -> str:
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in r.output, r.output
    return lines[0]


# ------------------------------------------------------------------ host names


@pytest.mark.parametrize("host", ["a..b", LABEL_64, ".", "é..x"])
def test_host_names_a_lookup_cannot_encode_are_one_error_line(host):
    """`loki acpc a..b 1 --no-warmup` and `loki web --host a..b --port 0` ended in a UnicodeError traceback (idna)."""
    line = _one_error(CliRunner().invoke(app, ["acpc", host, "1", "--no-warmup", "--timeout", "5"]))
    assert "cannot connect to the ACPC dealer" in line
    line = _one_error(CliRunner().invoke(app, ["web", "--host", host, "--port", "0"]))
    assert line.startswith("error: --host ") and "not an address" in line


# ------------------------------------------------------------------ tuning targets


TARGET = """name = "t"
deals = 4
[[players]]
type = "loki2:B"
count = 1
label = "tuned"
[[players]]
type = "loki1"
count = 1
label = "other"
"""


@pytest.mark.parametrize(
    "compare, label, needle",
    [
        ("", "tuned", "no [[compare]] section"),
        ('[[compare]]\nenhanced = ["other"]\ncontrol = ["tuned"]\n', "tuned", "not an enhanced type of t's first"),
    ],
)
def test_a_tuning_target_that_cannot_score_its_trials_is_refused_before_trial_0(tmp_path, compare, label, needle):
    """`loki tune T.toml --label L` where T has no [[compare]] played trial 0, then failed with an IndexError and
    left a study.db behind."""
    target = tmp_path / "t.toml"
    target.write_text(TARGET + compare)
    out = tmp_path / "study"
    r = CliRunner().invoke(app, ["tune", str(target), "--label", label, "--trials", "1", "--deals", "1", "--out",
                                 str(out), "-w", "0", "-q"])  # fmt: skip
    assert needle in _one_error(r)
    assert not out.exists()


# ------------------------------------------------------------------ game definitions


@FUZZ
@given(st.characters(whitelist_categories=("Nd",)).filter(lambda c: not c.isascii()))
def test_game_definition_numbers_are_ascii_digits(digit):
    """`numPlayers = ٢` was read as 2."""
    with pytest.raises(ConfigError, match="'numPlayers': expected integers in digits 0-9"):
        parse_gamedef(GAMEDEF_2P.replace("numPlayers = 2", f"numPlayers = {digit}"), "g.game")


@pytest.mark.parametrize("text", ["numPlayers = 2_0", "numPlayers = +2", "numPlayers = 0x2", "numPlayers = ²"])
def test_game_definition_numbers_are_plain_digits(text):
    with pytest.raises(ConfigError, match="expected integers in digits 0-9"):
        parse_gamedef(GAMEDEF_2P.replace("numPlayers = 2", text), "g.game")


def test_a_game_definition_must_end_and_its_big_bet_be_at_least_the_small_bet():
    assert parse_gamedef(GAMEDEF_2P, "g.game").config.n_players == 2
    cut = GAMEDEF_2P[: GAMEDEF_2P.lower().index("end gamedef")]
    with pytest.raises(ConfigError, match="'END GAMEDEF': missing"):
        parse_gamedef(cut, "g.game")
    with pytest.raises(ConfigError, match="the big bet 5 is below the small bet 10"):
        parse_gamedef(GAMEDEF_2P.replace("raiseSize = 10 10 20 20", "raiseSize = 10 10 5 5"), "g.game")
    with pytest.raises(ConfigError, match="big_bet = 5 is below small_bet = 10"):
        GameConfig(small_bet=10, big_bet=5)


def test_a_tournament_game_with_a_big_bet_below_the_small_bet_is_refused(tmp_path):
    cfg = tmp_path / "g.toml"
    cfg.write_text('[game]\nsmall_bet = 20\nbig_bet = 10\n[[players]]\ntype = "calling"\ncount = 2\n')
    line = _one_error(CliRunner().invoke(app, ["tournament", "--config", str(cfg), "--out", str(tmp_path / "o")]))
    assert "big_bet = 10 is below small_bet = 20" in line and not (tmp_path / "o").exists()


# ------------------------------------------------------------------ the web API


@pytest.fixture()
def client(tmp_path):
    from loki.web.app import TOKEN_HEADER, create_app

    web = create_app(tmp_path / "out", host="127.0.0.1", port=8000)
    with TestClient(web, base_url="http://127.0.0.1:8000") as c:
        c.headers[TOKEN_HEADER] = web.state.policy.token
        yield c


@pytest.mark.parametrize("seed", [2**64, 10**4000, "9" * 30, -1])
def test_web_seeds_are_capped(client, seed):
    """A seed of 10**4000 was played."""
    r = client.post("/api/sessions", json={"players": ["calling"], "seed": seed})
    assert r.status_code == 400 and "seed: expected an integer 0 to 2**64 - 1" in r.json()["error"], r.text
    assert len(r.json()["error"]) < 200
    assert client.post("/api/sessions", json={"players": ["calling"], "seed": 2**64 - 1}).status_code == 201


def test_the_web_api_plays_built_in_specs_only(client, tmp_path):
    """A `.toml` spec opened any path ending in .toml: an oracle of which files exist, for a token holder."""
    real = tmp_path / "best.toml"
    real.write_text('[player]\nkind = "calling"\n')
    answers = set()
    for spec in (str(real), str(tmp_path / "missing.toml"), "/etc/x.TOML"):
        r = client.post("/api/sessions", json={"players": [spec]})
        assert r.status_code == 400 and "built-in player specs only" in r.json()["error"], r.text
        answers.add(r.json()["error"].replace(spec, "SPEC"))
    assert len(answers) == 1  # the same answer whether the file exists or not


@pytest.mark.parametrize(
    "template",
    [
        'frozen{"player": "SPEC"}',
        'frozen{"player": "calling", "warmup_opponent": "SPEC"}',
        'lbr{"opponent": "SPEC"}',
    ],
)
def test_the_web_api_opens_no_player_file_named_inside_a_spec(client, tmp_path, template):
    """A player file named inside a spec's table (a frozen player, an LBR's opponent) was opened: the session was made
    when the file existed and refused with "No such file" when it did not, the same oracle of which files exist."""
    real = tmp_path / "best.toml"
    real.write_text('[player]\nkind = "calling"\n')
    answers = set()
    for path in (str(real), str(tmp_path / "missing.toml")):
        r = client.post("/api/sessions", json={"players": [template.replace("SPEC", path)]})
        assert r.status_code == 400 and "built-in player specs only" in r.json()["error"], r.text
        answers.add(r.json()["error"].replace(path, "PATH"))
    assert len(answers) == 1  # the same answer whether the file exists or not
    # the command line still reads a player file named inside a spec
    from loki.players.registry import parse_player

    assert parse_player(template.replace("SPEC", str(real))).kind in ("frozen", "lbr")
