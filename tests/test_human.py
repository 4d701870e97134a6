"""A person at the terminal, driven by scripted input (issue 7)."""

from __future__ import annotations

import itertools

from rich.console import Console
from typer.testing import CliRunner

from loki.engine import CALL, FOLD, RAISE, GameConfig
from loki.io.phh import read_phh
from loki.players.human import HumanPlayer, play_human_session
from loki.table import play_hand


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
    s = play_human_session(5, 4, seed=3, opponent_type="random", input_fn=lambda p: next(answers),
                           console=con, phh_path=tmp_path / "s.phhs")
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
    r = CliRunner().invoke(app, ["play", "--opponents", "2", "--hands", "3", "--seed", "2", "--opponent-type", "loki1",
                                 "--phh", str(out)], input="c\n" * 200)
    assert r.exit_code == 0, r.output
    assert "session: 3 hands" in r.output and out.exists()
    # end of input quits cleanly
    r = CliRunner().invoke(app, ["play", "--opponents", "1", "--hands", "50", "--opponent-type", "calling",
                                 "--phh", str(tmp_path / "e.phhs")], input="c\n")
    assert r.exit_code == 0 and "session ended" in r.output
