"""ACPC game definitions, logs, the protocol client and the loopback dealer."""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import numpy as np
import pytest

from loki.engine import Action, new_hand
from loki.errors import ConfigError
from loki.io.acpc_client import AcpcClient, ProtocolError, parse_matchstate
from loki.io.acpc_dealer import AcpcDealer
from loki.io.acpc_log import format_state_line, read_acpc_log, read_actions_trace
from loki.io.gamedef import GAMEDEF_2P, GAMEDEF_3P, bundled_gamedef, load_gamedef, parse_gamedef
from loki.players.base import Player
from loki.players.registry import make_player

ACPC = Path(__file__).resolve().parents[1] / ".." / "shared" / "acpc"
DATA = Path(__file__).resolve().parents[1] / "src" / "loki" / "data"
needs_acpc = pytest.mark.skipif(not ACPC.exists(), reason="shared ACPC material not found")


@pytest.fixture(scope="module", autouse=True)
def _warm():
    """Compile the kernels of the players used here first, as ``loki acpc`` does: with a cold numba cache
    a first decision (or showdown) would otherwise miss the dealer's per-action time limit."""
    from loki.players.warmup import warm_up

    warm_up("loki1")


# ------------------------------------------------------------------ game definitions


@needs_acpc
def test_gamedef_files():
    g2 = load_gamedef(ACPC / "holdem.limit.2p.reverse_blinds.game")
    g3 = load_gamedef(ACPC / "holdem.limit.3p.game")
    g10 = load_gamedef(DATA / "holdem.limit.10p.game")
    assert (g2.n_players, g2.button, g2.blinds, g2.first_player) == (2, 1, (10, 5), (1, 0, 0, 0))
    assert (g3.n_players, g3.button, g3.first_player) == (3, 2, (2, 0, 0, 0))
    assert (g10.n_players, g10.button) == (10, 9)
    for g in (g2, g3, g10):
        c = g.config
        assert (c.small_bet, c.big_bet, c.small_blind, c.big_blind, c.max_bets, c.odd_chip) == (
            10,
            20,
            5,
            10,
            4,
            "split",
        )
        assert parse_gamedef(g.text()).config == c
        assert bundled_gamedef(g.n_players).config == c


@pytest.mark.parametrize(
    "old,new,field",
    [
        ("limit", "nolimit", "bettingType"),
        ("numSuits = 4", "numSuits = 2", "numSuits"),
        ("numRanks = 13", "numRanks = 8", "numRanks"),
        ("numBoardCards = 0 3 1 1", "numBoardCards = 0 3 1", "numBoardCards"),
        ("blind = 10 5", "blind = 10 0", "blind"),
        ("blind = 10 5", "blind = 10 5 0", "blind"),
        ("firstPlayer = 2 1 1 1", "firstPlayer = 1 1 1 1", "firstPlayer"),
        ("maxRaises = 3 4 4 4", "maxRaises = 4 4 4 4", "maxRaises"),
        ("raiseSize = 10 10 20 20", "raiseSize = 10 20 20 20", "raiseSize"),
        ("numRounds = 4", "numRounds = 3", "numRounds"),
        ("numHoleCards = 2", "numHoleCards = 4", "numHoleCards"),
        ("END GAMEDEF", "stack = 200 200\nEND GAMEDEF", "stack"),
        ("numPlayers = 2", "numPlayers = 11", "numPlayers"),
    ],
)
def test_gamedef_rejects_unsupported(old, new, field):
    with pytest.raises(ValueError, match=rf"my\.game: game definition field '{field}'"):
        parse_gamedef(GAMEDEF_2P.replace(old, new, 1), "my.game")


def test_gamedef_3p_blinds_and_missing_file(tmp_path):
    with pytest.raises(ValueError, match="blind"):
        parse_gamedef(GAMEDEF_3P.replace("blind = 5 10 0", "blind = 5 0 10"), "x.game")
    with pytest.raises(ValueError, match="nope.game"):
        load_gamedef(tmp_path / "nope.game")
    # equal blinds (the ACPC dealer plays them): the big one is the one left of the other, whichever position is lower
    for blinds, first, button in (("10 10 0", "3 1 1 1", 2), ("0 10 10", "1 2 2 2", 0)):
        text = GAMEDEF_3P.replace("blind = 5 10 0", f"blind = {blinds}").replace(
            "firstPlayer = 3 1 1 1", f"firstPlayer = {first}"
        )
        g = parse_gamedef(text, "equal.game")
        assert (g.config.small_blind, g.config.big_blind, g.button) == (10, 10, button)
        s = new_hand(g.config, g.button, rng=0)
        assert s.current_player == int(first[0]) - 1 and s.to_call(s.current_player) == 10


# ------------------------------------------------------------------ logs and messages


@needs_acpc
@pytest.mark.parametrize("name", ["2p.limit.h1000.r0.log", "3p.limit.h1000.r0.log"])
def test_acpc_log_round_trip_and_payoffs(name):
    path = ACPC / name
    lg = read_acpc_log(path)
    lines = [l for l in path.read_text().splitlines() if l.startswith("STATE:")]
    assert len(lg.hands) == len(lines) == 1000
    totals = {}
    for rec, line in zip(lg.hands, lines):
        assert format_state_line(rec) == line
        s = rec.replay()
        assert s.history == rec.betting and list(s.payoffs) == list(rec.payoffs)
        for nm, x in zip(rec.names, s.payoffs):
            totals[nm] = totals.get(nm, 0) + x
    assert totals == lg.score


def test_parse_matchstate_errors():
    m = parse_matchstate("MATCHSTATE:1:7:rrc/:|9hQd/8dAs8s\r\n", 2)
    assert (m.position, m.hand, m.betting, m.hole_cards, m.board) == (1, 7, "rrc/", ("", "9hQd"), "8dAs8s")
    for bad in (
        "MATCHSTATE:0:0::",
        "HELLO",
        "MATCHSTATE:x:0::5d5c|",
        "MATCHSTATE:0:0:r100:5d5c|",
        "MATCHSTATE:0:0:cc/:5d5c|",
        "MATCHSTATE:0:0::5d5c|5d5c|",
        "MATCHSTATE:0:0::|5d5c",
        "MATCHSTATE:0:0::5d5x|",
    ):
        with pytest.raises(ProtocolError):
            parse_matchstate(bad, 2)


class ScriptPlayer(Player):
    """Repeats the logged actions of the hands of a log (in match order)."""

    def __init__(self, records):
        self.records, self.h, self.name = records, -1, "script"

    def begin_hand(self, seat, config, hole_cards, button):
        self.h += 1

    def act(self, view, legal):
        betting = self.records[self.h].betting.replace("/", "")
        return Action.parse(betting[len(view.history.replace("/", ""))])


def run_match(dealer: AcpcDealer, players, game, **kw):
    ports = dealer.listen()
    box = {}
    th = threading.Thread(target=lambda: box.setdefault("result", dealer.run()))
    th.start()
    clients = [AcpcClient(game, pl, "127.0.0.1", port, timeout=60, **kw) for pl, port in zip(players, ports)]
    threads = [threading.Thread(target=c.run) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    th.join(120)
    return box["result"], clients


@needs_acpc
def test_dealer_reproduces_acpc_trace_and_log(tmp_path):
    game = load_gamedef(ACPC / "holdem.limit.2p.reverse_blinds.game")
    lg = read_acpc_log(ACPC / "2p.limit.h1000.r0.log", game)
    deals = lambda h: (lg.hands[h].hole_cards, lg.hands[h].board)  # noqa: E731
    out = tmp_path / "match.log"
    dealer = AcpcDealer(game, 1000, deals=deals, transcript=True, log_path=out)
    result, clients = run_match(dealer, [ScriptPlayer(lg.hands), ScriptPlayer(lg.hands)], game)
    assert result.errors == [] and all(c.errors == [] for c in clients)
    assert result.transcript == read_actions_trace(ACPC / "2p.limit.h1000.r0.actions.log")
    logged = [
        l for l in (ACPC / "2p.limit.h1000.r0.log").read_text().splitlines() if l.startswith(("STATE:", "SCORE:"))
    ]
    ours = [l for l in out.read_text().splitlines() if l.startswith(("STATE:", "SCORE:"))]
    assert ours == logged
    assert [c.hands_played for c in clients] == [1000, 1000]
    assert [c.total for c in clients] == [455, -455]


@needs_acpc
def test_dealer_reproduces_3p_log(tmp_path):
    game = load_gamedef(ACPC / "holdem.limit.3p.game")
    lg = read_acpc_log(ACPC / "3p.limit.h1000.r0.log", game)
    dealer = AcpcDealer(game, 1000, deals=lambda h: (lg.hands[h].hole_cards, lg.hands[h].board))
    result, clients = run_match(dealer, [ScriptPlayer(lg.hands) for _ in range(3)], game)
    assert result.errors == []
    assert result.states == [
        l for l in (ACPC / "3p.limit.h1000.r0.log").read_text().splitlines() if l.startswith("STATE:")
    ]
    assert result.score_line == "SCORE:-4330|625|3705:p1|p2|p3"


@pytest.mark.parametrize("n", [2, 3])
def test_full_match_over_loopback(n, tmp_path):
    game = bundled_gamedef(n)
    dealer = AcpcDealer(game, 1000, seed=11, names=[f"bot{i}" for i in range(n)], log_path=tmp_path / "m.log")
    players = [make_player("random" if i % 2 == 0 else "calling", seed=i) for i in range(n)]
    result, clients = run_match(dealer, players, game)
    assert result.errors == [] and all(c.errors == [] for c in clients)
    assert all(c.hands_played == 1000 for c in clients)
    assert [c.total for c in clients] == pytest.approx(result.score)
    assert abs(sum(result.score)) < 1e-9
    text = (tmp_path / "m.log").read_text().splitlines()
    assert sum(l.startswith("STATE:") for l in text) == 1000 and text[-1] == result.score_line
    # the log reads back and replays to the same payoffs
    lg = read_acpc_log(tmp_path / "m.log", game)
    assert all(list(r.replay().payoffs) == list(r.payoffs) for r in lg.hands)


def test_client_survives_bad_messages_and_lost_connection():
    game = bundled_gamedef(2)
    client = AcpcClient(game, make_player("calling"), "127.0.0.1", 0)
    assert client.handle_line("# a comment") is None and client.handle_line(";gui") is None
    # our turn in a message with garbage cards: answered with a call
    assert client.handle_line("MATCHSTATE:1:0::|9hQx") == "MATCHSTATE:1:0::|9hQx:c"
    assert client.handle_line("GARBAGE") is None
    assert len(client.errors) == 2 and "GARBAGE" in client.errors[1]
    # an illegal betting string (fold when checking is free) is reported, not fatal
    assert client.handle_line("MATCHSTATE:1:1:cf:|9hQd") is None
    assert client.handle_line("MATCHSTATE:1:2::|9hQd") == "MATCHSTATE:1:2::|9hQd:c"  # calling station
    # the dealer vanishes in the middle of a hand
    a, b = socket.socketpair()

    def dealer_side():
        assert b.recv(100) == b"VERSION:2.0.0\r\n"
        b.sendall(b"MATCHSTATE:0:0::5d5c|\r\n")
        b.close()

    threading.Thread(target=dealer_side).start()
    with pytest.raises(ConnectionError, match="middle of hand"):
        AcpcClient(game, make_player("calling"), "127.0.0.1", 0).run(a)
    with pytest.raises(ConnectionError, match="cannot connect"):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        AcpcClient(game, make_player("calling"), "127.0.0.1", port, timeout=5).run()


def test_dealer_takes_invalid_actions_as_calls_and_skips_malformed_lines():
    """The ACPC dealer's rules: a malformed line is skipped (the seat keeps its deadline), an answer to the
    current state with a bad or illegal action is taken as a call, with a warning."""
    game = bundled_gamedef(2)
    dealer = AcpcDealer(game, 3, seed=1, t_response=5)
    ports = dealer.listen()
    box = {}
    th = threading.Thread(target=lambda: box.setdefault("r", dealer.run()))
    th.start()
    good = AcpcClient(game, make_player("calling"), "127.0.0.1", ports[0], timeout=30)
    tg = threading.Thread(target=good.run)
    tg.start()
    raw = socket.create_connection(("127.0.0.1", ports[1]))
    raw.sendall(b"VERSION:2.0.0\r\n")
    f = raw.makefile("rb")
    answered = 0
    for line in f:
        text = line.decode().strip()
        ms = parse_matchstate(text, 2)
        s = AcpcClient(game, make_player("calling")).tracker.rebuild(ms)
        if not s.is_terminal and s.current_player == ms.position:
            # garbage first (skipped), then the state with a bad action (a call), or a fold when free
            bad = "f" if s.to_call() == 0 else "x"
            raw.sendall(b"MATCHSTATE:nonsense:z\r\n" + f"{text}:{bad}\r\n".encode())
            answered += 1
    raw.close()
    tg.join(30)
    th.join(30)
    r = box["r"]
    assert r.complete and r.abort is None and len(r.states) == 3
    assert answered > 0 and r.warning_count == 2 * answered
    assert "malformed line 'MATCHSTATE:nonsense:z'" in r.warnings[0] and "taken as a call" in r.warnings[1]
    assert "seat 2 (p2) in hand 0" in r.warnings[0]


def test_ten_seats_with_loki1():
    game = load_gamedef(DATA / "holdem.limit.10p.game")
    dealer = AcpcDealer(game, 30, seed=5)
    players = [make_player("loki1" if i == 0 else ("random" if i % 2 else "calling"), seed=i) for i in range(10)]
    result, clients = run_match(dealer, players, game)
    assert result.errors == [] and all(c.errors == [] for c in clients)
    assert all(c.hands_played == 30 for c in clients) and len(result.states) == 30
    assert [c.total for c in clients] == pytest.approx(result.score)


# ------------------------------------------------------------------ bad options and outputs


def _cli(args):
    from typer.testing import CliRunner

    from loki.cli import app

    return CliRunner().invoke(app, args)


def test_dealer_bad_log_refused_before_the_match(tmp_path):
    with pytest.raises(ValueError, match=r"--out /proc/nope/x.log: folder /proc/nope does not exist"):
        AcpcDealer(bundled_gamedef(2), 10, log_path="/proc/nope/x.log")
    with pytest.raises(ValueError, match="is a directory"):
        AcpcDealer(bundled_gamedef(2), 10, log_path=tmp_path)
    r = _cli(["dealer", "--out", "/proc/nope/x.log", "--t-connect", "0.5"])
    assert r.exit_code == 2 and r.output.startswith("error: --out /proc/nope/x.log") and "Traceback" not in r.output
    # the folder vanishes between the check and the match: still no traceback, no seat accepted
    sub = tmp_path / "sub"
    sub.mkdir()
    d = AcpcDealer(bundled_gamedef(2), 10, log_path=sub / "x.log", t_connect=0.5)
    sub.rmdir()
    with pytest.raises(ValueError, match="x.log: cannot write it: No such file"):
        d.run()


def test_bad_ports_timeouts_and_seeds_are_one_line_errors():
    r = _cli(["dealer", "--port", "80000", "--port", "0"])
    assert r.exit_code == 2 and "error: --port 80000: out of range" in r.output
    with pytest.raises(ValueError, match="out of range"):
        AcpcDealer(bundled_gamedef(2), 10, ports=[80000, 0])
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    try:
        port = busy.getsockname()[1]
        r = _cli(["dealer", "--port", str(port), "--port", "0"])
        assert r.exit_code == 2 and r.output.startswith(f"error: --port: cannot listen on 127.0.0.1:{port}")
        assert "in use" in r.output and "Traceback" not in r.output
    finally:
        busy.close()
    r = _cli(["acpc", "127.0.0.1", "70000"])
    assert r.exit_code == 2 and "out of range" in r.output and "refused" not in r.output
    with pytest.raises(ValueError, match="out of range"):
        AcpcClient(bundled_gamedef(2), make_player("calling"), "127.0.0.1", 70000)
    with pytest.raises(ValueError, match="--timeout -1"):
        AcpcClient(bundled_gamedef(2), make_player("calling"), "127.0.0.1", 1, timeout=-1)
    r = _cli(["acpc", "127.0.0.1", "7000", "--timeout", "-1"])
    assert r.exit_code == 2 and "--timeout" in r.output
    for cmd in (["dealer"], ["acpc", "127.0.0.1", "7000"]):
        r = _cli(cmd + ["--seed", "-1"])
        assert r.exit_code == 2 and "--seed" in r.output
    r = _cli(["acpc", "127.0.0.1", "7000", "--players", "11"])
    assert r.exit_code == 2 and "--players" in r.output
    r = _cli(["acpc", "127.0.0.1", "7000", "--players", "3", "--game", str(DATA / "holdem.limit.10p.game")])
    assert r.exit_code == 2 and "error: --players 3 but --game" in r.output


def test_client_clips_enormous_garbage():
    client = AcpcClient(bundled_gamedef(2), make_player("calling"), "127.0.0.1", 0)
    assert client.handle_line("Z" * 1_000_000) is None
    (err,) = client.errors
    assert len(err) < 600 and "1000000 chars" in err


@pytest.mark.parametrize("n", [3, 2])
def test_players_option_on_dealer_and_acpc(n, tmp_path):
    """``loki dealer --players N`` and ``loki acpc --players N`` on the bundled game, over loopback; heads-up the
    first seat runs ``loki acpc`` without ``--player``: its default bot, the adaptive Loki."""
    import os
    import subprocess
    import sys

    env = dict(os.environ)
    loki = [sys.executable, "-c", "from loki.cli import app; app()"]
    log = tmp_path / "m.log"
    dealer = subprocess.Popen(
        loki + ["dealer", "--players", str(n), "--hands", "5", "--out", str(log), "--t-connect", "900"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        ports = dealer.stdout.readline().split()
        assert len(ports) == n
        who = [[] if n == 2 and k == 0 else ["--player", "calling"] for k in range(n)]
        clients = [
            subprocess.Popen(
                loki + ["acpc", "127.0.0.1", p, "--players", str(n), *w, "--timeout", "900"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
            for p, w in zip(ports, who, strict=True)
        ]
        # a cold numba cache (a fresh clone) compiles the default bot's kernels before it connects: "up to a
        # minute" on an idle machine, more on a busy one; the waits leave room for it
        outs = [c.communicate(timeout=1200) for c in clients]
        assert all(c.returncode == 0 for c in clients), outs
        assert all("5 hands" in o for o, _ in outs)
        if n == 2:
            assert outs[0][0].startswith("Loki-2 BRS adaptive") and "warming up loki2:BRS:adaptive" in outs[0][1], outs[
                0
            ]
        assert dealer.wait(timeout=60) == 0
    finally:
        dealer.kill()
    lg = read_acpc_log(log)
    assert len(lg.hands) == 5 and lg.game.n_players == n and lg.warnings == []


def test_a_game_definition_is_read_as_the_acpc_dealer_reads_it():
    """The ACPC dealer's reader (game.c, readGame): no GAMEDEF header needed (any line opening with the word is
    skipped), limit betting unless 'nolimit', fields with or without '=', firstPlayer 1 in every round by default;
    numSuits, numRanks, numHoleCards and numBoardCards required."""
    want = parse_gamedef(GAMEDEF_2P).config
    bare = GAMEDEF_2P.replace("END GAMEDEF\n", "").replace("GAMEDEF\n", "").replace("limit\n", "")
    assert parse_gamedef(bare).config == want
    assert parse_gamedef(GAMEDEF_2P.replace("GAMEDEF\n", "GAMEDEF v1\n", 1)).config == want
    assert (
        parse_gamedef(GAMEDEF_2P.replace("numPlayers = 2", "numPlayers 2").replace("blind =", "blind\t")).config == want
    )
    for field in ("numSuits = 4", "numRanks = 13", "numHoleCards = 2", "numBoardCards = 0 3 1 1", "numRounds = 4"):
        name = field.split()[0]
        with pytest.raises(ConfigError, match=rf"'{name}': missing \(the ACPC dealer needs it too\)"):
            parse_gamedef(GAMEDEF_2P.replace(field + "\n", ""), "g.game")
    with pytest.raises(ConfigError, match="'maxRaises': missing: the ACPC dealer would allow raises until"):
        parse_gamedef(GAMEDEF_2P.replace("maxRaises = 3 4 4 4\n", ""), "g.game")
    # firstPlayer defaults to 1 1 1 1, which no engine seating has: refused, naming the field
    with pytest.raises(ConfigError, match=r"'firstPlayer': \[1, 1, 1, 1\]: with these blinds the engine needs 2 1 1 1"):
        parse_gamedef(GAMEDEF_2P.replace("firstPlayer = 2 1 1 1\n", ""), "g.game")


@pytest.mark.parametrize("n", [2, 3, 6, 10])
def test_max_raises_stop_where_the_acpc_dealer_stops_raises(n):
    """maxRaises is refused above max_raises_cap(n).  Brute force on the engine: on the flop, the line with the most
    actions before each raise (every other player checks or calls, the last one raises) makes the m-th raise after
    m·(n − 1) actions; the ACPC dealer allows it only while those actions plus n are at most 64 (MAX_NUM_ACTIONS)."""
    from loki.engine import Action, GameConfig, new_hand
    from loki.io.gamedef import ACPC_MAX_ROUND_ACTIONS, max_raises_cap

    cap = max_raises_cap(n)
    text = bundled_gamedef(n).text()
    ok = text.replace("maxRaises = 3 4 4 4", f"maxRaises = {cap - 1} {cap} {cap} {cap}")
    assert parse_gamedef(ok).config.max_bets == cap
    with pytest.raises(ConfigError, match=f"at most {cap} bets per round at {n} players"):
        parse_gamedef(text.replace("maxRaises = 3 4 4 4", f"maxRaises = {cap} {cap + 1} {cap + 1} {cap + 1}"))

    def actions_before_raises(max_bets):
        st = new_hand(GameConfig(n_players=n, max_bets=max_bets), 0, rng=np.random.default_rng(0))
        while st.round == 0:
            st.apply(Action.CALL)
        before, count, since = [], 0, 0
        while st.round == 1 and not st.is_terminal:
            if since == n - 1 and Action.RAISE in st.legal_actions():  # the last of the others raises
                before.append(count)
                st.apply(Action.RAISE)
                since = 1 if before else 0
            else:
                st.apply(Action.CALL)
                since += 1
            count += 1
        return before

    before = actions_before_raises(cap)
    assert len(before) == cap and before == [m * (n - 1) for m in range(1, cap + 1)]
    assert max(before) + n <= ACPC_MAX_ROUND_ACTIONS  # the dealer allows every raise the engine allows
    one_more = actions_before_raises(cap + 1)
    assert max(one_more) + n > ACPC_MAX_ROUND_ACTIONS  # one more cap and the dealer would refuse the last raise
