"""Property-based fuzzing (Hypothesis) of every path where a file or a value comes in: tournament TOML
configs, PHH files, ACPC logs, ACPC game definitions, explain spots and command-line values.  (ACPC protocol lines and the web's JSON
are fuzzed with their own code.)

For every generated input the property is the same:

- **no exception outside the LokiError family** (:mod:`loki.errors`): a parser either returns or raises a
  ``LokiError`` (one line, naming the input); a command ends with exit code 0 or one ``error:`` line (exit 2);
- **memory bounded**: the peak of Python allocations traced by :mod:`tracemalloc` while handling one input is
  under :data:`MEMORY_CAP` (the inputs are small; a parser that expanded one would pass it);
- **time bounded**: each example must finish within :data:`DEADLINE` (Hypothesis' per-example deadline), and a
  hang is cut by an alarm after :data:`HANG` seconds.

The examples are derandomized (the same examples on every run) and few (:data:`EXAMPLES` per property), so the
whole file runs in well under a minute on two cores.  Run against the parsers as they were before these bounds, the
properties fail with tracebacks (RecursionError from nested TOML and PHH, OverflowError from ``starting_stacks =
[inf]``, TypeError from ``actions = 5``).
"""

from __future__ import annotations

import contextlib
import json
import math
import signal
import string
import tracemalloc
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from loki.cli import app
from loki.errors import LokiError

#: Peak traced memory allowed while handling one input.
MEMORY_CAP = 64 << 20
#: Per-example deadline (Hypothesis ``deadline``): generous, the inputs are a few KB.
DEADLINE = timedelta(seconds=10)
#: An example still running after this many seconds is a hang (SIGALRM ends it).
HANG = 60
#: Examples per property (the parsers are fast: more examples where they are cheap).
EXAMPLES = {"config": 100, "phh": 150, "acpc": 80, "gamedef": 100, "spot": 60, "cli": 40}


def fuzz(kind: str) -> settings:
    """The settings of one property: derandomized (the same examples every run), no example database."""
    return settings(FUZZ, max_examples=EXAMPLES[kind])


FUZZ = settings(
    max_examples=60,
    derandomize=True,
    database=None,
    deadline=DEADLINE,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)


@contextlib.contextmanager
def _bounded() -> Iterator[None]:
    """Trace memory (peak under :data:`MEMORY_CAP`) and end a hang after :data:`HANG` seconds."""

    def hang(signum: int, frame: Any) -> None:
        raise TimeoutError(f"an example ran for more than {HANG} s")

    old = signal.signal(signal.SIGALRM, hang)
    signal.alarm(HANG)
    tracemalloc.start()
    try:
        yield
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert peak < MEMORY_CAP, f"peak traced memory {peak} bytes"


def _loki_or_value(fn: Callable[[], Any]) -> Any:
    """``fn()`` within the bounds; a LokiError is a fine answer (returned), anything else fails the test."""
    with _bounded():
        try:
            return fn()
        except LokiError as e:
            assert "\n" not in str(e) and str(e), repr(e)
            return e


# ------------------------------------------------------------------ TOML values


def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)  # a JSON string is a TOML basic string (control characters escaped)


def toml_value(v: Any) -> str:
    """``v`` as an inline TOML value (floats may be inf/nan, which TOML spells so)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_toml_str(k)} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(v)


keys = st.text(string.ascii_lowercase + "_", min_size=1, max_size=8)
scalars = st.one_of(
    st.integers(),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(),
    st.text(max_size=10),
    st.booleans(),
)
values = st.recursive(
    scalars, lambda ch: st.lists(ch, max_size=4) | st.dictionaries(keys, ch, max_size=3), max_leaves=10
)
#: Values known to have broken parsers (huge counts, non-finite numbers, wrong types), and anything else.
hostile = st.one_of(
    st.sampled_from(
        [
            2**63 - 1,
            10**30,
            -(2**70),
            -1,
            0,
            1,
            3,
            math.inf,
            -math.inf,
            math.nan,
            1e308,
            "",
            "x",
            "inf",
            True,
            [],
            {},
            [[[]]],
            [math.inf],
            [math.nan, 1],
            ["a", 1],
            {"a": {"b": {}}},
        ]
    ),
    values,
)


def with_overrides(base: dict, over: dict, drop: list[str]) -> dict:
    return {k: v for k, v in {**base, **over}.items() if k not in drop}


BASE_CONFIG = {
    "deals": 5,
    "seed": 1,
    "block_deals": 2,
    "histories": False,
    "game": {"small_bet": 10, "big_bet": 20},
    "players": [{"type": "random", "count": 2}, {"type": "calling", "count": 1, "label": "c"}],
    "compare": [{"enhanced": ["random"], "control": ["c"]}],
}
player_tables = st.fixed_dictionaries(
    {"type": st.sampled_from(["random", "calling", "maniac", "equity", "nosuch", "", "loki2:XYZ", "random:x=1"])},
    optional={"count": hostile, "label": hostile, "config": hostile, "x": hostile},
)
config_fields = st.sampled_from([*BASE_CONFIG, "estimator", "name", "description", "speed"])
config_dicts = st.one_of(
    st.tuples(st.dictionaries(config_fields, hostile, max_size=2), st.lists(config_fields, max_size=1)).map(
        lambda t: with_overrides(BASE_CONFIG, *t)
    ),
    st.tuples(
        st.dictionaries(
            st.sampled_from(["small_bet", "big_bet", "small_blind", "big_blind", "max_bets", "x"]), hostile, max_size=2
        )
    ).map(lambda t: {**BASE_CONFIG, "game": t[0]}),
    st.lists(player_tables, max_size=4).map(lambda ps: {**BASE_CONFIG, "players": ps, "compare": []}),
)


def render_config(d: dict) -> str:
    return "".join(f"{k} = {toml_value(v)}\n" for k, v in d.items())


def mutate(text: str, edits: list[tuple[int, str]]) -> str:
    """``text`` with characters inserted (``c``) or deleted (``""``) at positions (taken modulo its length)."""
    chars = list(text)
    for pos, c in edits:
        i = pos % (len(chars) + 1)
        if c:
            chars.insert(i, c)
        elif chars:
            del chars[min(i, len(chars) - 1)]
    return "".join(chars)


edits = st.lists(
    st.tuples(
        st.integers(min_value=0),
        st.sampled_from(["", "[", "]", "{", "}", '"', "'", "=", ".", "\n", "#", ",", "\\", "\x00", "é"]),
    ),
    min_size=1,
    max_size=4,
)
#: Nesting bombs: arrays, inline tables, strings and dotted keys, 20 to 4,000 deep.
bombs = st.tuples(st.sampled_from(["[", "{a = ", "a.", '"', "[{a = "]), st.integers(min_value=20, max_value=4000)).map(
    lambda t: "x = " + t[0] * t[1] if t[0] != "a." else t[0] * t[1] + "a = 1"
)
toml_texts = st.one_of(
    config_dicts.map(render_config),
    st.tuples(config_dicts.map(render_config), edits).map(lambda t: mutate(*t)),
    bombs,
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@fuzz("config")
@given(text=toml_texts)
def test_fuzz_tournament_configs(folder, text):
    from loki.tournament import load_config
    from loki.tournament.config import TournamentConfig

    f = folder / "c.toml"
    f.write_text(text, encoding="utf-8", errors="surrogatepass")
    got = _loki_or_value(lambda: load_config(f))
    if isinstance(got, LokiError):
        assert str(f) in str(got), got
    else:
        assert isinstance(got, TournamentConfig) and 1 <= got.deals <= 1_000_000 and 2 <= got.n_players <= 10
        got.fingerprint()  # what a run does with it next: no error either


# ------------------------------------------------------------------ PHH

BASE_HAND = {
    "variant": "FT",
    "antes": [0, 0],
    "blinds_or_straddles": [5, 10],
    "small_bet": 10,
    "big_bet": 20,
    "starting_stacks": [1000000, 1000000],
    "actions": ["d dh p1 5d5c", "d dh p2 9hQd", "p2 cbr 20", "p1 cc", "d db 8s4h6d", "p1 cc", "p2 cbr 10", "p1 f"],
    "finishing_stacks": [999970, 1000030],
    "players": ["a", "b"],
    "hand": 1,
}
tokens = st.sampled_from(
    [
        "d",
        "dh",
        "db",
        "p1",
        "p2",
        "p3",
        "p0",
        "f",
        "cc",
        "cbr",
        "sm",
        "20",
        "10",
        "1e999",
        "nan",
        "AsKd",
        "??",
        "8s4h6d",
        "Js",
        "#",
        "x",
    ]
)
action_lines = st.one_of(
    st.lists(tokens, min_size=1, max_size=5).map(" ".join),
    st.sampled_from(BASE_HAND["actions"]),
    st.text(max_size=12),
)
phh_fields = st.sampled_from([*BASE_HAND, "user_defined_fields", "_extra", "seats", "divmod", "time"])
phh_overrides = st.one_of(
    st.tuples(phh_fields, hostile).map(lambda t: {t[0]: t[1]}),
    st.dictionaries(phh_fields, hostile, max_size=3),
    st.lists(action_lines, max_size=12).map(lambda a: {"actions": a}),
    st.tuples(
        st.sampled_from(["starting_stacks", "finishing_stacks", "blinds_or_straddles"]), st.lists(hostile, max_size=3)
    ).map(lambda t: {t[0]: t[1]}),
)


def render_hand(over: dict, drop: list[str]) -> str:
    return "".join(f"{k} = {toml_value(v)}\n" for k, v in with_overrides(BASE_HAND, over, drop).items())


hands = st.tuples(phh_overrides, st.lists(st.sampled_from(list(BASE_HAND)), max_size=1)).map(lambda t: render_hand(*t))
phh_files = st.one_of(
    hands.map(lambda h: (".phh", h)),
    st.lists(st.tuples(st.sampled_from(["1", "2", "3", " 4 ", "x.y", "", "1"]), hands), min_size=1, max_size=3).map(
        lambda hs: (".phhs", "\n".join(f"[{name}]\n{h}" for name, h in hs))
    ),
    st.tuples(st.sampled_from([".phh", ".phhs"]), st.tuples(hands, edits).map(lambda t: mutate(*t))),
    st.tuples(
        st.sampled_from([".phh", ".phhs"]), bombs.map(lambda b: b.replace("x =", "_x =").replace("a.", "_a.", 1))
    ).map(lambda t: (t[0], render_hand({}, []) + t[1] if t[0] == ".phh" else "[1]\n" + render_hand({}, []) + t[1])),
)


@fuzz("phh")
@given(case=phh_files)
def test_fuzz_phh_files(folder, case):
    from loki.io.acpc_log import HandRecord
    from loki.io.phh import read_phh

    suffix, text = case
    f = folder / f"h{suffix}"
    f.write_text(text, encoding="utf-8", errors="surrogatepass")
    got = _loki_or_value(lambda: read_phh(f))
    if not isinstance(got, LokiError):
        assert all(isinstance(r, HandRecord) for r in got)
        for r in got:
            _loki_or_value(r.replay)
    skipped: list = []
    got = _loki_or_value(lambda: read_phh(f, skipped))
    assert isinstance(got, LokiError | list)


# ------------------------------------------------------------------ ACPC logs

cards = st.text("23456789TJQKAshdc?|/", max_size=16)
bettings = st.text("fcr/9x", max_size=14)
numbers = st.one_of(st.integers().map(str), st.sampled_from(["nan", "inf", "-inf", "1e999", "", "x", "9" * 5000]))
state_lines = st.tuples(
    numbers,
    bettings,
    cards,
    st.lists(numbers, min_size=1, max_size=3),
    st.lists(st.text("abp12|", max_size=3), min_size=1, max_size=3),
).map(lambda t: f"STATE:{t[0]}:{t[1]}:{t[2]}:{'|'.join(t[3])}:{'|'.join(t[4])}")
good_lines = st.sampled_from(
    [
        "STATE:0:rrc/crc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:60|-60:p1|p2",
        "STATE:1:cc/cc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:0|0:p2|p1",
        "STATE:2:rf:5d5c|9hQd:10|-10:p1|p2",
        "STATE:3:cc/cc/cc/cc:5d5c|9hQd|2c3c/8dAs8s/4h/6d:0|0|0:a|b|c",
        "STATE:4:cc/cc/cc/cc:5d5c|9hQd/8dAs8s/4h/6d:0|0:p1|p1",
        "SCORE:60|-60:p1|p2",
        "# a comment",
    ]
)
log_lines = st.one_of(good_lines, state_lines, st.text(max_size=40).map(lambda s: "SCORE:" + s), st.text(max_size=40))
acpc_logs = st.one_of(
    st.lists(log_lines, max_size=10).map(lambda ls: ("\n".join(ls) + "\n").encode("utf-8", "surrogatepass")),
    st.binary(max_size=200),
)


@fuzz("acpc")
@given(data=acpc_logs, strict=st.booleans())
def test_fuzz_acpc_logs(folder, data, strict):
    from loki.io.acpc_log import read_acpc_log
    from loki.tournament.replay import replay_hands

    f = folder / "m.log"
    f.write_bytes(data)
    got = _loki_or_value(lambda: read_acpc_log(f, strict=strict))
    if not isinstance(got, LokiError):
        report = _loki_or_value(lambda: replay_hands(got.hands, "calling", skip_bad=True))
        assert not isinstance(report, LokiError), report  # every bad hand is skipped, never fatal
        assert report.hands + len(report.skipped) == len(got.hands)


# ------------------------------------------------------------------ ACPC game definitions

gamedef_fields = st.sampled_from(
    [
        "numPlayers",
        "numRounds",
        "blind",
        "raiseSize",
        "firstPlayer",
        "maxRaises",
        "numSuits",
        "numRanks",
        "numHoleCards",
        "numBoardCards",
        "stack",
        "bogus",
    ]
)
gamedef_values = st.lists(
    st.one_of(st.integers(-3, 12), st.integers().map(str), st.sampled_from(["x", "1e9", "9" * 5000])), max_size=5
)
gamedef_lines = st.one_of(
    st.tuples(gamedef_fields, gamedef_values).map(lambda t: f"{t[0]} = {' '.join(map(str, t[1]))}"),
    st.sampled_from(["GAMEDEF", "limit", "nolimit", "END GAMEDEF", "# c", "", "=", "x"]),
)


def _gamedef_texts() -> st.SearchStrategy[str]:
    from loki.io.gamedef import GAMEDEF_2P, GAMEDEF_3P

    base = st.sampled_from([GAMEDEF_2P, GAMEDEF_3P])
    return st.one_of(
        st.tuples(base, st.lists(gamedef_lines, max_size=3)).map(
            lambda t: t[0].replace("END GAMEDEF", "\n".join(t[1]) + "\nEND GAMEDEF")
        ),
        st.tuples(base, edits).map(lambda t: mutate(*t)),
        st.lists(gamedef_lines, max_size=12).map("\n".join),
    )


@fuzz("gamedef")
@given(text=_gamedef_texts())
def test_fuzz_game_definitions(text):
    from loki.io.gamedef import AcpcGame, parse_gamedef

    got = _loki_or_value(lambda: parse_gamedef(text, "g.game"))
    if isinstance(got, LokiError):
        assert str(got).startswith("g.game: "), got
    else:
        assert isinstance(got, AcpcGame) and 2 <= got.n_players <= 10 and got.config.max_bets <= 100


# ------------------------------------------------------------------ explain spots

hole_texts = st.one_of(st.text("23456789TJQKAshdcx ", max_size=6), st.text(max_size=20), st.just("Ah" * 20))
board_texts = st.one_of(
    st.sampled_from(["", "Qh7h2c", "Qh7h2cTd", "Qh7h2cTd9s", "QhQh7h"]), st.text("23456789TJQKAshdc", max_size=12)
)
betting_texts = st.one_of(st.text("fcr/ ,", max_size=20), st.text(max_size=12), st.just("c" * 2000))


@fuzz("spot")
@given(
    hole=hole_texts,
    board=board_texts,
    betting=betting_texts,
    players=st.integers(-1, 12),
    button=st.one_of(st.none(), st.integers()),
)
def test_fuzz_explain_spots(hole, board, betting, players, button):
    from loki.explain.records import DecisionExplanation
    from loki.explain.sources import explain_spot

    got = _loki_or_value(lambda: explain_spot(hole, board, betting, players, "loki1", 0, button))
    if not isinstance(got, LokiError):
        assert got and all(isinstance(e, DecisionExplanation) for e in got)


# ------------------------------------------------------------------ command-line values

ints = st.one_of(st.integers(-5, 30), st.integers(), st.integers(min_value=2**62, max_value=2**70))
option_values = st.one_of(ints.map(str), st.sampled_from(["x", "", "1e10", "1.5", "nan", "inf", "-0", "0x10", "١٢"]))


@fuzz("cli")
@given(
    command=st.sampled_from(["tournament", "replay", "explain"]),
    options=st.lists(
        st.tuples(
            st.sampled_from(["--deals", "--seed", "--block-deals", "--workers", "--hands", "--players", "--button"]),
            option_values,
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_fuzz_command_line_values(folder, monkeypatch, command, options):
    """Numeric options of the commands that read files: exit code 0, or one ``error:`` line (exit code 2).

    The values are what is fuzzed, not the play: the tournament runs its runner (journal, blocks to play) up to
    its first block, which stops it; the replay stops where the bots would start; a spot is explained for real.
    """
    import loki.cli.warmup
    import loki.tournament.replay
    import loki.tournament.runner

    monkeypatch.chdir(folder)
    monkeypatch.setattr(loki.tournament.runner, "play_block", _started)
    monkeypatch.setattr(loki.tournament.runner, "local_executor", lambda workers: None)  # no worker processes
    monkeypatch.setattr(loki.cli.warmup, "ensure_warm", lambda *a, **k: None)
    monkeypatch.setattr(loki.tournament.replay, "replay_hands", _started)
    log = folder / "s.log"
    log.write_text("STATE:0:rf:5d5c|9hQd:10|-10:p1|p2\n")
    cfg = folder / "t.toml"
    cfg.write_text('histories = false\n[[players]]\ntype = "calling"\ncount = 2\n')
    args = {
        "tournament": ["tournament", "--config", str(cfg), "--no-plots", "--quiet", "--out", str(folder / "t")],
        "replay": ["replay", str(log), "--player", "random", "--out", str(folder / "h.svg")],
        "explain": ["explain", "--hole", "AhKh", "--player", "random"],
    }[command]
    for opt, val in options:
        args += [f"{opt}={val}"]
    if command == "tournament":
        args.append("--overwrite")
    with _bounded():
        r = CliRunner().invoke(app, args)
    if isinstance(r.exception, _Started):
        return  # the values were accepted and the run began
    assert r.exit_code in (0, 2), (args, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), (args, r.exception)
    assert "Traceback" not in r.output
    if r.exit_code == 2:
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, r.stderr)


class _Started(Exception):
    """Raised by the stubs above: a command accepted its values and began to play."""


def _started(*args: object, **kwargs: object) -> None:
    raise _Started
