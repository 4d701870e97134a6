"""A person at the terminal, driven by scripted input."""

from __future__ import annotations

import itertools

from rich.console import Console
from typer.testing import CliRunner

from loki.cli.human import HumanPlayer, play_human_session
from loki.engine import GameConfig
from loki.io.phh import read_phh
from loki.players.table import play_hand


def scripted(answers):
    it = iter(answers)
    prompts = []

    def fn(prompt):
        prompts.append(prompt)
        return next(it)

    return fn, prompts


def test_bad_input_is_reprompted():
    from loki.players.simple import CallingStation

    fn, prompts = scripted(["", "xyz", "r", "c", "call", "check", "c", "c", "c", "c"])
    con = Console(record=True, width=120)
    human = HumanPlayer(fn, con, names=["you", "bot"])
    # heads-up, button 0: the human (small blind) acts first pre-flop
    st = play_hand(GameConfig(n_players=2), [human, CallingStation()], 0, 5)
    text = con.export_text()
    assert "is not an action" in text and "your cards" in text
    assert st.is_terminal and st.history.startswith("r")
    assert all("q=quit" in p for p in prompts)


def test_fold_when_free_is_refused():
    from loki.players.simple import CallingStation

    fn, _ = scripted(["c", "f", "fold", "c", "c", "c", "c"])  # BB checks; then the human checks after refusals
    con = Console(record=True, width=120)
    st = play_hand(GameConfig(n_players=2), [CallingStation(), HumanPlayer(fn, con)], 0, 5)
    assert "not possible here" in con.export_text()
    assert st.history == "cc/cc/cc/cc"


def test_session_summary_and_phh(tmp_path):
    answers = itertools.chain(["raise", "c", "fold"], itertools.cycle(["c"]))
    con = Console(record=True, width=120)
    s = play_human_session(
        5,
        4,
        seed=3,
        opponent_type="random",
        input_fn=lambda p: next(answers),
        console=con,
        phh_path=tmp_path / "s.phhs",
    )
    assert s.hands == 4 and len(s.chips) == 6 and abs(sum(s.chips)) < 1e-9
    assert s.sb_per_hand[0] == s.chips[0] / 10 / 4
    text = con.export_text()
    assert "session: 4 hands" in text and "sb/hand" in text
    recs = read_phh(tmp_path / "s.phhs")
    assert len(recs) == 4
    for rec, st in zip(recs, s.states):
        assert rec.replay().history == st.history


def test_quit_and_cli(tmp_path):
    con = Console(record=True, width=120)
    s = play_human_session(2, 10, seed=1, opponent_type="calling", input_fn=lambda p: "q", console=con)
    assert s.hands < 10 and "session ended" in con.export_text()

    from loki.cli import app

    out = tmp_path / "cli.phhs"
    r = CliRunner().invoke(
        app,
        ["play", "--opponents", "2", "--hands", "3", "--seed", "2", "--player", "loki1", "--out", str(out)],
        input="c\n" * 200,
    )
    assert r.exit_code == 0, r.output
    assert "session: 3 hands" in r.output and out.exists()
    # a hand's header rule is at most RULE_WIDTH wide on a console that is not a terminal (10,000 columns)
    from loki.cli._console import RULE_WIDTH

    heads = [line[line.index("─") :] for line in r.output.splitlines() if "— button:" in line]  # after any prompt
    assert len(heads) == 3 and all(len(line) <= RULE_WIDTH for line in heads), max(map(len, heads))
    # end of input quits cleanly
    r = CliRunner().invoke(
        app,
        ["play", "--opponents", "1", "--hands", "50", "--player", "calling", "--out", str(tmp_path / "e.phhs")],
        input="c\n",
    )
    assert r.exit_code == 0 and "session ended" in r.output


def test_bad_phh_path_is_refused_before_the_session(tmp_path, monkeypatch):
    import pytest

    from loki.cli import app

    asked = []
    with pytest.raises(ValueError, match="does not exist"):
        play_human_session(
            1, 2, input_fn=lambda p: asked.append(p) or "c", console=Console(record=True), phh_path="/proc/nope/s.phhs"
        )
    assert asked == []  # no hand was dealt
    with pytest.raises(ValueError, match="is a directory"):
        play_human_session(1, 2, input_fn=lambda p: "c", console=Console(record=True), phh_path=tmp_path)
    r = CliRunner().invoke(
        app, ["play", "--opponents", "1", "--hands", "2", "--out", "/proc/nope/s.phhs"], input="c\n" * 50
    )
    assert r.exit_code == 2 and "error: --out /proc/nope/s.phhs" in r.output and "Traceback" not in r.output
    assert "your cards" not in r.output
    r = CliRunner().invoke(app, ["play", "--seed", "-1"], input="q\n")
    assert r.exit_code == 2 and "--seed" in r.output


def test_default_session_file_never_overwritten(tmp_path, monkeypatch):
    from loki.cli import app

    monkeypatch.chdir(tmp_path)
    (tmp_path / "loki-session.phhs").write_text("earlier session\n")
    args = ["play", "--opponents", "1", "--hands", "1", "--player", "calling"]
    r = CliRunner().invoke(app, args, input="c\n" * 50)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "loki-session.phhs").read_text() == "earlier session\n"
    assert len(read_phh(tmp_path / "loki-session-1.phhs")) == 1
    r = CliRunner().invoke(app, args, input="c\n" * 50)
    assert r.exit_code == 0 and (tmp_path / "loki-session-2.phhs").exists()


def test_hands_kept_if_the_file_fails_at_the_end(tmp_path, monkeypatch):
    import loki.io.phh as phh

    real = phh.write_phh
    calls = []

    def flaky(path, hands):
        calls.append(path)
        if len(calls) == 1:
            raise OSError("disk full")
        return real(path, hands)

    monkeypatch.setattr(phh, "write_phh", flaky)
    monkeypatch.setattr("tempfile.gettempdir", lambda: str(tmp_path))
    con = Console(record=True, width=200)
    play_human_session(1, 1, opponent_type="calling", input_fn=lambda p: "c", console=con, phh_path=tmp_path / "s.phhs")
    assert "cannot write" in con.export_text() and len(read_phh(calls[1])) == 1
