"""Tests of the table (play_hand, play_session), the reference players and the ``loki demo`` command."""

from __future__ import annotations

import pytest

from loki.engine import CALL, FOLD, RAISE, ActionTaken, GameConfig, HandEnded, HandStarted, IllegalActionError
from loki.players import CallingStation, Player, RandomPlayer
from loki.players.table import PlayerActionError, play_hand, play_session


class Recorder(Player):
    """Calls, records everything it is told, and checks what its view hides."""

    def __init__(self, name="rec"):
        self.name = name
        self.log = []

    def begin_hand(self, seat, config, hole_cards, button):
        self.seat, self.hole = seat, hole_cards
        self.log.append(("begin", seat, hole_cards, button))

    def observe(self, event):
        self.log.append(("event", event))

    def act(self, view, legal_actions):
        assert view.seat == self.seat and view.hole_cards == self.hole
        assert view.current_player == self.seat and view.legal_actions() == tuple(legal_actions)
        for other in range(view.n_players):
            if other != self.seat:
                assert view.cards_of(other) is None
        self.log.append(("act", tuple(legal_actions)))
        return CALL

    def end_hand(self, view):
        self.log.append(("end", view.payoffs))


def test_play_hand_feeds_events_in_order():
    cfg = GameConfig(n_players=3)
    players = [Recorder("a"), Recorder("b"), Recorder("c")]
    st = play_hand(cfg, players, button=1, rng=5)
    assert st.is_terminal and st.history == "ccc/ccc/ccc/ccc"
    for seat, p in enumerate(players):
        assert p.log[0] == ("begin", seat, st.hole_cards(seat), 1)
        assert [x[1] for x in p.log if x[0] == "event"] == st.events
        assert p.log[-1] == ("end", st.payoffs)
        assert sum(1 for x in p.log if x[0] == "act") == 4
    # a player is asked to act right after the events that led to its turn
    log = players[2].log  # seat 2 is the small blind; seat 1 (the button) acts first pre-flop
    i = next(k for k, x in enumerate(log) if x[0] == "act")
    assert isinstance(log[i - 1][1], ActionTaken) and log[i - 1][1].seat == 1
    assert isinstance(log[1][1], HandStarted) and isinstance(log[-2][1], HandEnded)


class Cheater(Player):
    name = "cheater"

    def act(self, view, legal_actions):
        return FOLD  # illegal when checking is free


class Garbage(Player):
    name = "garbage"

    def act(self, view, legal_actions):
        return "launch"


def test_illegal_bot_action_names_the_player():
    cfg = GameConfig(n_players=2)
    # heads-up, button 0: seat 0 (SB) acts first and calls, seat 1 (BB) may check
    with pytest.raises(PlayerActionError, match="'cheater'.*seat 1.*FOLD") as ei:
        play_hand(cfg, [CallingStation(), Cheater()], button=0, rng=1)
    assert isinstance(ei.value, IllegalActionError) and ei.value.seat == 1
    with pytest.raises(PlayerActionError, match="garbage"):
        play_hand(cfg, [Garbage(), CallingStation()], button=0, rng=1)


def test_wrong_number_of_players():
    with pytest.raises(ValueError, match="3-player"):
        play_hand(GameConfig(n_players=3), [CallingStation()] * 2, 0, rng=1)


def test_base_player_act_not_implemented():
    with pytest.raises(NotImplementedError):
        Player().act(None, (CALL,))


def test_random_player_is_seeded_and_legal():
    cfg = GameConfig(n_players=4, stacks=60)
    a = play_session(cfg, [RandomPlayer(i) for i in range(4)], n_hands=200, seed=3)
    b = play_session(cfg, [RandomPlayer(i) for i in range(4)], n_hands=200, seed=3)
    assert a == b and sum(a) == 0
    c = play_session(cfg, [RandomPlayer(i + 10) for i in range(4)], n_hands=200, seed=3)
    assert c != a


def test_calling_stations_only_check_or_call():
    cfg = GameConfig(n_players=5)
    st = play_hand(cfg, [CallingStation() for _ in range(5)], button=0, rng=9)
    assert set(st.history) <= {"c", "/"} and st.went_to_showdown


def test_play_session_rotates_button():
    seen = []

    class Spy(CallingStation):
        def begin_hand(self, seat, config, hole_cards, button):
            if seat == 0:
                seen.append(button)

    play_session(GameConfig(n_players=3), [Spy(), Spy(), Spy()], n_hands=7, seed=0)
    assert seen == [0, 1, 2, 0, 1, 2, 0]


def test_random_vs_raise_everything():
    class Maniac(Player):
        name = "maniac"

        def act(self, view, legal_actions):
            return RAISE if RAISE in legal_actions else CALL

    totals = play_session(GameConfig(n_players=2), [Maniac(), RandomPlayer(1)], n_hands=100, seed=1)
    assert sum(totals) == 0


def test_demo_command():
    from typer.testing import CliRunner

    from loki.cli import app

    res = CliRunner().invoke(app, ["demo", "--hands", "4", "--players", "3", "--seed", "2"])
    assert res.exit_code == 0, res.output
    assert "sb/hand" in res.output and "hand 4" in res.output.lower()
    bad = CliRunner().invoke(app, ["demo", "--players", "11"])
    assert bad.exit_code != 0
